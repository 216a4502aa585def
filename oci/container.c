/* oci/container.c: a container's life in the helper — the runtime's
 * create, the start through the exec fifo (runsc: its start), the exit
 * (the helper is the subreaper of every init), kill, wait, and the one
 * way a container ends, ctr_remove: kill, wait for the exit, the
 * runtime's delete, the bundle removed, freed.  The states and what ends
 * each are server.c's opening comment. */
#define _GNU_SOURCE
#include "oci/server_int.h"

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

const char *const ctr_state_names[]
    = {"created", "created", "created", "running", "exited", "removing"};

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

/* ---- containers -------------------------------------------------------- */

/* By name, else by id or a prefix of one naming no other, as Docker. */
ctr_t *
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

/* GET /events[?filters=..][&since=..][&until=..]: what is still kept
 * since since= first, then each event as it happens. */

/* Free a container's memory and handles; the container itself must be
 * gone (deleted) or never made.  Every connection waiting on it is
 * answered or closed first. */
void
ctr_free (ctr_t *k)
{
  server_t *s = k->srv;
  if (k->attach)
    attach_end (k->attach);
  ctr_answer_waits (k);
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
ctr_wait_answer (conn_t *c, const ctr_t *k)
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
void
ctr_answer_waits (ctr_t *k)
{
  server_t *s = k->srv;
  for (conn_t *c = s->conns, *next; c; c = next)
    {
      next = c->next;
      if (c->kind == K_WAIT && c->ctr == k)
        ctr_wait_answer (c, k);
    }
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
ctr_start_finish (ctr_t *k, start_outcome_t outcome, const char *why)
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
      event_emit (k, "start", NULL, NULL);
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
        (void) run_send_event (k->attach, "started");
      else
        (void) run_send_event (k->attach, "%s %s",
                               outcome == START_NEVER ? "not-started" : "start-failed", why);
    }
  if (c == NULL)
    return;
  c->ctr = NULL;
  if (ok)
    http_reply (c, 204, "text/plain", "", 0);
  else
    http_reply_error (c, 500, "cannot start container %.12s: %s", k->id, why);
}

static void ctr_delete (ctr_t *k);

