/* engine: warmbox's Docker Engine API client.
 *
 * One eng_t per engine (each engine node has its own), on one event base.
 * Requests go through one libcurl multi handle
 * driven by that base (curl's hiperfifo pattern); the hijacked attach stream
 * is a bufferevent on a socket of its own (plain or TLS).  Nothing here
 * blocks, and nothing here knows about pools, profiles or executions.
 *
 * Every engine failure is mapped once, here, to a wb_code_t:
 *   cannot connect / connection lost / timed out -> WB_E_ENGINE_DOWN
 *   404 from the engine                          -> WB_E_NOT_FOUND
 *   any other non-2xx                            -> WB_E_ENGINE
 *   a start answered 400, 404 or 409             -> also not_started (it did not run)
 * The engine's own message goes into err->msg, which is for the log only.
 * Callers read the code and the flags, never the status itself.
 *
 * Callbacks run on the event loop.  A callback may start new requests and may
 * cancel other requests; cancelling the request whose callback is running is
 * a no-op (it is freed when the callback returns).
 */
#ifndef WARMBOX_ENGINE_H
#define WARMBOX_ENGINE_H

#include "warmbox/wb.h"

struct event_base;
typedef struct eng eng_t;
typedef struct eng_req eng_req_t;
typedef struct eng_attach eng_attach_t;

typedef struct eng_config
{
  /* "unix:///var/run/docker.sock", "unix:/path", "tcp://host:port".  With
   * tls_cert set a tcp endpoint speaks TLS with that client certificate. */
  const char *endpoint;
  const char *tls_ca;      /* CA bundle to verify the engine; NULL: system CAs */
  const char *tls_cert;    /* client certificate (PEM) */
  const char *tls_key;     /* client key (PEM) */
  long request_timeout_ms; /* per request except wait; 0: 30 s */
} eng_config_t;

/* The paths every sandbox masks (Docker's list, moby oci/defaults.go,
 * which Debian's dockerd 20.10 predates in part), NULL-terminated: the
 * OCI helper writes them into its specs, the Docker body sends them as
 * HostConfig.MaskedPaths. */
extern const char *const eng_masked_paths[];

/* Resolve the endpoint: cfg_endpoint if not NULL/empty, else $DOCKER_HOST,
 * else unix:///var/run/docker.sock.  Never fails; the string is static or
 * belongs to the environment / caller. */
const char *eng_default_endpoint (const char *cfg_endpoint);
/* Did the engine answer and refuse the request as it was asked (a 4xx
 * other than 404: a body or setting it will not take), rather than fail,
 * go away or not find the object?  For err of one of this module's
 * requests. */
bool eng_err_refused (const wb_err_t *err);

/* Create a client.  Does no I/O.  The config strings are copied.
 * On error returns -1 with *out untouched (bad endpoint, no memory). */
WB_MUST_CHECK int eng_new (struct event_base *base, const eng_config_t *cfg, eng_t **out,
                           wb_err_t *err);
/* The bound of every request but a wait (eng_config_t.request_timeout_ms,
 * or its default), in ms.  Can't fail. */
long eng_request_timeout_ms (const eng_t *eng);
/* Cancel every pending request (their callbacks are not called), close every
 * attach stream and free the client.  NULL is a no-op. */
void eng_free (eng_t *eng);

/* What a finished request produced.  Which fields are set depends on the
 * operation; all pointers are valid only during the callback. */
typedef struct eng_result
{
  int rc;                      /* 0 or -1 */
  wb_err_t err;                /* set when rc < 0 */
  long http_status;            /* the engine's HTTP status, 0 if none (for logs and tests: the
                                * meaning of a status is mapped here, into err and the flags) */
  bool not_started;            /* start failed and the engine said so outright: the container
                                * did not start (any other failed start may have run) */
  const char *id;              /* create: container id; image inspect: image id */
  long exit_code;              /* wait: StatusCode; inspect: State.ExitCode */
  bool oom_killed;             /* inspect */
  bool running;                /* inspect */
  const char *api_version;     /* ping */
  const char *const *ids;      /* list: container ids */
  const char *const *values;   /* list: each one's value of the asked label, or NULL */
  size_t n_ids;                /* list */
  const char *const *runtimes; /* info: the engine's runtimes by name */
  size_t n_runtimes;
  const char *default_runtime, *server_version, *cgroup_version; /* info; may be NULL */
  const char
      *oci_runtime; /* info: warmbox-oci's native runtime ("crun version 1.8.1"); NULL on Docker */
  const char *engine_id;               /* info: the engine's own ID (Docker's); may be NULL */
  const char *const *security_options; /* info: SecurityOptions ("name=seccomp,...") */
  size_t n_security_options;
  bool podman;      /* ping: the engine is Podman's Docker-compatible service */
  const char *json; /* container inspect: the whole reply (not NUL-terminated) */
  size_t json_len;
} eng_result_t;

