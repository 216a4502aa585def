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

/* A request as its fields, before any check: what a /v1 body says once
 * its JSON is read, or what another API's handler built (Piston's body,
 * an E2B call), so that every API shares one validator and no request
 * is printed to JSON to be parsed again.  Its allocations (code, stdin,
 * args, files, filename) are taken by sched_request_build whatever
 * comes; sched_request_fields_clear frees (wiping) what was not. */
typedef struct sched_request_limit
{
  bool given;
  double value; /* a whole number of at least the field's minimum: checked by build */
} sched_request_limit_t;
typedef struct sched_request_fields
{
  const char *language; /* a profile's name; NULL: the defaults' (else 400) */
  char *code;           /* code_len bytes and a NUL; NULL: 400 */
  size_t code_len;
  char *stdin_data; /* NULL: none */
  size_t stdin_len;
  char **args; /* n_args strings */
  size_t n_args;
  sched_file_t *files; /* names and contents (sha256 is build's) */
  size_t n_files;
  char *filename; /* the program's own file name; NULL: the language's default */
  sched_request_limit_t timeout_ms, memory_mb, compile_timeout_ms, compile_memory_mb;
  bool combined_output;
} sched_request_fields_t;
/* Validate f (within the defaults d, or the profile's when NULL) into
 * *out, taking f's allocations (f is left empty).  -1 with err (400, 404
 * unknown language, 413 past a size) and *out cleared. */
WB_MUST_CHECK int sched_request_build (sched_request_fields_t *f, const prof_set_t *profiles,
                                       const sched_request_defaults_t *d, sched_request_t *out,
                                       wb_err_t *err);
/* Free (wiping) what f still holds.  Can't fail; an empty f is a no-op. */
void sched_request_fields_clear (sched_request_fields_t *f);

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
