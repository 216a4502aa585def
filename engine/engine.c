/* engine/engine.c: Engine API requests over one libcurl multi handle driven
 * by the libevent base (the hiperfifo pattern).
 *
 * curl tells us which sockets to watch (socket_cb) and when to wake up
 * (timer_cb); those callbacks only touch libevent, never libcurl.  On every
 * socket or timer event we call curl_multi_socket_action and then drain
 * curl_multi_info_read, completing each finished request. */
#define _GNU_SOURCE
#include "engine_int.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define ENG_BODY_MAX (4 * 1024 * 1024)
/* An image archive: the largest sandbox image is ~600 MB; past this an
 * engine is not sending an image (a compromised one could fill the
 * disk), and no transfer may hold the one copy slot for longer. */
#define ENG_ARCHIVE_MAX (8ll * 1024 * 1024 * 1024)
#define ENG_ARCHIVE_TIMEOUT_MS (30L * 60 * 1000)

struct eng_req
{
  eng_t *eng;
  struct eng_req *prev, *next;
  req_kind_t kind;
  CURL *easy;
  struct curl_slist *headers;
  char *post_body;
  wb_buf_t body;
  char api_header[16];
  bool libpod; /* the reply carried Libpod-Api-Version: Podman */
  char errbuf[CURL_ERROR_SIZE];
  eng_cb cb;
  void *arg;
  char *value_key; /* list: label whose values to return */
  eng_armed_cb armed_cb;
  struct event *armed_ev; /* defers armed_cb out of curl's header callback */
  bool in_callback;
  bool cancelled;
  /* Image save: the archive goes to fd; load: it is read from fd. */
  int fd;
  curl_off_t fd_offset;
  int fd_errno; /* a failed write or read of fd */
};

/* Per-socket state handed to curl with curl_multi_assign. */
typedef struct sock_watch
{
  eng_t *eng;
  struct event *ev;
  curl_socket_t fd;
} sock_watch_t;

const char *
eng_default_endpoint (const char *cfg_endpoint)
{
  const char *env;

  if (cfg_endpoint && *cfg_endpoint)
    return cfg_endpoint;
  env = getenv ("DOCKER_HOST");
  if (env && *env)
    return env;
  return "unix:///var/run/docker.sock";
}

/* ---- curl <-> libevent ----------------------------------------------- */

static void check_multi_info (eng_t *eng);

static void
event_cb (evutil_socket_t fd, short kind, void *arg)
{
  eng_t *eng = arg;
  int action
      = ((kind & EV_READ) ? CURL_CSELECT_IN : 0) | ((kind & EV_WRITE) ? CURL_CSELECT_OUT : 0);
  int running;

  curl_multi_socket_action (eng->multi, fd, action, &running);
  check_multi_info (eng);
}

static void
timer_event_cb (evutil_socket_t fd, short kind, void *arg)
{
  eng_t *eng = arg;
  int running;

  (void) fd;
  (void) kind;
  curl_multi_socket_action (eng->multi, CURL_SOCKET_TIMEOUT, 0, &running);
  check_multi_info (eng);
}

static int
multi_timer_cb (CURLM *multi, long timeout_ms, void *userp)
{
  eng_t *eng = userp;
  struct timeval tv;

  (void) multi;
  if (timeout_ms < 0)
    {
      evtimer_del (eng->timer);
      return 0;
    }
  tv.tv_sec = timeout_ms / 1000;
  tv.tv_usec = (timeout_ms % 1000) * 1000;
  /* Without its timer no request would ever time out: curl fails them
   * all instead (a -1 from here). */
  if (evtimer_add (eng->timer, &tv) < 0)
    {
      wb_log_error ("engine: cannot arm curl's timer; its requests fail");
      return -1;
    }
  return 0;
}