typedef void (*eng_cb) (void *arg, const eng_result_t *res);

/* Each operation returns a handle that stays valid until its callback has
 * returned or it is cancelled; NULL when the request could not even be
 * queued (no memory), in which case the callback is never called and err is
 * set.  The callback is always called exactly once otherwise. */

/* GET /_ping: negotiates the API version (min of engine's and ours). */
eng_req_t *eng_ping (eng_t *eng, eng_cb cb, void *arg, wb_err_t *err);
/* GET /images/{name}/json -> res->id = "sha256:...". */
eng_req_t *eng_image_inspect (eng_t *eng, const char *name, eng_cb cb, void *arg, wb_err_t *err);
/* POST /containers/create?name={name} with a JSON body -> res->id.  name
 * (NULL: the engine picks one) is the container's other handle: what the
 * caller may remove it by when the answer, and so its id, is lost. */
eng_req_t *eng_container_create (eng_t *eng, const char *name, const char *body_json, eng_cb cb,
                                 void *arg, wb_err_t *err);
/* POST /containers/{id}/start.  304 (already started) is an error: a pool
 * container must never be started twice. */
eng_req_t *eng_container_start (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err);
/* POST /containers/{id}/wait?condition=next-exit -> res->exit_code.  No
 * request timeout: it ends when the container exits.  The engine sends the
 * response head as soon as the wait is registered: armed (if not NULL) runs
 * then, on a later loop pass, and only then may start be sent without
 * racing a fast exit. */
typedef void (*eng_armed_cb) (void *arg);
eng_req_t *eng_container_wait (eng_t *eng, const char *id, eng_armed_cb armed, eng_cb cb, void *arg,
                               wb_err_t *err);
/* POST /containers/{id}/wait?condition=not-running: at once with the exit
 * code when the container is not running (exited, or never started),
 * else at its exit.  For waiting again on a container known to be
 * started: a program that exits between two waits is not missed, as it
 * is by next-exit. */
eng_req_t *eng_container_wait_stopped (eng_t *eng, const char *id, eng_cb cb, void *arg,
                                       wb_err_t *err);
/* POST /containers/{id}/kill?signal=SIG.  A container that is not running
 * (409) or gone (404) counts as success. */
eng_req_t *eng_container_kill (eng_t *eng, const char *id, const char *signal, eng_cb cb, void *arg,
                               wb_err_t *err);
/* GET /containers/{id}/json -> exit_code, oom_killed, running. */
eng_req_t *eng_container_inspect (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err);
/* DELETE /containers/{id}?force=1&v=1.  Already gone (404) counts as
 * success. */
eng_req_t *eng_container_remove (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err);
/* GET /containers/json?all=1&filters={"label":[label]} -> ids, and in
 * values each container's value of label value_key (may be NULL). */
eng_req_t *eng_container_list (eng_t *eng, const char *label, const char *value_key, eng_cb cb,
                               void *arg, wb_err_t *err);

/* GET /info -> runtimes, default_runtime, server_version, cgroup_version, oci_runtime,
 * engine_id, security_options. */
eng_req_t *eng_info (eng_t *eng, eng_cb cb, void *arg, wb_err_t *err);
/* GET /images/{name}/get: the image's archive (docker save) is written to
 * fd, a regular file the caller owns and keeps open until the callback.
 * A transfer stalled for 2 minutes, or longer than 30 minutes, fails
 * (WB_E_ENGINE_DOWN).  A failed write of fd (a full disk) or an archive
 * past 8 GiB is WB_E_IO. */
eng_req_t *eng_image_save (eng_t *eng, const char *name, int fd, eng_cb cb, void *arg,
                           wb_err_t *err);
/* POST /images/load with the archive read from fd (from its start, to its
 * size at the call).  The engine's error message, which comes in a 200
 * reply, is WB_E_ENGINE.  Stalled for 10 minutes, or longer than 30: fails.  The caller
 * verifies the result (image inspect by id): a load says what it loaded,
 * not that it is what was asked for. */
eng_req_t *eng_image_load (eng_t *eng, int fd, eng_cb cb, void *arg, wb_err_t *err);

