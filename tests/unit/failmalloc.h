/* tests/unit/failmalloc.h: fail the Nth allocation (SQLite's approach).
 *
 * Test programs are linked with -Wl,--wrap=malloc,... so every malloc,
 * calloc, realloc, strdup and strndup in warmbox's own objects (and in the
 * fake engine) goes through here; cJSON and libevent are pointed here with
 * their allocator hooks (failmalloc_install).  Allocations inside other
 * libraries (libc's own, SQLite, libcurl) are not counted.
 *
 * Typical loop:
 *   for (long n = 1;; n++) {
 *     failmalloc_arm (n);          // the nth allocation from now fails
 *     run_scenario ();             // must not crash, leak or lose an answer
 *     failmalloc_arm (0);
 *     if (!failmalloc_fired ()) break;   // ran to the end: every n tried
 *   }
 */
#ifndef WARMBOX_FAILMALLOC_H
#define WARMBOX_FAILMALLOC_H

#include <stdbool.h>

/* Point cJSON's and libevent's allocators here.  Call first in main. */
void failmalloc_install (void);
/* Fail the nth allocation counted from now (1 = the next); 0 disarms. */
void failmalloc_arm (long n);
/* Did the armed failure happen? */
bool failmalloc_fired (void);
/* Allocations counted since the last arm. */
long failmalloc_count (void);

#endif
