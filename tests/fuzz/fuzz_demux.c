/* Fuzz the 8-byte-header stream demuxer: the bytes must come out the same
 * whether fed whole or in two pieces, split where the first byte says. */
#include "warmbox/engine.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
collect (void *arg, int stream, const char *d, size_t n)
{
  wb_buf_t *b = arg;
  if (wb_buf_append (&b[stream == ENG_STREAM_STDERR], d, n) < 0)
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  eng_demux_t a, b;
  wb_buf_t whole[2] = {WB_BUF_INIT, WB_BUF_INIT}, split[2] = {WB_BUF_INIT, WB_BUF_INIT};
  size_t cut = size ? data[0] % (size + 1) : 0;
  int ra, rb;

  eng_demux_init (&a);
  eng_demux_init (&b);
  ra = eng_demux_feed (&a, (const char *) data, size, collect, whole);
  rb = eng_demux_feed (&b, (const char *) data, cut, collect, split);
  if (rb == 0)
    rb = eng_demux_feed (&b, (const char *) data + cut, size - cut, collect, split);
  if (ra == 0 && rb == 0
      && (whole[0].len != split[0].len || whole[1].len != split[1].len
          || (whole[0].len && memcmp (whole[0].data, split[0].data, whole[0].len))
          || (whole[1].len && memcmp (whole[1].data, split[1].data, whole[1].len))))
    abort ();
  if ((ra == 0) != (rb == 0))
    abort ();
  for (int i = 0; i < 2; i++)
    {
      wb_buf_free (&whole[i]);
      wb_buf_free (&split[i]);
    }
  return 0;
}
