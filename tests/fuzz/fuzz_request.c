/* Fuzz POST /v1/executions parsing and validation, and the result encoder
 * on whatever bytes a parse produced. */
#include "http.h"
#include "request.h"

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
      if (req.code == NULL || req.profile == NULL || req.limits.timeout_ms > req.profile->max.timeout_ms
          || req.limits.memory_mb > req.profile->max.memory_mb || req.code_len > req.profile->max.code_bytes)
        abort ();
      sched_result_t res;
      wb_buf_t out = WB_BUF_INIT;
      memset (&res, 0, sizeof res);
      res.language = req.profile->language;
      wb_buf_append (&res.out, req.code, req.code_len);
      wb_buf_append (&res.err, req.stdin_data, req.stdin_len);
      sched_result_json (&res, &out);
      wb_buf_free (&out);
      wb_buf_free (&res.out);
      wb_buf_free (&res.err);
      sched_request_clear (&req);
    }
  return 0;
}
