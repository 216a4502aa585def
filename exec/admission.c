/* exec/admission.c: a FIFO per client, served in turns.  See
 * admission.h.  The clients with something queued form a ring (singly
 * linked, `turn` marks the next one); a client whose FIFO empties leaves
 * the ring and its record is freed. */
#define _GNU_SOURCE
#include "exec/admission.h"

#include <string.h>

struct adm_client
{
  adm_client_t *next; /* the ring */
  adm_node_t *head, *tail;
  uint32_t n;
  char name[ADM_NAME_MAX + 1];
};

/* A client is known by the first ADM_NAME_MAX bytes of its name, as its
 * record stores it: a longer name must find the record it made, or each
 * of its nodes would make another and take a turn of its own. */
static adm_client_t *
find_client (const adm_queue_t *q, const char *name)
{
  adm_client_t *c = q->clients;

  if (c == NULL)
    return NULL;
  do
    {
      if (strncmp (c->name, name, ADM_NAME_MAX) == 0)
        return c;
      c = c->next;
    }
  while (c != q->clients);
  return NULL;
}

int
adm_push (adm_queue_t *q, const char *client, adm_node_t *node, wb_err_t *err)
{
  adm_client_t *c = find_client (q, client ? client : "");

  if (c == NULL)
    {
      c = calloc (1, sizeof *c);
      if (c == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory queueing for room to run (%u queued)",
                         q->n);
      snprintf (c->name, sizeof c->name, "%s", client ? client : "");
      /* A newcomer joins the ring just before the client whose turn it
       * is: it is served after everyone already waiting had one turn. */
      if (q->clients == NULL)
        {
          c->next = c;
          q->clients = q->turn = c;
        }
      else
        {
          adm_client_t *before = q->turn;
          while (before->next != q->turn)
            before = before->next;
          before->next = c;
          c->next = q->turn;
        }
    }
  node->client = c;
  node->next = NULL;
  node->prev = c->tail;
  if (c->tail)
    c->tail->next = node;
  else
    c->head = node;
  c->tail = node;
  c->n++;
  q->n++;
  return 0;
}

/* Take the client out of the ring and free it (its FIFO is empty). */
static void
drop_client (adm_queue_t *q, adm_client_t *c)
{
  adm_client_t *before = c;

  while (before->next != c)
    before = before->next;
  if (before == c)
    q->clients = q->turn = NULL;
  else
    {
      before->next = c->next;
      if (q->clients == c)
        q->clients = c->next;
      if (q->turn == c)
        q->turn = c->next;
    }
  free (c);
}

void
adm_remove (adm_queue_t *q, adm_node_t *node)
{
  adm_client_t *c = node->client;

  if (c == NULL)
    return;
  if (node->prev)
    node->prev->next = node->next;
  else
    c->head = node->next;
  if (node->next)
    node->next->prev = node->prev;
  else
    c->tail = node->prev;
  node->prev = node->next = NULL;
  node->client = NULL;
  c->n--;
  q->n--;
  if (c->n == 0)
    drop_client (q, c);
}

adm_node_t *
adm_pop (adm_queue_t *q)
{
  adm_client_t *c = q->turn;
  adm_node_t *node;

  if (c == NULL)
    return NULL;
  node = c->head;
  /* The turn passes on before the node leaves (which may free c). */
  q->turn = c->next;
  adm_remove (q, node);
  return node;
}

uint32_t
adm_position (const adm_queue_t *q, const char *client)
{
  uint32_t own = adm_count_of (q, client), ahead = 0;
  const adm_client_t *c = q->clients;

  if (c == NULL)
    return 0;
  do
    {
      ahead += c->n < own + 1 ? c->n : own + 1;
      c = c->next;
    }
  while (c != q->clients);
  return ahead;
}

uint32_t
adm_count_of (const adm_queue_t *q, const char *client)
{
  const adm_client_t *c = find_client (q, client ? client : "");
  return c ? c->n : 0;
}

void
adm_clear (adm_queue_t *q)
{
  while (q->clients)
    {
      adm_client_t *c = q->clients;
      while (c->head)
        {
          adm_node_t *n = c->head;
          c->head = n->next;
          n->prev = n->next = NULL;
          n->client = NULL;
        }
      c->n = 0;
      drop_client (q, c);
    }
  q->n = 0;
}
