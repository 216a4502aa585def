/* api/piston.c: the Piston v2 API (GET /api/v2/runtimes, POST
 * /api/v2/execute) mapped onto warmbox's languages and limits, so Piston
 * clients work unchanged.  Pure functions: translation to a /v1 body, and
 * the response shapes.
 *
 * Mapping: files[0] is the program, and its name, when it has one, the
 * program's own file name (/v1's filename; where the compiler needs a
 * suffix and the name has none of the language's, the first is appended,
 * as Piston appends one; not for Java, whose file javac's rule names);
 * the others, each named, become /v1's files (in the program's working
 * directory); encodings utf8 (default),
 * base64 or hex (sent on as base64); stdin; args;
 * run_timeout (ms) -> timeout_ms; run_memory_limit (bytes) -> memory_mb,
 * rounded up; compile_timeout (ms) -> compile_timeout_ms and
 * compile_memory_limit (bytes) -> compile_memory_mb for a language with a
 * compile stage (ignored for the others); -1 or absent means the
 * language's default.  *_cpu_time are accepted and ignored (the CPU rlimit
 * follows the wall limit).  A compiled language's answer has Piston's
 * "compile" stage; when it fails, "run" is there with nothing in it, code
 * and status null, message "not run: the compile stage failed".  version: absent, "*", or any
 * version whose leading parts match the language's ("3", "3.11", "3.11.0", "3.x"). */
#define _GNU_SOURCE
#include "api/piston.h"
#include "api/request.h"
#include "api/result.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <signal.h>
#include <string.h>

static inline void
cleanup_jsonp (cJSON **j)
{
  cJSON_Delete (*j);
}
#define cleanup_json __attribute__ ((cleanup (cleanup_jsonp)))

void
sched_piston_version (const prof_t *profile, char *out, size_t size)
{
  int dots = 0;

  for (const char *c = profile->version; *c; c++)
    dots += *c == '.';
  snprintf (out, size, "%s%s", profile->version, dots >= 2 ? "" : dots == 1 ? ".0" : ".0.0");
}

/* Does the requested selector match the version we have? */
static bool
version_matches (const char *want, const char *have)
{
  if (want == NULL || *want == '\0' || strcmp (want, "*") == 0)
    return true;
  while (*want && *have)
    {
      size_t wl = strcspn (want, "."), hl = strcspn (have, ".");
      if ((wl == 1 && (*want == 'x' || *want == 'X' || *want == '*')))
        return true;
      if (wl != hl || strncmp (want, have, wl) != 0)
        return false;
      want += wl;
      have += hl;
      if (*want == '\0')
        return true;
      want++;
      if (*have)
        have++;
    }
  return *want == '\0';
}

/* A limit field: absent, null or negative -> keep the default (0). */
static int
limit_field (cJSON *root, const char *key, double *out, wb_err_t *err)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (root, key);

  *out = 0;
  if (item == NULL || cJSON_IsNull (item))
    return 0;
  if (!cJSON_IsNumber (item) || !isfinite (item->valuedouble))
    return wb_error (err, WB_E_INVALID, "%s must be a number", key);
  if (item->valuedouble > 0)
    *out = item->valuedouble;
  return 0;
}

/* A Piston file's content, decoded by its encoding, into out. */
static int
piston_file (cJSON *file, int i, wb_buf_t *out, wb_err_t *err)
{
  const char *content, *encoding;
  cJSON *item;

  content = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (file, "content"));
  if (!cJSON_IsObject (file) || content == NULL)
    return wb_error (err, WB_E_INVALID, "files[%d].content must be a string", i);
  item = cJSON_GetObjectItemCaseSensitive (file, "encoding");
  encoding = item == NULL || cJSON_IsNull (item) ? "utf8" : cJSON_GetStringValue (item);
  if (encoding == NULL)
    return wb_error (err, WB_E_INVALID, "files[%d].encoding must be a string", i);
  if (strcmp (encoding, "utf8") == 0)
    {
      if (wb_buf_append_str (out, content) < 0)
        return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  else if (strcmp (encoding, "base64") == 0)
    {
      if (wb_base64_decode (out, content, strlen (content)) < 0)
        return wb_error (err, WB_E_INVALID, "files[%d].content is not valid base64", i);
    }
  else if (strcmp (encoding, "hex") == 0)
    {
      if (wb_hex_decode (out, content, strlen (content)) < 0)
        return wb_error (err, WB_E_INVALID, "files[%d].content is not valid hex", i);
    }
  else
    return wb_error (err, WB_E_INVALID, "files[%d].encoding must be utf8, base64 or hex", i);
  return 0;
}

