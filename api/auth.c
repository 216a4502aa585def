/* api/auth.c: API tokens and their limits.
 *
 * The config holds each token's SHA-256 (never the token), a name, and its
 * limits: a token bucket (rate per second, burst) and a maximum number of
 * executions in flight.  A request's bearer token is hashed and compared
 * with every configured hash in constant time, so neither the token nor
 * which hash matched leaks through timing.  Names are what the history and
 * the log record. */
#define _GNU_SOURCE
#include "api/auth.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <string.h>
#include <strings.h>

/* A token's configured SHA-256, 64 hex digits, as its 32 bytes. */
static bool
hash_from_hex (const char *hex, unsigned char out[32])
{
  cleanup_buf wb_buf_t raw = WB_BUF_INIT;

  if (strlen (hex) != 64 || wb_hex_decode (&raw, hex, 64) < 0)
    return false;
  memcpy (out, raw.data, 32);
  return true;
}

int
sched_tokens_add (sched_token_t *tokens, size_t *n_tokens, const char *name, const char *sha256_hex,
                  double rate, double burst, uint32_t max_concurrent, wb_err_t *err)
{
  sched_token_t *t;

  if (*n_tokens == SCHED_MAX_TOKENS)
    return wb_error (err, WB_E_INVALID, "at most %d tokens", SCHED_MAX_TOKENS);
  if (name == NULL || *name == '\0' || strlen (name) >= sizeof t->name)
    return wb_error (err, WB_E_INVALID, "a token needs a name of 1 to %zu characters",
                     sizeof t->name - 1);
  for (size_t i = 0; i < *n_tokens; i++)
    if (strcmp (tokens[i].name, name) == 0)
      return wb_error (err, WB_E_INVALID, "token name %s is used twice", name);
  t = &tokens[*n_tokens];
  memset (t, 0, sizeof *t);
  if (sha256_hex == NULL || !hash_from_hex (sha256_hex, t->hash))
    return wb_error (err, WB_E_INVALID, "token %s: sha256 must be 64 hex digits", name);
  if (!(rate > 0) || !(burst >= 1) || max_concurrent == 0)
    return wb_error (err, WB_E_INVALID,
                     "token %s: rate must be > 0, burst >= 1, max_concurrent >= 1", name);
  snprintf (t->name, sizeof t->name, "%s", name);
  t->rate = rate;
  t->burst = burst;
  t->max_concurrent = max_concurrent;
  (*n_tokens)++;
  return 0;
}

static void
state_full (sched_token_state_t *s, const sched_token_t *t)
{
  s->tokens = t->burst;
  s->last_us = wb_now_us ();
  s->in_flight = 0;
}

void
sched_auth_init (sched_auth_t *a, const api_config_t *cfg)
{
  memset (a, 0, sizeof *a);
  a->n = cfg->n_tokens;
  for (size_t i = 0; i < a->n; i++)
    state_full (&a->state[i], &cfg->tokens[i]);
  if (cfg->caller_unix)
    state_full (&a->anon_unix, cfg->caller_unix);
  if (cfg->caller_tcp)
    state_full (&a->anon_tcp, cfg->caller_tcp);
}

const sched_token_t *
sched_auth_check (const api_config_t *cfg, const char *authorization, size_t *index, wb_err_t *err)
{
  unsigned char digest[32];
  const char *tok;
  const sched_token_t *found = NULL;
  size_t found_i = 0;

  if (authorization == NULL || strncasecmp (authorization, "Bearer ", 7) != 0)
    {
      wb_error (err, WB_E_UNAUTHORIZED, "send Authorization: Bearer <token>");
      return NULL;
    }
  tok = authorization + 7;
  while (*tok == ' ')
    tok++;
  if (*tok == '\0' || strlen (tok) > 4096)
    {
      wb_error (err, WB_E_UNAUTHORIZED, "the bearer token is empty or too long");
      return NULL;
    }
  SHA256 ((const unsigned char *) tok, strlen (tok), digest);
  /* Compare with every hash, always: the time taken says nothing. */
  for (size_t i = 0; i < cfg->n_tokens; i++)
    if (CRYPTO_memcmp (digest, cfg->tokens[i].hash, sizeof digest) == 0)
      {
        found = &cfg->tokens[i];
        found_i = i;
      }
  OPENSSL_cleanse (digest, sizeof digest);
  if (found == NULL)
    {
      wb_error (err, WB_E_UNAUTHORIZED, "the token is not valid");
      return NULL;
    }
  *index = found_i;
  return found;
}