/* Cancel: the callback will not be called.  NULL is a no-op; cancelling from
 * within the request's own callback is a no-op. */
void eng_req_cancel (eng_req_t *req);

/* ---- hijacked attach ------------------------------------------------- */

enum
{
  ENG_STREAM_STDIN = 0,
  ENG_STREAM_STDOUT = 1,
  ENG_STREAM_STDERR = 2,
  ENG_STREAM_EVENT = 3, /* warmbox-oci's run only: a line of what happened to the container */
};

typedef struct eng_attach_cbs
{
  /* The engine answered 101: stdin may be written, start may be sent. */
  void (*on_ready) (void *arg);
  /* Demultiplexed output. */
  void (*on_data) (void *arg, int stream, const char *data, size_t len);
  /* The stream ended: rc 0 on EOF after on_ready, -1 with err otherwise.
   * Called once; the attach must still be freed with eng_attach_free. */
  void (*on_end) (void *arg, int rc, const wb_err_t *err);
} eng_attach_cbs_t;

/* Open POST /containers/{id}/attach?stream=1&stdin=1&stdout=1&stderr=1 with
 * Upgrade: tcp.  Returns NULL with err set when the socket cannot even be
 * opened; otherwise exactly one of on_end follows (maybe after on_ready). */
eng_attach_t *eng_attach_open (eng_t *eng, const char *id, const eng_attach_cbs_t *cbs, void *arg,
                               wb_err_t *err);
/* Queue bytes for the container's stdin.  -1 if the stream is closed or
 * memory runs out. */
WB_MUST_CHECK int eng_attach_write (eng_attach_t *a, const void *data, size_t len);
/* Half-close stdin once everything queued is written (shutdown(SHUT_WR)),
 * which the container sees as EOF. */
void eng_attach_close_stdin (eng_attach_t *a);
/* Stop delivering output (the caller no longer wants it).  Can't fail. */
void eng_attach_pause (eng_attach_t *a);
/* Close the socket and free; no callback runs afterwards.  NULL is a no-op. */
void eng_attach_free (eng_attach_t *a);

/* ---- warmbox-oci's run: one exchange per hand-out ------------------- */

/* What a run tells besides the output, each a whole line without its
 * newline (docs/architecture.md, "The helper's run"):
 *   "started"             the program was let go
 *   "not-started <why>"   it was not, and never will be
 *   "start-failed <why>"  the start failed half-way: it may have run
 *   "exit <code> <oom>"   the container's init ended: its exit code, and
 *                         1 when the kernel killed a process of it for
 *                         memory, else 0
 * Unknown lines are for a later helper and are skipped by the caller. */
typedef void (*eng_event_cb) (void *arg, const char *line);

/* Open POST /warmbox/v1/containers/{id}/run, an upgraded stream like the
 * attach's, with the whole input frame[0..len) sent behind the request
 * head and stdin half-closed after it: the helper attaches the
 * container's streams, starts it, and sends its output (streams 1 and 2)
 * and its events (stream 3, on_event) on this one connection, which ends
 * after "exit" once the output has ended.  cbs->on_ready runs at the
 * helper's 101 (nothing to do then: the input is on its way).  The frame
 * is copied into the connection's buffer; the caller wipes its own.
 * Returns NULL with err set when the socket cannot even be opened;
 * otherwise exactly one on_end follows.  An answer other than 101 ends it
 * with err from that answer: eng_attach_status says which (the container
 * was then not started). */
eng_attach_t *eng_run_open (eng_t *eng, const char *id, const void *frame, size_t len,
                            const eng_attach_cbs_t *cbs, eng_event_cb on_event, void *arg,
                            wb_err_t *err);
/* One event line of a run (without its newline), taken apart: what it
 * says, and for "exit" the code (0..255) and the OOM flag, for
 * "not-started" and "start-failed" the reason (a pointer into line; ""
 * if none).  Pure;
 * fuzzed (tests/fuzz/fuzz_run_stream.c). */
typedef enum eng_run_event_kind
{
  ENG_RUN_STARTED,
  ENG_RUN_NOT_STARTED,
  ENG_RUN_START_FAILED,
  ENG_RUN_EXIT,
  ENG_RUN_OTHER, /* a line for a later helper: skipped */
  ENG_RUN_BAD,   /* an exit line that does not parse */
} eng_run_event_kind_t;

typedef struct eng_run_event
{
  eng_run_event_kind_t kind;
  int exit_code;
  bool oom;
  const char *why;
} eng_run_event_t;

