/* engine/attach.c: the hijacked attach stream.
 *
 * libcurl cannot hand over a connection after "101 UPGRADED", so the attach
 * request is written by hand on a bufferevent of its own (plain socket, or
 * OpenSSL for a TLS endpoint).  Bytes that arrive in the same read as the
 * end of the response head are already stream data and are kept.
 *
 * Callbacks into the owner may free the attach (eng_attach_free); we mark it
 * dead and free it when our own handler unwinds. */
#define _GNU_SOURCE
#include "engine_int.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <fcntl.h>
#include <openssl/err.h>
#include <string.h>

struct eng_attach
{
  eng_t *eng;
  struct bufferevent *bev;
  eng_attach_cbs_t cbs;
  eng_event_cb on_event; /* a run's (eng_run_open); NULL: an attach */
  void *arg;
  int status;             /* the answer's HTTP status (0 before its head) */
  eng_event_line_t event; /* a run's event line being gathered */
  wb_buf_t head;          /* response head while waiting for 101 */
  eng_demux_t demux;
  bool upgraded;
  bool connected;
  bool close_stdin_pending;
  bool stdin_closed;
  bool ended;
  bool paused;
  bool dead;
  int busy;
};

static void
attach_destroy (eng_attach_t *a)
{
  if (a->bev)
    bufferevent_free (a->bev);
  wb_buf_free (&a->head);
  free (a);
}

static void
attach_end (eng_attach_t *a, int rc, const wb_err_t *err)
{
  if (a->ended || a->dead)
    return; /* freed by its owner (inside a callback of this feed): nobody to tell */
  a->ended = true;
  bufferevent_disable (a->bev, EV_READ | EV_WRITE);
  a->cbs.on_end (a->arg, rc, err);
}

/* A run's event line, gathered across pieces: given whole at its frame's
 * end (even while paused: the exit is not output).  One longer than the
 * room for it is malformed. */
static void
deliver_event (eng_attach_t *a, const char *data, size_t len)
{
  wb_err_t err;

  switch (eng_event_line_add (&a->event, data, len, a->demux.remaining == 0))
    {
    case 1:
      a->on_event (a->arg, a->event.line);
      break;
    case 0:
      break;
    default:
      wb_error (&err, WB_E_ENGINE, "run: an event line longer than %d bytes", ENG_EVENT_LINE_MAX);
      attach_end (a, -1, &err);
      break;
    }
}

static void
deliver (void *arg, int stream, const char *data, size_t len)
{
  eng_attach_t *a = arg;
  if (a->dead || a->ended)
    return;
  if (stream == ENG_STREAM_EVENT)
    deliver_event (a, data, len);
  else if (!a->paused && stream != ENG_STREAM_STDIN)
    a->cbs.on_data (a->arg, stream, data, len);
}

static void
feed_stream (eng_attach_t *a, const char *data, size_t len)
{
  wb_err_t err;

  if (len == 0 || (a->paused && a->on_event == NULL))
    return;
  if (eng_demux_feed (&a->demux, data, len, deliver, a) < 0)
    {
      wb_error (&err, WB_E_ENGINE, "attach: malformed multiplexed stream");
      attach_end (a, -1, &err);
    }
}

static void
handle_head (eng_attach_t *a)
{
  int status = 0;
  size_t head_len = 0;
  wb_err_t err;
  int r = eng_hijack_parse_head (a->head.data, a->head.len, &status, &head_len);

  if (r == 0)
    return;
  if (r < 0)
    {
      wb_error (&err, WB_E_ENGINE, "attach: engine sent a malformed response head");
      attach_end (a, -1, &err);
      return;
    }
  a->status = status;
  if (status != 101)
    {
      /* The error body normally arrives with the head; take what is here. */
      eng_http_error (&err, status, a->on_event ? "run" : "attach", a->head.data + head_len,
                      a->head.len - head_len);
      attach_end (a, -1, &err);
      return;
    }
  a->upgraded = true;
  a->cbs.on_ready (a->arg);
  if (a->dead || a->ended)
    return;
  feed_stream (a, a->head.data + head_len, a->head.len - head_len);
  wb_buf_free (&a->head);
}

