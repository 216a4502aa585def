/* Fuzz the parser of the engine's answer to a hijack (attach) request. */
#include "warmbox/engine.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  int status = 0;
  size_t head = 0;
  int r = eng_hijack_parse_head ((const char *) data, size, &status, &head);

  if (r == 1 && (head > size || head < 16 || status < 100 || status > 999))
    abort ();
  return 0;
}
