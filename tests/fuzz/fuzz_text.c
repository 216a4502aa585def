/* Fuzz the text helpers: base64 round trips, UTF-8 validation, JSON string
 * escaping (whose output must parse back to the input). */
#include "warmbox/wb.h"

#include <cjson/cJSON.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  wb_buf_t enc = WB_BUF_INIT, dec = WB_BUF_INIT, js = WB_BUF_INIT;

  if (wb_base64_encode (&enc, data, size) < 0
      || wb_base64_decode (&dec, enc.data ? enc.data : "", enc.len) < 0 || dec.len != size
      || (size && memcmp (dec.data, data, size)))
    abort ();
  wb_buf_reset (&dec);
  if (wb_base64_decode (&dec, (const char *) data, size) < 0 && dec.len != 0)
    abort (); /* a refusal leaves nothing behind */
  if (wb_utf8_valid ((const char *) data, size) && !memchr (data, 0, size))
    {
      if (wb_json_append_string (&js, (const char *) data, size) < 0)
        abort ();
      cJSON *j = cJSON_ParseWithLength (js.data, js.len);
      if (j == NULL || !cJSON_IsString (j) || strlen (j->valuestring) != size
          || memcmp (j->valuestring, data, size))
        abort ();
      cJSON_Delete (j);
    }
  /* Sanitized text is always valid UTF-8, never longer than 3 bytes per
   * input byte, and leaves valid input as it was. */
  for (size_t max = size;; max = size / 2)
    {
      wb_buf_t clean = WB_BUF_INIT;
      size_t used = wb_utf8_sanitize (&clean, (const char *) data, size, max, size % 2);
      if (used > max || !wb_utf8_valid (clean.data ? clean.data : "", clean.len)
          || clean.len > 3 * used)
        abort ();
      if (max == size && used != size)
        abort ();
      if (max == size && !(size % 2) && wb_utf8_valid ((const char *) data, size)
          && (clean.len != size || (size && memcmp (clean.data, data, size))))
        abort ();
      wb_buf_free (&clean);
      if (max == size / 2)
        break;
    }
  wb_buf_free (&enc);
  wb_buf_free (&dec);
  wb_buf_free (&js);
  return 0;
}
