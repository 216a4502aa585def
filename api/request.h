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
/* True when a JSON string in body holds the escape \u0000 (cJSON would cut
 * the string there silently). */
bool sched_json_has_nul_escape (const char *body, size_t len);

#endif
