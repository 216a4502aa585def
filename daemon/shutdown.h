/* daemon/shutdown.h: SIGTERM's drain (shutdown.c).
 *
 * At the first SIGTERM or SIGINT /readyz fails and the agent says drain;
 * for drain_delay_ms new executions are still taken (a load balancer that
 * has not noticed yet still sends some), then new ones get 503 while
 * those in flight, queued ones included, run to their own end; then the
 * listeners close, the ready containers are removed, and the loop breaks
 * once the engines have answered every removal, or shutdown_grace_ms
 * (plus 15 s for the removals) is over.  A second signal breaks the loop
 * at once.
 *
 * Ownership: main.c makes one (after the listeners) and frees it after
 * the loop.  Failure: only at sched_shutdown_new (memory); a timer that
 * cannot be armed breaks the loop (an exit without the drain). */
#ifndef WARMBOX_DAEMON_SHUTDOWN_H
#define WARMBOX_DAEMON_SHUTDOWN_H

#include "api/http.h"
#include "daemon/daemon.h"

typedef struct sched_shutdown sched_shutdown_t;

sched_shutdown_t *sched_shutdown_new (sched_ctx_t *ctx, sched_http_t *http, wb_err_t *err);
/* A signal came (SIGTERM, SIGINT): begin the drain, or, the second time,
 * break the loop now.  Can't fail. */
void sched_shutdown_signal (sched_shutdown_t *sd, int sig);
void sched_shutdown_free (sched_shutdown_t *sd);

#endif
