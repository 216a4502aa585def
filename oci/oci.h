/* oci/: warmbox-oci, the helper that runs an OCI runtime (crun or runc;
 * runsc for gVisor profiles) for warmboxd.
 *
 * warmboxd confines itself with seccomp and cannot mount, unshare or
 * pivot_root; an OCI runtime must.  So warmboxd starts this helper before
 * it confines itself (an engine of "kind": "oci"), and talks to it as to
 * any engine: the subset of the Docker Engine API that warmbox's engine
 * client speaks, on a Unix socket in a directory only root can enter.
 * The helper's only job is to run the runtime's command line (create,
 * delete) with a state root of its own, to start a created container by
 * opening its exec fifo, and to hand the container's stdin, stdout and
 * stderr, which it holds from the create on, to the attach stream.
 *
 * Ownership: the helper owns every container it created (its table) and
 * is the subreaper of their init processes, which become its children:
 * their exit status comes from waitpid.  A container ends one way,
 * ctr_remove (kill, runtime delete, cgroups purged, bundle removed), asked
 * by warmboxd or done for every container when the helper stops.  What a
 * helper that was killed left on its root is deleted by the next helper
 * on that root before it serves (one helper per root: its lock).
 *
 * The code a client sent never reaches the helper's disk: it travels
 * through the attach stream into the container's stdin pipe.  A bundle
 * holds the container's configuration only.
 */
#ifndef WARMBOX_OCI_H
#define WARMBOX_OCI_H

#include "warmbox/wb.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- request.c: a request's head, route and query ------------------------ */

typedef struct oci_head
{
  char method[8];
  char path[1024];  /* the target up to its '?' */
  char query[1024]; /* after it ("" if none) */
  uint64_t body_len;
  bool has_length;  /* a Content-Length came */
  bool close_after; /* Connection: close */
} oci_head_t;

/* head: a request's head, NUL-terminated, with its blank line; cut up in
 * place.  0; -1 malformed, -2 a chunked body (not taken), with err. */
int oci_head_parse (char *head, oci_head_t *h, wb_err_t *err);

typedef enum oci_route_id
{
  OCI_R_PING,
  OCI_R_VERSION,
  OCI_R_INFO,
  OCI_R_EVENTS,
  OCI_R_IMAGE_LOAD,
  OCI_R_IMAGE_INSPECT, /* arg: the reference, still URL-encoded */
  OCI_R_IMAGE_GET,
  OCI_R_CREATE,
  OCI_R_LIST,
  OCI_R_REMOVE, /* arg: the container's id or name, as are the five below */
  OCI_R_INSPECT,
  OCI_R_START,
  OCI_R_ATTACH,
  OCI_R_KILL,
  OCI_R_WAIT,
  OCI_R_RUN, /* warmboxd's own: attach, start, output and exit on one exchange */
} oci_route_id_t;

/* The route h asks for (request.c's table): 0 with *id and its path's
 * variable part in arg (arg_size > 0); else the HTTP status to answer,
 * 404 (no such path) or 405 (another method's). */
int oci_route (const oci_head_t *h, oci_route_id_t *id, char *arg, size_t arg_size);

/* %XX and '+' of in[0..in_len) decoded into out; false when it does not
 * fit, holds a bad escape or decodes to a NUL. */
bool oci_url_decode (const char *in, size_t in_len, char *out, size_t size);
/* The query's name=, decoded into out: 1; 0 when absent; -1 malformed
 * (oci_url_decode). */
int oci_query_param (const char *query, const char *name, char *out, size_t size);

/* ---- runtime.c: the native runtime ---------------------------------------- */

/* The runtime that runs profiles of runtime "runc" (the host's kernel,
 * not gVisor): crun where this host lets it, else runc.  Both take the
 * same bundles and command lines; they differ in their exec fifo. */
typedef enum oci_runtime_kind
{
  OCI_RUNTIME_RUNC,
  OCI_RUNTIME_CRUN,
} oci_runtime_kind_t;

typedef struct oci_runtime
{
  oci_runtime_kind_t kind;
  char path[256];
  char version[96]; /* its --version's first line: "crun version 1.8.1" */
  char why[400];    /* why this one: "crun runs on this host", "asked for", ... */
} oci_runtime_t;

