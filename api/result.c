/* api/result.c: a result's /v1 JSON (see result.h), and its parts that
 * /v1 and Piston share: the streams, the compile stage, the combined
 * output, the files. */
#define _GNU_SOURCE
#include "api/result.h"

#include <string.h>

int
sched_append_stream (wb_buf_t *out, const char *name, const wb_buf_t *data)
{
  const char *p = data->data ? data->data : "";
  bool text = wb_utf8_valid (p, data->len) && memchr (p, '\0', data->len) == NULL;

  if (wb_buf_printf (out, ",\"%s\":", name) < 0)
    return -1;
  if (text)
    {
      if (wb_json_append_string (out, p, data->len) < 0)
        return -1;
    }
  else
    {
      if (wb_buf_append_str (out, "\"") < 0 || wb_base64_encode (out, p, data->len) < 0
          || wb_buf_append_str (out, "\"") < 0)
        return -1;
    }
  return wb_buf_printf (out, ",\"%s_encoding\":\"%s\"", name, text ? "utf-8" : "base64");
}

int
sched_result_compile_json (const sched_result_t *res, wb_buf_t *out)
{
  if (!res->has_compile)
    return wb_buf_append_str (out, ",\"compile\":null");
  if (wb_buf_printf (out, ",\"compile\":{\"status\":\"%s\"", sched_compile_status (res)) < 0
      || (res->compile_signal || res->compile_timed_out
              ? wb_buf_append_str (out, ",\"exit_code\":null")
              : wb_buf_printf (out, ",\"exit_code\":%d", res->compile_exit))
             < 0
      || (res->compile_signal ? wb_buf_printf (out, ",\"signal\":%d", res->compile_signal)
                              : wb_buf_append_str (out, ",\"signal\":null"))
             < 0
      || sched_append_stream (out, "stdout", &res->compile_out) < 0
      || sched_append_stream (out, "stderr", &res->compile_err) < 0)
    return -1;
  if (res->combined_output)
    {
      cleanup_buf wb_buf_t both = WB_BUF_INIT;
      if (sched_order_render (&res->compile_order, res->compile_out.data, res->compile_out.len,
                              res->compile_err.data, res->compile_err.len, &both)
              < 0
          || sched_append_stream (out, "output", &both) < 0)
        return -1;
    }
  return wb_buf_printf (out, ",\"truncated\":%s,\"duration_ms\":%llu}",
                        res->compile_truncated ? "true" : "false",
                        (unsigned long long) (res->compile_us / 1000));
}

int
sched_result_output_json (const sched_result_t *res, wb_buf_t *out)
{
  cleanup_buf wb_buf_t both = WB_BUF_INIT;

  if (sched_order_render (&res->order, res->out.data, res->out.len, res->err.data, res->err.len,
                          &both)
      < 0)
    return -1;
  return sched_append_stream (out, "output", &both);
}

/* Is content better sent as JSON text than base64: UTF-8 without NUL, and
 * not so full of control characters that escaping them costs more? */
static bool
text_is_smaller (const char *p, size_t len)
{
  size_t escaped = len;

  if (!wb_utf8_valid (p, len) || memchr (p, '\0', len) != NULL)
    return false;
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) p[i];
      if (c == '\n' || c == '\t' || c == '\r' || c == '"' || c == '\\')
        escaped += 1;
      else if (c < 0x20 || c == 0x7f)
        escaped += 5;
    }
  return escaped <= len + len / 3 + 4;
}

/* ,"files":[{"name","size","sha256","content","encoding","content_omitted"}],
 * "files_omitted":N — content as text when it is UTF-8 without NUL (and
 * escaping it costs less than base64), else base64; null (content_omitted
 * true) when it was past the budget.  Both null when the sandbox did not
 * report (stopped first). */