static int
multi_socket_cb (CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
  eng_t *eng = userp;
  sock_watch_t *w = socketp;
  short kind;

  (void) easy;
  if (what == CURL_POLL_REMOVE)
    {
      if (w)
        {
          event_free (w->ev);
          free (w);
          curl_multi_assign (eng->multi, fd, NULL);
        }
      return 0;
    }
  kind = (short) (((what & CURL_POLL_IN) ? EV_READ : 0) | ((what & CURL_POLL_OUT) ? EV_WRITE : 0)
                  | EV_PERSIST);
  if (w == NULL)
    {
      w = calloc (1, sizeof *w);
      if (w == NULL)
        return -1;
      w->eng = eng;
      w->fd = fd;
      w->ev = event_new (eng->base, fd, kind, event_cb, eng);
      if (w->ev == NULL)
        {
          free (w);
          return -1;
        }
      curl_multi_assign (eng->multi, fd, w);
    }
  else
    {
      /* The same event, watching for something else now. */
      event_del (w->ev);
      event_assign (w->ev, eng->base, fd, kind, event_cb, eng);
    }
  return event_add (w->ev, NULL) < 0 ? -1 : 0;
}

/* ---- requests -------------------------------------------------------- */

/* Easy handles are kept for the next request: curl_easy_reset is much
 * cheaper than a new handle, and the connection stays in the multi's
 * cache either way. */
static CURL *
easy_get (eng_t *eng)
{
  if (eng->n_spare)
    return eng->spare[--eng->n_spare];
  return curl_easy_init ();
}

static void
easy_put (eng_t *eng, CURL *easy)
{
  if (eng->n_spare < WB_ARRAY_SIZE (eng->spare))
    {
      curl_easy_reset (easy);
      eng->spare[eng->n_spare++] = easy;
    }
  else
    curl_easy_cleanup (easy);
}

static void
req_unlink_free (eng_req_t *req)
{
  eng_t *eng = req->eng;

  if (req->easy)
    {
      curl_multi_remove_handle (eng->multi, req->easy);
      easy_put (eng, req->easy);
    }
  if (req->prev)
    req->prev->next = req->next;
  else
    eng->reqs = req->next;
  if (req->next)
    req->next->prev = req->prev;
  if (req->armed_ev)
    event_free (req->armed_ev);
  curl_slist_free_all (req->headers);
  free (req->post_body);
  free (req->value_key);
  wb_buf_free (&req->body);
  free (req);
}

static void
armed_event_cb (evutil_socket_t fd, short kind, void *arg)
{
  eng_req_t *req = arg;

  (void) fd;
  (void) kind;
  req->armed_cb (req->arg);
}

void
eng_req_cancel (eng_req_t *req)
{
  if (req == NULL || req->in_callback)
    return;
  req_unlink_free (req);
}

static size_t
write_cb (char *ptr, size_t size, size_t nmemb, void *userdata)
{
  eng_req_t *req = userdata;
  size_t n = size * nmemb;
  long status = 0;

  if (req->kind == REQ_IMAGE_SAVE)
    curl_easy_getinfo (req->easy, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 200 && status <= 299)
    {
      /* The archive, to its file (a regular file: writes block briefly). */
      if (req->fd_offset + (curl_off_t) n > ENG_ARCHIVE_MAX)
        {
          req->fd_errno = EFBIG;
          return 0;
        }
      req->fd_offset += (curl_off_t) n;
      for (size_t done = 0; done < n;)
        {
          ssize_t w = write (req->fd, ptr + done, n - done);
          if (w < 0 && errno == EINTR)
            continue;
          if (w <= 0)
            {
              req->fd_errno = w < 0 ? errno : EIO;
              return 0;
            }
          done += (size_t) w;
        }
      return n;
    }
  /* A reply this large is not one we asked for; failing the write makes
   * curl end the transfer with CURLE_WRITE_ERROR. */
  if (req->body.len + n > ENG_BODY_MAX || wb_buf_append (&req->body, ptr, n) < 0)
    return 0;
  return n;
}