/* files[0].name, as the program's own file name, into out ("" when it
 * has none, or for a language whose code names its file). */
static int
piston_program_name (const prof_t *p, cJSON *file, char *out, size_t size, wb_err_t *err)
{
  cJSON *item = cJSON_GetObjectItemCaseSensitive (file, "name");
  const char *name = cJSON_GetStringValue (item);
  bool has_suffix = p->n_name_suffixes == 0;
  size_t len;

  out[0] = '\0';
  if (item == NULL || cJSON_IsNull (item) || p->java_source)
    return 0;
  if (name == NULL)
    return wb_error (err, WB_E_INVALID, "files[0].name must be a string");
  len = strlen (name);
  for (size_t i = 0; i < p->n_name_suffixes && !has_suffix; i++)
    {
      size_t k = strlen (p->name_suffixes[i]);
      has_suffix = len > k && strcmp (name + len - k, p->name_suffixes[i]) == 0;
    }
  /* Piston appends the language's extension to the name ("file0.code"
   * runs as "file0.code.c"); here only where it is missing. */
  if ((size_t) snprintf (out, size, "%s%s", name, has_suffix ? "" : p->name_suffixes[0]) >= size)
    return wb_error (err, WB_E_INVALID, "files[0].name must be at most %d bytes%s",
                     SCHED_MAX_FILE_NAME, has_suffix ? "" : " with the language's suffix");
  return sched_program_name_check (p, out, "files[0].name", err);
}

