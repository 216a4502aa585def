/* scheduler/scheduler.h: warmboxd's internals, shared by the files of
 * scheduler/ only.  Other modules never include this. */
#ifndef WARMBOX_SCHED_H
#define WARMBOX_SCHED_H

#include "warmbox/engine.h"
#include "warmbox/pool.h"
#include "warmbox/profile.h"
#include "warmbox/store.h"
#include "warmbox/wb.h"

struct event_base;
struct evhttp;

/* ---- configuration (config.c) ---------------------------------------- */

#define SCHED_MAX_LISTEN 8
#define SCHED_MAX_POOL_CFG 32
#define SCHED_MAX_TOKENS 64

/* tokens[]: an API client.  The token itself is never stored. */
typedef struct sched_token
{
  char name[65];
  unsigned char hash[32]; /* SHA-256 of the bearer token */
  double rate;            /* executions per second, sustained */
  double burst;           /* executions at once after a quiet spell */
  uint32_t max_concurrent;
} sched_token_t;

/* pools.<language> (or pools.default) */
typedef struct sched_pool_config
{
  char language[33];
  uint32_t min_ready, max_ready;
} sched_pool_config_t;

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
  uint32_t max_containers;        /* global cap: created + running */
  uint32_t create_concurrency;    /* pool creates in flight */
  uint32_t queue_max;             /* requests waiting per pool */
  uint32_t image_refresh_ms;      /* how often image tags are re-resolved */
  char *store_path;               /* NULL: store_default_path () */
  uint32_t store_retention_days;
  uint32_t store_max_backlog;
  sched_pool_config_t pool_default;
  sched_pool_config_t pools[SCHED_MAX_POOL_CFG];
  size_t n_pools;
  sched_token_t tokens[SCHED_MAX_TOKENS];
  size_t n_tokens;
} sched_config_t;

int sched_token_add (sched_config_t *cfg, const char *name, const char *sha256_hex, double rate,
                     double burst, uint32_t max_concurrent, wb_err_t *err);

/* ---- authentication and per-token limits (auth.c) -------------------- */

typedef struct sched_token_state
{
  double tokens;        /* the bucket */
  uint64_t last_us;
  uint32_t in_flight;   /* executions running for this token */
} sched_token_state_t;

typedef struct sched_auth
{
  sched_token_state_t state[SCHED_MAX_TOKENS];
  size_t n;
} sched_auth_t;

void sched_auth_init (sched_auth_t *a, const sched_config_t *cfg);
/* The token an "Authorization: Bearer ..." header names, or NULL with err
 * (WB_E_UNAUTHORIZED).  Constant time in the token compared. */
const sched_token_t *sched_auth_check (const sched_config_t *cfg, const char *authorization,
                                       size_t *index, wb_err_t *err);
/* Take one execution from the token's bucket: 0 when allowed, else the
 * seconds until it would be. */
double sched_auth_take (sched_auth_t *a, const sched_token_t *t, size_t index);
/* An execution of the token named NAME ended (the name survives reloads
 * that reorder or drop tokens; a dropped token is simply not found). */
void sched_auth_release (sched_auth_t *a, const sched_config_t *cfg, const char *name);
/* Tokens reloaded from FRESH: a token kept by name keeps its bucket (capped
 * at its new burst) and its executions in flight; a new one starts full. */
void sched_auth_reload (sched_auth_t *a, const sched_config_t *old, const sched_config_t *fresh);

/* The sizes configured for a language (its own entry, else the default). */
const sched_pool_config_t *sched_config_pool (const sched_config_t *cfg, const char *language);

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
  char client[65];       /* the token's name, "" without tokens */
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
/* True when a JSON string in body holds the escape \u0000 (cJSON would cut
 * the string there silently).  Pure. */
bool sched_json_has_nul_escape (const char *body, size_t len);

/* ---- Piston-compatible API (piston.c) -------------------------------- */

typedef struct sched_result sched_result_t;

/* POST /api/v2/execute, translated into a /v1/executions body (which
 * sched_request_parse then validates, so both APIs share every limit).
 * Pure: no I/O, fuzzed.  -1 with err (400/404) on a bad request. */
int sched_piston_translate (const char *body, size_t len, const prof_set_t *profiles,
                            wb_buf_t *v1_body, wb_err_t *err);
/* GET /api/v2/runtimes. */
int sched_piston_runtimes_json (const prof_set_t *profiles, wb_buf_t *out);
/* The execute response: {language, version, run{stdout, stderr, output,
 * code, signal, message, status, wall_time}}. */
