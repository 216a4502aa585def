/* scheduler/scheduler.h: warmboxd's internals, shared by the files of
 * scheduler/ only.  Other modules never include this. */
#ifndef WARMBOX_SCHED_H
#define WARMBOX_SCHED_H

#include "warmbox/engine.h"
#include "warmbox/profile.h"
#include "warmbox/wb.h"

struct event_base;
struct evhttp;

/* ---- configuration (config.c) ---------------------------------------- */

#define SCHED_MAX_LISTEN 8

typedef struct sched_config
{
  char *listen[SCHED_MAX_LISTEN]; /* "unix:/path.sock" or "host:port" */
  size_t n_listen;
  char *engine_endpoint;          /* NULL: DOCKER_HOST, else the default socket */
  char *engine_tls_ca, *engine_tls_cert, *engine_tls_key;
  char *profiles_dir;
  bool insecure_no_auth;
  uint32_t max_concurrent;        /* executions in flight before 503 */
  uint32_t shutdown_grace_ms;
  uint64_t max_body_bytes;
} sched_config_t;

/* Defaults good enough to run with no file.  Can't fail except on memory. */
int sched_config_defaults (sched_config_t *cfg, wb_err_t *err);
/* Overlay a JSON config file; unknown keys are errors (typos must not pass
 * silently).  -1 with the file and key in err. */
int sched_config_load (sched_config_t *cfg, const char *path, wb_err_t *err);
/* Same, from memory (fuzzed). */
int sched_config_parse (sched_config_t *cfg, const char *json, size_t len, wb_err_t *err);
int sched_config_add_listen (sched_config_t *cfg, const char *addr, wb_err_t *err);
void sched_config_clear (sched_config_t *cfg);

/* ---- requests (request.c) -------------------------------------------- */

#define SCHED_MAX_ARGS 256
#define SCHED_MAX_ARG_BYTES 4096
#define SCHED_MAX_ARGS_TOTAL (64 * 1024)

/* A validated execution request.  Owns every pointer. */
typedef struct sched_request
{
  const prof_t *profile; /* borrowed from the daemon's profile set */
  char *code;
  size_t code_len;
  char *stdin_data;
  size_t stdin_len;
  char **args;
  size_t n_args;
  prof_limits_t limits; /* profile defaults with the request's overrides */
} sched_request_t;

/* Parse and validate POST /v1/executions.  Pure: no I/O, fuzzed.
 * On error returns -1, *out is left cleared, err->code says which HTTP
 * status (400 bad input, 404 unknown language, 413 code too large). */
int sched_request_parse (const char *body, size_t len, const prof_set_t *profiles,
                         sched_request_t *out, wb_err_t *err);
void sched_request_clear (sched_request_t *req);

/* The stdin frame of DESIGN.md step 4: "<len>\n<code><stdin>".  Pure. */
int sched_frame_build (const char *code, size_t code_len, const char *in, size_t in_len,
                       wb_buf_t *out);
/* Inverse, for tests and fuzzing: returns 1 with the code span set, 0 if
 * incomplete, -1 if malformed. */
int sched_frame_parse (const char *buf, size_t len, size_t *code_off, size_t *code_len);

/* ---- executions (exec.c) --------------------------------------------- */

typedef enum sched_status
{
  SCHED_ST_OK,           /* the program ran and exited; see exit_code */
  SCHED_ST_ERROR,        /* the sandbox failed after the program started */
  SCHED_ST_TIMEOUT,      /* killed at the wall-clock deadline */
  SCHED_ST_OOM,          /* killed by the kernel at the memory limit */
  SCHED_ST_OUTPUT_LIMIT, /* killed when a stream passed its cap */
} sched_status_t;

const char *sched_status_name (sched_status_t st);

typedef struct sched_result
{
  char id[37];           /* execution id (uuid form) */
  sched_status_t status;
  int exit_code;         /* -1 when the program never exited by itself */
  wb_buf_t out, err;     /* captured stdout / stderr (capped) */
  bool out_truncated, err_truncated;
  uint64_t duration_ms;  /* start sent -> exit seen */
  uint64_t total_ms;     /* request admitted -> result */
  char code_sha256[65];
  const char *language;
  bool pool_hit;
  const char *error;     /* a client-safe sentence when status is ERROR */
} sched_result_t;

typedef struct sched_ctx sched_ctx_t;
typedef struct sched_exec sched_exec_t;

/* Called once, on the loop: either res (the execution ran, whatever its
 * status) or err (it could not run: engine down, image missing ...). */
typedef void (*sched_exec_done_cb) (void *arg, const sched_result_t *res, const wb_err_t *err);

/* Start an execution.  Takes ownership of *req (cleared on return, success
 * or not).  Returns NULL with err set when it cannot even begin (busy,
 * shutting down, engine known down). */
sched_exec_t *sched_exec_start (sched_ctx_t *ctx, sched_request_t *req, sched_exec_done_cb cb,
                                void *arg, wb_err_t *err);
/* The client went away: no callback will run; the container is killed and
 * removed as soon as the engine allows.  Can't fail. */
void sched_exec_cancel (sched_exec_t *ex);

/* ---- daemon context (main.c / exec.c) -------------------------------- */

struct sched_ctx
{
  struct event_base *base;
  sched_config_t cfg;
  prof_set_t *profiles;
  eng_t *eng;
  char instance_id[33];
  uint32_t next_uid;
  size_t n_running;   /* executions in flight */
  size_t n_cleanup;   /* container removals in flight */
  bool draining;      /* SIGTERM seen: refuse new work */
  bool engine_ok;     /* last ping answered */
  /* Image ids resolved per profile (same order as profiles->items). */
  char **image_ids;
};

/* Resolve (or re-resolve) every profile's image id.  Async; done is called
 * on the loop when all answered. */
void sched_images_refresh (sched_ctx_t *ctx);

/* ---- HTTP API (http.c) ----------------------------------------------- */

/* Bind every configured listener and route the API.  -1 with err naming the
 * listener that failed. */
int sched_http_start (sched_ctx_t *ctx, struct evhttp **out, wb_err_t *err);
/* Append the JSON body of a result.  -1 on allocation failure. */
int sched_result_json (const sched_result_t *res, wb_buf_t *out);

#endif
