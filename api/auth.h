/* api/auth.h: API tokens, callers' roles, and every owner's limits
 * (auth.c).  No I/O; the buckets live in the daemon's context
 * (api_ctx_t.auth).
 *
 * Limits are per owner, the name a caller's sessions are kept under
 * (call.h's caller_name_in): "token:NAME" (its token's entry),
 * "cert:NAME" (callers.certificates' entry of that name, else "*"'s: each
 * name its own bucket), "anon:unix" and "anon:tcp" (callers.unix,
 * callers.tcp). */
#ifndef WARMBOX_SCHED_AUTH_H
#define WARMBOX_SCHED_AUTH_H

#include "api/api.h"

typedef struct sched_token_state
{
  double tokens; /* the bucket */
  uint64_t last_us;
  uint32_t in_flight; /* executions running for this owner */
} sched_token_state_t;

/* Certificate names with a bucket at once; past it the one idle longest
 * (nothing in flight) gives its place up. */
#define SCHED_MAX_CERT_OWNERS 256

typedef struct sched_auth
{
  sched_token_state_t state[SCHED_MAX_TOKENS]; /* the tokens', by index */
  size_t n;
  sched_token_state_t anon_unix, anon_tcp;
  struct
  {
    char name[65]; /* "" when free */
    sched_token_state_t s;
  } certs[SCHED_MAX_CERT_OWNERS];
} sched_auth_t;

void sched_auth_init (sched_auth_t *a, const api_config_t *cfg);
/* Add a token to tokens (n_tokens of them, room for SCHED_MAX_TOKENS):
 * its name unique, sha256_hex 64 hex digits, rate > 0, burst >= 1,
 * max_concurrent >= 1.  -1 with err (WB_E_INVALID) otherwise. */
WB_MUST_CHECK int sched_tokens_add (sched_token_t *tokens, size_t *n_tokens, const char *name,
                                    const char *sha256_hex, double rate, double burst,
                                    uint32_t max_concurrent, wb_err_t *err);
/* The token an "Authorization: Bearer ..." header names, or NULL with err
 * (WB_E_UNAUTHORIZED).  Constant time in the token compared. */
const sched_token_t *sched_auth_check (const api_config_t *cfg, const char *authorization,
                                       size_t *index, wb_err_t *err);
/* Who sent a request, as far as credentials go. */
typedef struct sched_caller
{
  bool open;                 /* the route is served to anyone (the probes) */
  bool cert_required;        /* it came over TLS on a listener that requires client certificates */
  const char *cert_name;     /* the verified client certificate's common name, or NULL */
  const char *authorization; /* its Authorization header, or NULL */
} sched_caller_t;

/* May the caller be served, and as which token?  An open route: yes, as
 * nobody.  A client that had to show a certificate whose name is unusable
 * (cert_name NULL) is not served anonymously.  With tokens configured,
 * the caller needs one: a certificate named as a token stands for it,
 * else the bearer token (sched_auth_check).  0 with *token (NULL: no
 * tokens configured) and *index, or -1 with err (WB_E_UNAUTHORIZED). */
int sched_auth_decide (const api_config_t *cfg, const sched_caller_t *c,
                       const sched_token_t **token, size_t *index, wb_err_t *err);
/* The role of a caller: its token's (token not NULL), else its client
 * certificate's (callers.certificates: its name's, else "*"'s), else the
 * anonymous caller's of its listener (callers.unix on a Unix socket,
 * callers.tcp on TCP).  Can't fail. */
sched_role_t sched_auth_role (const api_config_t *cfg, const sched_token_t *token, bool on_unix,
                              const char *cert_name);
/* Admit one execution of owner (see above) within its limits: its
 * executions in flight below max_concurrent, then one taken from its
 * bucket.  0; or -1 with err: WB_E_RATE_LIMITED (*retry_s the seconds
 * until a retry may pass), WB_E_UNAUTHORIZED (a token a reload dropped),
 * WB_E_BUSY (every certificate bucket busy), WB_E_INVALID (not an owner
 * name).  Nothing is counted in flight: sched_auth_hold does that. */
WB_MUST_CHECK int sched_auth_admit (sched_auth_t *a, const api_config_t *cfg, const char *owner,
                                    double *retry_s, wb_err_t *err);
/* An admitted execution of owner starts (in flight until
 * sched_auth_release).  Can't fail (an owner gone since: nothing). */
void sched_auth_hold (sched_auth_t *a, const api_config_t *cfg, const char *owner);
/* Take one execution from the token's bucket: 0 when allowed, else the
 * seconds until it would be. */
double sched_auth_take (sched_auth_t *a, const sched_token_t *t, size_t index);
/* An execution of owner ended (the name survives reloads that reorder or
 * drop tokens; a dropped token is simply not found). */
void sched_auth_release (sched_auth_t *a, const api_config_t *cfg, const char *owner);
/* Tokens reloaded from FRESH: a token kept by name keeps its bucket (capped
 * at its new burst) and its executions in flight; a new one starts full. */
void sched_auth_reload (sched_auth_t *a, const api_config_t *old, const api_config_t *fresh);

#endif
