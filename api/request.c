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

/* A limit's JSON: absent or null is not given; anything but a number is
 * refused (its range is limit_check's). */
static int
json_limit (cJSON *root, const char *key, sched_request_limit_t *out, wb_err_t *err)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (root, key);

  out->given = false;
  if (item == NULL || cJSON_IsNull (item))
    return 0;
  if (!cJSON_IsNumber (item))
    return wb_error (err, WB_E_INVALID, "%s must be a number", key);
  out->given = true;
  out->value = item->valuedouble;
  return 0;
}

/* A given limit into *inout: a whole number from lo to max. */
static int
limit_check (const char *key, sched_request_limit_t lim, uint32_t lo, uint32_t max, uint32_t *inout,
             wb_err_t *err)
{
  double v = lim.value;

  if (!lim.given)
    return 0;
  if (!isfinite (v) || v != floor (v) || v < lo)
    return wb_error (err, WB_E_INVALID, "%s must be a whole number of at least %u", key, lo);
  if (v > max)
    return wb_error (err, WB_E_INVALID, "%s %.0f is above this language's maximum of %u", key, v,
                     max);
  *inout = (uint32_t) v;
  return 0;
}

static int
optional_uint (cJSON *root, const char *key, uint32_t lo, uint32_t max, uint32_t *inout,
               wb_err_t *err)
{
  sched_request_limit_t lim;

  if (json_limit (root, key, &lim, err) < 0)
    return -1;
  return limit_check (key, lim, lo, max, inout, err);
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

/* "files": each {"name", "content", "encoding"?}, decoded into f->files
 * (their names and sizes are sched_request_build's to check). */
static int
json_files (cJSON *files, sched_request_fields_t *f, wb_err_t *err)
{
  cJSON *file;
  int n = cJSON_GetArraySize (files), i = 0;

  if (!cJSON_IsArray (files) || n > SCHED_MAX_FILES)
    return wb_error (err, WB_E_INVALID, "\"files\" must be an array of at most %d files",
                     SCHED_MAX_FILES);
  if (n == 0)
    return 0;
  f->files = calloc ((size_t) n, sizeof *f->files);
  if (f->files == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  cJSON_ArrayForEach (file, files)
  {
    cJSON *item;
    const char *name, *content, *encoding = "utf8";
    sched_file_t *out = &f->files[f->n_files];
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
    out->len = raw.len;
    out->data = raw.data ? wb_buf_steal (&raw) : calloc (1, 1);
    out->name = strdup (name);
    f->n_files++;
    if (out->data == NULL || out->name == NULL)
      return wb_error (err, WB_E_NOMEM, "out of memory");
    /* The copy is the request's; the parsed tree's is wiped now. */
    explicit_bzero ((char *) content, strlen (content));
    i++;
  }
  return 0;
}

/* A /v1 body's JSON into fields: the types of what it says (a string, an
 * array, a number), the encodings decoded; everything else is
 * sched_request_build's. */
static int
json_fields (cJSON *root, sched_request_fields_t *f, wb_err_t *err)
{
  cJSON *item, *in, *in64, *args;

  f->language = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "language"));
  item = cJSON_GetObjectItemCaseSensitive (root, "code");
  if (cJSON_IsString (item))
    {
      f->code_len = strlen (item->valuestring);
      if ((f->code = strdup (item->valuestring)) == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory");
    }

  in = cJSON_GetObjectItemCaseSensitive (root, "stdin");
  in64 = cJSON_GetObjectItemCaseSensitive (root, "stdin_base64");
  if (in && in64 && !cJSON_IsNull (in) && !cJSON_IsNull (in64))
    return wb_error (err, WB_E_INVALID, "send either stdin or stdin_base64, not both");
  if (in && !cJSON_IsNull (in))
    {
      if (!cJSON_IsString (in))
        return wb_error (err, WB_E_INVALID, "\"stdin\" must be a string");
      f->stdin_len = strlen (in->valuestring);
      if ((f->stdin_data = strdup (in->valuestring)) == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  else if (in64 && !cJSON_IsNull (in64))
    {
      wb_buf_t raw = WB_BUF_INIT;
      if (!cJSON_IsString (in64)
          || wb_base64_decode (&raw, in64->valuestring, strlen (in64->valuestring)) < 0)
        {
          wb_buf_free (&raw);
          return wb_error (err, WB_E_INVALID, "\"stdin_base64\" must be a base64 string");
        }
      f->stdin_len = raw.len;
      f->stdin_data = raw.data ? wb_buf_steal (&raw) : calloc (1, 1);
      if (f->stdin_data == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory");
    }

  args = cJSON_GetObjectItemCaseSensitive (root, "args");
  if (args && !cJSON_IsNull (args))
    {
      int n = cJSON_GetArraySize (args);
      if (!cJSON_IsArray (args) || n > SCHED_MAX_ARGS)
        return wb_error (err, WB_E_INVALID, "\"args\" must be an array of at most %d strings",
                         SCHED_MAX_ARGS);
      if ((f->args = calloc ((size_t) n + 1, sizeof *f->args)) == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory");
      cJSON_ArrayForEach (item, args)
      {
        if (!cJSON_IsString (item))
          return wb_error (err, WB_E_INVALID, "\"args\" must hold strings only");
        if ((f->args[f->n_args++] = strdup (item->valuestring)) == NULL)
          return wb_error (err, WB_E_NOMEM, "out of memory");
      }
    }

  if (json_limit (root, "timeout_ms", &f->timeout_ms, err) < 0
      || json_limit (root, "memory_mb", &f->memory_mb, err) < 0
      || json_limit (root, "compile_timeout_ms", &f->compile_timeout_ms, err) < 0
      || json_limit (root, "compile_memory_mb", &f->compile_memory_mb, err) < 0)
    return -1;

  /* "output" in the result: stdout and stderr as they came (exec.h). */
  item = cJSON_GetObjectItemCaseSensitive (root, "combined_output");
  if (item && !cJSON_IsNull (item) && !cJSON_IsBool (item))
    return wb_error (err, WB_E_INVALID, "combined_output must be true or false");
  f->combined_output = cJSON_IsTrue (item);

  item = cJSON_GetObjectItemCaseSensitive (root, "filename");
  if (item && !cJSON_IsNull (item))
    {
      if (!cJSON_IsString (item))
        return wb_error (err, WB_E_INVALID, "\"filename\" must be a string");
      if ((f->filename = strdup (item->valuestring)) == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory");
    }

  item = cJSON_GetObjectItemCaseSensitive (root, "files");
  if (item && !cJSON_IsNull (item))
    return json_files (item, f, err);
  return 0;
}

void
sched_request_fields_clear (sched_request_fields_t *f)
{
  /* The same wiping as a request's: hand them to one and clear it. */
  sched_request_t r = {.code = f->code,
                       .code_len = f->code_len,
                       .stdin_data = f->stdin_data,
                       .stdin_len = f->stdin_len,
                       .args = f->args,
                       .n_args = f->n_args,
                       .files = f->files,
                       .n_files = f->n_files,
                       .filename = f->filename};
  sched_request_clear (&r);
  memset (f, 0, sizeof *f);
}

/* The request's files (already in req): names, sizes, hashes. */
static int
files_check (sched_request_t *req, wb_err_t *err)
{
  for (size_t i = 0; i < req->n_files; i++)
    {
      sched_file_t *f = &req->files[i];

      if (f->name == NULL || f->data == NULL)
        return wb_error (err, WB_E_INVALID, "files[%zu] needs a name and a content", i);
      if (!sched_file_name_valid (f->name, strlen (f->name)))
        return wb_error (err, WB_E_INVALID,
                         "files[%zu].name must be 1 to %d bytes of UTF-8 without '/' or control "
                         "characters, and not \".\" or \"..\" (a name in the working directory)",
                         i, SCHED_MAX_FILE_NAME);
      if (strncmp (f->name, ".warmbox-", 9) == 0)
        return wb_error (err, WB_E_INVALID,
                         "files[%zu].name: names starting with .warmbox- are the sandbox's own", i);
      for (size_t k = 0; k < i; k++)
        if (strcmp (req->files[k].name, f->name) == 0)
          return wb_error (err, WB_E_INVALID, "files[%zu].name repeats files[%zu].name", i, k);
      /* The code itself is that file: its own name, or the language's
       * default source file (for Java the init sees to it: the code's
       * class names it). */
      if (req->filename && strcmp (req->filename, f->name) == 0)
        return wb_error (err, WB_E_INVALID, "files[%zu].name is %s, the program's own filename", i,
                         f->name);
      if (req->filename == NULL && req->profile->source && !req->profile->java_source
          && strcmp (req->profile->source, f->name) == 0)
        return wb_error (err, WB_E_INVALID,
                         "files[%zu].name is %s, the name the code is written to for %s", i,
                         req->profile->source, req->profile->language);
      req->files_bytes += f->len;
      if (req->files_bytes > files_cap (&req->limits))
        return wb_error (err, WB_E_TOO_LARGE,
                         "files hold more than %zu bytes together, the most here (%d MB, half "
                         "the working directory's %u MB, a quarter of the %u MB of memory: the "
                         "files live in the sandbox's memory)",
                         files_cap (&req->limits), SCHED_MAX_FILES_BYTES / (1024 * 1024),
                         req->limits.tmpfs_mb, req->limits.memory_mb);
      wb_sha256_hex (f->data, f->len, f->sha256);
    }
  return 0;
}

/* Every check of a request, wherever its fields came from. */
static int
request_check (sched_request_t *req, const sched_request_fields_t *f, const prof_set_t *profiles,
               const sched_request_defaults_t *d, wb_err_t *err)
{
  const char *language = f->language;
  const prof_t *p;
  size_t total = 0;

  if (d && d->language && language == NULL)
    language = d->language;
  if (language == NULL || *language == '\0')
    return wb_error (err, WB_E_INVALID, "\"language\" is required and must be a string");
  if ((p = prof_find (profiles, language)) == NULL)
    return wb_error (err, WB_E_NOT_FOUND, "unknown language \"%.64s\"", language);
  if (d && d->language && p != prof_find (profiles, d->language))
    return wb_error (err, WB_E_INVALID, "this session runs %s, not %.64s", d->language, language);
  req->profile = p;
  req->limits = p->def;
  /* A session's own defaults, within what the profile allows now. */
  if (d && d->timeout_ms)
    req->limits.timeout_ms = d->timeout_ms < p->max.timeout_ms ? d->timeout_ms : p->max.timeout_ms;
  if (d && d->memory_mb)
    req->limits.memory_mb = d->memory_mb < p->max.memory_mb ? d->memory_mb : p->max.memory_mb;

  if (req->code == NULL)
    return wb_error (err, WB_E_INVALID, "\"code\" is required and must be a string");
  if (req->code_len > p->max.code_bytes)
    return wb_error (err, WB_E_TOO_LARGE, "code is %zu bytes; the maximum for %s is %llu",
                     req->code_len, p->language, (unsigned long long) p->max.code_bytes);
  if (!wb_utf8_valid (req->code, req->code_len) || memchr (req->code, '\0', req->code_len))
    return wb_error (err, WB_E_INVALID, "code must be valid UTF-8");
  if (req->stdin_len > p->max.stdin_bytes)
    return wb_error (err, WB_E_TOO_LARGE, "stdin is %zu bytes; the maximum for %s is %llu",
                     req->stdin_len, p->language, (unsigned long long) p->max.stdin_bytes);

  if (req->n_args > SCHED_MAX_ARGS)
    return wb_error (err, WB_E_INVALID, "\"args\" must be an array of at most %d strings",
                     SCHED_MAX_ARGS);
  for (size_t i = 0; i < req->n_args; i++)
    {
      size_t l = strlen (req->args[i]);
      total += l;
      if (l > SCHED_MAX_ARG_BYTES || total > SCHED_MAX_ARGS_TOTAL)
        return wb_error (err, WB_E_TOO_LARGE, "args are limited to %d bytes each, %d in all",
                         SCHED_MAX_ARG_BYTES, SCHED_MAX_ARGS_TOTAL);
    }

  if (limit_check ("timeout_ms", f->timeout_ms, 1, p->max.timeout_ms, &req->limits.timeout_ms, err)
          < 0
      || limit_check ("memory_mb", f->memory_mb, 6, p->max.memory_mb, &req->limits.memory_mb, err)
             < 0)
    return -1;
  /* A compile stage's own limits; a language without one has none to set. */
  if (p->compile_argv == NULL && (f->compile_timeout_ms.given || f->compile_memory_mb.given))
    return wb_error (err, WB_E_INVALID,
                     "%s has no compile stage: compile_timeout_ms and compile_memory_mb "
                     "do not apply",
                     p->language);
  if (limit_check ("compile_timeout_ms", f->compile_timeout_ms, 1, p->max.compile_timeout_ms,
                   &req->limits.compile_timeout_ms, err)
          < 0
      || limit_check ("compile_memory_mb", f->compile_memory_mb, 6, p->max.compile_memory_mb,
                      &req->limits.compile_memory_mb, err)
             < 0)
    return -1;
  req->combined_output = f->combined_output;

  /* The program's own file name, before the files: none may take it. */
  if (req->filename && sched_program_name_check (p, req->filename, "filename", err) < 0)
    return -1;
  /* After memory_mb: the files live in the sandbox's memory (tmpfs). */
  return files_check (req, err);
}

int
sched_request_build (sched_request_fields_t *f, const prof_set_t *profiles,
                     const sched_request_defaults_t *d, sched_request_t *out, wb_err_t *err)
{
  /* Taken first: every way out below frees them once, with the request. */
  sched_request_t req = {.code = f->code,
                         .code_len = f->code_len,
                         .stdin_data = f->stdin_data,
                         .stdin_len = f->stdin_len,
                         .args = f->args,
                         .n_args = f->n_args,
                         .files = f->files,
                         .n_files = f->n_files,
                         .filename = f->filename};
  sched_request_fields_t asked = *f;

  f->code = f->stdin_data = f->filename = NULL;
  f->args = NULL;
  f->files = NULL;
  f->n_args = f->n_files = 0;
  memset (out, 0, sizeof *out);
  if (request_check (&req, &asked, profiles, d, err) < 0)
    {
      sched_request_clear (&req);
      return -1;
    }
  *out = req;
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
  sched_request_fields_t f = {0};
  cJSON *root, *item, *code;
  int ret = -1;

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
  /* A language that is there must be a string: null is "not given". */
  item = cJSON_GetObjectItemCaseSensitive (root, "language");
  if (item && !cJSON_IsNull (item) && !cJSON_IsString (item))
    {
      wb_error (err, WB_E_INVALID, "\"language\" is required and must be a string");
      goto out;
    }
  if (json_fields (root, &f, err) == 0)
    ret = sched_request_build (&f, profiles, d, out, err);
out:
  /* The parsed tree held the code and the files: wiped before it goes. */
  code = cJSON_GetObjectItemCaseSensitive (root, "code");
  if (cJSON_IsString (code))
    explicit_bzero (code->valuestring, strlen (code->valuestring));
  sched_request_fields_clear (&f);
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
