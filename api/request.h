/* api/request.h: POST /v1/executions bodies into requests (request.c).
 * Pure: no I/O; fuzzed. */
#ifndef WARMBOX_API_REQUEST_H
#define WARMBOX_API_REQUEST_H

#include "exec/request.h"

/* Parse and validate POST /v1/executions.
 * On error returns -1, *out is left cleared, err->code says which HTTP
 * status (400 bad input, 404 unknown language, 413 code too large). */
WB_MUST_CHECK int sched_request_parse (const char *body, size_t len, const prof_set_t *profiles,
                                       sched_request_t *out, wb_err_t *err);
/* A session's call: its body may leave "language" out (or name the
 * session's, an alias included: another is 400), and the session's
 * limits are the defaults the body's override. */
typedef struct sched_request_defaults
{
  const char *language;
  uint32_t timeout_ms, memory_mb; /* 0: the profile's */
} sched_request_defaults_t;
WB_MUST_CHECK int sched_request_parse_with (const char *body, size_t len,
                                            const prof_set_t *profiles,
                                            const sched_request_defaults_t *defaults,
                                            sched_request_t *out, wb_err_t *err);

/* POST /v1/sessions: {"language": str, "timeout_ms"?: int, "memory_mb"?:
 * int, "idle_ttl_s"?: int}, checked against the language's maximums.
 * -1 with err (400, 404 unknown language). */
typedef struct sched_session_spec
{
  const prof_t *profile;
  uint32_t timeout_ms, memory_mb, idle_ttl_s; /* 0: not given */
} sched_session_spec_t;
WB_MUST_CHECK int sched_session_spec_parse (const char *body, size_t len,
                                            const prof_set_t *profiles, sched_session_spec_t *out,
                                            wb_err_t *err);
/* True when a JSON string in body holds the escape \u0000 (cJSON would cut
 * the string there silently). */
bool sched_json_has_nul_escape (const char *body, size_t len);

#endif
