/* daemon/oci.h: the OCI engines' helpers (daemon/oci.c).
 *
 * An engine of "kind": "oci" is a warmbox-oci (oci/oci.h) that warmboxd
 * starts before it confines itself: the helper runs the OCI runtime,
 * which needs mount, unshare and pivot_root, which warmboxd then cannot
 * call.  It listens on <root>/engine.sock (the engine's endpoint) and
 * stops with warmboxd (SIGUSR1 from sched_oci_stop, or PR_SET_PDEATHSIG
 * when warmboxd dies), removing its containers.
 *
 * An engine's runc containers run in a user namespace, their ids 0-65535
 * SCHED_OCI_USERNS_BASE... on the host: by default where the host lets
 * the helper make one (else without, and the helper says so), always with
 * "userns": true (a helper that cannot make one exits), never with
 * "userns": false.
 *
 * Ownership: the set belongs to main; each helper is stopped by pid, by
 * sched_oci_stop, and by nothing else. */
#ifndef WARMBOX_SCHED_OCI_H
#define WARMBOX_SCHED_OCI_H

#include "daemon/config.h"

#include <sys/types.h>

#define SCHED_OCI_USERNS_BASE 1000000u

typedef struct sched_oci
{
  pid_t pids[SCHED_MAX_ENGINES];
  char names[SCHED_MAX_ENGINES][33];
  size_t n;
} sched_oci_t;

/* Start a helper for every OCI engine of cfg (the program warmbox-oci
 * beside warmboxd's own), and wait until each listens (at most 150 s: a
 * helper waits for the one before it on its root to stop).
 * -1 with err when one cannot start; those started are stopped. */
WB_MUST_CHECK int sched_oci_start (const sched_config_t *cfg, sched_oci_t *out, wb_err_t *err);
/* SIGUSR1 to each (a helper started so ignores SIGTERM and SIGINT, which
 * reach the whole process group), and wait (up to 30 s each, then
 * SIGKILL): a helper removes its containers as it stops.  Can't fail; a zeroed set is a
 * no-op. */
void sched_oci_stop (sched_oci_t *o);

#endif
