/* Fuzz the OCI helper's events query (oci/events.c): any bytes as
 * filters= and as since= give a filter or a refusal with a sentence, and
 * a filter matches recorded events without a fault. */
#include "oci/oci.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = malloc (size + 1);
  oci_event_filter_t f;
  oci_events_t ev;
  wb_err_t err = {0};
  int64_t t;
  if (text == NULL)
    return 0;
  memcpy (text, data, size);
  text[size] = '\0';
  if (oci_event_time_parse (text, &t, &err) < 0 && err.msg[0] == '\0')
    abort ();
  err.msg[0] = '\0';
  if (oci_event_filter_parse (&f, text, &err) < 0)
    {
      if (err.msg[0] == '\0')
        abort ();
      free (text);
      return 0;
    }
  if (oci_events_init (&ev, 2) == 0)
    {
      cJSON *labels = cJSON_Parse ("{\"warmbox.instance\":\"i\",\"a\":\"b=c\"}");
      static const char id[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
      const oci_event_t *e
          = oci_events_add (&ev, 1, "start", id, "sha256:00", NULL, labels, NULL, NULL);
      if (e)
        (void) oci_event_filter_match (&f, e);
      e = oci_events_add (&ev, 2, "die", id, NULL, NULL, NULL, "exitCode", "0");
      if (e)
        (void) oci_event_filter_match (&f, e);
      cJSON_Delete (labels);
      oci_events_free (&ev);
    }
  oci_event_filter_free (&f);
  free (text);
  return 0;
}
