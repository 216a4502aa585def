/* api/request.c: parse and validate POST /v1/executions, and the
 * JSON escapes cJSON would cut at.  Pure functions: the fuzzers call
 * them directly (the request itself and the stdin frame: exec/request.c).
 *
 * Body: {"language": str, "code": str, "stdin"?: str, "stdin_base64"?: str,
 *        "args"?: [str], "files"?: [{"name": str, "content": str,
 *        "encoding"?: "utf8" | "base64"}], "filename"?: str,
 *        "timeout_ms"?: int, "memory_mb"?: int, "combined_output"?: bool}
 * Unknown keys are refused so that a misspelt limit never passes silently. */
#define _GNU_SOURCE
#include "api/request.h"

#include <cjson/cJSON.h>
#include <fnmatch.h>
#include <math.h>
#include <string.h>

static const char *const known_keys[]
    = {"language", "code",           "stdin",     "stdin_base64",       "args",
       "files",    "timeout_ms",     "memory_mb", "compile_timeout_ms", "compile_memory_mb",
       "filename", "combined_output"};

static int
optional_uint (cJSON *root, const char *key, uint32_t lo, uint32_t max, uint32_t *inout,
               wb_err_t *err)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (root, key);
  double v;

  if (item == NULL || cJSON_IsNull (item))
    return 0;
  if (!cJSON_IsNumber (item))
    return wb_error (err, WB_E_INVALID, "%s must be a number", key);
  v = item->valuedouble;
  if (!isfinite (v) || v != floor (v) || v < lo)
    return wb_error (err, WB_E_INVALID, "%s must be a whole number of at least %u", key, lo);
  if (v > max)
    return wb_error (err, WB_E_INVALID, "%s %.0f is above this language's maximum of %u", key, v,
                     max);
  *inout = (uint32_t) v;
  return 0;
}

/* True when a JSON string in body holds the escape \u0000.  cJSON would
 * accept it and silently cut the string there, so we look first.  A
 * tokenizer's worth of state is enough: inside a string a backslash takes
 * the next character with it, so "\\u0000" (the text \u0000) is no NUL. */
bool
sched_json_has_nul_escape (const char *s, size_t len)
{
  bool in_string = false;

  for (size_t i = 0; i < len; i++)
    {
      if (!in_string)
        {
          if (s[i] == '"')
            in_string = true;
          continue;
        }
      if (s[i] == '"')
        in_string = false;
      else if (s[i] == '\\' && i + 1 < len)
        {
          if (s[i + 1] == 'u' && len - i >= 6 && memcmp (s + i + 2, "0000", 4) == 0)
            return true;
          i++;
        }
    }
  return false;
}

/* The most the files may hold together under these limits. */
static size_t
files_cap (const prof_limits_t *l)
{
  size_t cap = SCHED_MAX_FILES_BYTES, tmpfs = (size_t) l->tmpfs_mb * 1024 * 1024 / 2,
         memory = (size_t) l->memory_mb * 1024 * 1024 / 4;

  if (tmpfs < cap)
    cap = tmpfs;
  return memory < cap ? memory : cap;
}

