/* daemon/shutdown.c: SIGTERM's drain (see shutdown.h). */
#define _GNU_SOURCE
#include "daemon/shutdown.h"

#include <event2/event.h>
#include <stdlib.h>

struct sched_shutdown
{
  sched_ctx_t *ctx;
  sched_http_t *http;
  struct event *drain_timer, *delay_timer;
  bool pools_drained;
  uint64_t drain_started_ms, accepting_stopped_ms;
};

/* SIGTERM: executions in flight run to their own end while the listeners
 * stay open, answering new executions with 503 (so a connection already
 * in the accept queue gets an answer, not a reset); then the listeners
 * close, the ready containers are removed, and the daemon exits once the
 * engine has answered every removal (or the grace period is over). */
static void
drain_check_cb (evutil_socket_t fd, short what, void *arg)
{
  sched_shutdown_t *sd = arg;
  size_t running = sched_exec_count (sd->ctx->execs);
  uint64_t waited = wb_now_ms () - sd->drain_started_ms;

  (void) fd;
  (void) what;
  if (running == 0 && !sd->pools_drained)
    {
      size_t n;
      sched_http_stop_accepting (sd->http);
      sd->accepting_stopped_ms = wb_now_ms ();
      n = nodes_drain_pools (sd->ctx->nodes);
      sd->pools_drained = true;
      if (n)
        wb_info ("executions done; removing %zu ready containers", n);
    }
  /* A removal that failed waits for its retry: hurry it (once a second),
   * the engine may be back. */
  if (sd->pools_drained && nodes_busy (sd->ctx->nodes) == 0 && nodes_containers (sd->ctx->nodes) > 0
      && (wb_now_ms () - sd->accepting_stopped_ms) % 1000 < 100)
    nodes_retry_removals (sd->ctx->nodes);
  /* Connections that were queued when the socket was unlinked get a
   * moment to be accepted and answered. */
  if (running == 0 && sd->pools_drained && nodes_busy (sd->ctx->nodes) == 0
      && nodes_containers (sd->ctx->nodes) == 0 && wb_now_ms () - sd->accepting_stopped_ms >= 200)
    {
      wb_info ("drained; exiting");
      event_base_loopbreak (sd->ctx->base);
      return;
    }
  /* Removals get 15 s of their own after the executions' grace. */
  if (waited > sd->ctx->cfg.shutdown_grace_ms + (running ? 0 : 15000))
    {
      wb_warn ("grace period over with %zu executions and %u engine calls pending; exiting "
               "(the next start-up marks the executions interrupted and reaps their containers)",
               running, nodes_busy (sd->ctx->nodes));
      event_base_loopbreak (sd->ctx->base);
    }
}

static void
start_drain (evutil_socket_t fd, short what, void *arg)
{
  sched_shutdown_t *sd = arg;
  struct timeval tv = {0, 100 * 1000};

  (void) fd;
  (void) what;
  wb_info ("no new executions; finishing %zu in flight", sched_exec_count (sd->ctx->execs));
  sched_ctx_drain (sd->ctx); /* new executions get 503 from now on, pools stop refilling */
  sd->drain_started_ms = wb_now_ms ();
  sd->drain_timer = event_new (sd->ctx->base, -1, EV_PERSIST, drain_check_cb, sd);
  if (sd->drain_timer == NULL || event_add (sd->drain_timer, &tv) < 0)
    event_base_loopbreak (sd->ctx->base);
}

/* SIGTERM or SIGINT: /readyz fails and the agent says drain at once; for
 * drain_delay_ms executions are still taken (a load balancer that has not
 * yet noticed keeps sending some), then start_drain. */
void
sched_shutdown_signal (sched_shutdown_t *sd, int sig)
{
  uint32_t delay = sd->ctx->cfg.drain_delay_ms;
  struct timeval tv = {delay / 1000, (delay % 1000) * 1000};

  if (sd->ctx->leaving)
    {
      wb_warn ("second signal: exiting now");
      event_base_loopbreak (sd->ctx->base);
      return;
    }
  sd->ctx->leaving = true;
  if (sd->ctx->cfg.drain_delay_ms == 0)
    {
      wb_info ("signal %d", (int) sig);
      start_drain (-1, 0, sd);
      return;
    }
  wb_info ("signal %d: not ready; new executions are still taken for %u ms", (int) sig,
           sd->ctx->cfg.drain_delay_ms);
  sd->delay_timer = evtimer_new (sd->ctx->base, start_drain, sd);
  if (sd->delay_timer == NULL || evtimer_add (sd->delay_timer, &tv) < 0)
    start_drain (-1, 0, sd);
}

sched_shutdown_t *
sched_shutdown_new (sched_ctx_t *ctx, sched_http_t *http, wb_err_t *err)
{
  sched_shutdown_t *sd = calloc (1, sizeof *sd);

  if (sd == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      return NULL;
    }
  sd->ctx = ctx;
  sd->http = http;
  return sd;
}

void
sched_shutdown_free (sched_shutdown_t *sd)
{
  if (sd == NULL)
    return;
  if (sd->drain_timer)
    event_free (sd->drain_timer);
  if (sd->delay_timer)
    event_free (sd->delay_timer);
  free (sd);
}