int
sched_auth_decide (const api_config_t *cfg, const sched_caller_t *c, const sched_token_t **token,
                   size_t *index, wb_err_t *err)
{
  *token = NULL;
  *index = 0;
  if (c->open)
    return 0;
  if (c->cert_required && c->cert_name == NULL && cfg->n_tokens == 0)
    return wb_error (err, WB_E_UNAUTHORIZED,
                     "the client certificate has no usable common name "
                     "(one, UTF-8, at most 64 bytes)");
  if (cfg->n_tokens == 0)
    return 0;
  for (size_t i = 0; c->cert_name && i < cfg->n_tokens; i++)
    if (strcmp (cfg->tokens[i].name, c->cert_name) == 0)
      {
        *token = &cfg->tokens[i];
        *index = i;
        return 0;
      }
  *token = sched_auth_check (cfg, c->authorization, index, err);
  return *token ? 0 : -1;
}

/* callers.certificates' entry for a certificate's name: its own, else
 * "*"'s (the first entry).  NULL only for a configuration without any. */
static const sched_token_t *
cert_caller (const api_config_t *cfg, const char *name)
{
  for (size_t i = 1; i < cfg->n_cert_callers; i++)
    if (strcmp (cfg->cert_callers[i].name, name) == 0)
      return &cfg->cert_callers[i];
  return cfg->n_cert_callers ? &cfg->cert_callers[0] : NULL;
}

sched_role_t
sched_auth_role (const api_config_t *cfg, const sched_token_t *token, bool on_unix,
                 const char *cert_name)
{
  const sched_token_t *c;

  if (token)
    return token->role;
  c = cert_name ? cert_caller (cfg, cert_name) : on_unix ? cfg->caller_unix : cfg->caller_tcp;
  return c ? c->role : SCHED_ROLE_TENANT;
}

/* The limits and the state of owner; the state made for a certificate's
 * name not seen yet when make (in the place of the one idle longest).
 * NULL when owner has none: a token dropped, not an owner's name, no
 * place free (*busy). */
static sched_token_state_t *
owner_state (sched_auth_t *a, const api_config_t *cfg, const char *owner, bool make,
             const sched_token_t **conf, bool *busy)
{
  *busy = false;
  if (strncmp (owner, "token:", 6) == 0)
    {
      for (size_t i = 0; i < cfg->n_tokens && i < a->n; i++)
        if (strcmp (cfg->tokens[i].name, owner + 6) == 0)
          return *conf = &cfg->tokens[i], &a->state[i];
      return NULL;
    }
  if (strcmp (owner, "anon:unix") == 0 && cfg->caller_unix)
    return *conf = cfg->caller_unix, &a->anon_unix;
  if (strcmp (owner, "anon:tcp") == 0 && cfg->caller_tcp)
    return *conf = cfg->caller_tcp, &a->anon_tcp;
  if (strncmp (owner, "cert:", 5) != 0 || owner[5] == '\0' || strlen (owner + 5) > 64
      || (*conf = cert_caller (cfg, owner + 5)) == NULL)
    return NULL;
  size_t free_at = SCHED_MAX_CERT_OWNERS, idle_at = SCHED_MAX_CERT_OWNERS;
  for (size_t i = 0; i < SCHED_MAX_CERT_OWNERS; i++)
    {
      if (strcmp (a->certs[i].name, owner + 5) == 0)
        return &a->certs[i].s;
      if (a->certs[i].name[0] == '\0')
        free_at = free_at < i ? free_at : i;
      else if (a->certs[i].s.in_flight == 0
               && (idle_at == SCHED_MAX_CERT_OWNERS
                   || a->certs[i].s.last_us < a->certs[idle_at].s.last_us))
        idle_at = i;
    }
  if (!make)
    return NULL;
  if (free_at == SCHED_MAX_CERT_OWNERS)
    free_at = idle_at;
  if (free_at == SCHED_MAX_CERT_OWNERS)
    {
      *busy = true;
      return NULL;
    }
  snprintf (a->certs[free_at].name, sizeof a->certs[free_at].name, "%s", owner + 5);
  state_full (&a->certs[free_at].s, *conf);
  return &a->certs[free_at].s;
}