/* Where Debian installs kind's binary; NULL when it is not installed. */
const char *oci_runtime_find (oci_runtime_kind_t kind);
/* "crun" or "runc". */
const char *oci_runtime_name (oci_runtime_kind_t kind);
/* Can crun make containers under this cgroup root?  Not on a hybrid
 * layout whose v2 hierarchy holds a controller (crun's own check); then
 * why says which.  cgroup_root: "/sys/fs/cgroup" (tests pass another). */
bool oci_crun_fits_cgroups (const char *cgroup_root, char *why, size_t size);
/* asked: NULL, "" or "auto" (crun where it is installed and fits, else
 * runc), "crun", "runc", or an absolute path (its --version says which
 * kind it is).  0 with *rt filled, or -1 with err saying why none can
 * run (WB_E_INVALID). */
WB_MUST_CHECK int oci_runtime_choose (const char *asked, const char *cgroup_root, oci_runtime_t *rt,
                                      wb_err_t *err);
/* Start a created container by its exec fifo (the runtime's
 * <state>/<id>/exec.fifo), the way the runtime's own start does, without
 * a runtime process.  crun: one byte written, the init runs the program
 * now: 1.  runc: its init writes the byte; *fd_out, opened to read it
 * (O_NONBLOCK), is the caller's, and its byte (or its close: the init is
 * gone) is the answer: 0.  -1 with errno: the init is gone or the fifo
 * cannot be used (not started). */
WB_MUST_CHECK int oci_exec_fifo_release (oci_runtime_kind_t kind, const char *fifo, int *fd_out);

/* Where the pieces live. */
typedef struct oci_paths
{
  const char *images;          /* image store: <images>/<hex id>/{rootfs,config.json}, tags/ */
  const char *root;            /* the helper's own: state/ (the runtime's --root), bundles/ */
  oci_runtime_t runtime;       /* the native runtime */
  const char *runsc;           /* gVisor's runsc, for profiles that ask for it (NULL: none) */
  const char *init;            /* the init bound at /sbin/docker-init (tini-static) */
  uint32_t runtime_timeout_ms; /* a runtime command (create, delete) longer than this is
                                  killed and has failed; 0: 30 s */
  uint32_t userns_base;        /* runc containers in a user namespace (oci_spec_opts_t); 0: none */
} oci_paths_t;

/* ---- spec.c: create bodies to OCI configurations (pure; fuzzed) ---------- */

/* What a create body asked for that is not the OCI configuration itself. */
typedef struct oci_request
{
  char image[80];    /* "sha256:<hex>" or a tag, as asked */
  cJSON *labels;     /* the Labels object (owned) */
  char *seccomp_opt; /* the "seccomp=..." option as asked (owned) */
  char *runtime;     /* HostConfig.Runtime, "runc" if none (owned) */
  char *hostconfig;  /* HostConfig as asked, JSON (owned): inspect shows what the bundle holds */
} oci_request_t;

void oci_request_free (oci_request_t *r);

/* Translate a Docker create body (json[0..len)) into an OCI runtime
 * configuration, as opts say (its root, cgroup, init, runtimes, user
 * namespace).
 * Only what warmbox's sandbox asks for is taken; everything else that
 * could weaken a sandbox is refused (privileged, binds, devices, added
 * capabilities, a network, a terminal, host namespaces, no seccomp
 * allowlist).  The request's other parts go to *req.  NULL with err
 * (WB_E_INVALID: the sentence says what) or memory. */
typedef struct oci_spec_opts
{
  const char *rootfs;      /* the root file system (NULL: "rootfs") */
  const char *cgroup_path; /* the container's cgroup */
  const char *init;        /* bound at /sbin/docker-init (NULL: Init refused) */
  bool runsc_ok;           /* HostConfig.Runtime may be "runsc" */
  uint32_t userns_base;    /* runc containers in a user namespace, ids 0-65535 mapped to
                              base...base+65535 on the host; 0: none */
} oci_spec_opts_t;

cJSON *oci_spec_from_body (const char *json, size_t len, const oci_spec_opts_t *opts,
                           oci_request_t *req, wb_err_t *err);

/* The Docker HostConfig and Config.User that a configuration (as read
 * back from the bundle) enforces: what inspect shows and warmboxd's
 * verification compares.  The seccomp option is shown as asked only when
 * the bundle's filter is exactly that option's translation.  NULL on
 * memory. */