/* "files": each {"name", "content", "encoding"?}, into req->files. */
static int
parse_files (cJSON *files, sched_request_t *req, wb_err_t *err)
{
  cJSON *file;
  int n = cJSON_GetArraySize (files), i = 0;

  if (!cJSON_IsArray (files) || n > SCHED_MAX_FILES)
    return wb_error (err, WB_E_INVALID, "\"files\" must be an array of at most %d files",
                     SCHED_MAX_FILES);
  if (n == 0)
    return 0;
  req->files = calloc ((size_t) n, sizeof *req->files);
  if (req->files == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  cJSON_ArrayForEach (file, files)
  {
    cJSON *item;
    const char *name, *content, *encoding = "utf8";
    sched_file_t *f = &req->files[req->n_files];
    wb_buf_t raw = WB_BUF_INIT;

    if (!cJSON_IsObject (file))
      return wb_error (err, WB_E_INVALID, "files[%d] must be an object", i);
    cJSON_ArrayForEach (item, file)
    {
      if (item->string == NULL
          || (strcmp (item->string, "name") && strcmp (item->string, "content")
              && strcmp (item->string, "encoding")))
        return wb_error (err, WB_E_INVALID, "files[%d]: unknown field \"%.64s\"", i,
                         item->string ? item->string : "");
    }
    name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (file, "name"));
    content = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (file, "content"));
    item = cJSON_GetObjectItemCaseSensitive (file, "encoding");
    if (item && !cJSON_IsNull (item))
      encoding = cJSON_GetStringValue (item);
    if (name == NULL || content == NULL)
      return wb_error (err, WB_E_INVALID, "files[%d] needs \"name\" and \"content\" as strings", i);
    if (!sched_file_name_valid (name, strlen (name)))
      return wb_error (err, WB_E_INVALID,
                       "files[%d].name must be 1 to %d bytes of UTF-8 without '/' or control "
                       "characters, and not \".\" or \"..\" (a name in the working directory)",
                       i, SCHED_MAX_FILE_NAME);
    if (strncmp (name, ".warmbox-", 9) == 0)
      return wb_error (err, WB_E_INVALID,
                       "files[%d].name: names starting with .warmbox- are the sandbox's own", i);
    for (size_t k = 0; k < req->n_files; k++)
      if (strcmp (req->files[k].name, name) == 0)
        return wb_error (err, WB_E_INVALID, "files[%d].name repeats files[%zu].name", i, k);
    /* The code itself is that file: its own name, or the language's
     * default source file (for Java the init sees to it: the code's class
     * names it). */
    if (req->filename && strcmp (req->filename, name) == 0)
      return wb_error (err, WB_E_INVALID, "files[%d].name is %s, the program's own filename", i,
                       name);
    if (req->filename == NULL && req->profile->source && !req->profile->java_source
        && strcmp (req->profile->source, name) == 0)
      return wb_error (err, WB_E_INVALID,
                       "files[%d].name is %s, the name the code is written to for %s", i,
                       req->profile->source, req->profile->language);
    if (encoding == NULL || (strcmp (encoding, "utf8") && strcmp (encoding, "base64")))
      return wb_error (err, WB_E_INVALID, "files[%d].encoding must be \"utf8\" or \"base64\"", i);
    if (strcmp (encoding, "base64") == 0)
      {
        if (wb_base64_decode (&raw, content, strlen (content)) < 0)
          {
            wb_buf_free (&raw);
            return wb_error (err, WB_E_INVALID, "files[%d].content is not valid base64", i);
          }
      }
    else if (wb_buf_append_str (&raw, content) < 0)
      {
        wb_buf_free (&raw);
        return wb_error (err, WB_E_NOMEM, "out of memory");
      }
    f->len = raw.len;
    f->data = raw.data ? wb_buf_steal (&raw) : calloc (1, 1);
    f->name = strdup (name);
    req->n_files++;
    if (f->data == NULL || f->name == NULL)
      return wb_error (err, WB_E_NOMEM, "out of memory");
    wb_sha256_hex (f->data, f->len, f->sha256);
    req->files_bytes += f->len;
    if (req->files_bytes > files_cap (&req->limits))
      return wb_error (err, WB_E_TOO_LARGE,
                       "files hold more than %zu bytes together, the most here (%d MB, half the "
                       "working directory's %u MB, a quarter of the %u MB of memory: the "
                       "files live in the sandbox's memory)",
                       files_cap (&req->limits), SCHED_MAX_FILES_BYTES / (1024 * 1024),
                       req->limits.tmpfs_mb, req->limits.memory_mb);
    i++;
  }
  return 0;
}

