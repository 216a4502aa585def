/* Fuzz what warmboxd reads of warmbox-oci's run (engine/: the stream's
 * frames with type 3 taken, each event line gathered by
 * eng_event_line_add and taken apart by eng_run_event_parse, as
 * engine/attach.c does): the frames
 * and the events must come out the same whether the bytes are fed whole
 * or in two pieces, and every event parses to something sane (an exit
 * code in 0..255, a reason inside its line). */
#include "warmbox/engine.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef struct seen
{
  eng_demux_t demux;
  wb_buf_t out[2];
  wb_buf_t events; /* each event's kind, code and OOM flag, as bytes */
  eng_event_line_t line;
  bool too_long;
} seen_t;

static void
take (void *arg, int stream, const char *d, size_t n)
{
  seen_t *s = arg;
  eng_run_event_t ev;

  if (stream != ENG_STREAM_EVENT)
    {
      if (wb_buf_append (&s->out[stream == ENG_STREAM_STDERR], d, n) < 0)
        abort ();
      return;
    }
  if (s->too_long)
    return;
  switch (eng_event_line_add (&s->line, d, n, s->demux.remaining == 0))
    {
    case 0:
      return;
    case 1:
      break;
    default:
      s->too_long = true; /* as engine/attach.c: the run ends */
      return;
    }
  if (strlen (s->line.line) > ENG_EVENT_LINE_MAX)
    abort ();
  eng_run_event_parse (s->line.line, &ev);
  if (ev.exit_code < 0 || ev.exit_code > 255
      || (ev.kind != ENG_RUN_EXIT && (ev.exit_code || ev.oom)) || ev.why == NULL
      || (ev.why[0] && (ev.why < s->line.line || ev.why > s->line.line + strlen (s->line.line))))
    abort ();
  unsigned char rec[3] = {(unsigned char) ev.kind, (unsigned char) ev.exit_code, ev.oom};
  if (wb_buf_append (&s->events, rec, sizeof rec) < 0)
    abort ();
}

static int
feed (seen_t *s, const uint8_t *data, size_t n)
{
  return eng_demux_feed (&s->demux, (const char *) data, n, take, s);
}

static bool
same (const wb_buf_t *a, const wb_buf_t *b)
{
  return a->len == b->len && (a->len == 0 || memcmp (a->data, b->data, a->len) == 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static seen_t a, b;
  size_t cut = size ? data[0] % (size + 1) : 0;
  int ra, rb;

  memset (&a, 0, sizeof a);
  memset (&b, 0, sizeof b);
  eng_demux_init (&a.demux);
  eng_demux_init (&b.demux);
  a.demux.max_stream = b.demux.max_stream = ENG_STREAM_EVENT;
  ra = feed (&a, data, size);
  rb = feed (&b, data, cut);
  if (rb == 0)
    rb = feed (&b, data + cut, size - cut);
  if ((ra == 0) != (rb == 0))
    abort ();
  if (ra == 0
      && (!same (&a.out[0], &b.out[0]) || !same (&a.out[1], &b.out[1])
          || !same (&a.events, &b.events) || a.too_long != b.too_long))
    abort ();
  for (int i = 0; i < 2; i++)
    {
      wb_buf_free (&a.out[i]);
      wb_buf_free (&b.out[i]);
    }
  wb_buf_free (&a.events);
  wb_buf_free (&b.events);
  return 0;
}
