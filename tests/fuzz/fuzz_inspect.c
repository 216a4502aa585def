/* Fuzz the check of a created container (sbx_verify_created): input is an
 * engine's container inspect reply, against the python profile's
 * template as Docker and as Podman are asked for it.  Whatever the reply,
 * the check answers 0 or -1 with a reason, and only a reply that holds
 * every setting passes. */
#include "warmbox/profile.h"
#include "warmbox/sandbox.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static sbx_tmpl_t *docker, *podman;

static void
init (void)
{
  prof_set_t *set = NULL;
  const prof_t *p;
  wb_err_t err;
  sbx_dialect_t d = {true, "/var/lib/warmbox/seccomp/python.json"};

  if (prof_load_dir (WB_DEFAULT_PROFILES_DIR, &set, &err) < 0
      || (p = prof_find (set, "python")) == NULL)
    abort ();
  docker = sbx_tmpl_new (p, &p->def, "sha256:0", NULL, &err);
  podman = sbx_tmpl_new (p, &p->def, "sha256:0", &d, &err);
  if (docker == NULL || podman == NULL)
    abort ();
  prof_set_free (set); /* templates don't need their profile */
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  wb_err_t err;

  if (docker == NULL)
    init ();
  for (int k = 0; k < 2; k++)
    {
      memset (&err, 0, sizeof err);
      if (sbx_verify_created (k ? podman : docker, (const char *) data, size, &err) < 0
          && err.msg[0] == '\0')
        abort (); /* a refusal always says why */
    }
  return 0;
}