int
sched_result_files_json (const sched_result_t *res, wb_buf_t *out)
{
  if (!res->has_files)
    return wb_buf_append_str (out, ",\"files\":null,\"files_omitted\":null");
  if (wb_buf_append_str (out, ",\"files\":[") < 0)
    return -1;
  for (uint32_t i = 0; i < res->n_files_out; i++)
    {
      const sched_file_out_t *f = &res->files_out[i];
      const char *p = f->content ? f->content : "";
      bool text = f->content && text_is_smaller (p, f->content_len);

      if (wb_buf_append_str (out, i ? ",{\"name\":" : "{\"name\":") < 0
          || wb_json_append_string (out, f->name, strlen (f->name)) < 0
          || wb_buf_printf (out, ",\"size\":%llu,\"sha256\":\"%s\",\"content\":",
                            (unsigned long long) f->size, f->sha256)
                 < 0)
        return -1;
      if (f->content == NULL)
        {
          if (wb_buf_append_str (out, "null,\"encoding\":null,\"content_omitted\":true}") < 0)
            return -1;
          continue;
        }
      if ((text ? wb_json_append_string (out, p, f->content_len)
           : (wb_buf_append_str (out, "\"") < 0 || wb_base64_encode (out, p, f->content_len) < 0
              || wb_buf_append_str (out, "\"") < 0)
               ? -1
               : 0)
              < 0
          || wb_buf_printf (out, ",\"encoding\":\"%s\",\"content_omitted\":false}",
                            text ? "utf-8" : "base64")
                 < 0)
        return -1;
    }
  return wb_buf_printf (out, "],\"files_omitted\":%u", res->files_omitted);
}

int
sched_result_json (const sched_result_t *res, wb_buf_t *out, wb_err_t *err)
{
  if (wb_buf_printf (out, "{\"id\":\"%s\",\"language\":\"%s\",\"status\":\"%s\"", res->id,
                     res->language, sched_status_name (res->status))
      < 0)
    goto nomem;
  if ((res->exit_code >= 0 ? wb_buf_printf (out, ",\"exit_code\":%d", res->exit_code)
                           : wb_buf_append_str (out, ",\"exit_code\":null"))
      < 0)
    goto nomem;
  if (sched_append_stream (out, "stdout", &res->out) < 0
      || sched_append_stream (out, "stderr", &res->err) < 0
      || (res->combined_output && sched_result_output_json (res, out) < 0))
    goto nomem;
  if (wb_buf_printf (out,
                     ",\"stdout_truncated\":%s,\"stderr_truncated\":%s,\"duration_ms\":%llu,"
                     "\"total_ms\":%llu,\"code_sha256\":\"%s\",\"pool_hit\":%s",
                     res->out_truncated ? "true" : "false", res->err_truncated ? "true" : "false",
                     (unsigned long long) res->duration_ms, (unsigned long long) res->total_ms,
                     res->code_sha256, res->pool_hit ? "true" : "false")
      < 0)
    goto nomem;
  if ((res->has_usage ? wb_buf_printf (
           out,
           ",\"usage\":{\"peak_memory_bytes\":%llu,\"cpu_user_ms\":%.3f,"
           "\"cpu_system_ms\":%.3f}",
           (unsigned long long) res->peak_memory_kib * 1024, (double) res->cpu_user_us / 1000.0,
           (double) res->cpu_system_us / 1000.0)
                      : wb_buf_append_str (out, ",\"usage\":null"))
      < 0)
    goto nomem;
  if (sched_result_files_json (res, out) < 0 || sched_result_compile_json (res, out) < 0)
    goto nomem;
  if (res->error
      && (wb_buf_append_str (out, ",\"error\":") < 0
          || wb_json_append_string (out, res->error, strlen (res->error)) < 0))
    goto nomem;
  if (wb_buf_append_str (out, "}\n") < 0)
    goto nomem;
  return 0;
nomem:
  /* Every step above only appends: memory is all it can run out of. */
  return wb_error (err, WB_E_NOMEM, "out of memory encoding the result of %s (%zu bytes so far)",
                   res->id, out->len);
}
