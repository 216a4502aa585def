/* daemon/reload.h: SIGHUP (reload.c).
 *
 * The profiles are loaded again, and with a config file its reloadable
 * keys (the key table's: tokens, pool sizes, drain_delay_ms,
 * request_read_timeout_ms, ready_pool_grace_ms) and the TLS listeners'
 * files.  Everything that can refuse comes before anything is applied: a
 * profile set, config or certificate that does not load, a config that
 * would switch authentication off, too many reloads still in flight, or no
 * memory leave everything as it was (logged).  A changed profile has a new
 * hash, so its pool is replaced and the old one drained; executions
 * admitted before keep the profile set they were checked against.  The
 * listeners and the engines are read at start-up only (a warning says
 * so). */
#ifndef WARMBOX_DAEMON_RELOAD_H
#define WARMBOX_DAEMON_RELOAD_H

#include "api/http.h"
#include "daemon/daemon.h"

/* config_path NULL: the profiles only.  Can't fail (see above). */
void sched_reload (sched_ctx_t *ctx, sched_http_t *http, const char *config_path);
/* Warn when shutdown_grace_ms is shorter than the longest execution the
 * profiles allow (it would be cut off at SIGTERM without its answer). */
void sched_warn_short_grace (const sched_config_t *cfg, const prof_set_t *profiles);

#endif