void
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
    event_emit (k, "oom", NULL, NULL);
  event_emit_code (k, "die", "exitCode", k->exit_code);
  /* runsc's start may answer after the program is over: it ran.  runc's
   * init that ends before its fifo is read never ran the program. */
  if (k->state == C_STARTING && !k->start_failed)
    {
      /* runc's init may have written its byte and run the program within
       * one turn of the loop: a byte in the fifo says it started. */
      char b[16];
      bool ran = k->gvisor || (k->fifo_fd >= 0 && read (k->fifo_fd, b, sizeof b) > 0);
      ctr_start_finish (k, ran ? START_OK : START_NEVER, "its init ended before it started");
    }
  if (!removing)
    k->state = C_EXITED;
  if (k->attach && k->attach->run)
    {
      conn_t *c = k->attach;
      if (run_send_event (c, "exit %d %d", k->exit_code, k->oom ? 1 : 0))
        {
          c->run_exit_sent = true;
          attach_check_done (c); /* its end, if the output has ended too */
        }
    }
  ctr_answer_waits (k);
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
        http_reply_error (c, 500, "the runtime could not delete container %.12s", k->id);
      return;
    }
  remove_bundle (k->srv, k->bundle);
  if (k->announced)
    event_emit (k, "destroy", NULL, NULL);
  if (c)
    http_reply (c, 204, "text/plain", "", 0);
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
          http_reply_error (c, 500, "cannot run the runtime: %s", strerror (errno));
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
    ctr_start_finish (k, START_UNKNOWN, "it is being removed");
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
ctr_created_cb (void *arg, int status)
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
        http_reply_error (c, 500, "the runtime could not create the container: %.400s",
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
  event_emit (k, "create", NULL, NULL);
  if (c)
    {
      cJSON *j = cJSON_CreateObject ();
      if (j
          && (!cJSON_AddStringToObject (j, "Id", k->id) || !cJSON_AddArrayToObject (j, "Warnings")))
        {
          cJSON_Delete (j);
          j = NULL;
        }
      http_reply_json (c, 201, j);
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

void
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
      http_reply_error (c, 500, "out of memory");
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
      http_reply_error (c, 400, "invalid container name");
      return;
    }
  if (k->name[0] && ctr_find (s, k->name) != NULL)
    {
      http_reply_error (c, 409, "the name %.127s is in use", k->name);
      free (k);
      return;
    }
  if (random_hex (k->id, 32) < 0)
    {
      free (k);
      http_reply_error (c, 500, "no randomness for an id");
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
        http_reply_error (c, http_status_of (&err), "%s", err.msg);
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
      http_reply_error (c, http_status_of (&err), "%s", err.msg);
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
      http_reply_error (c, 500, "cannot write the bundle: %s", strerror (e));
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
    if (job_spawn (s, argv, in[0], out[1], err2[1], ctr_created_cb, k) < 0)
      {
        http_reply_error (c, 500, "cannot run the runtime: %s", strerror (errno));
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
      ctr_start_finish (k, START_UNKNOWN, "its init did not answer");
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
      ctr_start_finish (k, START_OK, NULL);
      return;
    }
  /* Closed without its byte: the init ended before it could run the
   * program. */
  ctr_start_finish (k, n == 0 ? START_NEVER : START_UNKNOWN,
                    n == 0 ? "its init closed the fifo" : strerror (errno));
}

/* runsc start answered (gVisor has no exec fifo to open). */
static void
runsc_started_cb (void *arg, int status)
{
  ctr_t *k = arg;
  if (k->state != C_STARTING)
    return; /* it ended first (ctr_exited finished the start), or is being removed */
  ctr_start_finish (k, WIFEXITED (status) && WEXITSTATUS (status) == 0 ? START_OK : START_UNKNOWN,
                    "runsc start failed");
}

static void
start_timeout_cb (evutil_socket_t fd, short what, void *arg)
{
  ctr_start_finish (arg, START_UNKNOWN, "its init did not answer in time");
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
 * ctr_start_finish follows (crun: already, before this returns; runc: from
 * fifo_cb or start_timeout_cb; runsc: from runsc_started_cb), telling
 * k->start_conn or k's run.  -1 with *why (static or errno's) when
 * nothing was begun: k is unchanged. */
int
ctr_start_begin (ctr_t *k, const char **why)
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
      ctr_start_finish (k, START_OK, NULL);
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
    ctr_start_finish (k, START_UNKNOWN, "out of memory");
  return 0;
}

void
do_start (conn_t *c, ctr_t *k)
{
  const char *why = NULL;

  if (k->started || k->state == C_STARTING)
    {
      http_reply (c, 304, "text/plain", "", 0); /* a 304 has no body */
      return;
    }
  /* A start that failed (a run's) killed the init: it never starts. */
  if (k->state != C_CREATED || k->orphan || k->init_gone || k->start_failed)
    {
      http_reply_error (c, 409, "container %.12s cannot be started (%s)", k->id,
                        ctr_state_names[k->state]);
      return;
    }
  k->start_conn = c;
  c->kind = K_BUSY;
  c->ctr = k;
  if (ctr_start_begin (k, &why) < 0)
    {
      k->start_conn = NULL;
      c->ctr = NULL;
      http_reply_error (c, 500, "cannot start container %.12s: %s", k->id, why);
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

void
do_remove (conn_t *c, ctr_t *k)
{
  if (k->state == C_CREATING || k->state == C_REMOVING)
    http_reply_error (c, 409, "container %.12s is being %s", k->id,
                      k->state == C_CREATING ? "created" : "removed");
  else
    ctr_remove (k, c);
}

void
do_kill (conn_t *c, ctr_t *k)
{
  char name[32];
  int given = oci_query_param (c->head.query, "signal", name, sizeof name);
  int sig = given < 0 ? -1 : signal_number (given ? name : NULL);
  if (sig < 0)
    http_reply_error (c, 400, "unknown signal");
  else if (k->state != C_RUNNING || k->init_gone)
    http_reply_error (c, 409, "container %.12s is not running", k->id);
  else if (kill (k->init_pid, sig) < 0)
    http_reply_error (c, 500, "kill: %s", strerror (errno));
  else
    {
      event_emit_code (k, "kill", "signal", sig);
      http_reply (c, 204, "text/plain", "", 0);
    }
}

void
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
    ctr_wait_answer (c, k);
}
