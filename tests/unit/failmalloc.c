/* tests/unit/failmalloc.c: see failmalloc.h. */
#define _GNU_SOURCE
#include "failmalloc.h"

#include <cjson/cJSON.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc (size_t n);
void *__real_calloc (size_t n, size_t size);
void *__real_realloc (void *p, size_t n);
char *__real_strdup (const char *s);
char *__real_strndup (const char *s, size_t n);
void *__wrap_malloc (size_t n);
void *__wrap_calloc (size_t n, size_t size);
void *__wrap_realloc (void *p, size_t n);
char *__wrap_strdup (const char *s);
char *__wrap_strndup (const char *s, size_t n);

static long armed, counted;
static bool fired;

static bool
should_fail (void)
{
  if (armed <= 0)
    return false;
  if (++counted == armed)
    {
      fired = true;
      return true;
    }
  return false;
}

void
failmalloc_arm (long n)
{
  armed = n;
  counted = 0;
  fired = false;
}

bool
failmalloc_fired (void)
{
  return fired;
}

long
failmalloc_count (void)
{
  return counted;
}

void *
__wrap_malloc (size_t n)
{
  return should_fail () ? NULL : __real_malloc (n);
}

void *
__wrap_calloc (size_t n, size_t size)
{
  return should_fail () ? NULL : __real_calloc (n, size);
}

void *
__wrap_realloc (void *p, size_t n)
{
  return should_fail () ? NULL : __real_realloc (p, n);
}

char *
__wrap_strdup (const char *s)
{
  return should_fail () ? NULL : __real_strdup (s);
}

char *
__wrap_strndup (const char *s, size_t n)
{
  return should_fail () ? NULL : __real_strndup (s, n);
}

static void
hook_free (void *p)
{
  free (p);
}

void
failmalloc_install (void)
{
  cJSON_Hooks hooks = {__wrap_malloc, hook_free};

  cJSON_InitHooks (&hooks);
  event_set_mem_functions (__wrap_malloc, __wrap_realloc, hook_free);
}
