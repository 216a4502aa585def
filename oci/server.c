/* oci/server.c: the helper's engine API: its HTTP front, and what it
 * answers from its own state.  (server_int.h says which file holds what.)
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

/* ---- small things ------------------------------------------------------ */

void
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

int
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

void
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
size_t
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
       * fatal error still reaches stderr, where ctr_created_cb reads it). */
      argv[n++] = "--log";
      argv[n++] = (char *) k->log_path;
    }
  return n;
}

/* Does the runtime still hold state for k? */
bool
runtime_has (const server_t *s, const ctr_t *k)
{
  char path[PATH_MAX];
  if (k->gvisor)
    snprintf (path, sizeof path, "%s/%s_sandbox:%s.state", s->runsc_state_dir, k->id, k->id);
  else
    snprintf (path, sizeof path, "%s/%s", s->state_dir, k->id);
  return access (path, F_OK) == 0;
}

int
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

/* ---- HTTP replies ------------------------------------------------------ */

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

void
http_reply (conn_t *c, int status, const char *content_type, const char *body, size_t len)
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

void
http_reply_json (conn_t *c, int status, cJSON *json)
{
  char *text = json ? cJSON_PrintUnformatted (json) : NULL;
  cJSON_Delete (json);
  if (text == NULL)
    {
      static const char oom[] = "{\"message\":\"out of memory\"}";
      http_reply (c, 500, "application/json", oom, sizeof oom - 1);
      return;
    }
  http_reply (c, status, "application/json", text, strlen (text));
  free (text);
}

void
http_reply_error (conn_t *c, int status, const char *fmt, ...)
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
  http_reply_json (c, status, j);
}

int
http_status_of (const wb_err_t *err)
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
void
event_emit (ctr_t *k, const char *action, const char *key, const char *value)
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

void
event_emit_code (ctr_t *k, const char *action, const char *key, int value)
{
  char v[16];
  snprintf (v, sizeof v, "%d", value);
  event_emit (k, action, key, v);
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
      || !cJSON_AddStringToObject (state, "Status", ctr_state_names[k->state])
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
          http_reply_error (c, 400, "filters is not a JSON object");
          return;
        }
      want = cJSON_GetObjectItemCaseSensitive (f, "label");
      states = cJSON_GetObjectItemCaseSensitive (f, "status");
      if ((want && !cJSON_IsArray (want)) || (states && !cJSON_IsArray (states)))
        {
          cJSON_Delete (f);
          cJSON_Delete (arr);
          http_reply_error (c, 400, "filters' label and status must be lists");
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
          |= cJSON_IsString (st) && strcmp (st->valuestring, ctr_state_names[k->state]) == 0;
      if (!state_ok)
        continue;
      if ((item = cJSON_CreateObject ()) == NULL || !cJSON_AddItemToArray (arr, item)
          || !cJSON_AddStringToObject (item, "Id", k->id)
          || !cJSON_AddStringToObject (item, "State", ctr_state_names[k->state])
          || !cJSON_AddStringToObject (item, "ImageID", k->image_id)
          || (k->req.labels && !cJSON_AddItemReferenceToObject (item, "Labels", k->req.labels)))
        {
          cJSON_Delete (arr);
          arr = NULL;
        }
    }
  cJSON_Delete (f);
  http_reply_json (c, 200, arr);
}

void
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
      http_reply_error (c, 400, "a malformed query parameter");
      return;
    }
  if ((sq && oci_event_time_parse (sq, &since, &err) < 0)
      || (uq && oci_event_time_parse (uq, &until, &err) < 0)
      || oci_event_filter_parse (&c->ev_filter, fq, &err) < 0)
    {
      http_reply_error (c, 400, "%s", err.msg);
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
      http_reply (c, 200, "application/json", ok, sizeof ok - 1);
    }
  else
    {
      /* Docker's way: 200, then an error message in the stream. */
      static const char bad[] = "{\"errorDetail\":{\"message\":\"the archive was refused (see "
                                "warmbox-oci's log)\"},\"error\":\"the archive was refused (see "
                                "warmbox-oci's log)\"}\n";
      http_reply (c, 200, "application/json", bad, sizeof bad - 1);
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
      http_reply_error (c, 500, "cannot unpack: %s", strerror (errno));
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
  http_reply (c, 200, "text/plain", "OK", 2);
}

static void
do_image_get (conn_t *c)
{
  http_reply_error (c, 501, "this engine does not export images");
}

static void
do_inspect (conn_t *c, ctr_t *k)
{
  http_reply_json (c, 200, inspect_json (k));
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
      http_reply_error (c, 400, "a malformed image reference");
      return;
    }
  if (oci_image_find (c->srv->paths->images, decoded, id, NULL, 0, &err) < 0)
    {
      http_reply_error (c, 404, "No such image: %.200s", decoded);
      return;
    }
  j = cJSON_CreateObject ();
  if (j && (!cJSON_AddStringToObject (j, "Id", id) || !cJSON_AddStringToObject (j, "Os", "linux")))
    {
      cJSON_Delete (j);
      j = NULL;
    }
  http_reply_json (c, 200, j);
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
  http_reply_json (c, 200, j);
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
  http_reply_json (c, 200, j);
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
      http_reply_error (c, c->route_status,
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
      http_reply_error (c, 404, "No such container: %.64s", c->route_arg);
      return;
    }
  handlers[c->route].on_container (c, k);
}

/* ---- connections ------------------------------------------------------- */

void
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

/* A request's head and body must come within this (a client that sends
 * half a head holds nothing for ever). */
static const struct timeval idle_timeout = {60, 0};

/* The request is answered: read the next (or close). */
void
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
   * from inside the http_reply to this one (which may be answering from a
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
      attach_client_read (c);
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
          http_reply_error (c, 400, "%s", err.msg);
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
          http_reply_error (c, 413, "the body is too large");
          return;
        }
      if (load
          && (c->body_fd = open (c->srv->paths->images, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) < 0)
        {
          c->close_after = true;
          http_reply_error (c, 500, "no room for the archive: %s", strerror (errno));
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
                  http_reply_error (c, 500, "cannot keep the archive: %s", strerror (errno));
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