static size_t
header_cb (char *ptr, size_t size, size_t nmemb, void *userdata)
{
  eng_req_t *req = userdata;
  size_t n = size * nmemb;
  static const char name[] = "api-version:";
  static const char libpod[] = "libpod-api-version:";

  /* The blank line after a 2xx head of a wait: the engine has registered
   * it.  libcurl forbids calling it back from here, so defer. */
  if (req->armed_ev && n == 2 && ptr[0] == '\r' && ptr[1] == '\n')
    {
      long status = 0;
      curl_easy_getinfo (req->easy, CURLINFO_RESPONSE_CODE, &status);
      if (status >= 200 && status <= 299)
        event_active (req->armed_ev, EV_TIMEOUT, 0);
    }

  if (n > sizeof libpod && strncasecmp (ptr, libpod, sizeof libpod - 1) == 0)
    req->libpod = true;
  if (n > sizeof name && strncasecmp (ptr, name, sizeof name - 1) == 0)
    {
      const char *v = ptr + sizeof name - 1;
      size_t vlen = n - (sizeof name - 1);
      while (vlen && (*v == ' ' || *v == '\t'))
        v++, vlen--;
      while (vlen && (v[vlen - 1] == '\r' || v[vlen - 1] == '\n' || v[vlen - 1] == ' '))
        vlen--;
      if (vlen < sizeof req->api_header)
        {
          memcpy (req->api_header, v, vlen);
          req->api_header[vlen] = '\0';
        }
    }
  return n;
}

static size_t
read_cb (char *buf, size_t size, size_t nmemb, void *userdata)
{
  eng_req_t *req = userdata;

  for (;;)
    {
      ssize_t r = pread (req->fd, buf, size * nmemb, (off_t) req->fd_offset);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          req->fd_errno = errno;
          return CURL_READFUNC_ABORT;
        }
      req->fd_offset += r;
      return (size_t) r;
    }
}

/* Turn a finished transfer into an eng_result_t for the caller: the
 * transfer's own failures here, the reply by its kind's decoder (proto.c). */
static void
req_complete (eng_req_t *req, CURLcode code)
{
  eng_t *eng = req->eng;
  eng_result_t res;
  eng_decoded_t own = {0};
  long status = 0;
  const char *what = eng_req_what (req->kind);

  memset (&res, 0, sizeof res);
  if (req->fd_errno)
    res.rc = wb_error_errno (&res.err, WB_E_IO, req->fd_errno, "%s: the archive file", what);
  else if (code != CURLE_OK)
    res.rc = wb_error (&res.err, code == CURLE_WRITE_ERROR ? WB_E_ENGINE : WB_E_ENGINE_DOWN,
                       "%s: %s%s%s", what, curl_easy_strerror (code), req->errbuf[0] ? ": " : "",
                       req->errbuf);
  else
    {
      eng_reply_t reply = {.body = req->body.data,
                           .len = req->body.len,
                           .api_header = req->api_header,
                           .libpod = req->libpod,
                           .value_key = req->value_key};
      curl_easy_getinfo (req->easy, CURLINFO_RESPONSE_CODE, &status);
      reply.status = res.http_status = status;
      eng_reply_decode (req->kind, &reply, &res, &own);
      /* A ping's version is the one every later request speaks. */
      if (res.rc == 0 && res.api_version)
        {
          snprintf (eng->api_version, sizeof eng->api_version, "%s", res.api_version);
          res.api_version = eng->api_version;
        }
    }
  if (res.rc < 0)
    wb_debug ("%s failed: %s", what, res.err.msg);
  req->in_callback = true;
  req->cb (req->arg, &res);
  req->in_callback = false;
  eng_decoded_clear (&own);
  req_unlink_free (req);
}

static void
check_multi_info (eng_t *eng)
{
  CURLMsg *msg;
  int left;

  while ((msg = curl_multi_info_read (eng->multi, &left)))
    {
      eng_req_t *req = NULL;

      if (msg->msg != CURLMSG_DONE)
        continue;
      curl_easy_getinfo (msg->easy_handle, CURLINFO_PRIVATE, (char **) &req);
      if (req)
        req_complete (req, msg->data.result);
    }
}

/* Build and queue one request.  path is relative to the versioned prefix,
 * e.g. "/containers/create"; unversioned when kind is REQ_PING. */
/* An image archive moving through a file (image save and load). */
typedef struct req_stream
{
  int fd;
  bool upload;  /* load: the request body is read from fd */
  long stall_s; /* end the transfer when it stalls this long */
} req_stream_t;