int
sched_request_parse (const char *body, size_t len, const prof_set_t *profiles, sched_request_t *out,
                     wb_err_t *err)
{
  return sched_request_parse_with (body, len, profiles, NULL, out, err);
}

int
sched_request_parse_with (const char *body, size_t len, const prof_set_t *profiles,
                          const sched_request_defaults_t *d, sched_request_t *out, wb_err_t *err)
{
  cJSON *root, *item, *code, *in, *in64, *args;
  const char *language;
  const prof_t *p;
  sched_request_t req;
  int ret = -1;

  memset (&req, 0, sizeof req);
  memset (out, 0, sizeof *out);
  if (body == NULL || len == 0)
    return wb_error (err, WB_E_INVALID, "the request body is empty; send a JSON object");
  if (sched_json_has_nul_escape (body, len))
    return wb_error (err, WB_E_INVALID,
                     "strings in this API cannot hold NUL (\\u0000); send binary data as "
                     "base64 (stdin_base64, or a file's \"encoding\": \"base64\")");
  root = cJSON_ParseWithLength (body, len);
  if (root == NULL)
    {
      const char *at = cJSON_GetErrorPtr ();
      size_t off = at && at >= body && at <= body + len ? (size_t) (at - body) : 0;
      return wb_error (err, WB_E_INVALID, "the body is not valid JSON (near byte %zu)", off);
    }
  if (!cJSON_IsObject (root))
    {
      wb_error (err, WB_E_INVALID, "the body must be a JSON object");
      goto out;
    }
  cJSON_ArrayForEach (item, root)
  {
    bool known = false;
    for (size_t i = 0; i < WB_ARRAY_SIZE (known_keys); i++)
      if (item->string && strcmp (item->string, known_keys[i]) == 0)
        known = true;
    if (!known)
      {
        wb_error (err, WB_E_INVALID, "unknown field \"%.64s\"", item->string ? item->string : "");
        goto out;
      }
  }

  item = cJSON_GetObjectItemCaseSensitive (root, "language");
  language = cJSON_GetStringValue (item);
  if (d && d->language && (item == NULL || cJSON_IsNull (item)))
    language = d->language;
  if (language == NULL || *language == '\0')
    {
      wb_error (err, WB_E_INVALID, "\"language\" is required and must be a string");
      goto out;
    }
  p = prof_find (profiles, language);
  if (p == NULL)
    {
      wb_error (err, WB_E_NOT_FOUND, "unknown language \"%.64s\"", language);
      goto out;
    }
  if (d && d->language && p != prof_find (profiles, d->language))
    {
      wb_error (err, WB_E_INVALID, "this session runs %s, not %.64s", d->language, language);
      goto out;
    }
  req.profile = p;
  req.limits = p->def;
  /* A session's own defaults, within what the profile allows now. */
  if (d && d->timeout_ms)
    req.limits.timeout_ms = d->timeout_ms < p->max.timeout_ms ? d->timeout_ms : p->max.timeout_ms;
  if (d && d->memory_mb)
    req.limits.memory_mb = d->memory_mb < p->max.memory_mb ? d->memory_mb : p->max.memory_mb;

  code = cJSON_GetObjectItemCaseSensitive (root, "code");
  if (!cJSON_IsString (code))
    {
      wb_error (err, WB_E_INVALID, "\"code\" is required and must be a string");
      goto out;
    }
  req.code_len = strlen (code->valuestring);
  if (req.code_len > p->max.code_bytes)
    {
      wb_error (err, WB_E_TOO_LARGE, "code is %zu bytes; the maximum for %s is %llu", req.code_len,
                p->language, (unsigned long long) p->max.code_bytes);
      goto out;
    }
  if (!wb_utf8_valid (code->valuestring, req.code_len))
    {
      wb_error (err, WB_E_INVALID, "code must be valid UTF-8");
      goto out;
    }
  req.code = strdup (code->valuestring);

  in = cJSON_GetObjectItemCaseSensitive (root, "stdin");
  in64 = cJSON_GetObjectItemCaseSensitive (root, "stdin_base64");
  if (in && in64 && !cJSON_IsNull (in) && !cJSON_IsNull (in64))
    {
      wb_error (err, WB_E_INVALID, "send either stdin or stdin_base64, not both");
      goto out;
    }
  if (in && !cJSON_IsNull (in))
    {
      if (!cJSON_IsString (in))
        {
          wb_error (err, WB_E_INVALID, "\"stdin\" must be a string");
          goto out;
        }
      req.stdin_len = strlen (in->valuestring);
      req.stdin_data = strdup (in->valuestring);
    }
  else if (in64 && !cJSON_IsNull (in64))
    {
      wb_buf_t raw = WB_BUF_INIT;
      if (!cJSON_IsString (in64)
          || wb_base64_decode (&raw, in64->valuestring, strlen (in64->valuestring)) < 0)
        {
          wb_buf_free (&raw);
          wb_error (err, WB_E_INVALID, "\"stdin_base64\" must be a base64 string");
          goto out;
        }
      req.stdin_len = raw.len;
      req.stdin_data = wb_buf_steal (&raw);
    }
  if (req.stdin_len > p->max.stdin_bytes)
    {
      wb_error (err, WB_E_TOO_LARGE, "stdin is %zu bytes; the maximum for %s is %llu",
                req.stdin_len, p->language, (unsigned long long) p->max.stdin_bytes);
      goto out;
    }

  args = cJSON_GetObjectItemCaseSensitive (root, "args");
  if (args && !cJSON_IsNull (args))
    {
      size_t total = 0;
      int n = cJSON_GetArraySize (args);
      if (!cJSON_IsArray (args) || n > SCHED_MAX_ARGS)
        {
          wb_error (err, WB_E_INVALID, "\"args\" must be an array of at most %d strings",
                    SCHED_MAX_ARGS);
          goto out;
        }
      req.args = calloc ((size_t) n + 1, sizeof *req.args);
      if (req.args == NULL)
        goto oom;
      cJSON_ArrayForEach (item, args)
      {
        size_t l;
        if (!cJSON_IsString (item))
          {
            wb_error (err, WB_E_INVALID, "\"args\" must hold strings only");
            goto out;
          }
        l = strlen (item->valuestring);
        total += l;
        if (l > SCHED_MAX_ARG_BYTES || total > SCHED_MAX_ARGS_TOTAL)
          {
            wb_error (err, WB_E_TOO_LARGE, "args are limited to %d bytes each, %d in all",
                      SCHED_MAX_ARG_BYTES, SCHED_MAX_ARGS_TOTAL);
            goto out;
          }
        if ((req.args[req.n_args++] = strdup (item->valuestring)) == NULL)
          goto oom;
      }
    }

  if (optional_uint (root, "timeout_ms", 1, p->max.timeout_ms, &req.limits.timeout_ms, err) < 0
      || optional_uint (root, "memory_mb", 6, p->max.memory_mb, &req.limits.memory_mb, err) < 0)
    goto out;
  /* A compile stage's own limits; a language without one has none to set. */
  if (p->compile_argv == NULL
      && (((item = cJSON_GetObjectItemCaseSensitive (root, "compile_timeout_ms")) != NULL
           && !cJSON_IsNull (item))
          || ((item = cJSON_GetObjectItemCaseSensitive (root, "compile_memory_mb")) != NULL
              && !cJSON_IsNull (item))))
    {
      wb_error (err, WB_E_INVALID,
                "%s has no compile stage: compile_timeout_ms and compile_memory_mb "
                "do not apply",
                p->language);
      goto out;
    }
  if (p->compile_argv
      && (optional_uint (root, "compile_timeout_ms", 1, p->max.compile_timeout_ms,
                         &req.limits.compile_timeout_ms, err)
              < 0
          || optional_uint (root, "compile_memory_mb", 6, p->max.compile_memory_mb,
                            &req.limits.compile_memory_mb, err)
                 < 0))
    goto out;

  /* "output" in the result: stdout and stderr as they came (exec.h). */
  item = cJSON_GetObjectItemCaseSensitive (root, "combined_output");
  if (item && !cJSON_IsNull (item) && !cJSON_IsBool (item))
    {
      wb_error (err, WB_E_INVALID, "combined_output must be true or false");
      goto out;
    }
  req.combined_output = cJSON_IsTrue (item);

  /* The program's own file name, before the files: none may take it. */
  item = cJSON_GetObjectItemCaseSensitive (root, "filename");
  if (item && !cJSON_IsNull (item))
    {
      if (!cJSON_IsString (item))
        {
          wb_error (err, WB_E_INVALID, "\"filename\" must be a string");
          goto out;
        }
      if (sched_program_name_check (p, item->valuestring, "filename", err) < 0)
        goto out;
      if ((req.filename = strdup (item->valuestring)) == NULL)
        goto oom;
    }

  /* After memory_mb: the files live in the sandbox's memory (tmpfs). */
  item = cJSON_GetObjectItemCaseSensitive (root, "files");
  if (item && !cJSON_IsNull (item) && parse_files (item, &req, err) < 0)
    goto out;

  if (req.code == NULL || (req.stdin_len && req.stdin_data == NULL))
    goto oom;
  *out = req;
  memset (&req, 0, sizeof req);
  ret = 0;
  goto out;

oom:
  wb_error (err, WB_E_NOMEM, "out of memory");
out:
  sched_request_clear (&req);
  cJSON_Delete (root);
  return ret;
}

