/* exec/order.c: the order of stdout and stderr as segments; its
 * bound, its cut to the final streams, its parse (the init's trailer) and
 * the combined output it lays out. */
#include "exec/order.h"

#include "failmalloc.h"
#include "tap.h"

/* "o3e2..." of o's closed segments. */
static const char *
describe (const sched_order_t *o, char *buf, size_t size)
{
  const unsigned char *r = (const unsigned char *) o->segs.data, *end = r + o->segs.len;
  size_t at = 0;

  buf[0] = '\0';
  while (r < end && at + 24 < size)
    {
      unsigned long long v = 0;
      unsigned shift = 0;
      while (r < end)
        {
          unsigned char b = *r++;
          v |= (unsigned long long) (b & 0x7f) << shift;
          shift += 7;
          if (!(b & 0x80))
            break;
        }
      at += (size_t) snprintf (buf + at, size - at, "%c%llu", v & 1 ? 'e' : 'o', v >> 1);
    }
  return buf;
}

static const char *
render (const sched_order_t *o, const char *out, const char *err, char *buf, size_t size)
{
  wb_buf_t b = WB_BUF_INIT;

  if (sched_order_render (o, out, strlen (out), err, strlen (err), &b) < 0)
    snprintf (buf, size, "(no memory)");
  else
    snprintf (buf, size, "%s", b.data);
  wb_buf_free (&b);
  return buf;
}

