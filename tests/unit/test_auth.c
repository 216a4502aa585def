/* API tokens: configuration, bearer checks, the token bucket. */
#include "api/auth.h"
#include "daemon/config.h"
#include "tap.h"
#include <stdlib.h>

#define HEX64 "0000000000000000000000000000000000000000000000000000000000000001"
#define HEX64B "0000000000000000000000000000000000000000000000000000000000000002"

/* What the API is given of a config (a copy, as the daemon makes it). */
static const api_config_t *
view (const sched_config_t *c)
{
  static api_config_t v[2];
  static int next;
  api_config_t *out = &v[next++ % 2];

  sched_config_api (c, out);
  return out;
}

int
main (void)
{
  sched_config_t cfg;
  sched_auth_t auth;
  wb_err_t err;
  char hex[65];
  size_t idx = 99;
  const sched_token_t *t;

  must (sched_config_defaults (&cfg, &err));
  wb_sha256_hex ("s3cret-token", 12, hex);
  ok (sched_token_add (&cfg, "alice", hex, 1.0, 2, 1, &err) == 0, "a token is added by its hash");
  ok (sched_token_add (&cfg, "alice", hex, 1.0, 2, 1, &err) < 0, "names are unique");
  ok (sched_token_add (&cfg, "bob", "abc", 1.0, 2, 1, &err) < 0 && strstr (err.msg, "64 hex"),
      "a hash that is not 64 hex digits is refused");
  ok (sched_token_add (&cfg, "carl", hex, 0, 2, 1, &err) < 0, "rate 0 is refused");
  const char *j = "{\"tokens\":[{\"name\":\"x\",\"sha256\":"
                  "\"0000000000000000000000000000000000000000000000000000000000000000\","
                  "\"rate\":5,\"burst\":10,\"max_concurrent\":3}]}";
  sched_config_t c2;
  must (sched_config_defaults (&c2, &err));
  ok (sched_config_parse (&c2, j, strlen (j), &err) == 0 && c2.n_tokens == 1
          && c2.tokens[0].rate == 5,
      "tokens[] in the config file");
  const char *bad = "{\"tokens\":[{\"name\":\"x\",\"sha256\":\"00\",\"rat\":5}]}";
  ok (sched_config_parse (&c2, bad, strlen (bad), &err) < 0, "a misspelt token key is refused");
  sched_config_clear (&c2);

  t = sched_auth_check (view (&cfg), "Bearer s3cret-token", &idx, &err);
  ok (t && strcmp (t->name, "alice") == 0 && idx == 0, "the right token is found");
  ok (sched_auth_check (view (&cfg), "bearer   s3cret-token", &idx, &err) != NULL,
      "scheme is case-blind, spaces skipped");
  ok (sched_auth_check (view (&cfg), "Bearer s3cret-tokeN", &idx, &err) == NULL
          && err.code == WB_E_UNAUTHORIZED,
      "a wrong token is refused");
  ok (sched_auth_check (view (&cfg), NULL, &idx, &err) == NULL, "no header is refused");
  ok (sched_auth_check (view (&cfg), "Basic czM=", &idx, &err) == NULL,
      "another scheme is refused");
  ok (sched_auth_check (view (&cfg), "Bearer ", &idx, &err) == NULL, "an empty token is refused");

  sched_auth_init (&auth, view (&cfg));
  t = &cfg.tokens[0];
  ok (sched_auth_take (&auth, t, 0) == 0 && sched_auth_take (&auth, t, 0) == 0,
      "the burst of 2 passes");
  double wait = sched_auth_take (&auth, t, 0);
  ok (wait > 0.9 && wait <= 1.0, "the third waits about 1 s at 1/s (%.3f)", wait);
  auth.state[0].last_us -= 1500000; /* 1.5 s later */
  ok (sched_auth_take (&auth, t, 0) == 0, "after a second it passes again");

  /* Reload: "bob" is new and comes first, "alice" keeps her state by name. */
  sched_config_t fresh;
  char hex2[65];
  must (sched_config_defaults (&fresh, &err));
  wb_sha256_hex ("bob-token", 9, hex2);
  must (sched_token_add (&fresh, "bob", hex2, 1.0, 5, 2, &err));
  must (sched_token_add (&fresh, "alice", hex, 1.0, 1, 1, &err));
  auth.state[0].in_flight = 1;
  auth.state[0].tokens = 0.5;
  sched_auth_reload (&auth, view (&cfg), view (&fresh));
  ok (auth.n == 2 && auth.state[0].tokens == 5 && auth.state[0].in_flight == 0,
      "a new token starts with a full bucket");
  ok (auth.state[1].in_flight == 1 && auth.state[1].tokens == 0.5,
      "a kept token keeps its bucket and executions in flight across a reorder");
  sched_auth_release (&auth, view (&fresh), "token:alice");
  ok (auth.state[1].in_flight == 0 && auth.state[0].in_flight == 0,
      "release finds the token by its owner's name");
  sched_auth_release (&auth, view (&fresh), "token:alice");
  sched_auth_release (&auth, view (&fresh), "token:gone");
  ok (auth.state[1].in_flight == 0, "release of a dropped token or below zero changes nothing");
  auth.state[1].tokens = 1;
  ok (sched_auth_check (view (&fresh), "Bearer bob-token", &idx, &err) != NULL && idx == 0
          && sched_auth_check (view (&fresh), "Bearer s3cret-token", &idx, &err) != NULL
          && idx == 1,
      "both tokens are found at their new places");
  sched_config_clear (&fresh);
  sched_config_clear (&cfg);

  /* Roles: who may read the operators' routes. */
  sched_config_t rc;
  api_config_t api;
  static const char roles_json[]
      = "{\"tokens\":[{\"name\":\"ops\",\"sha256\":\"" HEX64 "\",\"role\":\"operator\"},"
        "{\"name\":\"agents\",\"sha256\":\"" HEX64B "\"}],"
        "\"callers\":{\"certificates\":{\"monitor\":{\"role\":\"operator\"},"
        "\"*\":{\"rate\":1,\"burst\":2,\"max_concurrent\":1}},"
        "\"tcp\":{\"rate\":0.5,\"burst\":1,\"max_concurrent\":3}}}";
  must (sched_config_defaults (&rc, &err));
  sched_config_api (&rc, &api);
  ok (sched_auth_role (&api, NULL, true, NULL) == SCHED_ROLE_OPERATOR
          && sched_auth_role (&api, NULL, false, NULL) == SCHED_ROLE_TENANT
          && sched_auth_role (&api, NULL, false, "box1") == SCHED_ROLE_TENANT,
      "by default only the Unix socket's anonymous caller is an operator");
  ok (api.caller_unix->max_concurrent > 0 && api.caller_tcp->max_concurrent > 0
          && api.cert_callers[0].max_concurrent > 0 && api.caller_tcp->rate > 0,
      "callers without a token have limits by default");
  ok (sched_config_parse (&rc, roles_json, sizeof roles_json - 1, &err) == 0, "callers parse: %s",
      err.msg);
  sched_config_api (&rc, &api);
  ok (rc.tokens[0].role == SCHED_ROLE_OPERATOR && rc.tokens[1].role == SCHED_ROLE_TENANT
          && sched_auth_role (&api, &rc.tokens[0], false, NULL) == SCHED_ROLE_OPERATOR
          && sched_auth_role (&api, &rc.tokens[1], true, NULL) == SCHED_ROLE_TENANT,
      "a token's role is its own, on any listener (tenant unless it says operator)");
  ok (sched_auth_role (&api, NULL, false, "monitor") == SCHED_ROLE_OPERATOR
          && sched_auth_role (&api, NULL, false, "other") == SCHED_ROLE_TENANT,
      "a certificate's role by its name, else \"*\"'s");
  ok (rc.n_cert_callers == 2 && rc.cert_callers[1].rate == 1 && rc.cert_callers[1].burst == 2
          && rc.cert_callers[1].max_concurrent == 1,
      "a listed name takes \"*\"'s limits for what it does not say");

  /* Limits for every owner. */
  sched_auth_t *la = calloc (1, sizeof *la);
  double retry;
  sched_auth_init (la, &api);
  ok (sched_auth_admit (la, &api, "anon:tcp", &retry, &err) == 0
          && sched_auth_admit (la, &api, "anon:tcp", &retry, &err) < 0
          && err.code == WB_E_RATE_LIMITED && retry > 1.9 && retry <= 2.0,
      "the anonymous TCP caller: a burst of 1 at 0.5/s, the next told to wait 2 s (%.2f)", retry);
  sched_auth_hold (la, &api, "anon:unix");
  ok (la->anon_unix.in_flight == 1 && la->anon_tcp.in_flight == 0,
      "the Unix socket's caller is another owner, with its own count");
  sched_auth_release (la, &api, "anon:unix");
  ok (sched_auth_admit (la, &api, "cert:box1", &retry, &err) == 0
          && sched_auth_admit (la, &api, "cert:box2", &retry, &err) == 0,
      "two certificates' names: a bucket each");
  sched_auth_hold (la, &api, "cert:box1");
  ok (sched_auth_admit (la, &api, "cert:box1", &retry, &err) < 0 && err.code == WB_E_RATE_LIMITED
          && strstr (err.msg, "running")
          && sched_auth_admit (la, &api, "cert:box2", &retry, &err) == 0,
      "box1 at its max_concurrent of 1 is refused; box2 is not held back by it");
  sched_auth_release (la, &api, "cert:box1");
  for (int i = 0; i < SCHED_MAX_CERT_OWNERS + 10; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "cert:c%d", i);
      if (sched_auth_admit (la, &api, name, &retry, &err) < 0)
        break;
    }
  ok (sched_auth_admit (la, &api, "cert:new", &retry, &err) == 0,
      "more certificate names than places: the idle longest gives its place up");
  for (int i = 0; i < SCHED_MAX_CERT_OWNERS; i++)
    la->certs[i].s.in_flight = 1;
  ok (sched_auth_admit (la, &api, "cert:another", &retry, &err) < 0 && err.code == WB_E_BUSY,
      "every place busy: 503, never another's bucket");
  ok (sched_auth_admit (la, &api, "token:gone", &retry, &err) < 0 && err.code == WB_E_UNAUTHORIZED
          && sched_auth_admit (la, &api, "nobody", &retry, &err) < 0,
      "a dropped token's owner, or no owner's name: refused");
  free (la);

  static const char *const bad_roles[] = {
      "{\"callers\":{\"unix\":{\"role\":\"admin\"}}}",
      "{\"callers\":{\"tcp\":\"operator\"}}",
      "{\"callers\":{\"tcp\":{\"rate\":0}}}",
      "{\"callers\":{\"tcp\":{\"burst\":0.5}}}",
      "{\"callers\":{\"tcp\":{\"max_concurrent\":0}}}",
      "{\"callers\":{\"tcp\":{\"limit\":1}}}",
      "{\"callers\":{\"certificates\":[\"monitor\"]}}",
      "{\"callers\":{\"certificates\":{\"m\":{\"role\":\"a\"}}}}",
      "{\"callers\":{\"certificates\":{\"m\":{},\"m\":{}}}}",
      "{\"callers\":{\"everyone\":{}}}",
      "{\"tokens\":[{\"name\":\"x\",\"sha256\":\"" HEX64 "\",\"role\":\"Operator\"}]}",
  };
  for (size_t i = 0; i < WB_ARRAY_SIZE (bad_roles); i++)
    {
      sched_config_t b;
      must (sched_config_defaults (&b, &err));
      ok (sched_config_parse (&b, bad_roles[i], strlen (bad_roles[i]), &err) < 0 && err.msg[0],
          "refused: %s (%s)", bad_roles[i], err.msg);
      sched_config_clear (&b);
    }
  static const char swapped[]
      = "{\"callers\":{\"unix\":{\"role\":\"tenant\"},\"tcp\":{\"role\":\"operator\"}}}";
  must (sched_config_parse (&rc, swapped, sizeof swapped - 1, &err));
  sched_config_api (&rc, &api);
  ok (sched_auth_role (&api, NULL, true, NULL) == SCHED_ROLE_TENANT
          && sched_auth_role (&api, NULL, false, NULL) == SCHED_ROLE_OPERATOR,
      "callers.unix and callers.tcp set the anonymous callers' roles");
  sched_config_clear (&rc);
  return tap_done ();
}
