/* engine/proto.c: pure parsers of the engine's wire formats (no I/O).
 * Both are fed bytes an engine (or something pretending to be one) chose,
 * so they are written to be fuzzed: bounded, no allocation. */
#include "warmbox/engine.h"

#include <string.h>

#define HIJACK_HEAD_MAX (16 * 1024)

int
eng_hijack_parse_head (const char *buf, size_t len, int *status, size_t *head_len)
{
  const char *end = NULL;
  size_t scan = len < HIJACK_HEAD_MAX ? len : HIJACK_HEAD_MAX;
  int code = 0;

  /* "HTTP/1.x NNN" must lead, before we even have the whole head. */
  static const char proto[] = "HTTP/1.";
  size_t cmp = scan < sizeof proto - 1 ? scan : sizeof proto - 1;
  if (memcmp (buf, proto, cmp) != 0)
    return -1;

  for (size_t i = 0; i + 3 < scan; i++)
    if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n')
      {
        end = buf + i + 4;
        break;
      }
  if (end == NULL)
    return len >= HIJACK_HEAD_MAX ? -1 : 0;

  /* "HTTP/1.1 101 UPGRADED": version digit, space, three digits, then a
   * space or the end of the line. */
  if (end - buf < 14 || (buf[7] != '0' && buf[7] != '1') || buf[8] != ' ')
    return -1;
  for (int i = 9; i < 12; i++)
    {
      if (buf[i] < '0' || buf[i] > '9')
        return -1;
      code = code * 10 + (buf[i] - '0');
    }
  if (buf[12] != ' ' && buf[12] != '\r')
    return -1;
  if (code < 100)
    return -1;
  *status = code;
  *head_len = (size_t) (end - buf);
  return 1;
}

void
eng_demux_init (eng_demux_t *d)
{
  memset (d, 0, sizeof *d);
}

bool
eng_demux_idle (const eng_demux_t *d)
{
  return d->head_have == 0 && d->remaining == 0;
}

int
eng_demux_feed (eng_demux_t *d, const char *data, size_t len, eng_demux_cb cb, void *arg)
{
  while (len > 0)
    {
      if (d->remaining > 0)
        {
          size_t n = len < d->remaining ? len : d->remaining;
          cb (arg, d->stream, data, n);
          d->remaining -= (uint32_t) n;
          data += n;
          len -= n;
          continue;
        }
      size_t want = sizeof d->head - d->head_have;
      size_t n = len < want ? len : want;
      memcpy (d->head + d->head_have, data, n);
      d->head_have += n;
      data += n;
      len -= n;
      if (d->head_have < sizeof d->head)
        break;
      if (d->head[0] > ENG_STREAM_STDERR)
        return -1;
      d->stream = d->head[0];
      d->remaining = ((uint32_t) d->head[4] << 24) | ((uint32_t) d->head[5] << 16)
                     | ((uint32_t) d->head[6] << 8) | (uint32_t) d->head[7];
      d->head_have = 0;
    }
  return 0;
}
