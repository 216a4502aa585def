/* oci/server.c: the helper's engine API and its containers' lives.
 *
 * One event loop.  The HTTP side reads one request at a time per
 * connection (warmbox's engine client never pipelines), answers it, and
 * reads the next; three requests leave that pattern: attach (hijacked
 * after "101 UPGRADED": the connection then carries the container's
 * streams), wait (the head at once, the body at the exit) and image load
 * (the body goes to an unlinked file, then a child process unpacks it).
 *
 * A container's states, and what ends each:
 *
 *   CREATING --create exits 0--> CREATED --fifo read--> RUNNING --exit--> EXITED
 *      |                            |                      |                |
 *      +--create fails: freed       +------- remove: kill, wait for the exit, runtime delete,
 *                                            bundle removed, freed ------------------+
 *
 * A removal is the only way a container ends (ctr_remove); a removal that
 * the runtime refuses leaves the container EXITED and listed, for the
 * next removal.  The helper is the subreaper of every container's init:
 * waitpid gives its exit status, and a pid is never signalled after it
 * was reaped (the init stays our zombie until then).
 */
#define _GNU_SOURCE
#include "oci/oci.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

static const char *const state_names[]
    = {"created", "created", "created", "running", "exited", "removing"};

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

/* ---- small things ------------------------------------------------------ */

