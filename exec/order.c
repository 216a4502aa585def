/* exec/order.c: the order of a program's stdout and stderr, as a
 * run-length list of LEB128 segments (order.h says why it is bounded). */
#define _GNU_SOURCE
#include "exec/order.h"

#include <string.h>

#define VARINT_MAX 10 /* bytes of a 64-bit LEB128 number */

/* v as LEB128 at p (VARINT_MAX bytes of room); its length. */
static size_t
varint_put (unsigned char *p, uint64_t v)
{
  size_t n = 0;

  do
    {
      unsigned char byte = v & 0x7f;
      v >>= 7;
      p[n++] = byte | (v ? 0x80 : 0);
    }
  while (v);
  return n;
}

/* One LEB128 number at *p (before end) into *v; false when it is cut or
 * longer than a 64-bit number takes. */
static bool
varint_get (const unsigned char **p, const unsigned char *end, uint64_t *v)
{
  uint64_t r = 0;

  for (unsigned shift = 0; *p < end && shift < 64; shift += 7)
    {
      unsigned char byte = *(*p)++;
      if (shift == 63 && (byte & 0x7e))
        return false; /* past 64 bits */
      r |= (uint64_t) (byte & 0x7f) << shift;
      if (!(byte & 0x80))
        {
          *v = r;
          return true;
        }
    }
  return false;
}

/* Close the open segment into segs.  -1 without memory (the order is then
 * lost). */
static int
flush_open (sched_order_t *o)
{
  unsigned char buf[VARINT_MAX];

  if (o->open_len == 0)
    return 0;
  size_t n = varint_put (buf, o->open_len << 1 | (uint64_t) o->open_stream);
  o->open_len = 0;
  if (wb_buf_append (&o->segs, buf, n) < 0)
    {
      o->lost = true;
      return -1;
    }
  return 0;
}

int
sched_order_add (sched_order_t *o, int stream, size_t len)
{
  if (len == 0 || o->lost)
    return 0; /* lost: said once */
  o->known = true;
  if (o->open_len && o->open_stream != stream && flush_open (o) < 0)
    return -1;
  o->open_stream = stream;
  o->open_len += len;
  return 0;
}

void
sched_order_close (sched_order_t *o, size_t out_len, size_t err_len)
{
  const unsigned char *r, *end;
  unsigned char *w;
  uint64_t left[2] = {out_len, err_len}, pend_len = 0;
  int pend_stream = 0;

  if (o->lost || flush_open (o) < 0)
    return;
  /* In place: a segment cut or joined to its neighbour never takes more
   * bytes than those it was read from, so w stays at or behind r. */
  r = w = (unsigned char *) o->segs.data;
  end = r + o->segs.len;
  while (r < end)
    {
      uint64_t v, len;
      int s;
      if (!varint_get (&r, end, &v))
        {
          o->lost = true; /* a bug: our own encoding */
          return;
        }
      s = (int) (v & 1);
      len = v >> 1 < left[s] ? v >> 1 : left[s];
      left[s] -= len;
      if (len == 0)
        continue;
      if (pend_len && pend_stream != s)
        {
          w += varint_put (w, pend_len << 1 | (uint64_t) pend_stream);
          pend_len = 0;
        }
      pend_stream = s;
      pend_len += len;
    }
  if (pend_len)
    w += varint_put (w, pend_len << 1 | (uint64_t) pend_stream);
  o->segs.len = o->segs.data ? (size_t) (w - (unsigned char *) o->segs.data) : 0;
}

int
sched_order_parse (const char *p, size_t len, size_t out_len, size_t err_len, sched_order_t *o)
{
  const unsigned char *r = (const unsigned char *) p, *end = r + len;
  uint64_t sum[2] = {0, 0};
  wb_buf_t segs = WB_BUF_INIT;

  while (r < end)
    {
      uint64_t v;
      if (!varint_get (&r, end, &v) || v >> 1 == 0)
        return -1;
      sum[v & 1] += v >> 1;
      if (sum[v & 1] > (v & 1 ? err_len : out_len))
        return -1;
    }
  if (sum[0] != out_len || sum[1] != err_len || wb_buf_append (&segs, p, len) < 0)
    return -1;
  sched_order_free (o);
  o->segs = segs;
  o->known = true;
  return 0;
}

int
sched_order_render (const sched_order_t *o, const char *out, size_t out_len, const char *err,
                    size_t err_len, wb_buf_t *dst)
{
  const char *data[2] = {out ? out : "", err ? err : ""};
  size_t size[2] = {out_len, err_len}, at[2] = {0, 0};

  if (o->known && !o->lost)
    {
      const unsigned char *r = (const unsigned char *) o->segs.data, *end = r + o->segs.len;
      uint64_t v;
      /* Closed segments, then the open one (a result rendered before its
       * streams were final). */
      while (r < end && varint_get (&r, end, &v))
        {
          int s = (int) (v & 1);
          size_t n = v >> 1 < size[s] - at[s] ? (size_t) (v >> 1) : size[s] - at[s];
          if (n && wb_buf_append (dst, data[s] + at[s], n) < 0)
            return -1;
          at[s] += n;
        }
      if (o->open_len)
        {
          int s = o->open_stream;
          size_t n = o->open_len < size[s] - at[s] ? (size_t) o->open_len : size[s] - at[s];
          if (n && wb_buf_append (dst, data[s] + at[s], n) < 0)
            return -1;
          at[s] += n;
        }
    }
  for (int s = 0; s < 2; s++)
    if (size[s] > at[s] && wb_buf_append (dst, data[s] + at[s], size[s] - at[s]) < 0)
      return -1;
  if (dst->data == NULL && wb_buf_reserve (dst, 1) < 0)
    return -1; /* "" rather than NULL for callers that print it */
  return 0;
}

long
sched_order_count (const sched_order_t *o)
{
  const unsigned char *r = (const unsigned char *) o->segs.data, *end = r + o->segs.len;
  long n = 0;
  uint64_t v;

  while (r < end)
    {
      if (!varint_get (&r, end, &v))
        return -1;
      n++;
    }
  return n;
}

void
sched_order_free (sched_order_t *o)
{
  wb_buf_free (&o->segs);
  memset (o, 0, sizeof *o);
}
