/* Fuzz the profile loader: input is profile.json, a NUL, then seccomp JSON
 * (without a NUL, the shipped allowlist is used). */
#include "warmbox/profile.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static const char seccomp[]
    = "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"read\",\"write\","
      "\"exit_group\"],\"action\":\"SCMP_ACT_ALLOW\"}]}";

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *nul = memchr (data, '\0', size);
  size_t plen = nul ? (size_t) (nul - (const char *) data) : size;
  const char *sc = nul ? nul + 1 : seccomp;
  size_t sclen = nul ? size - plen - 1 : strlen (seccomp);
  prof_t *p = NULL;
  wb_err_t err;

  if (prof_parse ((const char *) data, plen, sc, sclen, &p, &err) == 0)
    {
      wb_buf_t spec = WB_BUF_INIT;
      prof_spec_extra_t x = {"sha256:0", "i", "k", 20000, NULL, 0};
      if (p->argc == 0 || p->def.timeout_ms > p->max.timeout_ms)
        abort ();
      prof_container_spec (p, &p->def, &x, &spec, &err);
      wb_buf_free (&spec);
      prof_free (p);
    }
  prof_seccomp_check ((const char *) data, size, &err);
  return 0;
}
