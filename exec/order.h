/* exec/order.h: the order in which a program's stdout and stderr
 * arrived (order.c), so that one combined output (Piston's "output", /v1's
 * "output" when asked) can be laid out as the program wrote it.
 *
 * The order is a run-length list of segments, (stream, length), recorded
 * as the bytes are appended to each stream's buffer; consecutive pieces of
 * one stream make one segment.  The list only ever describes bytes that
 * are in the buffers: a piece is recorded with the length that was kept
 * (after the cap), and bytes later taken off a stream's tail (the init's
 * mark, a cut to the cap) are taken off the list by sched_order_close.
 *
 * Bound: each segment is one LEB128 number, (length << 1 | stream), of
 * ceil((bits of length + 1) / 7) bytes, never more bytes than the segment
 * holds: the list takes at most as many bytes as the output it describes
 * (one byte per segment of up to 63 bytes), so its memory is bounded by
 * the output caps and is at most their size again.
 *
 * The same encoding carries the compile stage's order in the init's
 * trailer (profiles/init.c, profiles/README.md). */
#ifndef WARMBOX_SCHED_ORDER_H
#define WARMBOX_SCHED_ORDER_H

#include "warmbox/wb.h"

#define SCHED_ORDER_OUT 0
#define SCHED_ORDER_ERR 1

typedef struct sched_order
{
  wb_buf_t segs;     /* closed segments, LEB128 (length << 1 | stream) each */
  uint64_t open_len; /* the last segment, still growing: not in segs yet */
  int open_stream;
  bool lost;  /* memory ran out once: the order is unknown (see render) */
  bool known; /* recorded or parsed: absent in an older init's trailer */
} sched_order_t;

/* len more bytes of stream (SCHED_ORDER_OUT or _ERR) were kept.  Without
 * memory the order is marked lost (render then falls back to stdout, then
 * stderr) and -1 is returned, that once (later calls return 0); the output
 * itself is unaffected. */
WB_MUST_CHECK int sched_order_add (sched_order_t *o, int stream, size_t len);
/* The streams are final with these lengths: close the open segment, take
 * off the list whatever it says past each stream's length (from its tail),
 * and join the segments that become neighbours.  Can't fail (without
 * memory to close the open segment, the order is lost). */
void sched_order_close (sched_order_t *o, size_t out_len, size_t err_len);
/* Parse len bytes of encoded segments (the init's trailer) into o: every
 * segment at least one byte, the lengths adding up to exactly out_len and
 * err_len.  -1 (o untouched) when they do not, or without memory. */
WB_MUST_CHECK int sched_order_parse (const char *p, size_t len, size_t out_len, size_t err_len,
                                     sched_order_t *o);
/* Append out and err interleaved as o says to dst; what o does not cover
 * (no order: an old trailer, memory ran out) follows, stdout then stderr.
 * Every byte of both, exactly once.  -1 without memory. */
WB_MUST_CHECK int sched_order_render (const sched_order_t *o, const char *out, size_t out_len,
                                      const char *err, size_t err_len, wb_buf_t *dst);
/* Segments, for tests and logs: the number of (closed) segments; -1 when
 * the list does not decode (a bug). */
long sched_order_count (const sched_order_t *o);
void sched_order_free (sched_order_t *o);

#endif
