/* Fuzz the engine's reply decoders (engine/proto.c, by request kind).
 * Input: one byte for the kind, one for the status, one for the ping's
 * API-Version header and the list's label, then the body.  Whatever the
 * reply, the decode answers 0 or -1 with a message, and what it hands
 * back is whole: arrays NULL-ended at their counts, pointers into the
 * body or its own memory (ASan checks the reads). */
#include "engine_int.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* n entries, each NULL or a string ASan lets us read whole. */
static size_t
read_array (const char *const *a, size_t n)
{
  size_t total = 0;

  if (n && a == NULL)
    abort ();
  for (size_t i = 0; i < n; i++)
    total += a[i] ? strlen (a[i]) : 0;
  return total;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const long statuses[] = {200, 201, 204, 304, 404, 409, 500, 0};
  static const char *const headers[] = {"1.41", "1.40", "1.39", "", "1.43", "2.0", "1.41 ", "x"};
  eng_result_t res;
  eng_decoded_t own = {0};
  eng_reply_t r;

  if (size < 3)
    return 0;
  memset (&res, 0, sizeof res);
  r = (eng_reply_t){
      .status = statuses[data[1] % 8],
      .body = size > 3 ? (const char *) data + 3 : NULL,
      .len = size - 3,
      .api_header = headers[data[2] % 8],
      .libpod = data[2] & 8,
      .value_key = data[2] & 16 ? "warmbox.pool" : NULL,
  };
  eng_reply_decode ((req_kind_t) (data[0] % (REQ_N_KINDS + 1)), &r, &res, &own);
  if (res.rc != 0 && (res.rc != -1 || res.err.msg[0] == '\0'))
    abort ();
  if (res.rc == 0)
    {
      if (res.id && strlen (res.id) == 0)
        abort ();
      if (res.ids && res.ids[res.n_ids] != NULL)
        abort ();
      for (size_t i = 0; i < res.n_ids; i++)
        if (res.ids[i] == NULL)
          abort ();
      read_array (res.values, res.n_ids);
      read_array (res.runtimes, res.n_runtimes);
      read_array (res.security_options, res.n_security_options);
      if (res.json && (res.json != r.body || res.json_len != r.len))
        abort ();
      if (res.api_version && strncmp (res.api_version, "1.", 2) != 0)
        abort ();
    }
  eng_decoded_clear (&own);
  return 0;
}
