/* api/agent.c: HAProxy's agent-check port (see agent.h).
 *
 * One line per connection, written at accept and the socket closed: the
 * line is short enough for any socket buffer, so nothing waits.  Whatever
 * HAProxy sent (agent-send, a short line) is read first, so the close is
 * a FIN and not a reset that could discard the line. */
#define _GNU_SOURCE
#include "api/agent.h"

#include <errno.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct sched_agent
{
  api_ctx_t *ctx;
  struct evconnlistener *listener;
};

unsigned
sched_agent_weight (uint32_t max_concurrent, size_t in_flight, size_t warm)
{
  size_t free_slots = in_flight < max_concurrent ? max_concurrent - in_flight : 0;
  size_t warm_slots = warm < free_slots ? warm : free_slots;
  double w;

  if (max_concurrent == 0 || free_slots == 0)
    return 1;
  w = 100.0 * ((double) warm_slots + 0.25 * (double) (free_slots - warm_slots)) / max_concurrent;
  return w < 1 ? 1 : w > 100 ? 100 : (unsigned) (w + 0.5);
}

size_t
sched_agent_line (api_ctx_t *ctx, char *buf, size_t size)
{
  const pool_stats_t *stats;
  size_t n, warm = 0;
  int len;

  if (*ctx->leaving)
    len = snprintf (buf, size, "drain\n");
  else if (!nodes_any_up (ctx->nodes))
    len = snprintf (buf, size, "down#engine unreachable\n");
  else if (!nodes_pools_healthy (ctx->nodes))
    len = snprintf (buf, size, "down#pools not filled\n");
  else
    {
      for (size_t k = 0; k < nodes_count (ctx->nodes); k++)
        {
          node_view_t v;
          node_view (nodes_at (ctx->nodes, k), &v);
          if (v.state != NODE_UP)
            continue;
          n = pool_mgr_stats (v.pools, &stats);
          for (size_t i = 0; i < n; i++)
            if (!stats[i].draining && !stats[i].transient)
              warm += stats[i].ready;
        }
      len = snprintf (
          buf, size, "up ready %u%%\n",
          sched_agent_weight (ctx->cfg.max_concurrent, sched_exec_count (ctx->execs), warm));
    }
  return len < 0 ? 0 : (size_t) len >= size ? size - 1 : (size_t) len;
}

static void
accept_cb (struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *arg)
{
  sched_agent_t *a = arg;
  char line[64], sink[4096];
  size_t len = sched_agent_line (a->ctx, line, sizeof line);

  (void) l;
  (void) sa;
  (void) salen;
  /* One read, not a loop: a peer that keeps sending must not hold the
   * event loop. */
  (void) recv (fd, sink, sizeof sink, MSG_DONTWAIT);
  if (send (fd, line, len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
    wb_debug ("agent: the answer could not be sent: %s", strerror (errno));
  shutdown (fd, SHUT_WR);
  evutil_closesocket (fd);
}

int
sched_agent_start (api_ctx_t *ctx, const char *addr, sched_agent_t **out, wb_err_t *err)
{
  struct sockaddr_storage ss;
  int sslen = sizeof ss;
  sched_agent_t *a;

  if (evutil_parse_sockaddr_port (addr, (struct sockaddr *) &ss, &sslen) < 0
      || (ss.ss_family == AF_INET ? ((struct sockaddr_in *) &ss)->sin_port
                                  : ((struct sockaddr_in6 *) &ss)->sin6_port)
             == 0)
    return wb_error (err, WB_E_INVALID, "agent_listen %s: use host:port (or [v6]:port)", addr);
  if ((a = calloc (1, sizeof *a)) == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  a->ctx = ctx;
  a->listener = evconnlistener_new_bind (
      ctx->base, accept_cb, a, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
      64, (struct sockaddr *) &ss, sslen);
  if (a->listener == NULL)
    {
      int e = errno;
      free (a);
      return wb_error_errno (err, WB_E_IO, e, "agent_listen %s", addr);
    }
  wb_info ("HAProxy agent-check on %s", addr);
  *out = a;
  return 0;
}

void
sched_agent_free (sched_agent_t *a)
{
  if (a == NULL)
    return;
  evconnlistener_free (a->listener);
  free (a);
}