/* One from the bucket of s (refilled at t's rate, up to its burst): 0
 * when taken, else the seconds until one is back. */
static double
bucket_take (sched_token_state_t *s, const sched_token_t *t)
{
  uint64_t now = wb_now_us ();
  double elapsed = (double) (now - s->last_us) / 1e6;

  s->tokens += elapsed * t->rate;
  if (s->tokens > t->burst)
    s->tokens = t->burst;
  s->last_us = now;
  if (s->tokens >= 1.0)
    {
      s->tokens -= 1.0;
      return 0;
    }
  return (1.0 - s->tokens) / t->rate;
}

int
sched_auth_admit (sched_auth_t *a, const api_config_t *cfg, const char *owner, double *retry_s,
                  wb_err_t *err)
{
  const sched_token_t *t = NULL;
  bool busy;
  sched_token_state_t *s = owner_state (a, cfg, owner, true, &t, &busy);
  bool token = strncmp (owner, "token:", 6) == 0;
  const char *who = token ? "this token" : "this caller";

  *retry_s = 0;
  if (s == NULL)
    {
      if (busy)
        return wb_error (err, WB_E_BUSY, "too many certificate clients at once; try again");
      if (token)
        return wb_error (err, WB_E_UNAUTHORIZED, "the API key of this sandbox is no longer valid");
      return wb_error (err, WB_E_INVALID, "no limits for the owner %.80s", owner);
    }
  if (s->in_flight >= t->max_concurrent)
    {
      *retry_s = 1;
      return wb_error (err, WB_E_RATE_LIMITED, "%s already has %u executions running", who,
                       t->max_concurrent);
    }
  if ((*retry_s = bucket_take (s, t)) > 0)
    return wb_error (err, WB_E_RATE_LIMITED, "%s's rate of %.3g executions per second is used up",
                     who, t->rate);
  return 0;
}

void
sched_auth_hold (sched_auth_t *a, const api_config_t *cfg, const char *owner)
{
  const sched_token_t *t;
  bool busy;
  sched_token_state_t *s = owner_state (a, cfg, owner, false, &t, &busy);

  if (s)
    s->in_flight++;
}

double
sched_auth_take (sched_auth_t *a, const sched_token_t *t, size_t index)
{
  return bucket_take (&a->state[index], t);
}

void
sched_auth_release (sched_auth_t *a, const api_config_t *cfg, const char *owner)
{
  const sched_token_t *t;
  bool busy;
  sched_token_state_t *s = owner_state (a, cfg, owner, false, &t, &busy);

  if (s && s->in_flight > 0)
    s->in_flight--;
}

void
sched_auth_reload (sched_auth_t *a, const api_config_t *old, const api_config_t *fresh)
{
  sched_auth_t next;

  sched_auth_init (&next, fresh);
  /* The callers without a token keep theirs (their limits are not
   * reloaded); so do the certificates' names. */
  next.anon_unix = a->anon_unix;
  next.anon_tcp = a->anon_tcp;
  memcpy (next.certs, a->certs, sizeof next.certs);
  for (size_t i = 0; i < fresh->n_tokens; i++)
    for (size_t k = 0; k < old->n_tokens && k < a->n; k++)
      if (strcmp (fresh->tokens[i].name, old->tokens[k].name) == 0)
        {
          next.state[i] = a->state[k];
          if (next.state[i].tokens > fresh->tokens[i].burst)
            next.state[i].tokens = fresh->tokens[i].burst;
          break;
        }
  *a = next;
}