static void
read_cb (struct bufferevent *bev, void *arg)
{
  eng_attach_t *a = arg;
  struct evbuffer *in = bufferevent_get_input (bev);
  wb_err_t err;

  a->busy++;
  while (!a->dead && !a->ended && evbuffer_get_length (in) > 0)
    {
      char chunk[16384];
      int n = evbuffer_remove (in, chunk, sizeof chunk);
      if (n <= 0)
        break;
      if (a->upgraded)
        {
          feed_stream (a, chunk, (size_t) n);
          continue;
        }
      if (wb_buf_append (&a->head, chunk, (size_t) n) < 0)
        {
          wb_error (&err, WB_E_NOMEM, "attach: out of memory");
          attach_end (a, -1, &err);
          break;
        }
      handle_head (a);
    }
  if (a->paused && a->on_event == NULL)
    evbuffer_drain (in, evbuffer_get_length (in));
  if (--a->busy == 0 && a->dead)
    attach_destroy (a);
}

static void
do_shutdown_write (eng_attach_t *a)
{
  evutil_socket_t fd = bufferevent_getfd (a->bev);
  SSL *ssl = a->eng->tls ? bufferevent_openssl_get_ssl (a->bev) : NULL;

  a->close_stdin_pending = false;
  a->stdin_closed = true;
  if (ssl)
    {
      /* TLS: send close_notify, as the Docker CLI's CloseWrite does; the
       * engine reads EOF and we go on reading its output (a one-way
       * shutdown: SSL_read keeps working until the peer closes). */
      ERR_clear_error ();
      if (SSL_shutdown (ssl) < 0)
        wb_debug ("attach: SSL_shutdown: %s", ERR_reason_error_string (ERR_get_error ()));
      return;
    }
  if (fd >= 0 && shutdown (fd, SHUT_WR) < 0 && errno != ENOTCONN)
    wb_debug ("attach: shutdown: %s", strerror (errno));
}

static void
write_cb (struct bufferevent *bev, void *arg)
{
  eng_attach_t *a = arg;

  if (a->close_stdin_pending && evbuffer_get_length (bufferevent_get_output (bev)) == 0)
    do_shutdown_write (a);
}

/* Queue the upgrade request.  -1 when memory runs out. */
static int
send_request (eng_attach_t *a, const char *path)
{
  if (a->on_event)
    return evbuffer_add_printf (bufferevent_get_output (a->bev),
                                "POST %s HTTP/1.1\r\n"
                                "Host: %s\r\n"
                                "User-Agent: warmbox\r\n"
                                "Content-Length: 0\r\n"
                                "Connection: Upgrade\r\n"
                                "Upgrade: tcp\r\n"
                                "\r\n",
                                path, a->eng->host)
                   < 0
               ? -1
               : 0;

  int n = evbuffer_add_printf (bufferevent_get_output (a->bev),
                               "POST %s HTTP/1.1\r\n"
                               "Host: %s\r\n"
                               "User-Agent: warmbox\r\n"
                               "Content-Type: text/plain\r\n"
                               "Content-Length: 0\r\n"
                               "Connection: Upgrade\r\n"
                               "Upgrade: tcp\r\n"
                               "\r\n",
                               path, a->eng->host);

  return n < 0 ? -1 : 0;
}

static void
event_cb (struct bufferevent *bev, short what, void *arg)
{
  eng_attach_t *a = arg;
  wb_err_t err;

  (void) bev;
  a->busy++;
  if (what & BEV_EVENT_CONNECTED)
    {
      a->connected = true;
      goto out;
    }
  if (what & BEV_EVENT_EOF)
    {
      /* Whatever is still buffered was delivered by read_cb already. */
      if (!a->upgraded)
        {
          wb_error (&err, WB_E_ENGINE_DOWN, "attach: engine closed the connection early");
          attach_end (a, -1, &err);
        }
      else if (!eng_demux_idle (&a->demux) && (!a->paused || a->on_event))
        {
          wb_error (&err, WB_E_ENGINE, "attach: stream ended inside a frame");
          attach_end (a, -1, &err);
        }
      else
        attach_end (a, 0, NULL);
    }
  else if (what & BEV_EVENT_ERROR)
    {
      int e = EVUTIL_SOCKET_ERROR ();
      unsigned long ssl_e = bufferevent_get_openssl_error (a->bev);
      const char *why = ssl_e ? ERR_reason_error_string (ssl_e) : NULL;
      if (ssl_e)
        wb_error (&err, WB_E_ENGINE_DOWN, "attach: TLS: %s",
                  why ? why : "the connection failed or closed mid-handshake");
      else
        wb_error_errno (&err, WB_E_ENGINE_DOWN, e, "attach: connection to the engine failed");
      attach_end (a, -1, &err);
    }
out:
  if (--a->busy == 0 && a->dead)
    attach_destroy (a);
}

