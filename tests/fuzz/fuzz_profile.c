/* Fuzz the profile loader: input is profile.json, a NUL, then seccomp JSON
 * (without a NUL, the shipped allowlist is used).  Whatever loads must
 * build a container body. */
#include "warmbox/sandbox.h"

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
      sbx_identity_t id = {"sha256:0", "i", "o", "k", 20000, NULL};
      if (p->argc == 0 || p->def.timeout_ms > p->max.timeout_ms)
        abort ();
      if (sbx_body (p, &p->def, &id, &spec, &err) == 0 && spec.data[0] != '{')
        abort ();
      wb_buf_free (&spec);
      prof_free (p);
    }
  err.msg[0] = '\0';
  if (prof_seccomp_check ((const char *) data, size, &err) < 0 && err.msg[0] == '\0')
    abort (); /* a refusal says why */
  return 0;
}
