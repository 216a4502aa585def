/* Fuzz the OCI helper's translation of a create body (oci/spec.c): any
 * bytes give a configuration or a refusal with a sentence, and a
 * configuration translates back (what inspect shows) without a fault. */
#include "oci/oci.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  oci_request_t req;
  wb_err_t err = {0};
  oci_spec_opts_t o = {"/rootfs", "/warmbox-oci/x", "/init", size > 0 && (data[0] & 1),
                       size > 0 && (data[0] & 2) ? 1000000 : 0};
  cJSON *spec = oci_spec_from_body ((const char *) data, size, &o, &req, &err);
  if (spec == NULL)
    {
      if (err.msg[0] == '\0')
        abort (); /* a refusal always says why */
      return 0;
    }
  if (req.seccomp_opt == NULL || req.labels == NULL || req.runtime == NULL
      || req.hostconfig == NULL)
    abort ();
  cJSON *hc = oci_spec_hostconfig (spec, req.seccomp_opt, req.runtime);
  char *user = oci_spec_user (spec);
  char *text = cJSON_PrintUnformatted (spec);
  /* What the bundle would hold is always confined: no capability, a
   * read-only choice made, a seccomp filter. */
  if (text
      && (strstr (text, "\"seccomp\"") == NULL
          || strstr (text, "\"noNewPrivileges\":true") == NULL))
    abort ();
  free (text);
  free (user);
  cJSON_Delete (hc);
  cJSON_Delete (spec);
  oci_request_free (&req);
  return 0;
}