static SSL_CTX *
attach_ssl_ctx (eng_t *eng, wb_err_t *err)
{
  SSL_CTX *ctx;

  if (eng->ssl_ctx)
    return eng->ssl_ctx;
  ctx = SSL_CTX_new (TLS_client_method ());
  if (ctx == NULL)
    {
      wb_error (err, WB_E_NOMEM, "attach: SSL_CTX_new failed");
      return NULL;
    }
  SSL_CTX_set_min_proto_version (ctx, TLS1_2_VERSION);
  SSL_CTX_set_verify (ctx, SSL_VERIFY_PEER, NULL);
  if ((eng->tls_ca ? SSL_CTX_load_verify_locations (ctx, eng->tls_ca, NULL)
                   : SSL_CTX_set_default_verify_paths (ctx))
          != 1
      || SSL_CTX_use_certificate_chain_file (ctx, eng->tls_cert) != 1
      || SSL_CTX_use_PrivateKey_file (ctx, eng->tls_key, SSL_FILETYPE_PEM) != 1)
    {
      wb_error (err, WB_E_INVALID, "attach: loading TLS files: %s",
                ERR_reason_error_string (ERR_get_error ()));
      SSL_CTX_free (ctx);
      return NULL;
    }
  eng->ssl_ctx = ctx;
  return ctx;
}

static bool
id_ok (const char *id)
{
  for (const char *p = id; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
          || *p == '_' || *p == '-' || *p == '.'))
      return false;
  return *id != '\0';
}

/* Connect and send the request for path: the attach's, or a run's (with
 * on_event, and frame[0..len) behind the head, stdin closed after it). */