cJSON *oci_spec_hostconfig (const cJSON *spec, const char *seccomp_opt, const char *runtime);
char *oci_spec_user (const cJSON *spec);
/* What the container's PID 1 is, into an inspect object: Docker's "Path"
 * (process.args[0]; an init bound in front shows as itself, with
 * HostConfig.Init true) and "Args" (the rest).  -1 on memory. */
WB_MUST_CHECK int oci_spec_process (const cJSON *spec, cJSON *inspect);

/* ---- image.c: the image store ------------------------------------------ */

/* Unpack a docker-save archive (fd, a regular file) into the store: the
 * archive is checked whole (engine's eng_archive_check), its one layer's
 * SHA-256 must be the config's diff_id, and the root file system is
 * unpacked into a new directory that is renamed into place: a half
 * unpacked image is never seen.  Its tags then name it.  Blocks (the
 * server runs it in a child process).  0, or -1 with err. */
WB_MUST_CHECK int oci_image_load (const char *images, int fd, char *id_out, size_t id_size,
                                  wb_err_t *err);
/* Resolve a tag or an id ("sha256:<hex>", or "<hex>") to the image's id
 * and its root file system's path.  0, or -1 (WB_E_NOT_FOUND). */
WB_MUST_CHECK int oci_image_find (const char *images, const char *ref, char id[72], char *rootfs,
                                  size_t rootfs_size, wb_err_t *err);

/* ---- events.c: the container events (GET /events) ------------------------- */

/* One event, as Docker's stream carries it. */
typedef struct oci_event
{
  int64_t time_nano;
  char action[16]; /* create, start, kill, oom, die, destroy */
  char id[65];
  cJSON *attrs; /* Actor.Attributes: the labels, image, name, exitCode or signal (owned) */
  char *line;   /* the event's JSON and a newline (owned) */
  size_t line_len;
} oci_event_t;

/* The last cap events (a client's since= replays what is still here). */
typedef struct oci_events
{
  oci_event_t *ring;
  size_t cap, first, count;
  uint64_t added; /* events recorded, forgotten ones included */
} oci_events_t;

WB_MUST_CHECK int oci_events_init (oci_events_t *ev, size_t cap);
void oci_events_free (oci_events_t *ev);
/* Record an event (the oldest is forgotten when the ring is full).  key
 * and value (may be NULL) are the event's own attribute.  The event,
 * owned by the ring until it is forgotten; NULL (nothing recorded) on
 * memory or a name too long. */
const oci_event_t *oci_events_add (oci_events_t *ev, int64_t time_nano, const char *action,
                                   const char *id, const char *image, const char *name,
                                   const cJSON *labels, const char *key, const char *value);
/* The i-th oldest event still held; NULL past the end. */
const oci_event_t *oci_events_get (const oci_events_t *ev, size_t i);

/* filters={"type":[..],"label":["k","k=v"],"container":[id or name],"event":[action]}
 * (lists, or Docker's older {"value":true} objects): one value of each
 * key must match, and every label. */
typedef struct oci_event_filter
{
  cJSON *json; /* owned; the others point into it (NULL: not asked) */
  const cJSON *type, *label, *container, *event;
} oci_event_filter_t;

/* json NULL: every event.  0, or -1 with err (WB_E_INVALID: an unknown
 * key, a value that is not a string). */
WB_MUST_CHECK int oci_event_filter_parse (oci_event_filter_t *f, const char *json, wb_err_t *err);
bool oci_event_filter_match (const oci_event_filter_t *f, const oci_event_t *e);
void oci_event_filter_free (oci_event_filter_t *f);
/* since= and until=: seconds since the epoch, with an optional fraction
 * ("1700000000.25").  0, or -1 with err. */
WB_MUST_CHECK int oci_event_time_parse (const char *s, int64_t *out_nano, wb_err_t *err);

/* ---- server.c ------------------------------------------------------------ */

/* Serve on the Unix socket path until SIGTERM or SIGINT (or the parent's
 * death, when started by warmboxd); then every container is removed.
 * Returns the exit code. */
int oci_serve (const oci_paths_t *paths, const char *socket_path, bool die_with_parent);

/* ---- keeper.c ------------------------------------------------------------ */

/* Started by warmboxd (--die-with-parent): run oci_serve in a child, and
 * a new one whenever it is killed by a signal (the new one deletes what
 * the dead one left); stop it on SIGUSR1 or at warmboxd's death.  Returns
 * the server's exit code (one that exited with a code is not restarted). */
int oci_keep (const oci_paths_t *paths, const char *socket_path);

#endif
