/* scheduler/http.h: the HTTP API on evhttp (http.c). */
#ifndef WARMBOX_SCHED_HTTP_H
#define WARMBOX_SCHED_HTTP_H

#include "config.h"
#include "exec.h"

struct evhttp;
typedef struct sched_http sched_http_t;

/* Bind every configured listener and route the API.  -1 with err naming
 * the listener that failed (nothing stays bound). */
int sched_http_start (sched_ctx_t *ctx, sched_http_t **out, wb_err_t *err);
/* SIGHUP: read tls.cert, tls.key and tls.client_ca again; new TLS
 * connections use them, open ones keep theirs.  -1 with err (the old ones
 * stay) when they do not load, or client_ca was added or removed.  0 when
 * there is no TLS listener. */
int sched_http_reload_tls (sched_http_t *h, const sched_config_t *cfg, wb_err_t *err);
/* Stop taking new connections (the end of a SIGTERM drain): TCP listeners
 * close; Unix sockets are unlinked, so a connect fails at once while the
 * connections already queued are still accepted and answered until
 * sched_http_free.  Connections already open keep being served.  Can't
 * fail. */
void sched_http_stop_accepting (sched_http_t *h);
/* Close everything, connections included (their executions are
 * cancelled).  NULL is a no-op. */
void sched_http_free (sched_http_t *h);
/* Append the JSON body of a result.  -1 on allocation failure. */
int sched_result_json (const sched_result_t *res, wb_buf_t *out);

#endif