int sched_piston_result_json (const sched_result_t *res, const char *version, wb_buf_t *out);
/* Piston's semver-looking version of a profile ("3.11" -> "3.11.0"). */
void sched_piston_version (const prof_t *profile, char *out, size_t size);

/* The stdin frame of DESIGN.md step 4, with the program's arguments:
 *   "<code length>[ <arg length>...]\n<code><arg><arg>...<stdin>"
 * (without args it is exactly "<len>\n<code><stdin>").  Arguments travel
 * in the frame, not in the container's command, so a request with args
 * can take a pooled container.  Lengths are decimal byte counts; the
 * header is at most SCHED_FRAME_HEADER_MAX bytes.  Pure. */
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
  char stdin_sha256[65];
  uint64_t code_bytes, stdin_bytes;
  uint32_t arg_count;
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

/* ---- start gate (startgate.c) ---------------------------------------- */

typedef struct start_waiter start_waiter_t;
typedef void (*startgate_cb) (void *arg);

typedef struct startgate
{
  uint32_t limit, in_flight, queued;
  start_waiter_t *head, *tail;
  int direction;
  uint64_t window_start_us;
  uint32_t window_done;
  double last_tput;
  bool saw_backlog;
  uint64_t completed;
} startgate_t;

void startgate_init (startgate_t *g, uint32_t initial);
/* Admit now (returns 1), or queue (returns 0, *w set, cb runs when a slot
 * frees), or -1 on allocation failure. */
int startgate_enter (startgate_t *g, startgate_cb cb, void *arg, start_waiter_t **w);
void startgate_cancel (startgate_t *g, start_waiter_t *w);
/* A start finished (either way); may admit queued ones. */
void startgate_leave (startgate_t *g);
void startgate_clear (startgate_t *g);

/* ---- metrics (metrics.c) --------------------------------------------- */

#define METRICS_BUCKETS 13
#define METRICS_MAX_LANGS 32

typedef enum metrics_hist
{
  M_QUEUE_WAIT,
  M_START,
  M_RUN,
  M_TOTAL,
  METRICS_N_HIST
} metrics_hist_t;

typedef struct metrics_lang
{
  char language[33];
  struct
  {
    uint64_t bucket[METRICS_BUCKETS];
    uint64_t count;
    double sum;
  } hist[METRICS_N_HIST];
  const char *status_name[8];
  uint64_t status_count[8];
} metrics_lang_t;

typedef struct metrics
{
  metrics_lang_t langs[METRICS_MAX_LANGS];
  size_t n_langs;
} metrics_t;

void metrics_observe (metrics_t *m, const char *language, metrics_hist_t h, double seconds);
/* status must be a static string. */
void metrics_count_status (metrics_t *m, const char *language, const char *status);
int metrics_render (const metrics_t *m, const pool_stats_t *pools, size_t n_pools,
                    const startgate_t *gate, size_t running, wb_buf_t *out);

/* ---- daemon context (main.c / exec.c) -------------------------------- */

struct sched_ctx
{
  struct event_base *base;
  sched_config_t cfg;
  prof_set_t *profiles;
  eng_t *eng;
  char instance_id[33];
  size_t n_running;   /* executions in flight */
  bool draining;      /* SIGTERM seen: refuse new work */
  bool engine_ok;     /* last ping answered */
  /* Image ids resolved per profile (same order as profiles->items). */
  char **image_ids;
  pool_mgr_t *pools;
  store_t *store;
  sched_auth_t auth;
  char engine_desc[160]; /* recorded with each execution */
  startgate_t gate;
  metrics_t metrics;
  /* Profile sets replaced by SIGHUP: requests admitted before it still
   * point into them.  Freed when nothing runs. */
  prof_set_t *retired[16];
  size_t n_retired;
};

/* (Re)make the pool of profile i for its resolved image id. */
void sched_pool_update (sched_ctx_t *ctx, size_t i);

/* Resolve (or re-resolve) every profile's image id.  Async; done is called
 * on the loop when all answered. */
void sched_images_refresh (sched_ctx_t *ctx);

/* ---- self-confinement (confine.c) ------------------------------------ */

/* Deny warmboxd itself execve, ptrace, mount, module, kexec and namespace
 * calls (EPERM), in every thread.  -1 with err if the filter cannot load. */
int sched_confine (wb_err_t *err);

/* ---- HTTP API (http.c) ----------------------------------------------- */

/* Bind every configured listener and route the API.  -1 with err naming the
 * listener that failed. */
int sched_http_start (sched_ctx_t *ctx, struct evhttp **out, wb_err_t *err);
/* Append the JSON body of a result.  -1 on allocation failure. */
int sched_result_json (const sched_result_t *res, wb_buf_t *out);

#endif
