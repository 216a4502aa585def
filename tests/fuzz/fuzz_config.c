/* Fuzz the daemon's JSON configuration parser. */
#include "daemon/config.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  sched_config_t cfg;
  wb_err_t err;

  if (sched_config_defaults (&cfg, &err) < 0)
    abort ();
  err.msg[0] = '\0';
  if (sched_config_parse (&cfg, (const char *) data, size, &err) < 0 && err.msg[0] == '\0')
    abort (); /* a refusal says why */
  if (cfg.n_listen > SCHED_MAX_LISTEN)
    abort ();
  sched_config_clear (&cfg);
  return 0;
}
