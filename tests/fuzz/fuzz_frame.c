/* Fuzz the stdin frame parser, and check build -> parse round trips. */
#include "scheduler.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  size_t off = 0, len = 0;
  int r = sched_frame_parse ((const char *) data, size, &off, &len);
  wb_buf_t f = WB_BUF_INIT;
  size_t cut = size ? data[0] % (size + 1) : 0;

  if (r == 1 && (off > size || len > size - off))
    abort ();
  sched_frame_build ((const char *) data, cut, (const char *) data + cut, size - cut, &f);
  if (sched_frame_parse (f.data, f.len, &off, &len) != 1 || len != cut
      || memcmp (f.data + off, data, cut) != 0)
    abort ();
  wb_buf_free (&f);
  return 0;
}
