/* oci/stream.c: a container's hijacked streams.  The attach (Docker's
 * shape: the container's stdin from the client, its stdout and stderr
 * to it as 8-byte-header frames) and warmboxd's run, which is an attach
 * that also starts the container and carries its events (stream 3:
 * "started", "not-started", "start-failed", "exit") until its exit
 * (docs/architecture.md, "The helper's run").  A slow reader stops the
 * container's pipes being read, never the loop. */
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

/* ---- the run: warmboxd's one exchange per hand-out ------------------- */

/* An event line of a run (stream 3 of its multiplexed stream): what
 * happened to its container, for warmboxd (engine/attach.c's run reads
 * it).  A connection out of memory is closed. */
/* false when it could not be queued: c was ended (attach_end) and may be
 * gone. */
bool
run_send_event (conn_t *c, const char *fmt, ...)
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

/* ---- the attach stream -------------------------------------------------- */

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
void
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
void
attach_end (conn_t *c)
{
  if (c->out)
    bufferevent_free (c->out);
  if (c->err)
    bufferevent_free (c->err);
  c->out = c->err = NULL;
  attach_check_done (c);
}

void
attach_client_read (conn_t *c)
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
      http_reply_error (c, 409, "container %.12s: its streams are taken", k->id);
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
        http_reply_error (c, 500, "cannot attach");
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
    attach_client_read (c); /* may end it: c stays until the loop's next turn */
  return k->attach == c;
}

void
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
void
do_run (conn_t *c, ctr_t *k)
{
  const char *why = NULL;

  /* A refused run's connection is closed (conn_read set close_after): the
   * input behind its head is never read as a request. */
  if (c->body_len)
    {
      /* The input follows the head as the stream's own bytes. */
      http_reply_error (c, 400, "a run takes no body: its input follows the request's head");
      return;
    }
  if (k->started || k->state != C_CREATED || k->orphan || k->init_gone)
    {
      http_reply_error (c, 409, "container %.12s cannot be run (%s)", k->id,
                        k->started ? "it ran already" : ctr_state_names[k->state]);
      return;
    }
  if (!attach_streams (c, k))
    return; /* refused (its answer is queued), or ended at once */
  c->run = true;
  if (ctr_start_begin (k, &why) < 0)
    {
      /* Nothing was begun: it never ran, and must not run later. */
      k->start_failed = true;
      (void) run_send_event (c, "not-started %s",
                             why); /* failing, it drops c's pipes; c waits for the exit */
      if (k->init_pid > 0 && !k->init_gone)
        kill (k->init_pid, SIGKILL); /* its exit follows */
    }
}
