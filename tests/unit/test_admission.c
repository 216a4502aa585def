/* The admission queue (exec/admission.c): a FIFO per client, the clients
 * served in turns; removal of a waiting node; the position a newcomer is
 * quoted; names; a failed allocation. */
#include "exec/admission.h"
#include "failmalloc.h"
#include "tap.h"

#include <stdlib.h>

typedef struct item
{
  adm_node_t node; /* first: an adm_node_t * is its item */
  const char *client;
  int id;
} item_t;

static int
pop_id (adm_queue_t *q)
{
  item_t *it = (item_t *) adm_pop (q);
  return it ? it->id : -1;
}

/* The ids popped until the queue is empty, as "a1 b1 ...": the client's
 * name and the item's id. */
static const char *
drain (adm_queue_t *q)
{
  static char out[4096];
  size_t len = 0;
  item_t *it;

  out[0] = '\0';
  while ((it = (item_t *) adm_pop (q)) != NULL && len < sizeof out - 80)
    len += (size_t) snprintf (out + len, sizeof out - len, "%s%s%d", len ? " " : "",
                              it->client ? it->client : "-", it->id);
  return out;
}

static void
push (adm_queue_t *q, item_t *it, const char *client, int id)
{
  wb_err_t err;

  it->client = client;
  it->id = id;
  if (adm_push (q, client, &it->node, &err) < 0)
    ok (false, "push %s%d: %s", client, id, err.msg);
}

static void
test_basics (void)
{
  adm_queue_t q = {0};
  item_t it[5];

  ok (adm_pop (&q) == NULL && q.n == 0 && adm_position (&q, "a") == 0
          && adm_count_of (&q, "a") == 0,
      "empty: nothing pops, nobody waits");
  for (int i = 0; i < 5; i++)
    push (&q, &it[i], "a", i + 1);
  is_int (q.n, 5, "five queued");
  is_int (adm_count_of (&q, "a"), 5, "all five the one client's");
  is_str (drain (&q), "a1 a2 a3 a4 a5", "one client: first in, first out");
  ok (q.n == 0 && q.clients == NULL && q.turn == NULL, "drained: no client record is left");

  push (&q, &it[0], NULL, 1);
  push (&q, &it[1], "", 2);
  is_int (adm_count_of (&q, NULL), 2, "NULL and \"\" are one client");
  is_int (adm_count_of (&q, ""), 2, "... asked either way");
  adm_clear (&q);
  ok (q.n == 0 && q.clients == NULL && it[0].node.client == NULL && it[1].node.client == NULL,
      "adm_clear: every node let go of, no record left");
  adm_remove (&q, &it[0].node);
  is_int (q.n, 0, "removing a node already let go of changes nothing");
}

static void
test_turns (void)
{
  adm_queue_t q = {0};
  item_t a[100], b[3], c[2];

  push (&q, &a[0], "a", 1);
  push (&q, &a[1], "a", 2);
  push (&q, &a[2], "a", 3);
  push (&q, &b[0], "b", 1);
  push (&q, &c[0], "c", 1);
  push (&q, &c[1], "c", 2);
  is_str (drain (&q), "a1 b1 c1 a2 c2 a3", "three clients take turns, each in its own order");

  /* A burst from one client, then another's: the second waits one node. */
  for (int i = 0; i < 100; i++)
    push (&q, &a[i], "a", i + 1);
  push (&q, &b[0], "b", 1);
  push (&q, &b[1], "b", 2);
  push (&q, &b[2], "b", 3);
  is_int (adm_position (&q, "c"), 2, "a newcomer would wait behind one node of each client");
  is_int (pop_id (&q), 1, "a's first");
  is_int (pop_id (&q), 1, "then b's first, not a's 99 others");
  is_int (pop_id (&q), 2, "a's second");
  is_int (pop_id (&q), 2, "b's second");
  is_int (pop_id (&q), 3, "a's third");
  is_int (pop_id (&q), 3, "b's third");
  is_int (q.n, 97, "a's 97 others wait");
  is_int (adm_count_of (&q, "b"), 0, "b has none left");
  adm_clear (&q);

  /* A newcomer is served after everyone already waiting had one turn. */
  push (&q, &a[0], "a", 1);
  push (&q, &a[1], "a", 2);
  push (&q, &b[0], "b", 1);
  push (&q, &b[1], "b", 2);
  is_int (pop_id (&q), 1, "a1 (b's turn is next)");
  push (&q, &c[0], "c", 1);
  is_str (drain (&q), "b1 a2 c1 b2", "c, arriving, waits for b and a, then turns go on");
}

