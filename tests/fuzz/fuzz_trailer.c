/* Fuzz the daemon's parser of the sandbox init's trailer (the compile
 * stage and the order of its two streams, files, a session's section, the
 * init's timeout, usage): whatever the bytes, it accepts a whole trailer or refuses with
 * the result untouched; what it accepts holds what it must (names UTF-8,
 * content as long as the size says, at most 64 files, an order that covers
 * the compiler's output exactly), and renders as JSON, with the combined
 * output. */
#include "exec/exec.h"

#include <cjson/cJSON.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
#include "api/result.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char nonce[33] = "0123456789abcdef0123456789abcdef";
  sched_result_t res;

  memset (&res, 0, sizeof res);
  if (sched_trailer_parse ((const char *) data, size, nonce, &res) < 0)
    {
      if (res.has_files || res.has_usage || res.files_out || res.has_compile || res.compile_out.data
          || res.compile_err.data || res.run_timed_out || res.compile_order.known
          || res.compile_order.segs.data || res.has_session || res.session_gone
          || res.session_state.data || res.session_notes.data)
        abort (); /* refused, yet the result changed */
      return 0;
    }
  if (!res.has_files || !res.has_usage || res.n_files_out > 64)
    abort ();
  if (!res.has_compile && (res.compile_out.len || res.compile_err.len || res.compile_order.known))
    abort ();
  {
    /* The order lays out every byte of the compiler's output, once. */
    wb_buf_t both = WB_BUF_INIT;
    if (sched_order_render (&res.compile_order, res.compile_out.data, res.compile_out.len,
                            res.compile_err.data, res.compile_err.len, &both)
            < 0
        || both.len != res.compile_out.len + res.compile_err.len
        || (res.compile_order.known && sched_order_count (&res.compile_order) < 0))
      abort ();
    wb_buf_free (&both);
  }
  /* A session's section: names a session may hold, a state whole or only
   * its size, the notes within their bound. */
  if (res.has_session
      && (res.session_state_has < 0 || res.session_state_has > 2
          || (res.session_state.len && res.session_state.len != res.session_state_size)
          || (res.session_state_has != 1 && res.session_state_size)
          || res.session_notes.len > 4096))
    abort ();
  for (uint32_t i = 0; i < res.n_session_gone; i++)
    if (!sched_file_name_valid (res.session_gone[i], strlen (res.session_gone[i])))
      abort ();
  for (uint32_t i = 0; i < res.n_files_out; i++)
    {
      const sched_file_out_t *f = &res.files_out[i];
      if (f->name == NULL || !wb_utf8_valid (f->name, strlen (f->name))
          || (f->content && f->content_len != f->size) || strlen (f->sha256) != 64)
        abort ();
    }
  {
    wb_buf_t out = WB_BUF_INIT;
    cJSON *check;
    strcpy (res.id, "00000000-0000-0000-0000-000000000000");
    res.language = "python";
    res.combined_output = true;
    if (sched_result_json (&res, &out, NULL) < 0
        || (check = cJSON_ParseWithLength (out.data, out.len)) == NULL)
      abort ();
    cJSON_Delete (check);
    wb_buf_free (&out);
  }
  sched_result_files_free (&res);
  return 0;
}