static eng_req_t *
req_start_stream (eng_t *eng, req_kind_t kind, const char *method, const char *path,
                  const char *json_body, long timeout_ms, const req_stream_t *stream, eng_cb cb,
                  void *arg, wb_err_t *err)
{
  eng_req_t *req;
  cleanup_buf wb_buf_t url = WB_BUF_INIT;
  CURLMcode mc;

  req = calloc (1, sizeof *req);
  if (req == NULL)
    {
      wb_error (err, WB_E_NOMEM, "%s: out of memory", eng_req_what (kind));
      return NULL;
    }
  req->eng = eng;
  req->kind = kind;
  req->cb = cb;
  req->arg = arg;
  req->easy = easy_get (eng);
  if (req->easy == NULL)
    goto oom;
  if (kind == REQ_PING)
    {
      if (wb_buf_printf (&url, "%s%s", eng->base_url, path) < 0)
        goto oom;
    }
  else if (wb_buf_printf (&url, "%s/v%s%s", eng->base_url, eng->api_version, path) < 0)
    goto oom;

  /* The string options curl copies can fail for memory, and one lost
   * would change the request: the socket (TCP to localhost instead), the
   * protocols allowed, the CA that vouches for the engine (the system's
   * instead). */
  if (curl_easy_setopt (req->easy, CURLOPT_URL, url.data) != CURLE_OK
      || curl_easy_setopt (req->easy, CURLOPT_CUSTOMREQUEST, method) != CURLE_OK
      || curl_easy_setopt (req->easy, CURLOPT_PROTOCOLS_STR, eng->tls ? "https" : "http")
             != CURLE_OK
      || (eng->unix_path
          && curl_easy_setopt (req->easy, CURLOPT_UNIX_SOCKET_PATH, eng->unix_path) != CURLE_OK)
      || (eng->tls
          && ((eng->tls_ca && curl_easy_setopt (req->easy, CURLOPT_CAINFO, eng->tls_ca) != CURLE_OK)
              || curl_easy_setopt (req->easy, CURLOPT_SSLCERT, eng->tls_cert) != CURLE_OK
              || curl_easy_setopt (req->easy, CURLOPT_SSLKEY, eng->tls_key) != CURLE_OK)))
    goto oom;
  curl_easy_setopt (req->easy, CURLOPT_PRIVATE, req);
  curl_easy_setopt (req->easy, CURLOPT_WRITEFUNCTION, write_cb);
  curl_easy_setopt (req->easy, CURLOPT_WRITEDATA, req);
  curl_easy_setopt (req->easy, CURLOPT_HEADERFUNCTION, header_cb);
  curl_easy_setopt (req->easy, CURLOPT_HEADERDATA, req);
  curl_easy_setopt (req->easy, CURLOPT_ERRORBUFFER, req->errbuf);
  curl_easy_setopt (req->easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (req->easy, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
  curl_easy_setopt (req->easy, CURLOPT_TIMEOUT_MS, timeout_ms);
  if (eng->tls)
    {
      /* A kept handle would offer the TLS session of an earlier connection;
       * an engine behind a TLS front that cannot resume it (one process per
       * connection) answers with an alert.  Full handshakes only. */
      curl_easy_setopt (req->easy, CURLOPT_SSL_SESSIONID_CACHE, 0L);
    }
  if (json_body)
    {
      req->post_body = strdup (json_body);
      if (req->post_body == NULL)
        goto oom;
      curl_easy_setopt (req->easy, CURLOPT_POSTFIELDS, req->post_body);
      curl_easy_setopt (req->easy, CURLOPT_POSTFIELDSIZE, (long) strlen (req->post_body));
      req->headers = curl_slist_append (NULL, "Content-Type: application/json");
      /* No "Expect: 100-continue" (curl's default past 1 KiB, and every
       * create body is larger): it costs a round trip per create. */
      if (req->headers)
        {
          struct curl_slist *h = curl_slist_append (req->headers, "Expect:");
          if (h == NULL)
            goto oom;
          req->headers = h;
        }
      if (req->headers == NULL)
        goto oom;
    }
  else if (strcmp (method, "POST") == 0 && !(stream && stream->upload))
    {
      curl_easy_setopt (req->easy, CURLOPT_POSTFIELDS, "");
      curl_easy_setopt (req->easy, CURLOPT_POSTFIELDSIZE, 0L);
    }
  if (stream)
    {
      req->fd = stream->fd;
      /* An archive moves at the disk's and the network's pace, for
       * minutes if it is large: no overall timeout, but a stall ends it. */
      curl_easy_setopt (req->easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
      curl_easy_setopt (req->easy, CURLOPT_LOW_SPEED_TIME, stream->stall_s);
      curl_easy_setopt (req->easy, CURLOPT_TIMEOUT_MS, ENG_ARCHIVE_TIMEOUT_MS);
    }
  if (stream && stream->upload)
    {
      struct stat st;
      struct curl_slist *h;
      if (fstat (stream->fd, &st) < 0)
        {
          wb_error_errno (err, WB_E_IO, errno, "%s: the archive file", eng_req_what (kind));
          goto fail;
        }
      curl_easy_setopt (req->easy, CURLOPT_POST, 1L);
      curl_easy_setopt (req->easy, CURLOPT_READFUNCTION, read_cb);
      curl_easy_setopt (req->easy, CURLOPT_READDATA, req);
      curl_easy_setopt (req->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) st.st_size);
      h = curl_slist_append (NULL, "Content-Type: application/x-tar");
      if (h && (req->headers = curl_slist_append (h, "Expect:")) == NULL)
        curl_slist_free_all (h);
      if (req->headers == NULL)
        goto oom;
    }
  if (req->headers)
    curl_easy_setopt (req->easy, CURLOPT_HTTPHEADER, req->headers);

  /* Linked before adding: curl may complete it during a later
   * socket_action, and req_unlink_free expects it in the list. */
  req->next = eng->reqs;
  if (eng->reqs)
    eng->reqs->prev = req;
  eng->reqs = req;
  mc = curl_multi_add_handle (eng->multi, req->easy);
  if (mc != CURLM_OK)
    {
      wb_error (err, WB_E_INTERNAL, "%s: %s", eng_req_what (kind), curl_multi_strerror (mc));
      req_unlink_free (req);
      return NULL;
    }
  return req;

oom:
  wb_error (err, WB_E_NOMEM, "%s: out of memory", eng_req_what (kind));
fail:
  if (req->easy)
    easy_put (eng, req->easy);
  curl_slist_free_all (req->headers);
  free (req->post_body);
  free (req);
  return NULL;
}

static eng_req_t *
req_start (eng_t *eng, req_kind_t kind, const char *method, const char *path, const char *json_body,
           long timeout_ms, eng_cb cb, void *arg, wb_err_t *err)
{
  return req_start_stream (eng, kind, method, path, json_body, timeout_ms, NULL, cb, arg, err);
}

/* Container ids and image names go into paths: allow only what they may
 * hold so nothing can smuggle a query or another path segment in. */
static bool
path_component_ok (const char *s)
{
  if (s == NULL || *s == '\0' || strlen (s) > 256)
    return false;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
          || *p == '.' || *p == '-' || *p == '_' || *p == ':' || *p == '/' || *p == '@'))
      return false;
  return strstr (s, "..") == NULL;
}