static void
test_remove (void)
{
  adm_queue_t q = {0};
  item_t a[5], b[2], c[1];

  for (int i = 0; i < 5; i++)
    push (&q, &a[i], "a", i + 1);
  adm_remove (&q, &a[2].node);
  ok (q.n == 4 && adm_count_of (&q, "a") == 4 && a[2].node.client == NULL,
      "the middle node leaves");
  adm_remove (&q, &a[0].node);
  adm_remove (&q, &a[4].node);
  ok (q.n == 2 && a[0].node.client == NULL && a[4].node.client == NULL,
      "the head and the tail leave");
  adm_remove (&q, &a[4].node);
  is_int (q.n, 2, "removing it again changes nothing");
  is_str (drain (&q), "a2 a4", "the rest keep their order");

  push (&q, &a[0], "a", 1);
  push (&q, &b[0], "b", 1);
  push (&q, &b[1], "b", 2);
  push (&q, &c[0], "c", 1);
  is_int (pop_id (&q), 1, "a1: the turn passes to b");
  adm_remove (&q, &b[0].node);
  adm_remove (&q, &b[1].node);
  ok (adm_count_of (&q, "b") == 0 && q.n == 1, "b, whose turn it was, leaves the queue");
  is_str (drain (&q), "c1", "the turn passes on to c");

  push (&q, &a[0], "a", 1);
  push (&q, &b[0], "b", 1);
  push (&q, &c[0], "c", 1);
  push (&q, &a[1], "a", 2);
  adm_remove (&q, &b[0].node);
  is_str (drain (&q), "a1 c1 a2", "a client that is not next leaves; the others keep their turns");
  ok (q.clients == NULL && q.turn == NULL, "no record left");
}

/* A small deterministic generator (tests repeat). */
static unsigned long rng = 12345;
static unsigned
rnd (unsigned n)
{
  rng = rng * 6364136223846793005ul + 1442695040888963407ul;
  return (unsigned) (rng >> 33) % n;
}

/* adm_position against what happens: from random queues, a node pushed
 * for a newcomer pops after exactly its quoted position; for a client
 * already waiting, after no more than it. */
static void
test_position (void)
{
  static const char *const names[] = {"a", "b", "c", "d", ""};
  static item_t items[64];
  int exact = 0, bounded = 0, newcomers = 0;

  for (int trial = 0; trial < 300; trial++)
    {
      adm_queue_t q = {0};
      item_t probe;
      int k = 0, before = 0;
      uint32_t sum = 0;

      for (int op = 0, n_ops = 1 + (int) rnd (40); op < n_ops && k < 60; op++)
        {
          unsigned r = rnd (10);
          if (r < 6)
            push (&q, &items[k], names[rnd (5)], k), k++;
          else if (r < 8)
            adm_pop (&q);
          else
            adm_remove (&q, &items[rnd ((unsigned) k + 1)].node); /* maybe one not queued */
        }
      for (size_t i = 0; i < WB_ARRAY_SIZE (names); i++)
        sum += adm_count_of (&q, names[i]);
      if (sum != q.n)
        ok (false, "trial %d: the clients' counts add up to n (%u, %u)", trial, sum, q.n);
      const char *who = names[rnd (5)];
      uint32_t quoted = adm_position (&q, who);
      bool newcomer = adm_count_of (&q, who) == 0;
      push (&q, &probe, who, -1);
      while (pop_id (&q) != -1)
        before++;
      newcomers += newcomer;
      if (newcomer ? (uint32_t) before == quoted : (uint32_t) before <= quoted)
        newcomer ? exact++ : bounded++;
      else
        printf ("# trial %d: %s (%s) popped after %d, quoted %u\n", trial, who[0] ? who : "\"\"",
                newcomer ? "new" : "waiting", before, quoted);
      adm_clear (&q);
    }
  is_int (exact, newcomers, "a newcomer's position is exact (%d random queues)", newcomers);
  is_int (bounded, 300 - newcomers, "a waiting client's is a bound (%d random queues)",
          300 - newcomers);
}

static void
test_names (void)
{
  adm_queue_t q = {0};
  item_t l[3], s[1];
  char long1[101], long2[101];
  int order[4];

  memset (long1, 'x', 100);
  long1[100] = '\0';
  memcpy (long2, long1, sizeof long1);
  long2[99] = 'y'; /* differs past ADM_NAME_MAX */
  push (&q, &l[0], long1, 1);
  push (&q, &l[1], long1, 2);
  push (&q, &l[2], long2, 3);
  push (&q, &s[0], "s", 10);
  is_int (adm_count_of (&q, long1), 3,
          "names past %d bytes find their record (known by the first %d)", ADM_NAME_MAX,
          ADM_NAME_MAX);
  for (int i = 0; i < 4; i++)
    order[i] = pop_id (&q);
  ok (order[0] == 1 && order[1] == 10 && order[2] == 2 && order[3] == 3,
      "... and take one turn between them, not one each (%d %d %d %d)", order[0], order[1],
      order[2], order[3]);
}

static void
test_alloc_failure (void)
{
  adm_queue_t q = {0};
  item_t a[2] = {{.client = "a", .id = 1}, {.client = "a", .id = 2}},
         b[1] = {{.client = "b", .id = 1}};
  wb_err_t err;

  push (&q, &a[0], "a", 1);
  failmalloc_arm (1);
  ok (adm_push (&q, "b", &b[0].node, &err) < 0 && err.code == WB_E_NOMEM && failmalloc_fired (),
      "a new client's record cannot be made: -1");
  ok (q.n == 1 && b[0].node.client == NULL && adm_count_of (&q, "b") == 0,
      "... and nothing is queued");
  failmalloc_arm (1);
  ok (adm_push (&q, "a", &a[1].node, &err) == 0 && !failmalloc_fired (),
      "a client already waiting needs no allocation");
  failmalloc_arm (0);
  is_str (drain (&q), "a1 a2", "the queue is whole");
}

int
main (void)
{
  failmalloc_install ();
  test_basics ();
  test_turns ();
  test_remove ();
  test_position ();
  test_names ();
  test_alloc_failure ();
  return tap_done ();
}
