/* api/http.h: the HTTP API on evhttp (http.c). */
#ifndef WARMBOX_SCHED_HTTP_H
#define WARMBOX_SCHED_HTTP_H

#include "api/api.h"
#include "exec/exec.h"

struct evhttp;
typedef struct sched_http sched_http_t;

/* Bind every configured listener and route the API.  -1 with err naming
 * the listener that failed (nothing stays bound). */
WB_MUST_CHECK int sched_http_start (api_ctx_t *ctx, sched_http_t **out, wb_err_t *err);
/* SIGHUP, in two steps: prepare reads tls.cert, tls.key and tls.client_ca
 * again (-1 with err when they do not load, or client_ca was added or
 * removed; nothing changes), commit makes new TLS connections use them
 * (open ones keep theirs), abandon drops what prepare read.  No-ops
 * without a TLS listener. */
WB_MUST_CHECK int sched_http_tls_prepare (sched_http_t *h, const api_config_t *cfg, wb_err_t *err);
void sched_http_tls_commit (sched_http_t *h);
void sched_http_tls_abandon (sched_http_t *h);
/* --check-config: would the https:// listeners' TLS settings load?  0 when
 * there are none. */
WB_MUST_CHECK int sched_http_check_tls (const api_config_t *cfg, wb_err_t *err);
/* Stop taking new connections (the end of a SIGTERM drain): TCP listeners
 * close; Unix sockets are unlinked, so a connect fails at once while the
 * connections already queued are still accepted and answered until
 * sched_http_free.  Connections already open keep being served.  Can't
 * fail. */
void sched_http_stop_accepting (sched_http_t *h);
/* Close everything, connections included (their executions are
 * cancelled).  NULL is a no-op. */
void sched_http_free (sched_http_t *h);

/* The answers' bytes waiting for their readers (warmbox_http_reply_bytes;
 * http.max_reply_bytes bounds it).  Can't fail. */
uint64_t sched_http_reply_bytes (const sched_http_t *h);

#endif
