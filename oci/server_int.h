/* oci/server_int.h: shared by the helper's server files only.
 *
 *   server.c     the HTTP front (connections, the request's head and body,
 *                replies, the routes' table), inspect, list, events,
 *                images, signals, leftovers of a killed helper, serve
 *   container.c  a container's life: create, start (exec fifo, runsc),
 *                exit, kill, wait, removal; the runtime's child processes
 *   stream.c     the hijacked streams: the attach, and warmboxd's run
 *   cgroup.c     the memory cgroup's OOM count, and purging cgroups
 *
 * One event loop, one server: every object here belongs to the server
 * (server_t), connections to its list, containers to theirs; a
 * connection's ctr and a container's conns point at each other only
 * while both live (ctr_free and conn_free clear them). */
#ifndef WARMBOX_OCI_SERVER_INT_H
#define WARMBOX_OCI_SERVER_INT_H

#include "oci/oci.h"

#include <cjson/cJSON.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define HEAD_MAX (16 * 1024)
#define BODY_MAX (8 * 1024 * 1024)
#define LOAD_MAX (8ULL << 30)
#define STREAM_HIGH (1 << 20) /* per direction: past it the other side stops being read */
#define START_TIMEOUT_S 30
#define EARLY_MAX 256
#define EVENTS_KEPT 4096      /* events a since= can still replay */
#define EVENTS_HIGH (1 << 20) /* an events client this far behind is dropped */

typedef struct server server_t;
typedef struct conn conn_t;
typedef struct ctr ctr_t;
typedef struct job job_t;

typedef enum
{
  C_CREATING,
  C_CREATED,
  C_STARTING,
  C_RUNNING,
  C_EXITED,
  C_REMOVING,
} ctr_state_t;

/* Docker's names of the states (State.Status); container.c has them. */
extern const char *const ctr_state_names[];

struct job
{
  job_t *prev, *next;
  pid_t pid;
  void (*done) (void *arg, int status);
  void *arg;
  struct event *timer; /* a runtime command's bound (NULL: none) */
};

struct ctr
{
  ctr_t *prev, *next;
  server_t *srv;
  char id[65];
  char name[128]; /* the create's ?name=, another handle on it (as Docker's); "" if none */
  ctr_state_t state;
  bool orphan;    /* left by an earlier helper: no pipes, its init is not our child */
  bool init_gone; /* reaped (or never ours) */
  oci_request_t req;
  char image_id[72];
  char bundle[PATH_MAX];
  char log_path[PATH_MAX + 16];
  pid_t init_pid;
  int in_w, out_r, err_r; /* our ends of its stdio; -1 once handed on or closed */
  int exit_code;
  bool oom;
  bool started;        /* its fifo was read (runsc: its start answered): the program may have run */
  bool start_failed;   /* its start failed (start_finish): its init is killed, its exit follows */
  bool gvisor;         /* runsc's, not runc's */
  bool deleting;       /* the runtime's delete is under way (one at a time) */
  bool announced;      /* its create event went out: its destroy event will */
  uint64_t create_seq; /* the reap count when its create began: an earlier reap is not its init's */
  char created_at[40], started_at[40], finished_at[40];
  conn_t *create_conn, *start_conn, *remove_conn;
  conn_t *attach;
  struct event *fifo_ev, *start_timer;
  int fifo_fd;
};

typedef enum
{
  K_HEAD,     /* reading a request head */
  K_BODY,     /* reading its body */
  K_BUSY,     /* the answer waits for a container or a child */
  K_WAIT,     /* a wait's head is sent; the body comes at the exit */
  K_ATTACHED, /* hijacked: the container's streams */
  K_EVENTS,   /* GET /events: a chunk per event, until its until= or the client leaves */
  K_CLOSING,  /* flush what is queued, then close */
} conn_kind_t;

struct conn
{
  conn_t *prev, *next;
  server_t *srv;
  struct bufferevent *bev;
  conn_kind_t kind;
  oci_head_t head;      /* the request being answered */
  oci_route_id_t route; /* ... its route (route_status 0) */
  int route_status;     /* 0, or the status its path gets (404, 405) */
  char route_arg[1024]; /* its path's variable part */
  uint64_t body_len, body_have;
  wb_buf_t body;
  int body_fd;      /* image load: the archive */
  bool close_after; /* Connection: close */
  ctr_t *ctr;       /* K_WAIT, K_ATTACHED, K_BUSY on a container */
  bool wait_next;   /* K_WAIT: condition next-exit */
  /* attached: */
  struct bufferevent *in, *out, *err;
  bool in_eof; /* the client half-closed: stdin ends once flushed */
  /* a run (do_run): its events go out on this stream, and it ends after
   * the exit's once the output has ended */
  bool run;
  bool run_exit_sent;
  pid_t load_pid;
  /* events: */
  oci_event_filter_t ev_filter;
  int64_t ev_until; /* 0: none */
  struct event *ev_until_timer;
};

