/* oci/events.c: the helper's container events, as Docker's GET /events
 * writes them (oci.h).  Pure: a ring of the last events, their filters,
 * and the times a client gives; the server streams them. */
#define _GNU_SOURCE
#include "oci/oci.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
oci_events_init (oci_events_t *ev, size_t cap)
{
  memset (ev, 0, sizeof *ev);
  if (cap == 0 || (ev->ring = calloc (cap, sizeof *ev->ring)) == NULL)
    return -1;
  ev->cap = cap;
  return 0;
}

static void
event_clear (oci_event_t *e)
{
  cJSON_Delete (e->attrs);
  free (e->line);
  memset (e, 0, sizeof *e);
}

void
oci_events_free (oci_events_t *ev)
{
  for (size_t i = 0; i < ev->count; i++)
    event_clear (&ev->ring[(ev->first + i) % ev->cap]);
  free (ev->ring);
  memset (ev, 0, sizeof *ev);
}

const oci_event_t *
oci_events_get (const oci_events_t *ev, size_t i)
{
  return i < ev->count ? &ev->ring[(ev->first + i) % ev->cap] : NULL;
}

/* Actor.Attributes: the container's labels, then image and name, then
 * the event's own (exitCode, signal), as Docker sets them. */
static cJSON *
attributes (const char *image, const char *name, const cJSON *labels, const char *key,
            const char *value)
{
  cJSON *a
      = labels && cJSON_IsObject (labels) ? cJSON_Duplicate (labels, true) : cJSON_CreateObject ();
  if (a == NULL)
    return NULL;
  /* Only strings: a label that is not one is not an attribute. */
  for (cJSON *i = a->child, *next; i; i = next)
    {
      next = i->next;
      if (!cJSON_IsString (i))
        cJSON_Delete (cJSON_DetachItemViaPointer (a, i));
    }
  cJSON_DeleteItemFromObjectCaseSensitive (a, "image");
  cJSON_DeleteItemFromObjectCaseSensitive (a, "name");
  if (!cJSON_AddStringToObject (a, "image", image ? image : "")
      || (name && name[0] && !cJSON_AddStringToObject (a, "name", name)))
    {
      cJSON_Delete (a);
      return NULL;
    }
  if (key && value)
    {
      cJSON_DeleteItemFromObjectCaseSensitive (a, key);
      if (!cJSON_AddStringToObject (a, key, value))
        {
          cJSON_Delete (a);
          return NULL;
        }
    }
  return a;
}

const oci_event_t *
oci_events_add (oci_events_t *ev, int64_t time_nano, const char *action, const char *id,
                const char *image, const char *name, const cJSON *labels, const char *key,
                const char *value)
{
  oci_event_t e = {.time_nano = time_nano};
  cJSON *j = NULL, *actor;
  char *text;

  if (ev->cap == 0 || snprintf (e.action, sizeof e.action, "%s", action) >= (int) sizeof e.action
      || snprintf (e.id, sizeof e.id, "%s", id) >= (int) sizeof e.id)
    return NULL;
  if ((e.attrs = attributes (image, name, labels, key, value)) == NULL)
    return NULL;
  if ((j = cJSON_CreateObject ()) == NULL || !cJSON_AddStringToObject (j, "status", action)
      || !cJSON_AddStringToObject (j, "id", id)
      || !cJSON_AddStringToObject (j, "from", image ? image : "")
      || !cJSON_AddStringToObject (j, "Type", "container")
      || !cJSON_AddStringToObject (j, "Action", action)
      || (actor = cJSON_AddObjectToObject (j, "Actor")) == NULL
      || !cJSON_AddStringToObject (actor, "ID", id)
      || !cJSON_AddItemReferenceToObject (actor, "Attributes", e.attrs)
      || !cJSON_AddStringToObject (j, "scope", "local")
      || !cJSON_AddNumberToObject (j, "time", (double) (time_nano / 1000000000))
      || !cJSON_AddNumberToObject (j, "timeNano", (double) time_nano)
      || (text = cJSON_PrintUnformatted (j)) == NULL)
    {
      cJSON_Delete (j);
      cJSON_Delete (e.attrs);
      return NULL;
    }
  cJSON_Delete (j); /* the reference only: attrs stay e's */
  e.line_len = strlen (text);
  if ((e.line = realloc (text, e.line_len + 2)) == NULL)
    {
      free (text);
      cJSON_Delete (e.attrs);
      return NULL;
    }
  e.line[e.line_len++] = '\n';
  e.line[e.line_len] = '\0';
  if (ev->count == ev->cap)
    {
      event_clear (&ev->ring[ev->first]);
      ev->first = (ev->first + 1) % ev->cap;
      ev->count--;
    }
  ev->ring[(ev->first + ev->count) % ev->cap] = e;
  ev->count++;
  ev->added++;
  return &ev->ring[(ev->first + ev->count - 1) % ev->cap];
}

/* ---- filters ------------------------------------------------------------- */