int
sched_piston_parse (const char *body, size_t len, const prof_set_t *profiles, sched_request_t *out,
                    wb_err_t *err)
{
  cleanup_json cJSON *root = NULL;
  sched_request_fields_t f = {0};
  wb_buf_t code = WB_BUF_INIT;
  cJSON *files, *file, *item;
  const char *language, *version;
  const prof_t *p;
  char have[64], program_name[SCHED_MAX_FILE_NAME + 1];
  double run_timeout, run_memory, compile_timeout, compile_memory;
  size_t total = 0;
  int i = 0, rc = -1;

  memset (out, 0, sizeof *out);
  if (body == NULL || len == 0)
    return wb_error (err, WB_E_INVALID, "the request body is empty; send a JSON object");
  if (sched_json_has_nul_escape (body, len))
    return wb_error (err, WB_E_INVALID,
                     "strings cannot hold NUL (\\u0000) here; send the file "
                     "with \"encoding\": \"base64\"");
  root = cJSON_ParseWithLength (body, len);
  if (root == NULL || !cJSON_IsObject (root))
    return wb_error (err, WB_E_INVALID, "the body is not a JSON object");

  language = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "language"));
  if (language == NULL || *language == '\0')
    return wb_error (err, WB_E_INVALID, "language is required as a string");
  item = cJSON_GetObjectItemCaseSensitive (root, "version");
  if (item != NULL && !cJSON_IsNull (item) && !cJSON_IsString (item))
    return wb_error (err, WB_E_INVALID, "version must be a string");
  version = cJSON_GetStringValue (item);
  p = prof_find_alias (profiles, language);
  if (p)
    sched_piston_version (p, have, sizeof have);
  if (p == NULL || !version_matches (version, have))
    return wb_error (err, WB_E_NOT_FOUND, "%.64s-%.32s runtime is unknown", language,
                     version ? version : "*");
  f.language = p->language;

  files = cJSON_GetObjectItemCaseSensitive (root, "files");
  if (!cJSON_IsArray (files) || cJSON_GetArraySize (files) == 0)
    return wb_error (err, WB_E_INVALID, "files must be an array holding the program");
  if (cJSON_GetArraySize (files) > 1 + SCHED_MAX_FILES)
    return wb_error (err, WB_E_INVALID, "files holds %d files; the most is the program and %d more",
                     cJSON_GetArraySize (files), SCHED_MAX_FILES);
  if (piston_program_name (p, cJSON_GetArrayItem (files, 0), program_name, sizeof program_name, err)
      < 0)
    return -1;
  if (limit_field (root, "run_timeout", &run_timeout, err) < 0
      || limit_field (root, "run_memory_limit", &run_memory, err) < 0
      || limit_field (root, "compile_timeout", &compile_timeout, err) < 0
      || limit_field (root, "compile_memory_limit", &compile_memory, err) < 0
      || limit_field (root, "run_cpu_time", &(double){0}, err) < 0
      || limit_field (root, "compile_cpu_time", &(double){0}, err) < 0)
    return -1;

  /* From here on f holds what it took: every way out is `out`. */
  if (piston_file (cJSON_GetArrayItem (files, 0), 0, &code, err) < 0)
    goto out;
  if (!wb_utf8_valid (code.data ? code.data : "", code.len)
      || (code.len && memchr (code.data, '\0', code.len) != NULL))
    {
      wb_error (err, WB_E_INVALID, "the program must be UTF-8 text without NUL");
      goto out;
    }
  f.code_len = code.len;
  if (wb_buf_append (&code, "", 1) < 0)
    goto nomem;
  f.code = wb_buf_steal (&code);
  if (program_name[0] && (f.filename = strdup (program_name)) == NULL)
    goto nomem;
  item = cJSON_GetObjectItemCaseSensitive (root, "stdin");
  if (item != NULL && !cJSON_IsNull (item))
    {
      if (!cJSON_IsString (item))
        {
          wb_error (err, WB_E_INVALID, "stdin must be a string");
          goto out;
        }
      f.stdin_len = strlen (item->valuestring);
      if ((f.stdin_data = strdup (item->valuestring)) == NULL)
        goto nomem;
    }
  item = cJSON_GetObjectItemCaseSensitive (root, "args");
  if (item != NULL && !cJSON_IsNull (item))
    {
      cJSON *arg;
      if (!cJSON_IsArray (item))
        {
          wb_error (err, WB_E_INVALID, "args must be an array of strings");
          goto out;
        }
      if (cJSON_GetArraySize (item) > SCHED_MAX_ARGS)
        {
          wb_error (err, WB_E_INVALID, "args may hold at most %d strings", SCHED_MAX_ARGS);
          goto out;
        }
      if ((f.args = calloc ((size_t) cJSON_GetArraySize (item) + 1, sizeof *f.args)) == NULL)
        goto nomem;
      cJSON_ArrayForEach (arg, item)
      {
        char num[64];
        const char *s = cJSON_GetStringValue (arg);
        /* Piston stringifies what it gets; numbers are common in the wild. */
        if (cJSON_IsNumber (arg))
          {
            snprintf (num, sizeof num, "%.17g", arg->valuedouble);
            s = num;
          }
        if (s == NULL)
          {
            wb_error (err, WB_E_INVALID, "args must be an array of strings");
            goto out;
          }
        if ((f.args[f.n_args++] = strdup (s)) == NULL)
          goto nomem;
      }
    }
  if (cJSON_GetArraySize (files) > 1
      && (f.files = calloc ((size_t) cJSON_GetArraySize (files), sizeof *f.files)) == NULL)
    goto nomem;
  cJSON_ArrayForEach (file, files)
  {
    wb_buf_t raw = WB_BUF_INIT;
    const char *name;
    if (i++ == 0)
      continue;
    name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (file, "name"));
    if (name == NULL)
      {
        wb_error (err, WB_E_INVALID,
                  "files[%d] needs a name: files after the first are the program's "
                  "files, found by name in its working directory",
                  i - 1);
        goto out;
      }
    if (!sched_file_name_valid (name, strlen (name)))
      {
        wb_error (err, WB_E_INVALID,
                  "files[%d].name must be a plain file name (no '/', no control "
                  "characters, not . or .., at most %d bytes)",
                  i - 1, SCHED_MAX_FILE_NAME);
        goto out;
      }
    if (strcmp (name, program_name) == 0)
      {
        wb_error (err, WB_E_INVALID, "files[%d].name is %s, the program's own file (files[0])",
                  i - 1, name);
        goto out;
      }
    if (piston_file (file, i - 1, &raw, err) < 0)
      {
        wb_buf_free (&raw);
        goto out;
      }
    total += raw.len;
    sched_file_t *to = &f.files[f.n_files++];
    to->len = raw.len;
    to->data = raw.data ? wb_buf_steal (&raw) : calloc (1, 1);
    to->name = strdup (name);
    if (to->data == NULL || to->name == NULL)
      goto nomem;
    if (total > SCHED_MAX_FILES_BYTES)
      {
        wb_error (err, WB_E_TOO_LARGE, "files hold more than %d bytes together",
                  SCHED_MAX_FILES_BYTES);
        goto out;
      }
  }
  /* Limits: whole numbers (the /v1 field's units), checked by the build. */
  f.timeout_ms = (sched_request_limit_t){run_timeout > 0, ceil (run_timeout)};
  f.memory_mb = (sched_request_limit_t){run_memory > 0, ceil (run_memory / (1024.0 * 1024.0))};
  /* Piston clients send the compile limits for every language: they apply
   * where there is a compile stage. */
  if (p->compile_argv)
    {
      f.compile_timeout_ms = (sched_request_limit_t){compile_timeout > 0, ceil (compile_timeout)};
      f.compile_memory_mb
          = (sched_request_limit_t){compile_memory > 0, ceil (compile_memory / (1024.0 * 1024.0))};
    }
  rc = sched_request_build (&f, profiles, NULL, out, err);
  goto out;
