/* scheduler/request.h: POST /v1/executions bodies and the stdin frame
 * (request.c).  Pure: no I/O; fuzzed. */
#ifndef WARMBOX_SCHED_REQUEST_H
#define WARMBOX_SCHED_REQUEST_H

#include "warmbox/profile.h"
#include "warmbox/wb.h"

#define SCHED_MAX_ARGS 256
#define SCHED_MAX_ARG_BYTES 4096
#define SCHED_MAX_ARGS_TOTAL (64 * 1024)

/* A validated execution request.  Owns every pointer. */
typedef struct sched_request
{
  const prof_t *profile; /* borrowed from the daemon's profile set */
  char client[65];       /* the token's name, "" without tokens */
  char *code;
  size_t code_len;
  char *stdin_data;
  size_t stdin_len;
  char **args;
  size_t n_args;
  prof_limits_t limits; /* profile defaults with the request's overrides */
} sched_request_t;

/* Parse and validate POST /v1/executions.
 * On error returns -1, *out is left cleared, err->code says which HTTP
 * status (400 bad input, 404 unknown language, 413 code too large). */
int sched_request_parse (const char *body, size_t len, const prof_set_t *profiles,
                         sched_request_t *out, wb_err_t *err);
/* Free what the request owns, wiping code, args and stdin first.  A
 * cleared request may be cleared again. */
void sched_request_clear (sched_request_t *req);
/* True when a JSON string in body holds the escape \u0000 (cJSON would cut
 * the string there silently). */
bool sched_json_has_nul_escape (const char *body, size_t len);

/* The stdin frame of DESIGN.md step 4, with the program's arguments:
 *   "<code length>[ <arg length>...]\n<code><arg><arg>...<stdin>"
 * (without args it is exactly "<len>\n<code><stdin>").  Arguments travel
 * in the frame, not in the container's command, so a request with args
 * can take a pooled container.  Lengths are decimal byte counts; the
 * header is at most SCHED_FRAME_HEADER_MAX bytes. */
#define SCHED_FRAME_HEADER_MAX 4096
int sched_frame_build (const char *code, size_t code_len, char *const *args, size_t n_args,
                       const char *in, size_t in_len, wb_buf_t *out);

typedef struct sched_frame
{
  size_t code_off, code_len;
  size_t n_args;
  size_t arg_off[SCHED_MAX_ARGS]; /* each argument's bytes */
  size_t arg_len[SCHED_MAX_ARGS];
  size_t stdin_off;               /* where the program's own stdin begins */
} sched_frame_t;

/* Inverse, for tests and fuzzing: 1 with f filled, 0 if incomplete, -1 if
 * malformed (not digits, more than SCHED_MAX_ARGS, a header too long). */
int sched_frame_parse (const char *buf, size_t len, sched_frame_t *f);

#endif