static void
now_rfc3339 (char out[40])
{
  struct timespec ts;
  struct tm tm;
  clock_gettime (CLOCK_REALTIME, &ts);
  gmtime_r (&ts.tv_sec, &tm);
  size_t n = strftime (out, 40, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf (out + n, 40 - n, ".%09ldZ", ts.tv_nsec);
}

static int64_t
now_nano (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
random_hex (char *out, size_t bytes)
{
  unsigned char b[64];
  int fd = open ("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || bytes > sizeof b || read (fd, b, bytes) != (ssize_t) bytes)
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  close (fd);
  for (size_t i = 0; i < bytes; i++)
    snprintf (out + 2 * i, 3, "%02x", b[i]);
  return 0;
}

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

/* The runtime's command line for k, up to its subcommand: the native
 * runtime (crun or runc) with its state root, or runsc with its own and the flags Docker's
 * registration gives it (no network of its own; the profile's filter applied inside the sandbox
 * too).  Returns the words written (at most 5). */
static size_t
runtime_words (const server_t *s, const ctr_t *k, char **argv)
{
  size_t n = 0;
  if (k->gvisor)
    {
      argv[n++] = (char *) s->paths->runsc;
      argv[n++] = "--root";
      argv[n++] = (char *) s->runsc_state_dir;
      argv[n++] = "--network=none";
      argv[n++] = "--oci-seccomp";
    }
  else
    {
      argv[n++] = (char *) s->paths->runtime.path;
      argv[n++] = "--root";
      argv[n++] = (char *) s->state_dir;
      /* Its warnings to a file, never into the program's stderr (its
       * fatal error still reaches stderr, where created_cb reads it). */
      argv[n++] = "--log";
      argv[n++] = (char *) k->log_path;
    }
  return n;
}

/* Does the runtime still hold state for k? */
static bool
runtime_has (const server_t *s, const ctr_t *k)
{
  char path[PATH_MAX];
  if (k->gvisor)
    snprintf (path, sizeof path, "%s/%s_sandbox:%s.state", s->runsc_state_dir, k->id, k->id);
  else
    snprintf (path, sizeof path, "%s/%s", s->state_dir, k->id);
  return access (path, F_OK) == 0;
}

static int
read_small (const char *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  ssize_t n;
  if (fd < 0)
    return -1;
  n = read (fd, buf, size - 1);
  close (fd);
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return (int) n;
}

/* ---- child processes --------------------------------------------------- */

/* A runtime command past its bound: killed, which its done() hears as
 * a failure (a hung runtime must not hold a create or a removal). */
static void
job_timeout_cb (evutil_socket_t fd, short what, void *arg)
{
  job_t *j = arg;
  wb_warn ("the runtime (pid %d) did not finish in time: killed", (int) j->pid);
  kill (j->pid, SIGKILL);
}

/* Start argv with stdin/stdout/stderr fd0..fd2 (-1: /dev/null) and every
 * signal at its default (the helper ignores SIGPIPE; a container must
 * not inherit that).  done(arg, wait status) when it exits, within the
 * runtime's bound.  -1 on failure (nothing started). */
static int
job_spawn (server_t *s, char *const argv[], int fd0, int fd1, int fd2, void (*done) (void *, int),
           void *arg)
{
  job_t *j = calloc (1, sizeof *j);
  uint32_t ms = s->paths->runtime_timeout_ms ? s->paths->runtime_timeout_ms : 30000;
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  pid_t pid;

  if (j == NULL || (j->timer = evtimer_new (s->base, job_timeout_cb, j)) == NULL)
    {
      free (j);
      return -1;
    }
  if ((pid = fork ()) < 0)
    {
      event_free (j->timer);
      free (j);
      return -1;
    }
  if (pid == 0)
    {
      sigset_t none;
      int null = open ("/dev/null", O_RDWR);
      for (int sig = 1; sig < NSIG; sig++)
        signal (sig, SIG_DFL);
      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
      /* A group of its own: a Ctrl-C to warmboxd's group reaches neither
       * the runtime nor the container it makes (its init is in this
       * group), which the drain must let finish. */
      setpgid (0, 0);
      if (dup2 (fd0 >= 0 ? fd0 : null, 0) < 0 || dup2 (fd1 >= 0 ? fd1 : null, 1) < 0
          || dup2 (fd2 >= 0 ? fd2 : null, 2) < 0)
        _exit (126);
      execv (argv[0], argv);
      _exit (127);
    }
  j->pid = pid;
  j->done = done;
  j->arg = arg;
  evtimer_add (j->timer, &tv);
  WB_LIST_PUSH (s->jobs, j);
  return 0;
}

/* A bundle's folder removed by a child the loop does not wait for (a
 * removal must not block it); nobody hears the end.  A failure to start
 * one is logged: the next helper on this root empties the bundles. */
static void
remove_bundle (server_t *s, const char *bundle)
{
  char *rm[] = {"/bin/rm", "-rf", "--one-file-system", (char *) bundle, NULL};
  if (job_spawn (s, rm, -1, -1, -1, NULL, NULL) < 0)
    wb_warn ("cannot remove %s: %s", bundle, strerror (errno));
}

/* ---- HTTP replies ------------------------------------------------------ */

static void conn_free (conn_t *c);
static void conn_next (conn_t *c);

static const char *
status_text (int status)
{
  switch (status)
    {
    case 101:
      return "UPGRADED";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 409:
      return "Conflict";
    case 413:
      return "Payload Too Large";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    default:
      return status >= 500 ? "Internal Server Error" : "Error";
    }
}

static void
reply (conn_t *c, int status, const char *content_type, const char *body, size_t len)
{
  struct evbuffer *out = bufferevent_get_output (c->bev);
  int r = evbuffer_add_printf (out,
                               "HTTP/1.1 %d %s\r\nApi-Version: 1.41\r\nServer: warmbox-oci\r\n"
                               "Content-Type: %s\r\nContent-Length: %zu\r\n%s\r\n",
                               status, status_text (status), content_type, len,
                               c->close_after ? "Connection: close\r\n" : "");
  if (r < 0 || (len && evbuffer_add (out, body, len) < 0))
    {
      conn_free (c);
      return;
    }
  conn_next (c);
}

static void
reply_json (conn_t *c, int status, cJSON *json)
{
  char *text = json ? cJSON_PrintUnformatted (json) : NULL;
  cJSON_Delete (json);
  if (text == NULL)
    {
      static const char oom[] = "{\"message\":\"out of memory\"}";
      reply (c, 500, "application/json", oom, sizeof oom - 1);
      return;
    }
  reply (c, status, "application/json", text, strlen (text));
  free (text);
}

static void reply_error (conn_t *c, int status, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));
static void
reply_error (conn_t *c, int status, const char *fmt, ...)
{
  char msg[600];
  va_list ap;
  cJSON *j = cJSON_CreateObject ();
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  if (j && !cJSON_AddStringToObject (j, "message", msg))
    {
      cJSON_Delete (j);
      j = NULL;
    }
  reply_json (c, status, j);
}

static int
status_of (const wb_err_t *err)
{
  switch (err->code)
    {
    case WB_E_INVALID:
      return 400;
    case WB_E_NOT_FOUND:
      return 404;
    case WB_E_TOO_LARGE:
      return 413;
    default:
      return 500;
    }
}

/* ---- containers -------------------------------------------------------- */

/* By name, else by id or a prefix of one naming no other, as Docker. */
static ctr_t *
ctr_find (server_t *s, const char *id)
{
  size_t n = strlen (id);
  ctr_t *found = NULL;
  for (ctr_t *k = s->ctrs; k; k = k->next)
    if (k->name[0] && strcmp (k->name, id) == 0)
      return k;
  if (n == 0 || n > 64)
    return NULL;
  for (ctr_t *k = s->ctrs; k; k = k->next)
    if (strncmp (k->id, id, n) == 0)
      {
        if (found)
          return NULL; /* ambiguous prefix */
        found = k;
      }
  return found;
}

static void attach_end (conn_t *c);
static void attach_check_done (conn_t *c);
static void answer_waits (ctr_t *k);

/* ---- events ------------------------------------------------------------ */

/* Send e to an events client if its filters and until take it.  A client
 * that does not read is dropped, never waited for: false, c is freed. */
static bool
event_send (conn_t *c, const oci_event_t *e)
{
  struct evbuffer *out = bufferevent_get_output (c->bev);
  if (!oci_event_filter_match (&c->ev_filter, e) || (c->ev_until && e->time_nano > c->ev_until))
    return true;
  if (evbuffer_get_length (out) > EVENTS_HIGH
      || evbuffer_add_printf (out, "%zx\r\n", e->line_len) < 0
      || evbuffer_add (out, e->line, e->line_len) < 0 || evbuffer_add (out, "\r\n", 2) < 0)
    {
      wb_warn ("an events client is %zu bytes behind: dropped", evbuffer_get_length (out));
      conn_free (c);
      return false;
    }
  return true;
}

/* Record what happened to k, and tell the events clients. */
static void
emit (ctr_t *k, const char *action, const char *key, const char *value)
{
  server_t *s = k->srv;
  const oci_event_t *e = oci_events_add (&s->events, now_nano (), action, k->id, k->req.image, NULL,
                                         k->req.labels, key, value);
  if (e == NULL)
    {
      wb_warn ("container %.12s: its %s event is lost (out of memory)", k->id, action);
      return;
    }
  for (conn_t *c = s->conns, *next; c; c = next)
    {
      next = c->next;
      if (c->kind == K_EVENTS)
        event_send (c, e);
    }
}

static void
emit_code (ctr_t *k, const char *action, const char *key, int value)
{
  char v[16];
  snprintf (v, sizeof v, "%d", value);
  emit (k, action, key, v);
}

/* An events stream's end: its until= came. */
static void
events_end (conn_t *c)
{
  if (c->ev_until_timer)
    {
      event_free (c->ev_until_timer);
      c->ev_until_timer = NULL;
    }
  oci_event_filter_free (&c->ev_filter);
  if (evbuffer_add (bufferevent_get_output (c->bev), "0\r\n\r\n", 5) < 0)
    conn_free (c);
  else
    conn_next (c);
}

static void
events_until_cb (evutil_socket_t fd, short what, void *arg)
{
  events_end (arg);
}

/* GET /events[?filters=..][&since=..][&until=..]: what is still kept
 * since since= first, then each event as it happens. */
static void do_events (conn_t *c);

/* Free a container's memory and handles; the container itself must be
 * gone (deleted) or never made.  Every connection waiting on it is
 * answered or closed first. */
static void
ctr_free (ctr_t *k)
{
  server_t *s = k->srv;
  if (k->attach)
    attach_end (k->attach);
  answer_waits (k);
  for (conn_t *c = s->conns; c; c = c->next)
    if (c->ctr == k)
      c->ctr = NULL;
  /* A runtime command still running for k (runsc's start) is reaped as
   * usual, and nobody hears it. */
  for (job_t *j = s->jobs; j; j = j->next)
    if (j->arg == k)
      j->done = NULL;
  if (k->fifo_ev)
    event_free (k->fifo_ev);
  if (k->start_timer)
    event_free (k->start_timer);
  close_fd (&k->fifo_fd);
  close_fd (&k->in_w);
  close_fd (&k->out_r);
  close_fd (&k->err_r);
  oci_request_free (&k->req);
  WB_LIST_UNLINK (s->ctrs, k);
  free (k);
}

/* A wait's body: the exit code, as the last chunk. */
static void
wait_answer (conn_t *c, const ctr_t *k)
{
  struct evbuffer *out = bufferevent_get_output (c->bev);
  char body[96];
  int n = snprintf (body, sizeof body, "{\"Error\":null,\"StatusCode\":%d}\n", k->exit_code);
  c->ctr = NULL;
  if (evbuffer_add_printf (out, "%x\r\n%s\r\n0\r\n\r\n", n, body) < 0)
    conn_free (c);
  else
    conn_next (c);
}

/* Answer the waits on k (it exited). */
static void
answer_waits (ctr_t *k)
{
  server_t *s = k->srv;
  for (conn_t *c = s->conns, *next; c; c = next)
    {
      next = c->next;
      if (c->kind == K_WAIT && c->ctr == k)
        wait_answer (c, k);
    }
}

/* ---- the run: warmboxd's one exchange per hand-out ------------------- */

/* An event line of a run (stream 3 of its multiplexed stream): what
 * happened to its container, for warmboxd (engine/attach.c's run reads
 * it).  A connection out of memory is closed. */
static bool run_event (conn_t *c, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
/* false when it could not be queued: c was ended (attach_end) and may be
 * gone. */
static bool
run_event (conn_t *c, const char *fmt, ...)
{
  char line[256];
  unsigned char head[8] = {3, 0, 0, 0, 0, 0, 0, 0};
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  if (n < 0)
    n = 0;
  if ((size_t) n >= sizeof line)
    n = (int) sizeof line - 1;
  head[6] = (unsigned char) (n >> 8);
  head[7] = (unsigned char) n;
  if (evbuffer_add (bufferevent_get_output (c->bev), head, 8) < 0
      || evbuffer_add (bufferevent_get_output (c->bev), line, (size_t) n) < 0)
    {
      attach_end (c);
      return false;
    }
  return true;
}

/* How a start ended: the program let go; certainly not (its init ended
 * before it was released, or nothing was begun); or not known (a
 * release that failed half-way, runsc's start failing or timing out):
 * it may have run. */
typedef enum
{
  START_OK,
  START_NEVER,
  START_UNKNOWN,
} start_outcome_t;

static void
start_finish (ctr_t *k, start_outcome_t outcome, const char *why)
{
  bool ok = outcome == START_OK;
  conn_t *c = k->start_conn;
  k->start_conn = NULL;
  if (k->fifo_ev)
    {
      event_free (k->fifo_ev);
      k->fifo_ev = NULL;
    }
  if (k->start_timer)
    {
      event_free (k->start_timer);
      k->start_timer = NULL;
    }
  close_fd (&k->fifo_fd);
  if (ok)
    {
      k->state = C_RUNNING;
      k->started = true;
      now_rfc3339 (k->started_at);
      emit (k, "start", NULL, NULL);
    }
  else
    {
      k->start_failed = true;
      if (!k->init_gone && k->init_pid > 0)
        kill (k->init_pid, SIGKILL); /* it must not start later (its exit follows) */
    }
  /* A run hears "not-started" only when nothing ran: warmboxd then says
   * so to its client, who may send the code again. */
  if (k->attach && k->attach->run)
    {
      if (ok)
        (void) run_event (k->attach, "started");
      else
        (void) run_event (k->attach, "%s %s",
                          outcome == START_NEVER ? "not-started" : "start-failed", why);
    }
  if (c == NULL)
    return;
  c->ctr = NULL;
  if (ok)
    reply (c, 204, "text/plain", "", 0);
  else
    reply_error (c, 500, "cannot start container %.12s: %s", k->id, why);
}

/* The memory cgroup's OOM-kill count (cgroup v1's memory.oom_control, v2's
 * memory.events): did the kernel kill a process of it for memory? */
static bool
cgroup_oom (const ctr_t *k)
{
  char path[PATH_MAX], buf[1024];
  const char *line;
  snprintf (path, sizeof path, "/sys/fs/cgroup/memory/%s/%s/memory.oom_control",
            k->srv->cgroup_parent, k->id);
  if (read_small (path, buf, sizeof buf) < 0)
    {
      snprintf (path, sizeof path, "/sys/fs/cgroup/%s/%s/memory.events", k->srv->cgroup_parent,
                k->id);
      if (read_small (path, buf, sizeof buf) < 0)
        return false;
    }
  line = strstr (buf, "oom_kill ");
  return line && strtol (line + 9, NULL, 10) > 0;
}

/* What the runtime could not delete (a create killed half-way, a state
 * lost): every process of the container's cgroups killed, the cgroups
 * removed, in every hierarchy (v1) or the one (v2).  Only this helper's
 * parent cgroup is looked in.  id NULL: all of them. */
static void
cgroup_purge (const server_t *s, const char *id)
{
  DIR *top = opendir ("/sys/fs/cgroup");
  struct dirent *h;
  bool v2 = access ("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0;

  if (top == NULL)
    return;
  for (h = v2 ? NULL : readdir (top);; h = readdir (top))
    {
      char parent[PATH_MAX];
      DIR *d;
      struct dirent *e;
      if (!v2 && h == NULL)
        break;
      if (!v2 && (h->d_name[0] == '.' || h->d_type != DT_DIR))
        continue;
      snprintf (parent, sizeof parent, "/sys/fs/cgroup/%s%s%s", v2 ? "" : h->d_name, v2 ? "" : "/",
                s->cgroup_parent);
      if ((d = opendir (parent)) != NULL)
        {
          while ((e = readdir (d)) != NULL)
            {
              char dir[PATH_MAX + 300], procs[PATH_MAX + 320], buf[8192];
              if (e->d_name[0] == '.' || e->d_type != DT_DIR || (id && strcmp (e->d_name, id) != 0))
                continue;
              snprintf (dir, sizeof dir, "%s/%s", parent, e->d_name);
              snprintf (procs, sizeof procs, "%s/cgroup.procs", dir);
              for (int tries = 0; tries < 50 && rmdir (dir) < 0 && errno == EBUSY; tries++)
                {
                  if (read_small (procs, buf, sizeof buf) > 0)
                    for (char *p = buf, *end; *p; p = end)
                      {
                        long pid = strtol (p, &end, 10);
                        if (end == p)
                          break;
                        if (pid > 1)
                          kill ((pid_t) pid, SIGKILL);
                      }
                  usleep (2000);
                }
            }
          closedir (d);
        }
      if (v2)
        break;
    }
  closedir (top);
}

static void ctr_delete (ctr_t *k);

static void
ctr_exited (ctr_t *k, int status)
{
  bool removing = k->state == C_REMOVING;
  k->init_gone = true;
  k->exit_code = WIFEXITED (status)     ? WEXITSTATUS (status)
                 : WIFSIGNALED (status) ? 128 + WTERMSIG (status)
                                        : 255;
  k->oom = cgroup_oom (k);
  now_rfc3339 (k->finished_at);
  if (k->oom)
    emit (k, "oom", NULL, NULL);
  emit_code (k, "die", "exitCode", k->exit_code);
  /* runsc's start may answer after the program is over: it ran.  runc's
   * init that ends before its fifo is read never ran the program. */
  if (k->state == C_STARTING && !k->start_failed)
    {
      /* runc's init may have written its byte and run the program within
       * one turn of the loop: a byte in the fifo says it started. */
      char b[16];
      bool ran = k->gvisor || (k->fifo_fd >= 0 && read (k->fifo_fd, b, sizeof b) > 0);
      start_finish (k, ran ? START_OK : START_NEVER, "its init ended before it started");
    }
  if (!removing)
    k->state = C_EXITED;
  if (k->attach && k->attach->run)
    {
      conn_t *c = k->attach;
      if (run_event (c, "exit %d %d", k->exit_code, k->oom ? 1 : 0))
        {
          c->run_exit_sent = true;
          attach_check_done (c); /* its end, if the output has ended too */
        }
    }
  answer_waits (k);
  if (removing)
    ctr_delete (k);
}

static void
deleted_cb (void *arg, int status)
{
  ctr_t *k = arg;
  conn_t *c = k->remove_conn;
  k->remove_conn = NULL;
  k->deleting = false;
  if (c)
    c->ctr = NULL;
  /* What the runtime left (or never recorded: a create killed half-way);
   * after a delete that worked there is nothing. */
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    cgroup_purge (k->srv, k->id);
  if ((!WIFEXITED (status) || WEXITSTATUS (status) != 0) && runtime_has (k->srv, k))
    {
      /* Left listed, for the next removal (warmboxd retries). */
      k->state = C_EXITED;
      wb_warn ("container %.12s: the runtime's delete failed (status %d)", k->id, status);
      if (c)
        reply_error (c, 500, "the runtime could not delete container %.12s", k->id);
      return;
    }
  remove_bundle (k->srv, k->bundle);
  if (k->announced)
    emit (k, "destroy", NULL, NULL);
  if (c)
    reply (c, 204, "text/plain", "", 0);
  ctr_free (k);
}

/* The init is gone: the runtime deletes what is left (cgroup, state). */
static void
ctr_delete (ctr_t *k)
{
  server_t *s = k->srv;
  if (k->deleting)
    return;
  k->deleting = true;
  char *argv[12];
  size_t n = runtime_words (s, k, argv);
  argv[n++] = "delete";
  argv[n++] = "--force";
  argv[n++] = k->id;
  argv[n] = NULL;
  if (job_spawn (s, argv, -1, -1, -1, deleted_cb, k) < 0)
    {
      k->deleting = false;
      k->state = C_EXITED;
      if (k->remove_conn)
        {
          conn_t *c = k->remove_conn;
          k->remove_conn = NULL;
          c->ctr = NULL;
          reply_error (c, 500, "cannot run the runtime: %s", strerror (errno));
        }
    }
}

/* The one way a container ends: kill its init, let the exit come, delete.
 * c (may be NULL) hears the outcome. */
static void
ctr_remove (ctr_t *k, conn_t *c)
{
  k->remove_conn = c;
  if (c)
    {
      c->kind = K_BUSY;
      c->ctr = k;
    }
  if (k->state == C_STARTING && !k->start_failed)
    start_finish (k, START_UNKNOWN, "it is being removed");
  k->state = C_REMOVING;
  close_fd (&k->in_w);
  if (!k->init_gone && k->init_pid > 0)
    {
      kill (k->init_pid, SIGKILL); /* our child, not yet reaped: the pid is its */
      return;                      /* ctr_exited deletes */
    }
  ctr_delete (k);
}

static void
created_cb (void *arg, int status)
{
  ctr_t *k = arg;
  server_t *s = k->srv;
  conn_t *c = k->create_conn;
  char path[PATH_MAX + 16], buf[64];

  k->create_conn = NULL;
  if (c)
    c->ctr = NULL;
  snprintf (path, sizeof path, "%s/pid", k->bundle);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0 || read_small (path, buf, sizeof buf) <= 0
      || (k->init_pid = (pid_t) strtol (buf, NULL, 10)) <= 1)
    {
      /* What the runtime said went to the container's stderr, ours. */
      char why[512] = "";
      ssize_t n = read (k->err_r, why, sizeof why - 1);
      why[n > 0 ? n : 0] = '\0';
      for (char *p = why; *p; p++)
        if (*p == '\n' || *p == '\r')
          *p = ' ';
      wb_warn ("container %.12s: create failed: %s", k->id, why);
      if (c)
        reply_error (c, 500, "the runtime could not create the container: %.400s",
                     why[0] ? why : "it failed");
      k->init_gone = true;
      k->state = C_REMOVING;
      ctr_delete (k); /* whatever half of it exists; deleted_cb purges its cgroup */
      return;
    }
  k->state = C_CREATED;
  /* Its init may have been reaped already (it died at once). */
  for (size_t i = 0; i < s->n_early; i++)
    if (s->early[i].pid == k->init_pid && s->early[i].seq > k->create_seq)
      {
        int st = s->early[i].status;
        s->early[i] = s->early[--s->n_early];
        ctr_exited (k, st);
        break;
      }
  k->announced = true;
  emit (k, "create", NULL, NULL);
  if (c)
    {
      cJSON *j = cJSON_CreateObject ();
      if (j
          && (!cJSON_AddStringToObject (j, "Id", k->id) || !cJSON_AddArrayToObject (j, "Warnings")))
        {
          cJSON_Delete (j);
          j = NULL;
        }
      reply_json (c, 201, j);
    }
}

static int
write_bundle_file (const char *dir, const char *name, const char *text)
{
  char path[PATH_MAX + 64];
  int fd;
  size_t len = strlen (text);
  snprintf (path, sizeof path, "%s/%s", dir, name);
  if ((fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0)
    return -1;
  if (write (fd, text, len) != (ssize_t) len)
    {
      close (fd);
      return -1;
    }
  return close (fd);
}

static void
do_create (conn_t *c)
{
  server_t *s = c->srv;
  ctr_t *k = calloc (1, sizeof *k);
  char rootfs[PATH_MAX], cgroup[160], pidfile[PATH_MAX + 8];
  cJSON *spec = NULL;
  char *text = NULL, *labels = NULL;
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err2[2] = {-1, -1};
  wb_err_t err;

  if (k == NULL)
    {
      reply_error (c, 500, "out of memory");
      return;
    }
  k->srv = s;
  k->in_w = k->out_r = k->err_r = k->fifo_fd = -1;
  /* A name the client chose: what it removes the container by when it
   * never heard this answer. */
  int named = oci_query_param (c->head.query, "name", k->name, sizeof k->name);
  if (named < 0
      || (named
          && (k->name[0] == '\0' || strlen (k->name) >= sizeof k->name - 1
              || strspn (k->name, "abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_.-")
                     != strlen (k->name))))
    {
      free (k);
      reply_error (c, 400, "invalid container name");
      return;
    }
  if (k->name[0] && ctr_find (s, k->name) != NULL)
    {
      free (k);
      reply_error (c, 409, "the name %.127s is in use", k->name);
      return;
    }
  if (random_hex (k->id, 32) < 0)
    {
      free (k);
      reply_error (c, 500, "no randomness for an id");
      return;
    }
  snprintf (cgroup, sizeof cgroup, "/%s/%s", s->cgroup_parent, k->id);
  k->create_seq = s->reap_seq;
  /* The image first: its root is the bundle's root. */
  {
    cJSON *body = cJSON_ParseWithLength (c->body.data ? c->body.data : "", c->body.len);
    const char *image = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (body, "Image"));
    int rc
        = image ? oci_image_find (s->paths->images, image, k->image_id, rootfs, sizeof rootfs, &err)
                : wb_error (&err, WB_E_INVALID, "the create body names no Image");
    cJSON_Delete (body);
    if (rc < 0)
      {
        free (k);
        reply_error (c, status_of (&err), "%s", err.msg);
        return;
      }
  }
  {
    oci_spec_opts_t o
        = {rootfs, cgroup, s->paths->init, s->paths->runsc != NULL, s->paths->userns_base};
    spec = oci_spec_from_body (c->body.data ? c->body.data : "", c->body.len, &o, &k->req, &err);
  }
  if (spec == NULL)
    {
      free (k);
      reply_error (c, status_of (&err), "%s", err.msg);
      return;
    }
  snprintf (k->bundle, sizeof k->bundle, "%s/%s", s->bundles_dir, k->id);
  snprintf (k->log_path, sizeof k->log_path, "%s/runtime.log", k->bundle);
  text = cJSON_Print (spec);
  labels = cJSON_PrintUnformatted (k->req.labels);
  cJSON_Delete (spec);
  if (text == NULL || labels == NULL || mkdir (k->bundle, 0700) < 0
      || write_bundle_file (k->bundle, "config.json", text) < 0
      || write_bundle_file (k->bundle, "labels.json", labels) < 0
      || write_bundle_file (k->bundle, "seccomp-option", k->req.seccomp_opt) < 0
      || write_bundle_file (k->bundle, "image", k->image_id) < 0
      || write_bundle_file (k->bundle, "runtime", k->req.runtime) < 0 || pipe2 (in, O_CLOEXEC) < 0
      || pipe2 (out, O_CLOEXEC) < 0 || pipe2 (err2, O_CLOEXEC) < 0)
    {
      int e = errno;
      reply_error (c, 500, "cannot write the bundle: %s", strerror (e));
      goto fail;
    }
  free (text);
  free (labels);
  text = labels = NULL;
  snprintf (pidfile, sizeof pidfile, "%s/pid", k->bundle);
  k->gvisor = strcmp (k->req.runtime, "runsc") == 0;
  {
    char *argv[16];
    size_t n = runtime_words (s, k, argv);
    argv[n++] = "create";
    argv[n++] = "--bundle";
    argv[n++] = k->bundle;
    argv[n++] = "--pid-file";
    argv[n++] = pidfile;
    argv[n++] = k->id;
    argv[n] = NULL;
    if (job_spawn (s, argv, in[0], out[1], err2[1], created_cb, k) < 0)
      {
        reply_error (c, 500, "cannot run the runtime: %s", strerror (errno));
        goto fail;
      }
  }
  close (in[0]);
  close (out[1]);
  close (err2[1]);
  k->in_w = in[1];
  k->out_r = out[0];
  k->err_r = err2[0];
  fcntl (k->err_r, F_SETFL, O_NONBLOCK);
  k->state = C_CREATING;
  now_rfc3339 (k->created_at);
  snprintf (k->started_at, sizeof k->started_at, "0001-01-01T00:00:00Z");
  snprintf (k->finished_at, sizeof k->finished_at, "0001-01-01T00:00:00Z");
  k->create_conn = c;
  c->kind = K_BUSY;
  c->ctr = k;
  WB_LIST_PUSH (s->ctrs, k);
  return;
fail:
  free (text);
  free (labels);
  for (int i = 0; i < 2; i++)
    {
      close_fd (&in[i]);
      close_fd (&out[i]);
      close_fd (&err2[i]);
    }
  if (k->bundle[0])
    remove_bundle (s, k->bundle);
  oci_request_free (&k->req);
  free (k);
}

static void
fifo_cb (evutil_socket_t fd, short what, void *arg)
{
  ctr_t *k = arg;
  char b[16];
  ssize_t n;

  if (what & EV_TIMEOUT)
    {
      start_finish (k, START_UNKNOWN, "its init did not answer");
      return;
    }
  n = read (fd, b, sizeof b);
  if (n < 0 && (errno == EAGAIN || errno == EINTR))
    return;
  if (n > 0)
    {
      char path[PATH_MAX + 80];
      snprintf (path, sizeof path, "%s/%s/exec.fifo", k->srv->state_dir, k->id);
      unlink (path); /* as runc start does: the state now says running */
      start_finish (k, START_OK, NULL);
      return;
    }
  /* Closed without its byte: the init ended before it could run the
   * program. */
  start_finish (k, n == 0 ? START_NEVER : START_UNKNOWN,
                n == 0 ? "its init closed the fifo" : strerror (errno));
}

/* runsc start answered (gVisor has no exec fifo to open). */
static void
runsc_started_cb (void *arg, int status)
{
  ctr_t *k = arg;
  if (k->state != C_STARTING)
    return; /* it ended first (ctr_exited finished the start), or is being removed */
  start_finish (k, WIFEXITED (status) && WEXITSTATUS (status) == 0 ? START_OK : START_UNKNOWN,
                "runsc start failed");
}

static void
start_timeout_cb (evutil_socket_t fd, short what, void *arg)
{
  start_finish (arg, START_UNKNOWN, "its init did not answer in time");
}

/* Start: release the init through the exec fifo it waits on, as the
 * runtime's own start does (this saves a runtime process, about 10 ms).
 * crun's init takes our byte at once; runc's writes one, which says it is
 * about to exec the program.  A fifo never opened by a writer reports
 * nothing, so there is no race with runc's init: the read end waits for
 * its byte or its close. */
/* Let k's program go: release its init through the exec fifo it waits
 * on, as the runtime's own start does (this saves a runtime process,
 * about 10 ms), or run runsc start.  crun's init takes our byte at once;
 * runc's writes one, which says it is about to exec the program.  A fifo
 * never opened by a writer reports nothing, so there is no race with
 * runc's init: the read end waits for its byte or its close.
 *
 * k must be C_CREATED with its init.  0: k is C_STARTING and
 * start_finish follows (crun: already, before this returns; runc: from
 * fifo_cb or start_timeout_cb; runsc: from runsc_started_cb), telling
 * k->start_conn or k's run.  -1 with *why (static or errno's) when
 * nothing was begun: k is unchanged. */
static int
start_begin (ctr_t *k, const char **why)
{
  char path[PATH_MAX + 80];
  struct timeval tv = {START_TIMEOUT_S, 0};

  if (k->gvisor)
    {
      char *argv[12];
      size_t n = runtime_words (k->srv, k, argv);
      argv[n++] = "start";
      argv[n++] = k->id;
      argv[n] = NULL;
      if (job_spawn (k->srv, argv, -1, -1, -1, runsc_started_cb, k) < 0)
        {
          *why = strerror (errno);
          return -1;
        }
      k->state = C_STARTING;
      return 0;
    }
  snprintf (path, sizeof path, "%s/%s/exec.fifo", k->srv->state_dir, k->id);
  switch (oci_exec_fifo_release (k->srv->paths->runtime.kind, path, &k->fifo_fd))
    {
    case 1: /* crun: it runs the program now */
      k->state = C_STARTING;
      start_finish (k, START_OK, NULL);
      return 0;
    case 0: /* runc: its byte says so (fifo_cb) */
      break;
    default:
      *why = strerror (errno);
      return -1;
    }
  k->state = C_STARTING;
  k->fifo_ev = event_new (k->srv->base, k->fifo_fd, EV_READ | EV_PERSIST, fifo_cb, k);
  k->start_timer = evtimer_new (k->srv->base, start_timeout_cb, k);
  if (k->fifo_ev == NULL || k->start_timer == NULL || event_add (k->fifo_ev, NULL) < 0
      || evtimer_add (k->start_timer, &tv) < 0)
    start_finish (k, START_UNKNOWN, "out of memory");
  return 0;
}

static void
do_start (conn_t *c, ctr_t *k)
{
  const char *why = NULL;

  if (k->started || k->state == C_STARTING)
    {
      reply (c, 304, "text/plain", "", 0); /* a 304 has no body */
      return;
    }
  if (k->state != C_CREATED || k->orphan || k->init_gone)
    {
      reply_error (c, 409, "container %.12s cannot be started (%s)", k->id, state_names[k->state]);
      return;
    }
  k->start_conn = c;
  c->kind = K_BUSY;
  c->ctr = k;
  if (start_begin (k, &why) < 0)
    {
      k->start_conn = NULL;
      c->ctr = NULL;
      reply_error (c, 500, "cannot start container %.12s: %s", k->id, why);
    }
}

static int
signal_number (const char *name)
{
  static const struct
  {
    const char *name;
    int sig;
  } sigs[] = {{"KILL", SIGKILL}, {"TERM", SIGTERM}, {"INT", SIGINT},
              {"HUP", SIGHUP},   {"QUIT", SIGQUIT}, {"USR1", SIGUSR1},
              {"USR2", SIGUSR2}, {"STOP", SIGSTOP}, {"CONT", SIGCONT}};
  char *end;
  long n;
  if (name == NULL || *name == '\0')
    return SIGKILL;
  if (strncmp (name, "SIG", 3) == 0)
    name += 3;
  for (size_t i = 0; i < WB_ARRAY_SIZE (sigs); i++)
    if (strcmp (name, sigs[i].name) == 0)
      return sigs[i].sig;
  n = strtol (name, &end, 10);
  return *end == '\0' && n > 0 && n < NSIG ? (int) n : -1;
}

/* ---- the attach stream -------------------------------------------------- */

static void attach_check_done (conn_t *c);

static void
pipe_read_cb (struct bufferevent *bev, void *arg)
{
  conn_t *c = arg;
  struct evbuffer *src = bufferevent_get_input (bev), *dst = bufferevent_get_output (c->bev);
  unsigned char head[8] = {bev == c->out ? 1 : 2, 0, 0, 0};
  size_t len = evbuffer_get_length (src);

  while (len > 0)
    {
      size_t n = len > (1 << 16) ? (1 << 16) : len;
      head[4] = (unsigned char) (n >> 24);
      head[5] = (unsigned char) (n >> 16);
      head[6] = (unsigned char) (n >> 8);
      head[7] = (unsigned char) n;
      if (evbuffer_add (dst, head, 8) < 0 || evbuffer_remove_buffer (src, dst, n) != (int) n)
        {
          attach_end (c);
          return;
        }
      len -= n;
    }
  /* A slow reader: stop reading the container (it blocks on its pipe,
   * as under Docker), until the client drains. */
  if (evbuffer_get_length (dst) > STREAM_HIGH)
    {
      if (c->out)
        bufferevent_disable (c->out, EV_READ);
      if (c->err)
        bufferevent_disable (c->err, EV_READ);
    }
}

static void
pipe_event_cb (struct bufferevent *bev, short what, void *arg)
{
  conn_t *c = arg;
  if (bev == c->in)
    {
      /* The container closed its stdin (or it broke): drop what waits. */
      bufferevent_free (c->in);
      c->in = NULL;
      bufferevent_enable (c->bev, EV_READ);
      return;
    }
  if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
    {
      if (bev == c->out)
        c->out = NULL;
      else
        c->err = NULL;
      bufferevent_free (bev);
      attach_check_done (c);
    }
}

static void
in_write_cb (struct bufferevent *bev, void *arg)
{
  conn_t *c = arg;
  if (evbuffer_get_length (bufferevent_get_output (bev)) == 0)
    {
      if (c->in_eof)
        {
          bufferevent_free (c->in); /* closes the pipe: the container's EOF */
          c->in = NULL;
          return;
        }
      bufferevent_enable (c->bev, EV_READ);
    }
}

/* Both output streams ended and the client has all of it: close, as
 * Docker does when the container's streams end. */
static void
attach_check_done (conn_t *c)
{
  if (c->out || c->err)
    return;
  /* A run's stream ends with its container's exit (ctr_exited comes
   * back here), or when its container goes (ctr_free). */
  if (c->run && !c->run_exit_sent && c->ctr && !c->ctr->init_gone)
    return;
  if (c->in)
    {
      bufferevent_free (c->in);
      c->in = NULL;
    }
  if (c->ctr)
    c->ctr->attach = NULL;
  c->ctr = NULL;
  c->kind = K_CLOSING;
  if (evbuffer_get_length (bufferevent_get_output (c->bev)) == 0)
    conn_free (c);
}

/* The attach ends early (the container goes, the client went, memory). */
static void
attach_end (conn_t *c)
{
  if (c->out)
    bufferevent_free (c->out);
  if (c->err)
    bufferevent_free (c->err);
  c->out = c->err = NULL;
  attach_check_done (c);
}

static void
client_attached_read (conn_t *c)
{
  struct evbuffer *src = bufferevent_get_input (c->bev);
  if (c->in == NULL)
    {
      evbuffer_drain (src, evbuffer_get_length (src));
      return;
    }
  if (bufferevent_write_buffer (c->in, src) < 0)
    {
      attach_end (c);
      return;
    }
  if (evbuffer_get_length (bufferevent_get_output (c->in)) > STREAM_HIGH)
    bufferevent_disable (c->bev, EV_READ);
}

static struct bufferevent *
pipe_bev (conn_t *c, int *fd, short enable)
{
  struct bufferevent *b;
  if (*fd < 0 || fcntl (*fd, F_SETFL, O_NONBLOCK) < 0)
    return NULL;
  b = bufferevent_socket_new (c->srv->base, *fd, BEV_OPT_CLOSE_ON_FREE);
  if (b == NULL)
    return NULL;
  bufferevent_setcb (b, enable & EV_READ ? pipe_read_cb : NULL,
                     enable & EV_WRITE ? in_write_cb : NULL, pipe_event_cb, c);
  if (bufferevent_enable (b, enable) < 0)
    {
      bufferevent_setfd (b, -1);
      bufferevent_free (b);
      return NULL;
    }
  return b;
}

/* Hijack c for k's streams.  true when attached (c is K_ATTACHED);
 * false when refused (its answer is queued) or ended at once: c may be
 * gone then. */
static bool
attach_streams (conn_t *c, ctr_t *k)
{
  static const char head[]
      = "HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\n"
        "Connection: Upgrade\r\nUpgrade: tcp\r\nApi-Version: 1.41\r\n\r\n";
  if (k->attach || k->out_r < 0 || k->orphan)
    {
      reply_error (c, 409, "container %.12s: its streams are taken", k->id);
      return false;
    }
  {
    /* All three or none: on a failure the container keeps its pipes. */
    int in = k->in_w, out = k->out_r, err = k->err_r;
    c->in = pipe_bev (c, &in, EV_WRITE);
    c->out = pipe_bev (c, &out, EV_READ);
    c->err = pipe_bev (c, &err, EV_READ);
    if ((k->in_w >= 0 && c->in == NULL) || c->out == NULL || c->err == NULL)
      {
        struct bufferevent *b[3] = {c->in, c->out, c->err};
        for (int i = 0; i < 3; i++)
          if (b[i])
            {
              bufferevent_setfd (b[i], -1); /* not closed by the free */
              bufferevent_free (b[i]);
            }
        c->in = c->out = c->err = NULL;
        reply_error (c, 500, "cannot attach");
        return false;
      }
    k->in_w = k->out_r = k->err_r = -1;
  }
  c->kind = K_ATTACHED;
  c->ctr = k;
  k->attach = c;
  bufferevent_enable (c->bev, EV_READ);
  if (evbuffer_add (bufferevent_get_output (c->bev), head, sizeof head - 1) < 0)
    {
      attach_end (c);
      return false;
    }
  if (evbuffer_get_length (bufferevent_get_input (c->bev)) > 0)
    client_attached_read (c); /* may end it: c stays until the loop's next turn */
  return k->attach == c;
}

static void
do_attach (conn_t *c, ctr_t *k)
{
  (void) attach_streams (c, k);
}

/* POST /warmbox/v1/containers/{id}/run: warmboxd's hand-out, one
 * exchange (docs/architecture.md, "The helper's run").  The container's
 * streams are attached as do_attach does (the input frame behind the
 * request head goes to its stdin), its program is let go, and the
 * stream carries "started" (or "not-started <why>"), the output, and
 * "exit <code> <oom>" before it ends.  A container that cannot run is
 * refused with an HTTP error before anything starts: it never will. */
static void
do_run (conn_t *c, ctr_t *k)
{
  const char *why = NULL;

  /* A refused run's connection is closed (conn_read set close_after): the
   * input behind its head is never read as a request. */
  if (c->body_len)
    {
      /* The input follows the head as the stream's own bytes. */
      reply_error (c, 400, "a run takes no body: its input follows the request's head");
      return;
    }
  if (k->started || k->state != C_CREATED || k->orphan || k->init_gone)
    {
      reply_error (c, 409, "container %.12s cannot be run (%s)", k->id,
                   k->started ? "it ran already" : state_names[k->state]);
      return;
    }
  if (!attach_streams (c, k))
    return; /* refused (its answer is queued), or ended at once */
  c->run = true;
  if (start_begin (k, &why) < 0)
    {
      /* Nothing was begun: it never ran, and must not run later. */
      k->start_failed = true;
      (void) run_event (c, "not-started %s", why); /* failing, it ends c */
      if (k->init_pid > 0 && !k->init_gone)
        kill (k->init_pid, SIGKILL); /* its exit follows */
    }
}

/* ---- inspect and list -------------------------------------------------- */

static cJSON *
inspect_json (ctr_t *k)
{
  char path[PATH_MAX + 16];
  cJSON *j = cJSON_CreateObject (), *state, *cfg, *spec = NULL, *hc = NULL;
  char *user = NULL;
  FILE *f;

  snprintf (path, sizeof path, "%s/config.json", k->bundle);
  /* What the runtime read: the bundle as it is on disk. */
  if ((f = fopen (path, "re")) != NULL)
    {
      wb_buf_t b = WB_BUF_INIT;
      char chunk[8192];
      size_t n;
      bool ok = true;
      while ((n = fread (chunk, 1, sizeof chunk, f)) > 0 && ok)
        ok = wb_buf_append (&b, chunk, n) == 0;
      fclose (f);
      spec = ok && b.data ? cJSON_ParseWithLength (b.data, b.len) : NULL;
      wb_buf_free (&b);
    }
  if (j == NULL)
    goto oom;
  if (!cJSON_AddStringToObject (j, "Id", k->id)
      || !cJSON_AddStringToObject (j, "Created", k->created_at)
      || !cJSON_AddStringToObject (j, "Image", k->image_id)
      || !cJSON_AddStringToObject (j, "Driver", "oci")
      || (state = cJSON_AddObjectToObject (j, "State")) == NULL
      || !cJSON_AddStringToObject (state, "Status", state_names[k->state])
      /* Running while its program may run (a start under way, a removal
       * whose kill has not ended it yet): never "exited 0" before the exit. */
      || !cJSON_AddBoolToObject (state, "Running",
                                 !k->init_gone
                                     && (k->state == C_RUNNING || k->state == C_STARTING
                                         || (k->state == C_REMOVING && k->started)))
      || !cJSON_AddBoolToObject (state, "Paused", false)
      || !cJSON_AddBoolToObject (state, "OOMKilled", k->oom)
      || !cJSON_AddBoolToObject (state, "Dead", false)
      || !cJSON_AddNumberToObject (state, "Pid", k->state == C_RUNNING ? k->init_pid : 0)
      || !cJSON_AddNumberToObject (state, "ExitCode", k->exit_code)
      || !cJSON_AddStringToObject (state, "Error", "")
      || !cJSON_AddStringToObject (state, "StartedAt", k->started_at)
      || !cJSON_AddStringToObject (state, "FinishedAt", k->finished_at)
      || (cfg = cJSON_AddObjectToObject (j, "Config")) == NULL
      || !cJSON_AddStringToObject (cfg, "Image", k->req.image))
    goto oom;
  if (k->req.labels && !cJSON_AddItemReferenceToObject (cfg, "Labels", k->req.labels))
    goto oom;
  if (spec)
    {
      if ((user = oci_spec_user (spec)) == NULL || !cJSON_AddStringToObject (cfg, "User", user)
          || (hc = oci_spec_hostconfig (spec, k->req.seccomp_opt, k->req.runtime)) == NULL)
        goto oom;
      if (!cJSON_AddItemToObject (j, "HostConfig", hc))
        {
          cJSON_Delete (hc);
          goto oom;
        }
      if (!cJSON_AddArrayToObject (j, "Mounts"))
        goto oom;
      if (oci_spec_process (spec, j) < 0)
        goto oom;
    }
  free (user);
  cJSON_Delete (spec);
  return j;
oom:
  free (user);
  cJSON_Delete (spec);
  cJSON_Delete (j);
  return NULL;
}

/* filters={"label":["k","k=v"]} (URL-encoded): does k carry them all? */
static bool
labels_match (const ctr_t *k, const cJSON *want)
{
  const cJSON *w;
  cJSON_ArrayForEach (w, want)
  {
    const char *s = cJSON_GetStringValue (w), *eq;
    char key[256];
    const cJSON *have;
    if (s == NULL)
      return false;
    eq = strchr (s, '=');
    snprintf (key, sizeof key, "%.*s", eq ? (int) (eq - s) : (int) strlen (s), s);
    have = cJSON_GetObjectItemCaseSensitive (k->req.labels, key);
    if (!cJSON_IsString (have) || (eq && strcmp (have->valuestring, eq + 1) != 0))
      return false;
  }
  return true;
}

static void
do_list (conn_t *c)
{
  char filters[1024];
  cJSON *f = NULL, *arr = cJSON_CreateArray ();
  const cJSON *want = NULL, *states = NULL;

  int has_filters = oci_query_param (c->head.query, "filters", filters, sizeof filters);
  if (has_filters)
    {
      f = has_filters > 0 ? cJSON_Parse (filters) : NULL;
      if (f == NULL || !cJSON_IsObject (f))
        {
          cJSON_Delete (f);
          cJSON_Delete (arr);
          reply_error (c, 400, "filters is not a JSON object");
          return;
        }
      want = cJSON_GetObjectItemCaseSensitive (f, "label");
      states = cJSON_GetObjectItemCaseSensitive (f, "status");
      if ((want && !cJSON_IsArray (want)) || (states && !cJSON_IsArray (states)))
        {
          cJSON_Delete (f);
          cJSON_Delete (arr);
          reply_error (c, 400, "filters' label and status must be lists");
          return;
        }
    }
  for (ctr_t *k = c->srv->ctrs; k && arr; k = k->next)
    {
      cJSON *item;
      const cJSON *st;
      bool state_ok = states == NULL;
      /* As on Docker, a container exists once its create is answered. */
      if (k->state == C_CREATING || (want && !labels_match (k, want)))
        continue;
      cJSON_ArrayForEach (st, states) state_ok
          |= cJSON_IsString (st) && strcmp (st->valuestring, state_names[k->state]) == 0;
      if (!state_ok)
        continue;
      if ((item = cJSON_CreateObject ()) == NULL || !cJSON_AddItemToArray (arr, item)
          || !cJSON_AddStringToObject (item, "Id", k->id)
          || !cJSON_AddStringToObject (item, "State", state_names[k->state])
          || !cJSON_AddStringToObject (item, "ImageID", k->image_id)
          || (k->req.labels && !cJSON_AddItemReferenceToObject (item, "Labels", k->req.labels)))
        {
          cJSON_Delete (arr);
          arr = NULL;
        }
    }
  cJSON_Delete (f);
  reply_json (c, 200, arr);
}

static void
do_events (conn_t *c)
{
  static const char head[] = "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Type: "
                             "application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  char filters[1024], since_s[64], until_s[64];
  int fr = oci_query_param (c->head.query, "filters", filters, sizeof filters);
  int sr = oci_query_param (c->head.query, "since", since_s, sizeof since_s);
  int ur = oci_query_param (c->head.query, "until", until_s, sizeof until_s);
  const char *fq = fr > 0 ? filters : NULL, *sq = sr > 0 ? since_s : NULL,
             *uq = ur > 0 ? until_s : NULL;
  int64_t since = 0, until = 0, now = now_nano ();
  wb_err_t err;

  if (fr < 0 || sr < 0 || ur < 0)
    {
      reply_error (c, 400, "a malformed query parameter");
      return;
    }
  if ((sq && oci_event_time_parse (sq, &since, &err) < 0)
      || (uq && oci_event_time_parse (uq, &until, &err) < 0)
      || oci_event_filter_parse (&c->ev_filter, fq, &err) < 0)
    {
      reply_error (c, 400, "%s", err.msg);
      return;
    }
  if (uq && until == 0)
    until = 1; /* until=0 is the epoch: nothing comes */
  if (evbuffer_add (bufferevent_get_output (c->bev), head, sizeof head - 1) < 0)
    {
      conn_free (c);
      return;
    }
  c->kind = K_EVENTS;
  c->ev_until = until;
  if (sq)
    for (size_t i = 0; i < c->srv->events.count; i++)
      {
        const oci_event_t *e = oci_events_get (&c->srv->events, i);
        if (e->time_nano >= since && !event_send (c, e))
          return;
      }
  if (until && until <= now)
    {
      events_end (c);
      return;
    }
  if (until)
    {
      int64_t left = until - now;
      struct timeval tv = {(time_t) (left / 1000000000), (suseconds_t) (left % 1000000000 / 1000)};
      if ((c->ev_until_timer = evtimer_new (c->srv->base, events_until_cb, c)) == NULL
          || evtimer_add (c->ev_until_timer, &tv) < 0)
        {
          conn_free (c);
          return;
        }
    }
}

/* ---- images ------------------------------------------------------------ */

static void
loaded_cb (void *arg, int status)
{
  conn_t *c = arg;
  c->load_pid = 0;
  close_fd (&c->body_fd);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    {
      static const char ok[] = "{\"stream\":\"Loaded image\\n\"}\n";
      reply (c, 200, "application/json", ok, sizeof ok - 1);
    }
  else
    {
      /* Docker's way: 200, then an error message in the stream. */
      static const char bad[] = "{\"errorDetail\":{\"message\":\"the archive was refused (see "
                                "warmbox-oci's log)\"},\"error\":\"the archive was refused (see "
                                "warmbox-oci's log)\"}\n";
      reply (c, 200, "application/json", bad, sizeof bad - 1);
    }
}

/* The archive is whole in c->body_fd: a child unpacks it (seconds), so
 * the loop keeps serving. */
static void
do_load (conn_t *c)
{
  server_t *s = c->srv;
  job_t *j = calloc (1, sizeof *j);
  pid_t pid;

  if (j == NULL || (pid = fork ()) < 0)
    {
      free (j);
      close_fd (&c->body_fd);
      reply_error (c, 500, "cannot unpack: %s", strerror (errno));
      return;
    }
  if (pid == 0)
    {
      char id[80];
      wb_err_t err;
      /* None of the server's handlers (libevent's), and gone with it. */
      for (int sig = 1; sig < NSIG; sig++)
        signal (sig, SIG_DFL);
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      /* Nothing of the server's: a copy of a container's stdin pipe
       * held here would keep its EOF from it for the whole unpack. */
      if (dup2 (c->body_fd, 3) < 0 || close_range (4, ~0U, 0) < 0)
        _exit (1);
      if (oci_image_load (s->paths->images, 3, id, sizeof id, &err) < 0)
        {
          wb_log_error ("image load: %s", err.msg);
          _exit (1);
        }
      wb_info ("image %.19s loaded", id);
      _exit (0);
    }
  j->pid = pid;
  j->done = loaded_cb;
  j->arg = c;
  c->load_pid = pid;
  c->kind = K_BUSY;
  WB_LIST_PUSH (s->jobs, j);
}

static void
do_ping (conn_t *c)
{
  reply (c, 200, "text/plain", "OK", 2);
}

static void
do_image_get (conn_t *c)
{
  reply_error (c, 501, "this engine does not export images");
}

static void
do_inspect (conn_t *c, ctr_t *k)
{
  reply_json (c, 200, inspect_json (k));
}

static void
do_image_inspect (conn_t *c)
{
  const char *ref = c->route_arg;
  char id[72], decoded[512];
  wb_err_t err;
  cJSON *j;

  if (!oci_url_decode (ref, strlen (ref), decoded, sizeof decoded))
    {
      reply_error (c, 400, "a malformed image reference");
      return;
    }
  if (oci_image_find (c->srv->paths->images, decoded, id, NULL, 0, &err) < 0)
    {
      reply_error (c, 404, "No such image: %.200s", decoded);
      return;
    }
  j = cJSON_CreateObject ();
  if (j && (!cJSON_AddStringToObject (j, "Id", id) || !cJSON_AddStringToObject (j, "Os", "linux")))
    {
      cJSON_Delete (j);
      j = NULL;
    }
  reply_json (c, 200, j);
}

/* ---- routing ----------------------------------------------------------- */

static void
do_info (conn_t *c)
{
  server_t *s = c->srv;
  cJSON *j = cJSON_CreateObject (), *rts, *rt, *sec;
  struct stat st;
  bool v2 = stat ("/sys/fs/cgroup/cgroup.controllers", &st) == 0;
  char version[200];

  snprintf (version, sizeof version, "warmbox-oci %s (%s)", WB_VERSION, s->paths->runtime.version);
  if (j == NULL || !cJSON_AddStringToObject (j, "ID", s->engine_id)
      || !cJSON_AddStringToObject (j, "ServerVersion", version)
      || !cJSON_AddStringToObject (j, "OSType", "linux")
      || !cJSON_AddStringToObject (j, "Driver", "oci")
      || !cJSON_AddStringToObject (j, "CgroupVersion", v2 ? "2" : "1")
      || !cJSON_AddStringToObject (j, "DefaultRuntime", "runc")
      || (rts = cJSON_AddObjectToObject (j, "Runtimes")) == NULL
      || (rt = cJSON_AddObjectToObject (rts, "runc")) == NULL
      || !cJSON_AddStringToObject (rt, "path", s->paths->runtime.path)
      || !cJSON_AddStringToObject (j, "OciRuntime", s->paths->runtime.version)
      || (s->paths->runsc
          && ((rt = cJSON_AddObjectToObject (rts, "runsc")) == NULL
              || !cJSON_AddStringToObject (rt, "path", s->paths->runsc)))
      || (sec = cJSON_AddArrayToObject (j, "SecurityOptions")) == NULL
      || !cJSON_AddItemToArray (sec, cJSON_CreateString ("name=seccomp,profile=default"))
      || (s->paths->userns_base && !cJSON_AddItemToArray (sec, cJSON_CreateString ("name=userns")))
      || !cJSON_AddBoolToObject (j, "MemoryLimit", true)
      || !cJSON_AddBoolToObject (j, "PidsLimit", true))
    {
      cJSON_Delete (j);
      j = NULL;
    }
  reply_json (c, 200, j);
}

static void
do_version (conn_t *c)
{
  cJSON *j = cJSON_CreateObject ();
  if (j
      && (!cJSON_AddStringToObject (j, "ApiVersion", "1.41")
          || !cJSON_AddStringToObject (j, "Version", WB_VERSION)))
    {
      cJSON_Delete (j);
      j = NULL;
    }
  reply_json (c, 200, j);
}

static void
do_remove (conn_t *c, ctr_t *k)
{
  if (k->state == C_CREATING || k->state == C_REMOVING)
    reply_error (c, 409, "container %.12s is being %s", k->id,
                 k->state == C_CREATING ? "created" : "removed");
  else
    ctr_remove (k, c);
}

static void
do_kill (conn_t *c, ctr_t *k)
{
  char name[32];
  int given = oci_query_param (c->head.query, "signal", name, sizeof name);
  int sig = given < 0 ? -1 : signal_number (given ? name : NULL);
  if (sig < 0)
    reply_error (c, 400, "unknown signal");
  else if (k->state != C_RUNNING || k->init_gone)
    reply_error (c, 409, "container %.12s is not running", k->id);
  else if (kill (k->init_pid, sig) < 0)
    reply_error (c, 500, "kill: %s", strerror (errno));
  else
    {
      emit_code (k, "kill", "signal", sig);
      reply (c, 204, "text/plain", "", 0);
    }
}

static void
do_wait (conn_t *c, ctr_t *k)
{
  char cond[32];
  bool next = oci_query_param (c->head.query, "condition", cond, sizeof cond) > 0
              && strcmp (cond, "next-exit") == 0;
  static const char head[] = "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Type: "
                             "application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  if (evbuffer_add (bufferevent_get_output (c->bev), head, sizeof head - 1) < 0)
    {
      conn_free (c);
      return;
    }
  c->kind = K_WAIT;
  c->ctr = k;
  c->wait_next = next;
  /* next-exit waits for an exit to come, as Docker's does; a container
   * that is removed answers every wait (ctr_free). */
  if (!next && (k->init_gone || k->state == C_CREATED))
    wait_answer (c, k);
}

/* What each route does (request.c's table says which a request is).  A
 * container's route finds its container first. */
static const struct
{
  void (*serve) (conn_t *c);
  void (*on_container) (conn_t *c, ctr_t *k);
} handlers[] = {
    [OCI_R_PING] = {do_ping, NULL},           [OCI_R_VERSION] = {do_version, NULL},
    [OCI_R_INFO] = {do_info, NULL},           [OCI_R_EVENTS] = {do_events, NULL},
    [OCI_R_IMAGE_LOAD] = {do_load, NULL},     [OCI_R_IMAGE_INSPECT] = {do_image_inspect, NULL},
    [OCI_R_IMAGE_GET] = {do_image_get, NULL}, [OCI_R_CREATE] = {do_create, NULL},
    [OCI_R_LIST] = {do_list, NULL},           [OCI_R_REMOVE] = {NULL, do_remove},
    [OCI_R_INSPECT] = {NULL, do_inspect},     [OCI_R_START] = {NULL, do_start},
    [OCI_R_ATTACH] = {NULL, do_attach},       [OCI_R_KILL] = {NULL, do_kill},
    [OCI_R_WAIT] = {NULL, do_wait},           [OCI_R_RUN] = {NULL, do_run},
};

static void
route (conn_t *c)
{
  ctr_t *k;

  if (c->route_status)
    {
      reply_error (c, c->route_status,
                   c->route_status == 405 ? "method not allowed" : "page not found");
      return;
    }
  if (handlers[c->route].serve)
    {
      handlers[c->route].serve (c);
      return;
    }
  if ((k = ctr_find (c->srv, c->route_arg)) == NULL)
    {
      reply_error (c, 404, "No such container: %.64s", c->route_arg);
      return;
    }
  handlers[c->route].on_container (c, k);
}

/* ---- connections ------------------------------------------------------- */

static void
conn_free (conn_t *c)
{
  server_t *s = c->srv;
  if (c->ctr)
    {
      ctr_t *k = c->ctr;
      if (k->attach == c)
        k->attach = NULL;
      if (k->create_conn == c)
        k->create_conn = NULL;
      if (k->start_conn == c)
        k->start_conn = NULL;
      if (k->remove_conn == c)
        k->remove_conn = NULL;
    }
  for (job_t *j = s->jobs; j; j = j->next)
    if (j->arg == c && j->done == loaded_cb)
      j->done = NULL; /* the unpack goes on; nobody hears it */
  if (c->in)
    bufferevent_free (c->in);
  if (c->out)
    bufferevent_free (c->out);
  if (c->err)
    bufferevent_free (c->err);
  if (c->ev_until_timer)
    event_free (c->ev_until_timer);
  oci_event_filter_free (&c->ev_filter);
  close_fd (&c->body_fd);
  wb_buf_free (&c->body);
  bufferevent_free (c->bev);
  WB_LIST_UNLINK (s->conns, c);
  free (c);
}

static void conn_read (conn_t *c);

/* A request's head and body must come within this (a client that sends
 * half a head holds nothing for ever). */
static const struct timeval idle_timeout = {60, 0};

/* The request is answered: read the next (or close). */
static void
conn_next (conn_t *c)
{
  c->ctr = NULL;
  wb_buf_free (&c->body);
  close_fd (&c->body_fd);
  c->body_len = c->body_have = 0;
  if (c->close_after)
    {
      c->kind = K_CLOSING;
      if (evbuffer_get_length (bufferevent_get_output (c->bev)) == 0)
        conn_free (c);
      return;
    }
  c->kind = K_HEAD;
  bufferevent_set_timeouts (c->bev, &idle_timeout, NULL);
  bufferevent_enable (c->bev, EV_READ);
  /* A request already read comes next, on a later turn of the loop: never
   * from inside the reply to this one (which may be answering from a
   * container's own callbacks). */
  if (evbuffer_get_length (bufferevent_get_input (c->bev)) > 0)
    bufferevent_trigger (c->bev, EV_READ, BEV_TRIG_IGNORE_WATERMARKS | BEV_TRIG_DEFER_CALLBACKS);
}

static void
conn_read (conn_t *c)
{
  struct evbuffer *in = bufferevent_get_input (c->bev);

  if (c->kind == K_ATTACHED)
    {
      client_attached_read (c);
      return;
    }
  if (c->kind == K_CLOSING)
    {
      evbuffer_drain (in, evbuffer_get_length (in));
      return;
    }
  if (c->kind == K_EVENTS)
    {
      /* Nothing more is read on a stream: what comes is dropped. */
      evbuffer_drain (in, evbuffer_get_length (in));
      return;
    }
  if (c->kind == K_BUSY || c->kind == K_WAIT)
    {
      /* Read while it waits, so that a client that leaves is seen (its
       * EOF frees the connection); what it sends meanwhile waits, within
       * a head's size. */
      if (evbuffer_get_length (in) > HEAD_MAX)
        conn_free (c);
      return;
    }
  if (c->kind == K_HEAD)
    {
      struct evbuffer_ptr end = evbuffer_search (in, "\r\n\r\n", 4, NULL);
      char *head;
      wb_err_t err;
      int r, rr;
      if (end.pos < 0)
        {
          if (evbuffer_get_length (in) > HEAD_MAX)
            conn_free (c);
          return;
        }
      if ((size_t) end.pos + 4 > HEAD_MAX || (head = malloc ((size_t) end.pos + 5)) == NULL)
        {
          conn_free (c);
          return;
        }
      evbuffer_remove (in, head, (size_t) end.pos + 4);
      head[end.pos + 4] = '\0';
      r = oci_head_parse (head, &c->head, &err);
      free (head);
      if (r < 0)
        {
          c->close_after = true;
          reply_error (c, 400, "%s", err.msg);
          return;
        }
      c->body_len = c->head.body_len;
      c->close_after = c->head.close_after;
      rr = oci_route (&c->head, &c->route, c->route_arg, sizeof c->route_arg);
      c->route_status = rr;
      /* A run's connection serves that run alone: refused, it is closed
       * (what follows its head is the user's input, never a request). */
      if (rr == 0 && c->route == OCI_R_RUN)
        c->close_after = true;
      bool load = rr == 0 && c->route == OCI_R_IMAGE_LOAD;
      if (c->body_len > (load ? LOAD_MAX : BODY_MAX))
        {
          c->close_after = true;
          reply_error (c, 413, "the body is too large");
          return;
        }
      if (load
          && (c->body_fd = open (c->srv->paths->images, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) < 0)
        {
          c->close_after = true;
          reply_error (c, 500, "no room for the archive: %s", strerror (errno));
          return;
        }
      c->kind = K_BODY;
      c->body_have = 0;
    }
  if (c->kind == K_BODY)
    {
      while (c->body_have < c->body_len && evbuffer_get_length (in) > 0)
        {
          size_t want = c->body_len - c->body_have, n = evbuffer_get_length (in);
          if (n > want)
            n = want;
          if (c->body_fd >= 0)
            {
              /* Write what is there to the archive's file. */
              int w = evbuffer_write_atmost (in, c->body_fd, (ev_ssize_t) n);
              if (w <= 0)
                {
                  c->close_after = true;
                  reply_error (c, 500, "cannot keep the archive: %s", strerror (errno));
                  return;
                }
              c->body_have += (uint64_t) w;
            }
          else
            {
              if (wb_buf_reserve (&c->body, n) < 0)
                {
                  conn_free (c);
                  return;
                }
              evbuffer_remove (in, c->body.data + c->body.len, n);
              c->body.len += n;
              c->body.data[c->body.len] = '\0';
              c->body_have += n;
            }
        }
      if (c->body_have < c->body_len)
        return;
      /* One request at a time: what comes meanwhile waits (conn_next). */
      bufferevent_set_timeouts (c->bev, NULL, NULL);
      c->kind = K_BUSY;
      route (c);
      return;
    }
}

static void
conn_read_cb (struct bufferevent *bev, void *arg)
{
  conn_read (arg);
}

static void
conn_write_cb (struct bufferevent *bev, void *arg)
{
  conn_t *c = arg;
  if (c->kind == K_CLOSING && evbuffer_get_length (bufferevent_get_output (bev)) == 0)
    {
      conn_free (c);
      return;
    }
  if (c->kind == K_ATTACHED && evbuffer_get_length (bufferevent_get_output (bev)) < STREAM_HIGH / 4)
    {
      if (c->out)
        bufferevent_enable (c->out, EV_READ);
      if (c->err)
        bufferevent_enable (c->err, EV_READ);
    }
}

static void
conn_event_cb (struct bufferevent *bev, short what, void *arg)
{
  conn_t *c = arg;
  if (c->kind == K_ATTACHED && (what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR))
    {
      /* The client half-closed: the container's stdin ends once what is
       * queued for it is written.  Its output still flows back. */
      c->in_eof = true;
      if (c->in && evbuffer_get_length (bufferevent_get_output (c->in)) == 0)
        {
          bufferevent_free (c->in);
          c->in = NULL;
        }
      return;
    }
  if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
    {
      if (c->kind == K_ATTACHED)
        {
          /* Gone: nothing more to deliver. */
          if (c->out)
            bufferevent_free (c->out);
          if (c->err)
            bufferevent_free (c->err);
          c->out = c->err = NULL;
          if (c->ctr)
            c->ctr->attach = NULL;
          c->ctr = NULL;
        }
      conn_free (c);
    }
}

static void
accept_cb (evutil_socket_t fd, short what, void *arg)
{
  server_t *s = arg;
  int cfd = accept4 (fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  conn_t *c;

  if (cfd < 0)
    {
      /* Out of descriptors: the socket stays readable; pause instead of
       * spinning, and try again in 100 ms. */
      if (errno == EMFILE || errno == ENFILE)
        {
          struct timeval tv = {0, 100000};
          event_del (s->accept_ev);
          evtimer_add (s->accept_retry, &tv);
        }
      return;
    }
  if ((c = calloc (1, sizeof *c)) == NULL
      || (c->bev = bufferevent_socket_new (s->base, cfd, BEV_OPT_CLOSE_ON_FREE)) == NULL)
    {
      free (c);
      close (cfd);
      return;
    }
  c->srv = s;
  c->body_fd = -1;
  c->kind = K_HEAD;
  bufferevent_setcb (c->bev, conn_read_cb, conn_write_cb, conn_event_cb, c);
  bufferevent_set_timeouts (c->bev, &idle_timeout, NULL);
  bufferevent_enable (c->bev, EV_READ | EV_WRITE);
  WB_LIST_PUSH (s->conns, c);
}

static void
accept_retry_cb (evutil_socket_t fd, short what, void *arg)
{
  server_t *s = arg;
  event_add (s->accept_ev, NULL);
}

/* ---- children and signals ---------------------------------------------- */

static void
chld_cb (evutil_socket_t sig, short what, void *arg)
{
  server_t *s = arg;
  pid_t pid;
  int status;

  while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
    {
      job_t *j;
      ctr_t *k;
      s->reap_seq++;
      for (j = s->jobs; j && j->pid != pid; j = j->next)
        ;
      if (j)
        {
          WB_LIST_UNLINK (s->jobs, j);
          if (j->timer)
            event_free (j->timer);
          if (j->done)
            j->done (j->arg, status);
          free (j);
          continue;
        }
      for (k = s->ctrs; k && !(k->init_pid == pid && !k->init_gone); k = k->next)
        ;
      if (k)
        {
          ctr_exited (k, status);
          continue;
        }
      /* An init whose create has not been answered yet (or a stray
       * orphan of a container's own): kept for created_cb. */
      if (s->n_early == EARLY_MAX)
        memmove (s->early, s->early + 1, sizeof s->early[0] * (EARLY_MAX - 1)), s->n_early--;
      s->early[s->n_early].pid = pid;
      s->early[s->n_early].seq = s->reap_seq;
      s->early[s->n_early++].status = status;
    }
}

static void
stop_cb (evutil_socket_t sig, short what, void *arg)
{
  server_t *s = arg;
  wb_info ("stopping (%s): removing %s containers", strsignal ((int) sig), s->ctrs ? "its" : "no");
  event_base_loopexit (s->base, NULL);
}

static void
parent_cb (evutil_socket_t fd, short what, void *arg)
{
  server_t *s = arg;
  if (getppid () != s->parent)
    {
      wb_warn ("warmboxd (pid %d) is gone: stopping", (int) s->parent);
      event_base_loopexit (s->base, NULL);
    }
}

/* Run argv to its end (at shutdown and start-up, with no loop to serve). */
static int
run_sync (char *const argv[])
{
  pid_t pid = fork ();
  int st = -1;
  if (pid == 0)
    {
      int null = open ("/dev/null", O_RDWR);
      for (int sig = 1; sig < NSIG; sig++)
        signal (sig, SIG_DFL);
      setpgid (0, 0);
      if (null >= 0)
        dup2 (null, 0), dup2 (null, 1);
      execv (argv[0], argv);
      _exit (127);
    }
  if (pid < 0)
    return -1;
  while (waitpid (pid, &st, 0) < 0 && errno == EINTR)
    ;
  return WIFEXITED (st) && WEXITSTATUS (st) == 0 ? 0 : -1;
}

/* What a helper before this one left on its root (it was killed, or its
 * host rebooted): every container is deleted through its runtime, what is
 * left of their cgroups is killed and removed, and the bundles go.  Only
 * one helper serves a root (its lock), so nothing here is anyone's. */
static void
reap_leftovers (server_t *s)
{
  /* runsc's, then runc's and crun's, each deleted by its own binary
   * (an earlier helper may have run the other native runtime). */
  const char *dirs[3] = {s->runsc_state_dir, s->state_dirs[0], s->state_dirs[1]};
  const char *bins[3]
      = {s->paths->runsc, oci_runtime_find (OCI_RUNTIME_RUNC), oci_runtime_find (OCI_RUNTIME_CRUN)};
  int n = 0;

  if (s->paths->runtime.kind == OCI_RUNTIME_RUNC)
    bins[1] = s->paths->runtime.path;
  else
    bins[2] = s->paths->runtime.path;
  for (int r = 0; r < 3; r++)
    {
      DIR *d = opendir (dirs[r]);
      struct dirent *e;
      if (d == NULL)
        continue;
      while ((e = readdir (d)) != NULL)
        {
          ctr_t k = {.srv = s, .gvisor = r == 0};
          const char *end = r == 0 ? strstr (e->d_name, "_sandbox:") : NULL;
          size_t len = r == 0 ? (end ? (size_t) (end - e->d_name) : 0) : strlen (e->d_name);
          char *argv[16];
          size_t w = 0;
          if (e->d_name[0] == '.' || len != 64)
            continue;
          if (bins[r] == NULL)
            {
              wb_warn ("%s holds container %.12s of a runtime that is not installed now: only "
                       "its processes and cgroups are removed",
                       dirs[r], e->d_name);
              continue;
            }
          snprintf (k.id, sizeof k.id, "%.64s", e->d_name);
          if (r == 0)
            w = runtime_words (s, &k, argv);
          else
            {
              argv[w++] = (char *) bins[r];
              argv[w++] = "--root";
              argv[w++] = (char *) dirs[r];
            }
          argv[w++] = "delete";
          argv[w++] = "--force";
          argv[w++] = k.id;
          argv[w] = NULL;
          if (run_sync (argv) < 0)
            wb_warn ("container %.12s, left by an earlier helper: the runtime's delete failed",
                     k.id);
          n++;
        }
      closedir (d);
    }
  cgroup_purge (s, NULL);
  {
    char *rm[] = {"/bin/rm", "-rf", "--one-file-system", s->bundles_dir, NULL};
    if (run_sync (rm) < 0 || mkdir (s->bundles_dir, 0700) < 0)
      wb_warn ("cannot empty %s", s->bundles_dir);
  }
  /* Image unpacks a killed helper left (older than an hour: another
   * helper of this host may be unpacking now). */
  {
    DIR *d = opendir (s->paths->images);
    struct dirent *e;
    while (d && (e = readdir (d)) != NULL)
      {
        char path[PATH_MAX];
        struct stat st;
        if (strncmp (e->d_name, ".load-", 6) != 0)
          continue;
        snprintf (path, sizeof path, "%s/%s", s->paths->images, e->d_name);
        if (lstat (path, &st) == 0 && S_ISDIR (st.st_mode) && st.st_mtime < time (NULL) - 3600)
          {
            char *rm[] = {"/bin/rm", "-rf", "--one-file-system", path, NULL};
            run_sync (rm);
          }
      }
    if (d)
      closedir (d);
  }
  if (n)
    wb_info ("removed %d containers an earlier helper left on %s", n, s->paths->root);
}

/* Stop: every container is removed, synchronously (the loop is over).
 * Creates and deletes under way finish first (a create killed half-way
 * would leave an init the runtime never recorded), within the runtime's
 * bound; then each container is killed, deleted, its cgroups purged, its
 * bundle removed. */
static void
remove_all (server_t *s)
{
  uint32_t ms = s->paths->runtime_timeout_ms ? s->paths->runtime_timeout_ms : 30000;
  for (ctr_t *k = s->ctrs; k; k = k->next)
    if (!k->init_gone && k->init_pid > 0)
      kill (k->init_pid, SIGKILL);
  for (uint32_t waited = 0; s->jobs && waited < ms; waited += 10)
    {
      for (job_t *j = s->jobs, *next; j; j = next)
        {
          next = j->next;
          if (waitpid (j->pid, NULL, WNOHANG) == j->pid)
            {
              WB_LIST_UNLINK (s->jobs, j);
              if (j->timer)
                event_free (j->timer);
              free (j);
            }
        }
      usleep (10000);
    }
  while (s->ctrs)
    {
      ctr_t *k = s->ctrs;
      char *argv[16];
      size_t n = runtime_words (s, k, argv);
      char *rm[] = {"/bin/rm", "-rf", "--one-file-system", k->bundle, NULL};
      argv[n++] = "delete";
      argv[n++] = "--force";
      argv[n++] = k->id;
      argv[n] = NULL;
      if (k->state == C_CREATING)
        {
          /* Its create has ended (above): the init, if any, is in the pid file. */
          char path[PATH_MAX + 16], buf[32];
          snprintf (path, sizeof path, "%s/pid", k->bundle);
          if (read_small (path, buf, sizeof buf) > 0
              && (k->init_pid = (pid_t) strtol (buf, NULL, 10)) > 1)
            kill (k->init_pid, SIGKILL);
        }
      if (!k->init_gone && k->init_pid > 0)
        waitpid (k->init_pid, NULL, 0);
      if (run_sync (argv) < 0 && runtime_has (s, k))
        wb_warn ("container %.12s: the runtime's delete failed; the next helper on this root "
                 "deletes it",
                 k->id);
      cgroup_purge (s, k->id);
      run_sync (rm);
      k->attach = NULL; /* the connections are gone already */
      ctr_free (k);
    }
}

static int
listen_unix (const char *path)
{
  struct sockaddr_un a = {.sun_family = AF_UNIX};
  int fd;
  if (strlen (path) >= sizeof a.sun_path)
    return -1;
  snprintf (a.sun_path, sizeof a.sun_path, "%s", path);
  if ((fd = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) < 0)
    return -1;
  unlink (path);
  if (bind (fd, (struct sockaddr *) &a, sizeof a) < 0 || chmod (path, 0600) < 0
      || listen (fd, 128) < 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

int
oci_serve (const oci_paths_t *paths, const char *socket_path, bool die_with_parent)
{
  server_t s = {.paths = paths, .listen_fd = -1};
  int rc = 1;

  s.parent = getppid ();
  if (die_with_parent)
    {
      /* Started by warmboxd: it alone stops the helper (SIGUSR1, by pid,
       * once its own executions and pools are done), or its death does.
       * A signal to the whole group (Ctrl-C, a service manager's SIGTERM)
       * must not take the engine away under a draining warmboxd. */
      prctl (PR_SET_PDEATHSIG, SIGUSR1);
      signal (SIGINT, SIG_IGN);
      signal (SIGTERM, SIG_IGN);
      if (getppid () != s.parent)
        return 1;
    }
  if (prctl (PR_SET_CHILD_SUBREAPER, 1) < 0)
    {
      wb_log_error ("cannot be the containers' subreaper: %s", strerror (errno));
      return 1;
    }
  signal (SIGPIPE, SIG_IGN);
  /* Each native runtime its own state root: a root another one left is
   * still reaped by its own binary (reap_leftovers). */
  snprintf (s.state_dirs[OCI_RUNTIME_RUNC], sizeof s.state_dirs[0], "%s/state", paths->root);
  snprintf (s.state_dirs[OCI_RUNTIME_CRUN], sizeof s.state_dirs[0], "%s/state-crun", paths->root);
  snprintf (s.state_dir, sizeof s.state_dir, "%s", s.state_dirs[paths->runtime.kind]);
  snprintf (s.bundles_dir, sizeof s.bundles_dir, "%s/bundles", paths->root);
  snprintf (s.runsc_state_dir, sizeof s.runsc_state_dir, "%s/state-runsc", paths->root);
  if (wb_mkdir_p (paths->root, 0700) < 0 || chmod (paths->root, 0700) < 0
      || wb_mkdir_p (s.state_dir, 0700) < 0 || wb_mkdir_p (s.bundles_dir, 0700) < 0
      || wb_mkdir_p (s.runsc_state_dir, 0700) < 0 || wb_mkdir_p (paths->images, 0711) < 0
      || chmod (paths->images, 0711) < 0)
    {
      wb_log_error ("cannot make %s or %s: %s", paths->root, paths->images, strerror (errno));
      return 1;
    }
  {
    /* One helper per root: two would delete each other's containers.  A
     * helper whose warmboxd died may still be removing its containers:
     * wait for it (2 minutes at most). */
    char lock[PATH_MAX];
    int fd, tries = 0;
    snprintf (lock, sizeof lock, "%s/lock", paths->root);
    if ((fd = open (lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0)
      {
        wb_log_error ("cannot open %s: %s", lock, strerror (errno));
        return 1;
      }
    while (flock (fd, LOCK_EX | LOCK_NB) < 0)
      {
        if (errno != EWOULDBLOCK || ++tries == 1200)
          {
            wb_log_error ("another warmbox-oci serves %s (its lock: %s)", paths->root,
                          strerror (errno));
            return 1;
          }
        if (tries == 1)
          wb_info ("another warmbox-oci still serves %s: waiting for it to stop", paths->root);
        usleep (100000);
      }
    /* Held (open) for the helper's life. */
  }
  if (access (paths->runtime.path, X_OK) < 0)
    {
      wb_log_error ("the runtime %s cannot be run: %s", paths->runtime.path, strerror (errno));
      return 1;
    }
  {
    char host[256] = "", sum[65], in[600];
    gethostname (host, sizeof host - 1);
    snprintf (in, sizeof in, "%s:%s", host, paths->root);
    wb_sha256_hex (in, strlen (in), sum);
    snprintf (s.engine_id, sizeof s.engine_id, "oci-%.24s", sum);
    /* Its containers' cgroups under a parent of its own root's: another
     * helper of the host (another root) is never touched by a purge. */
    wb_sha256_hex (paths->root, strlen (paths->root), sum);
    snprintf (s.cgroup_parent, sizeof s.cgroup_parent, "warmbox-oci-%.12s", sum);
  }
  if (oci_events_init (&s.events, EVENTS_KEPT) < 0)
    {
      wb_log_error ("out of memory");
      return 1;
    }
  if ((s.base = event_base_new ()) == NULL || (s.listen_fd = listen_unix (socket_path)) < 0)
    {
      wb_log_error ("cannot listen on %s: %s", socket_path, strerror (errno));
      goto out;
    }
  reap_leftovers (&s);
  s.accept_ev = event_new (s.base, s.listen_fd, EV_READ | EV_PERSIST, accept_cb, &s);
  s.accept_retry = evtimer_new (s.base, accept_retry_cb, &s);
  s.chld_ev = evsignal_new (s.base, SIGCHLD, chld_cb, &s);
  s.term_ev = evsignal_new (s.base, die_with_parent ? SIGUSR1 : SIGTERM, stop_cb, &s);
  s.int_ev = evsignal_new (s.base, die_with_parent ? SIGUSR2 : SIGINT, stop_cb, &s);
  s.parent_timer = event_new (s.base, -1, EV_PERSIST, parent_cb, &s);
  {
    struct timeval tv = {1, 0};
    if (s.accept_ev == NULL || s.accept_retry == NULL || s.chld_ev == NULL || s.term_ev == NULL
        || s.int_ev == NULL || s.parent_timer == NULL || event_add (s.accept_ev, NULL) < 0
        || event_add (s.chld_ev, NULL) < 0 || event_add (s.term_ev, NULL) < 0
        || event_add (s.int_ev, NULL) < 0
        || (die_with_parent && event_add (s.parent_timer, &tv) < 0))
      {
        wb_log_error ("out of memory");
        goto out;
      }
  }
  wb_info ("serving on %s: runtime %s (%s; %s), state %s, images %s", socket_path,
           paths->runtime.path, paths->runtime.version, paths->runtime.why, s.state_dir,
           paths->images);
  chld_cb (SIGCHLD, 0, &s); /* what exited before the handler */
  event_base_dispatch (s.base);
  rc = 0;
out:
  if (s.listen_fd >= 0)
    {
      close (s.listen_fd);
      unlink (socket_path);
    }
  while (s.conns)
    {
      conn_t *c = s.conns;
      /* An events client gets what is queued for it, as far as its
       * socket takes it now (the last starts). */
      if (c->kind == K_EVENTS)
        evbuffer_write (bufferevent_get_output (c->bev), bufferevent_getfd (c->bev));
      if (c->ev_until_timer)
        event_free (c->ev_until_timer);
      oci_event_filter_free (&c->ev_filter);
      c->ctr = NULL;
      if (c->in)
        bufferevent_free (c->in);
      if (c->out)
        bufferevent_free (c->out);
      if (c->err)
        bufferevent_free (c->err);
      c->in = c->out = c->err = NULL;
      close_fd (&c->body_fd);
      wb_buf_free (&c->body);
      bufferevent_free (c->bev);
      WB_LIST_UNLINK (s.conns, c);
      free (c);
    }
  remove_all (&s);
  while (s.jobs)
    {
      job_t *j = s.jobs;
      WB_LIST_UNLINK (s.jobs, j);
      kill (j->pid, SIGKILL);
      waitpid (j->pid, NULL, 0);
      if (j->timer)
        event_free (j->timer);
      free (j);
    }
  if (s.accept_ev)
    event_free (s.accept_ev);
  if (s.accept_retry)
    event_free (s.accept_retry);
  if (s.chld_ev)
    event_free (s.chld_ev);
  if (s.term_ev)
    event_free (s.term_ev);
  if (s.int_ev)
    event_free (s.int_ev);
  if (s.parent_timer)
    event_free (s.parent_timer);
  if (s.base)
    event_base_free (s.base);
  oci_events_free (&s.events);
  return rc;
}
