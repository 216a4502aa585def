/* tests/unit/test_oci_events.c: the OCI helper's events (oci/events.c).
 *
 * An event carries what Docker's carries (Type, Action, Actor.ID and the
 * labels among its attributes, time and timeNano) as one JSON line; the
 * ring forgets the oldest past its size; filters match as Docker's do
 * (one value per key, every label); bad filters and times are refused
 * with a sentence. */
#define _GNU_SOURCE
#include "oci/oci.h"
#include "tap.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define ID_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define ID_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static bool
matches (const char *filters, const oci_event_t *e)
{
  oci_event_filter_t f;
  wb_err_t err;
  if (oci_event_filter_parse (&f, filters, &err) < 0)
    return false;
  bool m = oci_event_filter_match (&f, e);
  oci_event_filter_free (&f);
  return m;
}

static bool
refused (const char *filters, const char *says)
{
  oci_event_filter_t f;
  wb_err_t err = {0};
  if (oci_event_filter_parse (&f, filters, &err) == 0)
    {
      oci_event_filter_free (&f);
      return false;
    }
  return err.code == WB_E_INVALID && strstr (err.msg, says) != NULL;
}

int
main (void)
{
  oci_events_t ev;
  cJSON *labels = cJSON_Parse ("{\"warmbox.instance\":\"i1\",\"warmbox.pool\":\"python\",\"n\":3}");
  const oci_event_t *e;

  ok (oci_events_init (&ev, 3) == 0, "a ring of 3");
  e = oci_events_add (&ev, 1700000000123456789LL, "start", ID_A, "sha256:ff", NULL, labels, NULL,
                      NULL);
  ok (e != NULL, "an event is recorded");
  {
    cJSON *j = cJSON_ParseWithLength (e->line, e->line_len);
    const cJSON *actor = cJSON_GetObjectItemCaseSensitive (j, "Actor");
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive (actor, "Attributes");
    ok (e->line[e->line_len - 1] == '\n' && strchr (e->line, '\n') == e->line + e->line_len - 1,
        "one line, ending in a newline");
    ok (j
            && strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "Type")),
                       "container")
                   == 0,
        "Type container");
    ok (strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "Action")), "start") == 0
            && strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "status")),
                       "start")
                   == 0,
        "Action and status");
    ok (strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (actor, "ID")), ID_A) == 0
            && strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "id")), ID_A)
                   == 0,
        "Actor.ID and id");
    ok (strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (attrs, "warmbox.instance")),
                "i1")
                == 0
            && strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (attrs, "image")),
                       "sha256:ff")
                   == 0,
        "the labels and the image are attributes");
    ok (cJSON_GetObjectItemCaseSensitive (attrs, "n") == NULL,
        "a label that is not a string is not one");
    ok (cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (j, "time")) == 1700000000.0,
        "time in seconds");
    ok (cJSON_GetNumberValue (cJSON_GetObjectItemCaseSensitive (j, "timeNano")) > 1.7e18,
        "timeNano");
    cJSON_Delete (j);
  }
  e = oci_events_add (&ev, 1700000001000000000LL, "die", ID_B, "sha256:ff", NULL, NULL, "exitCode",
                      "137");
  ok (e && strstr (e->line, "\"exitCode\":\"137\"") != NULL, "an event's own attribute (exitCode)");
  ok (matches (NULL, e), "no filters: every event");
  ok (matches ("{\"type\":[\"container\"]}", e) && !matches ("{\"type\":[\"image\"]}", e), "type");
  ok (matches ("{\"event\":[\"start\",\"die\"]}", e) && !matches ("{\"event\":[\"start\"]}", e),
      "event: one of the values");
  ok (matches ("{\"container\":[\"" ID_B "\"]}", e)
          && !matches ("{\"container\":[\"" ID_A "\"]}", e),
      "container by id");
  e = oci_events_get (&ev, 0);
  ok (matches ("{\"label\":[\"warmbox.instance\"]}", e)
          && matches ("{\"label\":[\"warmbox.instance=i1\"]}", e),
      "label by key and by key=value");
  ok (!matches ("{\"label\":[\"warmbox.instance=i2\"]}", e)
          && !matches ("{\"label\":[\"warmbox.instance=i1\",\"warmbox.pool=js\"]}", e),
      "every label must match");
  ok (matches ("{\"label\":{\"warmbox.pool=python\":true}}", e),
      "Docker's older {\"value\":true} form");
  ok (!matches ("{\"label\":[\"warmbox.instance\"]}", oci_events_get (&ev, 1)),
      "no labels: no label filter matches");
  ok (refused ("[1]", "not a JSON object") && refused ("{\"label\":\"x\"}", "list of strings")
          && refused ("{\"label\":[1]}", "list of strings")
          && refused ("{\"until\":[]}", "not taken")
          && refused ("{\"label\":{\"x\":false}}", "list of strings")
          && refused ("{", "not a JSON object"),
      "bad filters are refused, each with a sentence");

  oci_events_add (&ev, 3, "create", ID_A, NULL, NULL, NULL, NULL, NULL);
  oci_events_add (&ev, 4, "destroy", ID_A, NULL, NULL, NULL, NULL, NULL);
  ok (ev.count == 3 && ev.added == 4 && oci_events_get (&ev, 0)->time_nano == 1700000001000000000LL
          && strcmp (oci_events_get (&ev, 2)->action, "destroy") == 0
          && oci_events_get (&ev, 3) == NULL,
      "past its size the ring forgets the oldest, and keeps the order");
  ok (oci_events_add (&ev, 5, "a-very-long-action-name", ID_A, NULL, NULL, NULL, NULL, NULL) == NULL
          && ev.added == 4,
      "an action name too long is not recorded");

  {
    int64_t t;
    wb_err_t err = {0};
    ok (oci_event_time_parse ("1700000000", &t, &err) == 0 && t == 1700000000000000000LL,
        "since in seconds");
    ok (oci_event_time_parse ("1700000000.25", &t, &err) == 0 && t == 1700000000250000000LL,
        "with a fraction");
    ok (oci_event_time_parse ("1.1234567891", &t, &err) == 0 && t == 1123456789LL,
        "nanoseconds at most");
    ok (oci_event_time_parse ("", &t, &err) < 0 && oci_event_time_parse ("10m", &t, &err) < 0
            && oci_event_time_parse ("-5", &t, &err) < 0
            && oci_event_time_parse ("99999999999999999999", &t, &err) < 0
            && oci_event_time_parse (".", &t, &err) < 0 && err.code == WB_E_INVALID && err.msg[0],
        "bad times are refused with a sentence");
  }
  oci_events_free (&ev);
  cJSON_Delete (labels);
  return tap_done ();
}
