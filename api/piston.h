/* api/piston.h: the Piston-compatible API (piston.c).  Pure: no
 * I/O; fuzzed. */
#ifndef WARMBOX_SCHED_PISTON_H
#define WARMBOX_SCHED_PISTON_H

#include "exec/exec.h"

/* POST /api/v2/execute into a request, built by sched_request_build from
 * Piston's fields, so that both APIs share every check and limit.  -1
 * with err (400, 404 unknown runtime, 413) and *out cleared. */
WB_MUST_CHECK int sched_piston_parse (const char *body, size_t len, const prof_set_t *profiles,
                                      sched_request_t *out, wb_err_t *err);
/* GET /api/v2/runtimes.  -1 with err (WB_E_NOMEM) when memory runs out. */
WB_MUST_CHECK int sched_piston_runtimes_json (const prof_set_t *profiles, wb_buf_t *out,
                                              wb_err_t *err);
/* The execute response: {language, version, run{stdout, stderr, output,
 * code, signal, message, status, wall_time}}.  -1 with err (WB_E_NOMEM)
 * when memory runs out; out may then hold part of it. */
WB_MUST_CHECK int sched_piston_result_json (const sched_result_t *res, const char *version,
                                            wb_buf_t *out, wb_err_t *err);
/* Piston's semver-looking version of a profile ("3.11" -> "3.11.0"). */
void sched_piston_version (const prof_t *profile, char *out, size_t size);

#endif