nomem:
  wb_error (err, WB_E_NOMEM, "out of memory");
out:
  if (code.data)
    explicit_bzero (code.data, code.len);
  wb_buf_free (&code);
  sched_request_fields_clear (&f);
  return rc;
}

int
sched_piston_runtimes_json (const prof_set_t *profiles, wb_buf_t *out, wb_err_t *err)
{
  if (wb_buf_append_str (out, "[") < 0)
    goto nomem;
  for (size_t i = 0; i < profiles->n; i++)
    {
      const prof_t *p = profiles->items[i];
      char version[64];
      sched_piston_version (p, version, sizeof version);
      if (wb_buf_printf (out, "%s{\"language\":\"%s\",\"version\":", i ? "," : "", p->language) < 0
          || wb_json_append_string (out, version, strlen (version)) < 0
          || wb_buf_append_str (out, ",\"aliases\":[") < 0)
        goto nomem;
      for (size_t k = 0; k < p->n_aliases; k++)
        if (wb_buf_printf (out, "%s\"%s\"", k ? "," : "", p->aliases[k]) < 0)
          goto nomem;
      if (wb_buf_append_str (out, "]}") < 0)
        goto nomem;
    }
  if (wb_buf_append_str (out, "]\n") < 0)
    goto nomem;
  return 0;
nomem:
  return wb_error (err, WB_E_NOMEM, "out of memory listing the runtimes");
}

/* Piston's strings are text: bytes that are not UTF-8 become U+FFFD (the
 * /v1 API returns them exactly, as base64). */
static int
append_lossy (wb_buf_t *out, const char *s, size_t len)
{
  cleanup_buf wb_buf_t clean = WB_BUF_INIT;

  if (wb_utf8_sanitize (&clean, s, len, len, false) == (size_t) -1)
    return -1;
  return wb_json_append_string (out, clean.data ? clean.data : "", clean.len);
}

/* "SIGSEGV" for 11: Piston's signal names. */
static const char *
signal_name (int sig, char *buf, size_t size)
{
  const char *abbrev = sigabbrev_np (sig);

  snprintf (buf, size, "SIG%s", abbrev ? abbrev : "UNKNOWN");
  return buf;
}

/* Piston's compile stage: ,"compile":{stdout, stderr, output, code,
 * signal, message, status, wall_time}, for a profile with one that
 * reported. */
static int
piston_compile_json (const sched_result_t *res, wb_buf_t *out)
{
  const char *st = sched_compile_status (res), *status = NULL, *signal = NULL, *message = NULL;
  char code[16] = "null", sig_buf[24];
  cleanup_buf wb_buf_t both = WB_BUF_INIT;

  if (!res->has_compile)
    return 0;
  if (strcmp (st, "timeout") == 0)
    status = "TO", signal = "SIGKILL",
    message = "the compiler was killed at its time limit (compile_timeout)";
  else if (strcmp (st, "killed") == 0)
    status = "SG", signal = signal_name (res->compile_signal, sig_buf, sizeof sig_buf),
    message = "the compiler was killed by a signal (the memory limit, most often)";
  else if (strcmp (st, "error") == 0)
    status = "RE", message = "the compiler exited with a non-zero status";
  if (!res->compile_timed_out && !res->compile_signal)
    snprintf (code, sizeof code, "%d", res->compile_exit);
  if (sched_order_render (&res->compile_order, res->compile_out.data, res->compile_out.len,
                          res->compile_err.data, res->compile_err.len, &both)
          < 0
      || wb_buf_append_str (out, ",\"compile\":{\"stdout\":") < 0
      || append_lossy (out, res->compile_out.data ? res->compile_out.data : "",
                       res->compile_out.len)
             < 0
      || wb_buf_append_str (out, ",\"stderr\":") < 0
      || append_lossy (out, res->compile_err.data ? res->compile_err.data : "",
                       res->compile_err.len)
             < 0
      || wb_buf_append_str (out, ",\"output\":") < 0
      || append_lossy (out, both.data ? both.data : "", both.len) < 0
      || wb_buf_printf (out, ",\"code\":%s,\"signal\":", code) < 0
      || (signal ? wb_json_append_string (out, signal, strlen (signal))
                 : wb_buf_append_str (out, "null"))
             < 0
      || wb_buf_append_str (out, ",\"message\":") < 0
      || (message ? wb_json_append_string (out, message, strlen (message))
                  : wb_buf_append_str (out, "null"))
             < 0
      || wb_buf_printf (out, ",\"status\":%s%s%s,\"wall_time\":%llu}", status ? "\"" : "",
                        status ? status : "null", status ? "\"" : "",
                        (unsigned long long) (res->compile_us / 1000))
             < 0)
    return -1;
  return 0;
}

