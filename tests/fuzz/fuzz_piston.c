/* Fuzz POST /api/v2/execute: the Piston body is parsed into a request
 * (accepted whole or refused with an error, never half-built); the Piston
 * result encoder runs on what a parse produced. */
#include "api/piston.h"
#include "api/request.h"

#include <cjson/cJSON.h>
#include <string.h>

static prof_set_t *profiles;

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const sched_request_t cleared;
  sched_request_t req;
  sched_result_t res;
  wb_buf_t out = WB_BUF_INIT;
  cJSON *check;
  wb_err_t err;

  if (profiles == NULL && prof_load_dir (WB_DEFAULT_PROFILES_DIR, &profiles, &err) < 0)
    abort ();
  if (sched_piston_parse ((const char *) data, size, profiles, &req, &err) < 0)
    {
      if (memcmp (&req, &cleared, sizeof req) != 0)
        abort (); /* refused: nothing half-built is left */
      return 0;
    }
  /* A program name taken is one its language takes, and no given file
   * has it. */
  if (req.filename && sched_program_name_check (req.profile, req.filename, "filename", &err) < 0)
    abort ();
  for (size_t i = 0; req.filename && i < req.n_files; i++)
    if (strcmp (req.filename, req.files[i].name) == 0)
      abort ();
  memset (&res, 0, sizeof res);
  res.language = req.profile->language;
  res.status = (sched_status_t) (req.code_len % 5);
  res.exit_code = (int) (req.stdin_len % 3) - 1;
  if (wb_buf_append (&res.out, req.code, req.code_len) < 0
      || wb_buf_append (&res.err, req.stdin_data, req.stdin_len) < 0
      || sched_piston_result_json (&res, "3.11.0", &out, &err) < 0)
    abort ();
  check = cJSON_ParseWithLength (out.data, out.len);
  if (check == NULL)
    abort (); /* lossy text, but always JSON */
  cJSON_Delete (check);
  wb_buf_free (&out);
  wb_buf_free (&res.out);
  wb_buf_free (&res.err);
  sched_request_clear (&req);
  return 0;
}
