/* exec/admission.h: the admission queue (admission.c): executions
 * waiting for room to run, fair across clients.
 *
 * Each client (an API token's name; "" without tokens) has a FIFO; the
 * queue takes from the clients in turn, so one client's burst cannot
 * starve another's.  Nodes are intrusive (the caller's struct holds one)
 * and belong to the caller; the queue owns only its per-client records.
 * No I/O, no callbacks. */
#ifndef WARMBOX_SCHED_ADMISSION_H
#define WARMBOX_SCHED_ADMISSION_H

#include "warmbox/wb.h"

/* Clients are told apart by the first ADM_NAME_MAX bytes of their names
 * (token and certificate names are no longer); NULL is "". */
#define ADM_NAME_MAX 64

typedef struct adm_client adm_client_t;

typedef struct adm_node
{
  struct adm_node *prev, *next; /* within its client's FIFO */
  adm_client_t *client;         /* NULL while not queued */
} adm_node_t;

typedef struct adm_queue
{
  adm_client_t *clients; /* the clients with nodes queued, in turn order */
  adm_client_t *turn;    /* whose node goes next */
  uint32_t n;
} adm_queue_t;

/* Queue node for client.  -1 with err (WB_E_NOMEM) when memory runs out
 * for a new client's record (nothing queued then). */
WB_MUST_CHECK int adm_push (adm_queue_t *q, const char *client, adm_node_t *node, wb_err_t *err);
/* Take node out (cancel, deadline).  A node not queued is left alone. */
void adm_remove (adm_queue_t *q, adm_node_t *node);
/* The next node, the clients taking turns; NULL when empty. */
adm_node_t *adm_pop (adm_queue_t *q);
/* Nodes a new node of client would wait behind, the clients taking
 * turns: for each client, as many as it has queued, up to one more than
 * this client has. */
uint32_t adm_position (const adm_queue_t *q, const char *client);
/* Nodes queued for client. */
uint32_t adm_count_of (const adm_queue_t *q, const char *client);
/* Drop every client record (nodes are the caller's).  Can't fail. */
void adm_clear (adm_queue_t *q);

#endif