static const char *const filter_keys[] = {"type", "label", "container", "event"};

/* A filter's values: a list of strings, or (the older form) an object
 * whose keys are the values and whose values are true. */
static bool
values_ok (const cJSON *v)
{
  const cJSON *i;
  if (cJSON_IsArray (v))
    {
      cJSON_ArrayForEach (i, v) if (!cJSON_IsString (i)) return false;
      return true;
    }
  if (cJSON_IsObject (v))
    {
      cJSON_ArrayForEach (i, v) if (!cJSON_IsTrue (i)) return false;
      return true;
    }
  return false;
}

static const char *
value_text (const cJSON *i)
{
  return cJSON_IsString (i) ? i->valuestring : i->string;
}

int
oci_event_filter_parse (oci_event_filter_t *f, const char *json, wb_err_t *err)
{
  memset (f, 0, sizeof *f);
  if (json == NULL)
    return 0;
  if ((f->json = cJSON_Parse (json)) == NULL || !cJSON_IsObject (f->json))
    {
      oci_event_filter_free (f);
      return wb_error (err, WB_E_INVALID, "filters is not a JSON object");
    }
  for (const cJSON *k = f->json->child; k; k = k->next)
    {
      size_t n = sizeof filter_keys / sizeof filter_keys[0], i;
      for (i = 0; i < n; i++)
        if (strcmp (k->string, filter_keys[i]) == 0)
          break;
      if (i == n)
        {
          wb_error (err, WB_E_INVALID,
                    "the events filter %.40s is not taken (type, label, container, event are)",
                    k->string);
          oci_event_filter_free (f);
          return -1;
        }
      if (!values_ok (k))
        {
          wb_error (err, WB_E_INVALID, "the events filter %s must be a list of strings", k->string);
          oci_event_filter_free (f);
          return -1;
        }
    }
  f->type = cJSON_GetObjectItemCaseSensitive (f->json, "type");
  f->label = cJSON_GetObjectItemCaseSensitive (f->json, "label");
  f->container = cJSON_GetObjectItemCaseSensitive (f->json, "container");
  f->event = cJSON_GetObjectItemCaseSensitive (f->json, "event");
  return 0;
}

void
oci_event_filter_free (oci_event_filter_t *f)
{
  cJSON_Delete (f->json);
  memset (f, 0, sizeof *f);
}

/* Does one of vs equal s (or, with names, the container's name)? */
static bool
any_equals (const cJSON *vs, const char *s, const char *alt)
{
  const cJSON *i;
  if (vs == NULL || vs->child == NULL)
    return true;
  cJSON_ArrayForEach (i, vs)
  {
    const char *v = value_text (i);
    if (v && (strcmp (v, s) == 0 || (alt && alt[0] && strcmp (v, alt) == 0)))
      return true;
  }
  return false;
}

bool
oci_event_filter_match (const oci_event_filter_t *f, const oci_event_t *e)
{
  const cJSON *i, *name = cJSON_GetObjectItemCaseSensitive (e->attrs, "name");
  if (!any_equals (f->type, "container", NULL) || !any_equals (f->event, e->action, NULL)
      || !any_equals (f->container, e->id, cJSON_GetStringValue (name)))
    return false;
  /* Every label asked for ("k" or "k=v"), as Docker's filter does. */
  cJSON_ArrayForEach (i, f->label)
  {
    const char *want = value_text (i), *eq;
    const cJSON *have;
    char key[256];
    if (want == NULL)
      return false;
    eq = strchr (want, '=');
    if (snprintf (key, sizeof key, "%.*s", eq ? (int) (eq - want) : (int) strlen (want), want)
        >= (int) sizeof key)
      return false;
    have = cJSON_GetObjectItemCaseSensitive (e->attrs, key);
    if (!cJSON_IsString (have) || (eq && strcmp (have->valuestring, eq + 1) != 0))
      return false;
  }
  return true;
}

int
oci_event_time_parse (const char *s, int64_t *out, wb_err_t *err)
{
  const char *p = s;
  int64_t secs = 0, frac = 0, scale = 100000000;
  bool digits = false;

  if (s == NULL || *s == '\0')
    return wb_error (err, WB_E_INVALID, "an empty time");
  for (; isdigit ((unsigned char) *p); p++, digits = true)
    {
      if (secs > (INT64_MAX / 1000000000 - 9) / 10)
        return wb_error (err, WB_E_INVALID, "the time %.40s is out of range", s);
      secs = secs * 10 + (*p - '0');
    }
  if (*p == '.')
    for (p++; isdigit ((unsigned char) *p); p++, digits = true)
      {
        frac += scale * (*p - '0');
        scale /= 10;
      }
  if (!digits || *p != '\0')
    return wb_error (err, WB_E_INVALID,
                     "the time %.40s is not seconds since the epoch (1700000000 or "
                     "1700000000.5)",
                     s);
  *out = secs * 1000000000 + frac;
  return 0;
}