#define CHECK_ID(what, s)                                                                          \
  do                                                                                               \
    {                                                                                              \
      if (!path_component_ok (s))                                                                  \
        {                                                                                          \
          wb_error (err, WB_E_INVALID, "%s: invalid name", what);                                  \
          return NULL;                                                                             \
        }                                                                                          \
    }                                                                                              \
  while (0)

eng_req_t *
eng_ping (eng_t *eng, eng_cb cb, void *arg, wb_err_t *err)
{
  return req_start (eng, REQ_PING, "GET", "/_ping", NULL, 5000, cb, arg, err);
}

eng_req_t *
eng_image_inspect (eng_t *eng, const char *name, eng_cb cb, void *arg, wb_err_t *err)
{
  char path[400];
  CHECK_ID ("image inspect", name);
  snprintf (path, sizeof path, "/images/%s/json", name);
  return req_start (eng, REQ_IMAGE_INSPECT, "GET", path, NULL, eng->request_timeout_ms, cb, arg,
                    err);
}

eng_req_t *
eng_container_create (eng_t *eng, const char *name, const char *body_json, eng_cb cb, void *arg,
                      wb_err_t *err)
{
  char path[400];

  if (name && (!path_component_ok (name) || strchr (name, '/') != NULL))
    {
      wb_error (err, WB_E_INVALID, "container create: invalid name");
      return NULL;
    }
  snprintf (path, sizeof path, "/containers/create%s%s", name ? "?name=" : "", name ? name : "");
  return req_start (eng, REQ_CREATE, "POST", path, body_json, eng->request_timeout_ms, cb, arg,
                    err);
}