static eng_attach_t *
stream_open (eng_t *eng, const char *path, const void *frame, size_t len,
             const eng_attach_cbs_t *cbs, eng_event_cb on_event, void *arg, wb_err_t *err)
{
  eng_attach_t *a;
  struct sockaddr_un sun;
  const struct sockaddr *sa;
  int salen;

  a = calloc (1, sizeof *a);
  if (a == NULL)
    {
      wb_error (err, WB_E_NOMEM, "attach: out of memory");
      return NULL;
    }
  a->eng = eng;
  a->cbs = *cbs;
  a->on_event = on_event;
  a->arg = arg;
  eng_demux_init (&a->demux);
  if (on_event)
    a->demux.max_stream = ENG_STREAM_EVENT;

  if (eng->tls)
    {
      SSL_CTX *ctx = attach_ssl_ctx (eng, err);
      SSL *ssl;
      if (ctx == NULL)
        goto fail;
      ssl = SSL_new (ctx);
      if (ssl == NULL)
        {
          wb_error (err, WB_E_NOMEM, "attach: SSL_new failed");
          goto fail;
        }
      /* Without the name to check, any certificate of the CA would do. */
      if (SSL_set1_host (ssl, eng->host) != 1 || SSL_set_tlsext_host_name (ssl, eng->host) != 1)
        {
          SSL_free (ssl);
          wb_error (err, WB_E_NOMEM, "attach: cannot set the engine's name on the TLS session");
          goto fail;
        }
      a->bev = bufferevent_openssl_socket_new (eng->base, -1, ssl, BUFFEREVENT_SSL_CONNECTING,
                                               BEV_OPT_CLOSE_ON_FREE);
      if (a->bev == NULL)
        SSL_free (ssl);
    }
  else
    a->bev = bufferevent_socket_new (eng->base, -1, BEV_OPT_CLOSE_ON_FREE);
  if (a->bev == NULL)
    {
      wb_error (err, WB_E_NOMEM, "attach: cannot create a bufferevent");
      goto fail;
    }
  bufferevent_setcb (a->bev, read_cb, write_cb, event_cb, a);
  if (bufferevent_enable (a->bev, EV_READ | EV_WRITE) < 0)
    {
      wb_error (err, WB_E_NOMEM, "attach: cannot watch the connection");
      goto fail;
    }

  if (eng->unix_path)
    {
      memset (&sun, 0, sizeof sun);
      sun.sun_family = AF_UNIX;
      snprintf (sun.sun_path, sizeof sun.sun_path, "%s", eng->unix_path);
      sa = (const struct sockaddr *) &sun;
      salen = (int) sizeof sun;
    }
  else
    {
      sa = (const struct sockaddr *) &eng->addr;
      salen = (int) eng->addr_len;
    }
  if (send_request (a, path) < 0
      || (on_event && len > 0 && bufferevent_write (a->bev, frame, len) < 0))
    {
      wb_error (err, WB_E_NOMEM, "attach: out of memory queueing the request");
      goto fail;
    }
  if (on_event)
    a->close_stdin_pending = true; /* write_cb half-closes once it is all sent */
  /* For unix sockets the connect completes (or fails) at once; a failure is
   * reported through event_cb on the next loop pass, never re-entrantly. */
  if (bufferevent_socket_connect (a->bev, sa, salen) < 0)
    {
      wb_error_errno (err, WB_E_ENGINE_DOWN, errno, "attach: cannot connect to the engine");
      a->bev = (bufferevent_free (a->bev), NULL);
      goto fail;
    }
  return a;

fail:
  if (a->bev)
    bufferevent_free (a->bev);
  free (a);
  return NULL;
}

eng_attach_t *
eng_attach_open (eng_t *eng, const char *id, const eng_attach_cbs_t *cbs, void *arg, wb_err_t *err)
{
  char path[512];

  if (!id_ok (id))
    {
      wb_error (err, WB_E_INVALID, "attach: invalid container id");
      return NULL;
    }
  snprintf (path, sizeof path, "/v%s/containers/%s/attach?stream=1&stdin=1&stdout=1&stderr=1",
            eng->api_version, id);
  return stream_open (eng, path, NULL, 0, cbs, NULL, arg, err);
}

eng_attach_t *
eng_run_open (eng_t *eng, const char *id, const void *frame, size_t len,
              const eng_attach_cbs_t *cbs, eng_event_cb on_event, void *arg, wb_err_t *err)
{
  char path[512];

  if (!id_ok (id) || strlen (id) > 128)
    {
      wb_error (err, WB_E_INVALID, "run: invalid container id");
      return NULL;
    }
  snprintf (path, sizeof path, "/warmbox/v1/containers/%s/run", id);
  return stream_open (eng, path, frame, len, cbs, on_event, arg, err);
}

int
eng_attach_status (const eng_attach_t *a)
{
  return a->status ? a->status : a->connected ? 0 : -1;
}

int
eng_attach_write (eng_attach_t *a, const void *data, size_t len)
{
  if (a->ended || a->stdin_closed || a->close_stdin_pending)
    return -1;
  return bufferevent_write (a->bev, data, len) == 0 ? 0 : -1;
}

void
eng_attach_close_stdin (eng_attach_t *a)
{
  if (a->ended || a->stdin_closed)
    return;
  a->close_stdin_pending = true;
  if (evbuffer_get_length (bufferevent_get_output (a->bev)) == 0)
    do_shutdown_write (a);
}

void
eng_attach_pause (eng_attach_t *a)
{
  a->paused = true;
}

void
eng_attach_free (eng_attach_t *a)
{
  if (a == NULL || a->dead)
    return;
  a->dead = true;
  if (a->busy == 0)
    attach_destroy (a);
  else
    bufferevent_disable (a->bev, EV_READ | EV_WRITE);
}
