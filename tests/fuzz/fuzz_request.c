/* Fuzz POST /v1/executions parsing and validation (the program's own
 * filename included), and the result encoder on whatever bytes a parse
 * produced. */
#include "api/http.h"
#include "api/request.h"
#include "api/result.h"

#include <string.h>

static prof_set_t *profiles;

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  sched_request_t req;
  wb_err_t err;

  if (profiles == NULL && prof_load_dir (WB_DEFAULT_PROFILES_DIR, &profiles, &err) < 0)
    abort ();
  if (sched_request_parse ((const char *) data, size, profiles, &req, &err) == 0)
    {
      if (req.code == NULL || req.profile == NULL
          || req.limits.timeout_ms > req.profile->max.timeout_ms
          || req.limits.memory_mb > req.profile->max.memory_mb
          || req.code_len > req.profile->max.code_bytes)
        abort ();
      /* The program's own name: one its language takes, no given file's,
       * and framed whole. */
      if (req.filename)
        {
          wb_buf_t frame = WB_BUF_INIT;
          sched_frame_t fr;
          if (sched_program_name_check (req.profile, req.filename, "filename", &err) < 0)
            abort ();
          for (size_t i = 0; i < req.n_files; i++)
            if (strcmp (req.filename, req.files[i].name) == 0)
              abort ();
          if (sched_frame_build (req.filename, req.code, req.code_len, req.args, req.n_args,
                                 req.files, req.n_files, req.stdin_data, req.stdin_len, &frame)
                  < 0
              || sched_frame_parse (frame.data, frame.len, &fr) != 1
              || fr.code_name_len != strlen (req.filename))
            abort ();
          wb_buf_free (&frame);
        }
      sched_result_t res;
      wb_buf_t out = WB_BUF_INIT;
      memset (&res, 0, sizeof res);
      res.language = req.profile->language;
      if (wb_buf_append (&res.out, req.code, req.code_len) < 0
          || wb_buf_append (&res.err, req.stdin_data, req.stdin_len) < 0
          || sched_result_json (&res, &out, &err) < 0)
        abort (); /* memory is all it can lack */
      wb_buf_free (&out);
      wb_buf_free (&res.out);
      wb_buf_free (&res.err);
      sched_request_clear (&req);
    }
  return 0;
}