/* An operation on one container: "/containers/{id}{suffix}". */
static eng_req_t *
container_op (eng_t *eng, req_kind_t kind, const char *method, const char *id, const char *suffix,
              long timeout_ms, eng_cb cb, void *arg, wb_err_t *err)
{
  char path[400];

  if (!path_component_ok (id) || strchr (id, '/') != NULL)
    {
      wb_error (err, WB_E_INVALID, "%s: invalid container id", eng_req_what (kind));
      return NULL;
    }
  snprintf (path, sizeof path, "/containers/%s%s", id, suffix);
  return req_start (eng, kind, method, path, NULL, timeout_ms, cb, arg, err);
}

eng_req_t *
eng_container_start (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  return container_op (eng, REQ_START, "POST", id, "/start", eng->request_timeout_ms, cb, arg, err);
}

eng_req_t *
eng_container_wait_stopped (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  return container_op (eng, REQ_WAIT, "POST", id, "/wait?condition=not-running", 0, cb, arg, err);
}

eng_req_t *
eng_container_wait (eng_t *eng, const char *id, eng_armed_cb armed, eng_cb cb, void *arg,
                    wb_err_t *err)
{
  eng_req_t *req
      = container_op (eng, REQ_WAIT, "POST", id, "/wait?condition=next-exit", 0, cb, arg, err);
  if (req && armed)
    {
      req->armed_cb = armed;
      req->armed_ev = evtimer_new (eng->base, armed_event_cb, req);
      if (req->armed_ev == NULL)
        {
          req_unlink_free (req);
          wb_error (err, WB_E_NOMEM, "container wait: out of memory");
          return NULL;
        }
    }
  return req;
}

eng_req_t *
eng_container_kill (eng_t *eng, const char *id, const char *signal, eng_cb cb, void *arg,
                    wb_err_t *err)
{
  char suffix[64];

  CHECK_ID ("container kill", signal);
  snprintf (suffix, sizeof suffix, "/kill?signal=%s", signal);
  return container_op (eng, REQ_KILL, "POST", id, suffix, eng->request_timeout_ms, cb, arg, err);
}

eng_req_t *
eng_container_inspect (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  return container_op (eng, REQ_INSPECT, "GET", id, "/json", eng->request_timeout_ms, cb, arg, err);
}

eng_req_t *
eng_container_remove (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  return container_op (eng, REQ_REMOVE, "DELETE", id, "?force=1&v=1", eng->request_timeout_ms, cb,
                       arg, err);
}

eng_req_t *
eng_container_list (eng_t *eng, const char *label, const char *value_key, eng_cb cb, void *arg,
                    wb_err_t *err)
{
  cleanup_buf wb_buf_t filter = WB_BUF_INIT;
  cleanup_buf wb_buf_t path = WB_BUF_INIT;
  char *escaped;
  eng_req_t *req;

  if (wb_buf_append_str (&filter, "{\"label\":[") < 0
      || wb_json_append_string (&filter, label, strlen (label)) < 0
      || wb_buf_append_str (&filter, "]}") < 0)
    {
      wb_error (err, WB_E_NOMEM, "container list: out of memory");
      return NULL;
    }
  escaped = curl_easy_escape (NULL, filter.data, (int) filter.len);
  if (escaped == NULL || wb_buf_printf (&path, "/containers/json?all=1&filters=%s", escaped) < 0)
    {
      curl_free (escaped);
      wb_error (err, WB_E_NOMEM, "container list: out of memory");
      return NULL;
    }
  curl_free (escaped);
  req = req_start (eng, REQ_LIST, "GET", path.data, NULL, eng->request_timeout_ms, cb, arg, err);
  if (req && value_key && (req->value_key = strdup (value_key)) == NULL)
    {
      req_unlink_free (req);
      wb_error (err, WB_E_NOMEM, "container list: out of memory");
      return NULL;
    }
  return req;
}

