/* api/agent.h: HAProxy's agent-check port (agent.c).
 *
 * HAProxy connects, reads one line and closes; the line says whether to
 * send this daemon work and how much: "up ready 75%" (a weight, as a share
 * of the server's configured weight), "drain" once SIGTERM was seen,
 * "down" while the engine does not answer or the pools stay unfilled.
 * The port carries no secret and takes no command.
 *
 * Ownership: the agent belongs to main.c; sched_agent_free closes the
 * port.  Failure: only at start (the address can't be bound). */
#ifndef WARMBOX_SCHED_AGENT_H
#define WARMBOX_SCHED_AGENT_H

#include "api/api.h"
#include "api/auth.h"

typedef struct sched_agent sched_agent_t;

/* Listen on addr ("host:port").  -1 with err when it can't be bound. */
WB_MUST_CHECK int sched_agent_start (api_ctx_t *ctx, const char *addr, sched_agent_t **out,
                                     wb_err_t *err);
void sched_agent_free (sched_agent_t *a);

/* The weight, in percent of the configured one, for a daemon with
 * free = max_concurrent - in_flight slots of which warm can start from a
 * ready container: each warm slot counts fully, a cold one a quarter
 * (it waits for a create).  1..100; 1 when full (HAProxy still sends a
 * trickle: the admission queue takes it). */
unsigned sched_agent_weight (uint32_t max_concurrent, size_t in_flight, size_t warm);

/* The line for the daemon's state now, with its newline; its length. */
size_t sched_agent_line (api_ctx_t *ctx, char *buf, size_t size);

#endif