struct server
{
  struct event_base *base;
  const oci_paths_t *paths;
  char state_dir[3072], bundles_dir[3072]; /* state_dir: the native runtime's --root */
  char state_dirs[2][3072];                /* runc's and crun's (one is state_dir) */
  char runsc_state_dir[3072];              /* runsc's --root */
  char engine_id[80];
  int listen_fd;
  struct event *accept_ev, *chld_ev, *term_ev, *int_ev, *parent_timer;
  pid_t parent;
  ctr_t *ctrs;
  conn_t *conns;
  job_t *jobs;
  struct
  {
    pid_t pid;
    int status;
    uint64_t seq;
  } early[EARLY_MAX];
  size_t n_early;
  uint64_t reap_seq;      /* children reaped so far */
  char cgroup_parent[64]; /* "warmbox-oci-<12 hex of the root>": this helper's cgroups */
  struct event *accept_retry;
  bool stopping;
  oci_events_t events;
};

/* ---- server.c -------------------------------------------------------- */

/* Small things: the time as Docker writes it; random hex (bytes*2 chars,
 * -1 when the kernel gives no randomness); close and set -1; the
 * runtime's words for k (its command, --root: n words into argv); does
 * k's runtime exist; read a small file whole (-1, or its length). */
void now_rfc3339 (char out[40]);
int random_hex (char *out, size_t bytes);
void close_fd (int *fd);
size_t runtime_words (const server_t *s, const ctr_t *k, char **argv);
bool runtime_has (const server_t *s, const ctr_t *k);
int read_small (const char *path, char *buf, size_t size);
/* The one answer to c's request (then the next request is read, or c
 * closed): a body, JSON (consumed), or Docker's {"message"} error. */
void http_reply (conn_t *c, int status, const char *content_type, const char *body, size_t len);
void http_reply_json (conn_t *c, int status, cJSON *json);
void http_reply_error (conn_t *c, int status, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));
/* The HTTP status of an error's code. */
int http_status_of (const wb_err_t *err);
/* An event of k to the events clients (and the kept window). */
void event_emit (ctr_t *k, const char *action, const char *key, const char *value);
void event_emit_code (ctr_t *k, const char *action, const char *key, int value);
void do_events (conn_t *c);
/* End c now (whatever it waits on forgets it); or, its answer queued,
 * read its next request (or close it after Connection: close). */
void conn_free (conn_t *c);
void conn_next (conn_t *c);

/* ---- container.c ----------------------------------------------------- */

/* k by id or name, or NULL.  Free k (its container gone or never made;
 * its waits answered, its streams ended).  Answer k's waits (it exited).
 * k's init was reaped with wait status status (chld_cb). */
ctr_t *ctr_find (server_t *s, const char *id);
void ctr_free (ctr_t *k);
void ctr_answer_waits (ctr_t *k);
void ctr_exited (ctr_t *k, int status);
void do_create (conn_t *c);
/* Let k's program go (see its definition): 0, the start's end follows;
 * -1 with *why when nothing was begun. */
int ctr_start_begin (ctr_t *k, const char **why);
void do_start (conn_t *c, ctr_t *k);
void do_remove (conn_t *c, ctr_t *k);
void do_kill (conn_t *c, ctr_t *k);
void do_wait (conn_t *c, ctr_t *k);

/* ---- stream.c -------------------------------------------------------- */

/* false when it could not be queued: c was ended and may be gone. */
bool run_send_event (conn_t *c, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
/* c's streams ended (close it once the client has all); end them now;
 * the client sent bytes for the container's stdin. */
void attach_check_done (conn_t *c);
void attach_end (conn_t *c);
void attach_client_read (conn_t *c);
void do_attach (conn_t *c, ctr_t *k);
void do_run (conn_t *c, ctr_t *k);

/* ---- cgroup.c -------------------------------------------------------- */

/* Did the kernel kill a process of k for memory?  Remove what is left of
 * container id's cgroups (its processes killed first). */
bool cgroup_oom (const ctr_t *k);
void cgroup_purge (const server_t *s, const char *id);

#endif