eng_req_t *
eng_info (eng_t *eng, eng_cb cb, void *arg, wb_err_t *err)
{
  return req_start (eng, REQ_INFO, "GET", "/info", NULL, eng->request_timeout_ms, cb, arg, err);
}

eng_req_t *
eng_image_save (eng_t *eng, const char *name, int fd, eng_cb cb, void *arg, wb_err_t *err)
{
  req_stream_t stream = {fd, false, 120};
  char path[400];

  CHECK_ID ("image save", name);
  snprintf (path, sizeof path, "/images/%s/get", name);
  return req_start_stream (eng, REQ_IMAGE_SAVE, "GET", path, NULL, 0, &stream, cb, arg, err);
}

eng_req_t *
eng_image_load (eng_t *eng, int fd, eng_cb cb, void *arg, wb_err_t *err)
{
  /* The engine unpacks the layers before it answers: a quiet while. */
  req_stream_t stream = {fd, true, 600};

  return req_start_stream (eng, REQ_IMAGE_LOAD, "POST", "/images/load?quiet=1", NULL, 0, &stream,
                           cb, arg, err);
}

/* ---- lifecycle ------------------------------------------------------- */

static int
parse_endpoint (eng_t *eng, const char *endpoint, wb_err_t *err)
{
  const char *rest;
  char host[256];
  const char *colon;
  char port[16];
  struct addrinfo hints, *ai = NULL;
  int rc;

  if (strncmp (endpoint, "unix://", 7) == 0 || strncmp (endpoint, "unix:", 5) == 0)
    {
      rest = endpoint + (strncmp (endpoint, "unix://", 7) == 0 ? 7 : 5);
      if (*rest != '/' || strlen (rest) >= sizeof ((struct sockaddr_un *) 0)->sun_path)
        return wb_error (err, WB_E_INVALID, "engine endpoint %s: need an absolute socket path",
                         endpoint);
      eng->unix_path = strdup (rest);
      eng->base_url = strdup ("http://localhost");
      eng->host = strdup ("localhost");
      return eng->unix_path && eng->base_url && eng->host
                 ? 0
                 : wb_error (err, WB_E_NOMEM, "engine endpoint %s: out of memory", endpoint);
    }
  if (strncmp (endpoint, "tcp://", 6) == 0)
    rest = endpoint + 6;
  else if (strncmp (endpoint, "http://", 7) == 0)
    rest = endpoint + 7;
  else if (strncmp (endpoint, "https://", 8) == 0)
    rest = endpoint + 8, eng->tls = true;
  else
    return wb_error (err, WB_E_INVALID, "engine endpoint %s: use unix:///path or tcp://host:port",
                     endpoint);
  if (eng->tls_cert)
    eng->tls = true;
  if (eng->tls && (eng->tls_cert == NULL || eng->tls_key == NULL))
    return wb_error (err, WB_E_INVALID,
                     "engine endpoint %s: TLS needs a client certificate and key", endpoint);

  colon = strrchr (rest, ':');
  if (colon == NULL || colon == rest || strlen (colon + 1) == 0 || strlen (colon + 1) >= sizeof port
      || (size_t) (colon - rest) >= sizeof host)
    return wb_error (err, WB_E_INVALID, "engine endpoint %s: need host:port", endpoint);
  memcpy (host, rest, (size_t) (colon - rest));
  host[colon - rest] = '\0';
  snprintf (port, sizeof port, "%s", colon + 1);
  {
    size_t pl = strlen (port);
    if (pl && port[pl - 1] == '/')
      port[pl - 1] = '\0';
  }
  /* Resolved once, at start-up: attach streams connect to this address
   * without blocking the loop on a lookup. */
  memset (&hints, 0, sizeof hints);
  hints.ai_socktype = SOCK_STREAM;
  rc = getaddrinfo (host, port, &hints, &ai);
  if (rc != 0 || ai == NULL)
    return wb_error (err, WB_E_INVALID, "engine endpoint %s: %s", endpoint, gai_strerror (rc));
  memcpy (&eng->addr, ai->ai_addr, ai->ai_addrlen);
  eng->addr_len = ai->ai_addrlen;
  freeaddrinfo (ai);
  eng->host = strdup (host);
  {
    wb_buf_t url = WB_BUF_INIT;
    if (wb_buf_printf (&url, "%s://%s:%s", eng->tls ? "https" : "http", host, port) < 0)
      return wb_error (err, WB_E_NOMEM, "engine endpoint %s: out of memory", endpoint);
    eng->base_url = wb_buf_steal (&url);
  }
  return eng->host && eng->base_url
             ? 0
             : wb_error (err, WB_E_NOMEM, "engine endpoint %s: out of memory", endpoint);
}