int
main (void)
{
  char d[256], r[256];
  sched_order_t o = {0};

  /* Alternating writes, each a segment; repeats of one stream join. */
  must (sched_order_add (&o, SCHED_ORDER_OUT, 2));
  must (sched_order_add (&o, SCHED_ORDER_ERR, 2));
  must (sched_order_add (&o, SCHED_ORDER_OUT, 1));
  must (sched_order_add (&o, SCHED_ORDER_OUT, 1));
  must (sched_order_add (&o, SCHED_ORDER_ERR, 0)); /* nothing kept: nothing recorded */
  must (sched_order_add (&o, SCHED_ORDER_ERR, 2));
  is_str (render (&o, "0\n2\n", "1\n3\n", r, sizeof r), "0\n1\n2\n3\n",
          "rendered while open: out 0, err 1, out 2, err 3 in that order");
  sched_order_close (&o, 4, 4);
  is_str (describe (&o, d, sizeof d), "o2e2o2e2",
          "closed: consecutive pieces of one stream are one segment");
  is_str (render (&o, "0\n2\n", "1\n3\n", r, sizeof r), "0\n1\n2\n3\n", "closed: the same order");
  sched_order_free (&o);

  /* The init's mark taken off stderr's tail, split by stdout between its
   * pieces: the stdout segment keeps its place, the mark's bytes go. */
  must (sched_order_add (&o, SCHED_ORDER_OUT, 3));  /* "ab\n" */
  must (sched_order_add (&o, SCHED_ORDER_ERR, 5));  /* "e\n" and the mark's first 3 bytes */
  must (sched_order_add (&o, SCHED_ORDER_OUT, 2));  /* "c\n" */
  must (sched_order_add (&o, SCHED_ORDER_ERR, 10)); /* the rest of the mark */
  sched_order_close (&o, 5, 2);
  is_str (describe (&o, d, sizeof d), "o3e2o2",
          "the mark off stderr's tail: off the order, nothing shifted");
  is_str (render (&o, "ab\nc\n", "e\n", r, sizeof r), "ab\ne\nc\n", "and the output as written");
  sched_order_free (&o);

  /* A segment wholly cut (stderr cut to its cap) joins its neighbours. */
  must (sched_order_add (&o, SCHED_ORDER_ERR, 4));
  must (sched_order_add (&o, SCHED_ORDER_OUT, 1));
  must (sched_order_add (&o, SCHED_ORDER_ERR, 4));
  must (sched_order_add (&o, SCHED_ORDER_OUT, 1));
  sched_order_close (&o, 2, 4);
  is_str (describe (&o, d, sizeof d), "e4o2",
          "stderr cut to 4: its second segment goes, stdout's two join");
  is_str (render (&o, "xy", "abcd", r, sizeof r), "abcdxy", "rendered as kept");
  /* Closing again with the same lengths changes nothing. */
  sched_order_close (&o, 2, 4);
  is_str (describe (&o, d, sizeof d), "e4o2", "closing twice: the same");
  sched_order_free (&o);

  /* The bound: the encoding never takes more bytes than the output. */
  {
    size_t total = 0;
    bool within = true;
    for (size_t i = 0; i < 5000; i++)
      {
        size_t len = 1 + (i * 7919) % (i % 3 ? 70 : 20000);
        must (sched_order_add (&o, (int) (i & 1), len));
        total += len;
        within &= o.segs.len <= total;
      }
    sched_order_close (&o, total, total);
    ok (within && o.segs.len <= total && sched_order_count (&o) == 5000,
        "5000 segments of 1 to 20000 bytes: %zu bytes of order for %zu of output", o.segs.len,
        total);
    sched_order_free (&o);
    for (size_t i = 0; i < 1000; i++)
      must (sched_order_add (&o, (int) (i & 1), 1));
    sched_order_close (&o, 500, 500);
    is_int (o.segs.len, 1000, "1000 one-byte segments: 1000 bytes of order (one each)");
    sched_order_free (&o);
  }

  /* Parse: the lengths must add up to the streams exactly. */
  {
    static const char good[] = {(char) (3 << 1), (char) (2 << 1 | 1), (char) (1 << 1)};
    static const char zero[]
        = {(char) (3 << 1), (char) (0 << 1 | 1), (char) (1 << 1 | 1), (char) (1 << 1)};
    static const char longer[] = {(char) 0x80, (char) 0x80, (char) 0x80, (char) 0x80, (char) 0x80,
                                  (char) 0x80, (char) 0x80, (char) 0x80, (char) 0x80, (char) 0x7f};
    is_int (sched_order_parse (good, sizeof good, 4, 2, &o), 0, "a whole order parses");
    is_str (render (&o, "abcd", "XY", r, sizeof r), "abcXYd", "and lays the output out");
    sched_order_free (&o);
    ok (sched_order_parse (good, sizeof good, 4, 3, &o) < 0 && !o.known,
        "lengths short of stderr: refused");
    ok (sched_order_parse (good, sizeof good, 3, 2, &o) < 0, "lengths past stdout: refused");
    ok (sched_order_parse (good, 2, 4, 2, &o) < 0, "a segment missing: refused");
    ok (sched_order_parse (zero, sizeof zero, 4, 1, &o) < 0, "an empty segment: refused");
    ok (sched_order_parse ("\x86", 1, 3, 0, &o) < 0, "a number cut short: refused");
    ok (sched_order_parse (longer, sizeof longer, 0, 0, &o) < 0, "a number past 64 bits: refused");
    ok (sched_order_parse ("", 0, 0, 0, &o) == 0 && o.known, "no output, no segments: parses");
    sched_order_free (&o);
  }

  /* No order (an older init's trailer): stdout, then stderr. */
  is_str (render (&o, "out", "err", r, sizeof r), "outerr", "unknown order: stdout then stderr");

  /* Memory runs out while recording: the order is lost, output whole. */
  {
    must (sched_order_add (&o, SCHED_ORDER_OUT, 1));
    failmalloc_arm (1);
    int rc = sched_order_add (&o, SCHED_ORDER_ERR, 1);
    failmalloc_arm (0);
    ok (rc < 0 && o.lost, "no memory to close a segment: the order is lost");
    is_int (sched_order_add (&o, SCHED_ORDER_OUT, 1), 0, "later pieces: no second complaint");
    sched_order_close (&o, 2, 1);
    is_str (render (&o, "ab", "E", r, sizeof r), "abE",
            "a lost order: stdout then stderr, every byte");
    sched_order_free (&o);
  }
  return tap_done ();
}