eng_run_event_kind_t eng_run_event_parse (const char *line, eng_run_event_t *ev);

/* A run's event line gathered from its frame's pieces (as eng_demux_feed
 * gives them).  eng_event_line_add: 1 when piece data[0..len), the last of
 * its frame when frame_end, completed the line (l->line, NUL-terminated,
 * valid until the next add); 0 when more is to come; -1 when the line
 * passes ENG_EVENT_LINE_MAX bytes (the run is then malformed).  Pure;
 * fuzzed with the stream (tests/fuzz/fuzz_run_stream.c). */
#define ENG_EVENT_LINE_MAX 511
typedef struct eng_event_line
{
  char line[ENG_EVENT_LINE_MAX + 1];
  size_t len;
} eng_event_line_t;

WB_MUST_CHECK int eng_event_line_add (eng_event_line_t *l, const char *data, size_t len,
                                      bool frame_end);

/* The HTTP status of the answer's head (101 once upgraded), 0 before one
 * came, -1 when the connection was never made (nothing reached the
 * engine).  Can't fail. */
int eng_attach_status (const eng_attach_t *a);

/* ---- pure protocol helpers (no I/O; fuzzed) -------------------------- */

/* Parse the HTTP response head of a hijack request in buf[0..len).
 * Returns 1 when the head is complete (*status and *head_len set: bytes past
 * head_len are stream data), 0 when more bytes are needed, -1 when the bytes
 * are not an HTTP response head or the head exceeds 16 KiB. */
WB_MUST_CHECK int eng_hijack_parse_head (const char *buf, size_t len, int *status,
                                         size_t *head_len);

/* The 8-byte-header multiplexed stream: [type, 0, 0, 0, size (4 bytes BE)]
 * followed by size bytes.  Types 0, 1, 2 are stdin, stdout, stderr. */
typedef struct eng_demux
{
  unsigned char head[8];
  size_t head_have;
  uint32_t remaining; /* of the current frame, after the piece cb is given */
  int stream;
  int max_stream; /* the highest type taken (eng_demux_init: ENG_STREAM_STDERR) */
} eng_demux_t;

typedef void (*eng_demux_cb) (void *arg, int stream, const char *data, size_t len);

void eng_demux_init (eng_demux_t *d);
/* Feed bytes; calls cb for each payload piece (possibly split across
 * feeds; d->remaining is 0 during the call for a frame's last piece).  Returns 0, or -1 on a header
 * with an unknown stream type (the demuxer is then unusable). */
WB_MUST_CHECK int eng_demux_feed (eng_demux_t *d, const char *data, size_t len, eng_demux_cb cb,
                                  void *arg);
/* True when the stream stopped at a frame boundary. */
bool eng_demux_idle (const eng_demux_t *d);

/* A docker-save archive (tar) read through read_at (count bytes at
 * offset into buf; returns what it read, -1 on error).  Copies the
 * content of the regular member called name into out (at most out_max
 * bytes) and sets *out_len: 1 when found, 0 when the archive ends without
 * it, -1 when the archive is malformed or the member larger than out_max.
 * ustar names (prefix/name); members of other types are stepped over. */
typedef ssize_t (*eng_read_at) (void *arg, void *buf, size_t count, uint64_t offset);
WB_MUST_CHECK int eng_tar_member (eng_read_at read_at, void *arg, const char *name, char *out,
                                  size_t out_max, size_t *out_len);

/* Is a docker-save archive (through read_at) exactly the image image_id,
 * tagged at most as tag, in a form every engine's loader reads the same
 * way?  Refused: a malformed tar (bad checksums included), extended or
 * link headers, names that are not plain relative paths, index.json,
 * oci-layout or repositories (other layouts a loader would read instead),
 * a manifest.json or config twice, a config whose SHA-256 is not the id
 * (the id is its digest), and what eng_archive_manifest_check refuses.
 * 0, or -1 with err saying why. */
WB_MUST_CHECK int eng_archive_check (eng_read_at read_at, void *arg, const char *image_id,
                                     const char *tag, wb_err_t *err);
/* Is a docker-save manifest.json (json[0..len)) the archive of exactly one
 * image, image_id ("sha256:<hex>"), tagged at most as tag?  An engine
 * loads every image and tag an archive holds: one from an engine that is
 * not to be trusted could otherwise move other profiles' tags.  0, or -1
 * with err saying what it holds. */
WB_MUST_CHECK int eng_archive_manifest_check (const char *json, size_t len, const char *image_id,
                                              const char *tag, wb_err_t *err);

#endif