/* *dst = a copy of s, or NULL when s is NULL or empty.  -1 with err when
 * the copy fails: a setting lost to a failed copy would silently mean its
 * default (no tls_ca: the system's CAs; no tls_cert: no TLS). */
static int
copy_setting (char **dst, const char *s, const char *name, wb_err_t *err)
{
  *dst = NULL;
  if (s == NULL || *s == '\0')
    return 0;
  if ((*dst = strdup (s)) == NULL)
    return wb_error (err, WB_E_NOMEM, "engine: out of memory copying %s", name);
  return 0;
}

int
eng_new (struct event_base *base, const eng_config_t *cfg, eng_t **out, wb_err_t *err)
{
  eng_t *eng;
  static bool curl_ready;

  if (!curl_ready)
    {
      if (curl_global_init (CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return wb_error (err, WB_E_INTERNAL, "curl_global_init failed");
      curl_ready = true;
    }
  eng = calloc (1, sizeof *eng);
  if (eng == NULL)
    return wb_error (err, WB_E_NOMEM, "engine: out of memory");
  eng->base = base;
  eng->request_timeout_ms = cfg->request_timeout_ms > 0 ? cfg->request_timeout_ms : 30000;
  snprintf (eng->api_version, sizeof eng->api_version, "%s", ENG_API_MAX);
  if (copy_setting (&eng->tls_ca, cfg->tls_ca, "tls_ca", err) < 0
      || copy_setting (&eng->tls_cert, cfg->tls_cert, "tls_cert", err) < 0
      || copy_setting (&eng->tls_key, cfg->tls_key, "tls_key", err) < 0
      || parse_endpoint (eng, eng_default_endpoint (cfg->endpoint), err) < 0)
    goto fail;
  eng->multi = curl_multi_init ();
  eng->timer = evtimer_new (base, timer_event_cb, eng);
  if (eng->multi == NULL || eng->timer == NULL)
    {
      wb_error (err, WB_E_NOMEM, "engine: out of memory");
      goto fail;
    }
  curl_multi_setopt (eng->multi, CURLMOPT_SOCKETFUNCTION, multi_socket_cb);
  curl_multi_setopt (eng->multi, CURLMOPT_SOCKETDATA, eng);
  curl_multi_setopt (eng->multi, CURLMOPT_TIMERFUNCTION, multi_timer_cb);
  curl_multi_setopt (eng->multi, CURLMOPT_TIMERDATA, eng);
  *out = eng;
  return 0;

fail:
  eng_free (eng);
  return -1;
}

long
eng_request_timeout_ms (const eng_t *eng)
{
  return eng->request_timeout_ms;
}

void
eng_free (eng_t *eng)
{
  if (eng == NULL)
    return;
  while (eng->reqs)
    req_unlink_free (eng->reqs);
  while (eng->n_spare)
    curl_easy_cleanup (eng->spare[--eng->n_spare]);
  if (eng->multi)
    curl_multi_cleanup (eng->multi);
  if (eng->timer)
    event_free (eng->timer);
  if (eng->ssl_ctx)
    SSL_CTX_free (eng->ssl_ctx);
  free (eng->unix_path);
  free (eng->base_url);
  free (eng->host);
  free (eng->tls_ca);
  free (eng->tls_cert);
  free (eng->tls_key);
  free (eng);
}
