/* scheduler/request.c: parse and validate POST /v1/executions, and the
 * stdin frame.  Pure functions: the fuzzers call them directly.
 *
 * Body: {"language": str, "code": str, "stdin"?: str, "stdin_base64"?: str,
 *        "args"?: [str], "timeout_ms"?: int, "memory_mb"?: int}
 * Unknown keys are refused so that a misspelt limit never passes silently. */
#define _GNU_SOURCE
#include "request.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

void
sched_request_clear (sched_request_t *req)
{
  free (req->code);
  free (req->stdin_data);
  for (size_t i = 0; i < req->n_args; i++)
    free (req->args[i]);
  free (req->args);
  memset (req, 0, sizeof *req);
}

static const char *const known_keys[]
    = {"language", "code", "stdin", "stdin_base64", "args", "timeout_ms", "memory_mb"};

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

int
sched_request_parse (const char *body, size_t len, const prof_set_t *profiles,
                     sched_request_t *out, wb_err_t *err)
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
                     "strings in this API cannot hold NUL (\\u0000); send binary stdin as "
                     "stdin_base64");
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

  language = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (root, "language"));
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
  req.profile = p;
  req.limits = p->def;

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
sched_frame_build (const char *code, size_t code_len, char *const *args, size_t n_args,
                   const char *in, size_t in_len, wb_buf_t *out)
{
  if (n_args > SCHED_MAX_ARGS || wb_buf_printf (out, "%zu", code_len) < 0)
    return -1;
  for (size_t i = 0; i < n_args; i++)
    if (wb_buf_printf (out, " %zu", strlen (args[i])) < 0)
      return -1;
  if (wb_buf_append (out, "\n", 1) < 0 || wb_buf_append (out, code, code_len) < 0)
    return -1;
  for (size_t i = 0; i < n_args; i++)
    if (wb_buf_append_str (out, args[i]) < 0)
      return -1;
  return wb_buf_append (out, in, in_len);
}

/* One decimal length at buf[*i] (advanced past it); -1 when not digits or
 * absurd. */
static int
frame_number (const char *buf, size_t end, size_t *i, size_t *out)
{
  size_t n = 0, start = *i;

  while (*i < end && buf[*i] >= '0' && buf[*i] <= '9')
    {
      if (n > (SIZE_MAX - 9) / 10 || *i - start >= 20)
        return -1;
      n = n * 10 + (size_t) (buf[*i] - '0');
      (*i)++;
    }
  if (*i == start)
    return -1;
  *out = n;
  return 0;
}

int
sched_frame_parse (const char *buf, size_t len, sched_frame_t *f)
{
  const char *nl = len ? memchr (buf, '\n', len < SCHED_FRAME_HEADER_MAX ? len : SCHED_FRAME_HEADER_MAX) : NULL;
  size_t i = 0, end, need, off;

  if (nl == NULL)
    return len < SCHED_FRAME_HEADER_MAX ? 0 : -1;
  end = (size_t) (nl - buf);
  memset (f, 0, sizeof *f);
  if (frame_number (buf, end, &i, &f->code_len) < 0)
    return -1;
  while (i < end)
    {
      if (buf[i] != ' ' || f->n_args == SCHED_MAX_ARGS)
        return -1;
      i++;
      if (frame_number (buf, end, &i, &f->arg_len[f->n_args]) < 0)
        return -1;
      f->n_args++;
    }
  off = end + 1;
  need = f->code_len;
  f->code_off = off;
  for (size_t k = 0; k < f->n_args; k++)
    {
      if (need > SIZE_MAX - f->arg_len[k])
        return -1;
      f->arg_off[k] = off + need;
      need += f->arg_len[k];
    }
  if (len - off < need)
    return 0;
  f->stdin_off = off + need;
  return 1;
}