int
sched_piston_result_json (const sched_result_t *res, const char *version, wb_buf_t *out,
                          wb_err_t *err)
{
  char code[16] = "null";
  const char *status = NULL, *message = NULL, *signal = NULL;

  switch (res->status)
    {
    case SCHED_ST_COMPILE_ERROR:
      message = "not run: the compile stage failed";
      break;
    case SCHED_ST_OK:
      if (res->exit_code != 0)
        {
          status = "RE";
          message = "the program exited with a non-zero status";
        }
      break;
    case SCHED_ST_TIMEOUT:
      status = "TO", signal = "SIGKILL", message = "killed at the time limit (run_timeout)";
      break;
    case SCHED_ST_OOM:
      status = "SG", signal = "SIGKILL", message = "killed at the memory limit";
      break;
    case SCHED_ST_OUTPUT_LIMIT:
      status = res->err_truncated && !res->out_truncated ? "EL" : "OL";
      signal = "SIGKILL";
      message = res->err_truncated && !res->out_truncated ? "stderr length exceeded"
                                                          : "stdout length exceeded";
      break;
    case SCHED_ST_SANDBOX_ERROR: /* not the program's end: no code, Piston's internal error */
    case SCHED_ST_ERROR:
    default:
      status = "XX";
      message = res->error ? res->error : "the sandbox failed";
      break;
    }
  if (signal == NULL && res->exit_code >= 0)
    snprintf (code, sizeof code, "%d", res->exit_code);
  if (wb_buf_printf (out, "{\"language\":\"%s\",\"version\":", res->language) < 0
      || wb_json_append_string (out, version, strlen (version)) < 0
      || piston_compile_json (res, out) < 0 || wb_buf_append_str (out, ",\"run\":{\"stdout\":") < 0
      || append_lossy (out, res->out.data ? res->out.data : "", res->out.len) < 0
      || wb_buf_append_str (out, ",\"stderr\":") < 0
      || append_lossy (out, res->err.data ? res->err.data : "", res->err.len) < 0)
    goto nomem;
  /* output: both streams in the order the engine delivered their bytes
   * (exec.h: res->order), as Piston's "in order of data". */
  {
    cleanup_buf wb_buf_t both = WB_BUF_INIT;
    if (sched_order_render (&res->order, res->out.data, res->out.len, res->err.data, res->err.len,
                            &both)
            < 0
        || wb_buf_append_str (out, ",\"output\":") < 0
        || append_lossy (out, both.data ? both.data : "", both.len) < 0)
      goto nomem;
  }
  if (wb_buf_printf (out, ",\"code\":%s,\"signal\":%s%s%s", code, signal ? "\"" : "",
                     signal ? signal : "null", signal ? "\"" : "")
          < 0
      || wb_buf_append_str (out, ",\"message\":") < 0
      || (message ? wb_json_append_string (out, message, strlen (message))
                  : wb_buf_append_str (out, "null"))
             < 0
      || wb_buf_printf (out, ",\"status\":%s%s%s,\"wall_time\":%llu}", status ? "\"" : "",
                        status ? status : "null", status ? "\"" : "",
                        (unsigned long long) res->duration_ms)
             < 0
      /* Not Piston's: the files the program left, as /v1 has them (Piston
       * clients ignore fields they do not know). */
      || sched_result_files_json (res, out) < 0 || wb_buf_append_str (out, "}\n") < 0)
    goto nomem;
  return 0;
nomem:
  /* Every step above only appends: memory is all it can run out of. */
  return wb_error (err, WB_E_NOMEM, "out of memory encoding the result of %s (%zu bytes so far)",
                   res->id, out->len);
}