int
sched_session_spec_parse (const char *body, size_t len, const prof_set_t *profiles,
                          sched_session_spec_t *out, wb_err_t *err)
{
  static const char *const keys[] = {"language", "timeout_ms", "memory_mb", "idle_ttl_s"};
  cJSON *root, *item;
  const prof_t *p;
  const char *language;
  uint32_t ttl = 0;
  int ret = -1;

  memset (out, 0, sizeof *out);
  if (body == NULL || len == 0)
    return wb_error (err, WB_E_INVALID, "the request body is empty; send a JSON object");
  if (sched_json_has_nul_escape (body, len))
    return wb_error (err, WB_E_INVALID, "strings in this API cannot hold NUL (\\u0000)");
  root = cJSON_ParseWithLength (body, len);
  if (root == NULL)
    return wb_error (err, WB_E_INVALID, "the body is not valid JSON");
  if (!cJSON_IsObject (root))
    {
      wb_error (err, WB_E_INVALID, "the body must be a JSON object");
      goto out;
    }
  cJSON_ArrayForEach (item, root)
  {
    bool known = false;
    for (size_t i = 0; i < WB_ARRAY_SIZE (keys); i++)
      if (item->string && strcmp (item->string, keys[i]) == 0)
        known = true;
    if (!known)
      {
        wb_error (err, WB_E_INVALID, "unknown field \"%.64s\"", item->string ? item->string : "");
        goto out;
      }
  }
  language = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "language"));
  if (language == NULL || *language == '\0')
    {
      wb_error (err, WB_E_INVALID, "\"language\" is required and must be a string");
      goto out;
    }
  if ((p = prof_find (profiles, language)) == NULL)
    {
      wb_error (err, WB_E_NOT_FOUND, "unknown language \"%.64s\"", language);
      goto out;
    }
  out->profile = p;
  if (optional_uint (root, "timeout_ms", 1, p->max.timeout_ms, &out->timeout_ms, err) < 0
      || optional_uint (root, "memory_mb", 6, p->max.memory_mb, &out->memory_mb, err) < 0
      || optional_uint (root, "idle_ttl_s", 1, 31536000, &ttl, err) < 0)
    goto out;
  out->idle_ttl_s = ttl;
  ret = 0;
out:
  cJSON_Delete (root);
  return ret;
}
