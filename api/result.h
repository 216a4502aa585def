/* api/result.h: a result's /v1 JSON, and the parts of it that Piston
 * (piston.c) shares (result.c).  Pure; each appends to out and
 * returns -1 only when memory runs out (out then holds a part: the caller
 * drops it). */
#ifndef WARMBOX_API_RESULT_H
#define WARMBOX_API_RESULT_H

#include "exec/exec.h"

/* Append the /v1 JSON body of a result.  -1 with err (WB_E_NOMEM) when
 * memory runs out; out may then hold part of it. */
WB_MUST_CHECK int sched_result_json (const sched_result_t *res, wb_buf_t *out, wb_err_t *err);
/* Append ,"files":[...],"files_omitted":N (both null when the sandbox did
 * not report) to out. */
WB_MUST_CHECK int sched_result_files_json (const sched_result_t *res, wb_buf_t *out);
/* Append ,"compile":{status, exit_code, signal, stdout, stderr,
 * duration_ms, truncated} (null when the profile has no compile stage or
 * the sandbox did not report) to out, with "output" when the request asked
 * for it. */
WB_MUST_CHECK int sched_result_compile_json (const sched_result_t *res, wb_buf_t *out);
/* Append ,"<name>":"<data>","<name>_encoding":"utf-8"|"base64" to out (base64
 * when data is not UTF-8 or holds NUL). */
WB_MUST_CHECK int sched_append_stream (wb_buf_t *out, const char *name, const wb_buf_t *data);
/* Append ,"output":"<stdout and stderr as they came>","output_encoding":...
 * to out (sched_append_stream's form). */
WB_MUST_CHECK int sched_result_output_json (const sched_result_t *res, wb_buf_t *out);

#endif
