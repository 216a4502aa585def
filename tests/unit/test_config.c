/* daemon/config.c: the key table (types, ranges, objects, unknown keys)
 * and the reload that applies every reloadable key and no other. */
#define _GNU_SOURCE
#include <string.h>

#include "daemon/config.h"
#include "failmalloc.h"
#include "tap.h"

static int
parse (sched_config_t *cfg, const char *json, wb_err_t *err)
{
  return sched_config_parse (cfg, json, strlen (json), err);
}

static void
test_values (void)
{
  sched_config_t cfg;
  wb_err_t err;
  static const char full[]
      = "{\"listen\":[\"127.0.0.1:9\",\"unix:/"
        "x.sock\"],\"tls\":{\"cert\":\"c.pem\",\"key\":\"k.pem\"},"
        "\"profiles_dir\":\"/p\",\"max_concurrent\":7,\"shutdown_grace_ms\":0,\"drain_delay_ms\":5,"
        "\"request_read_timeout_ms\":2000,\"ready_pool_grace_ms\":3000,\"agent_listen\":\"127.0.0."
        "1:8\","
        "\"max_body_bytes\":4096,\"max_containers\":9,\"create_concurrency\":3,\"queue_max\":0,"
        "\"image_refresh_ms\":11,\"engine_recheck_ms\":12,\"admission\":{\"queue_max\":13,"
        "\"max_wait_ms\":14},\"start_limit\":{\"initial\":4,\"min\":2,\"max\":6},\"store\":{"
        "\"path\":"
        "\"/"
        "h.db\",\"retention_days\":0,\"max_backlog\":15},\"pools\":{\"default\":{\"min_ready\":0,"
        "\"max_ready\":2},\"python\":{\"min_ready\":3,\"max_ready\":5}},\"engines\":[{\"name\":"
        "\"a\"},"
        "{\"name\":\"b\",\"endpoint\":\"tcp://127.0.0.1:2\",\"weight\":2}]}";

  ok (sched_config_defaults (&cfg, &err) == 0, "defaults");
  ok (parse (&cfg, full, &err) == 0, "every key of the table parses (%s)", err.msg);
  ok (cfg.n_listen == 2 && strcmp (cfg.listen[1], "unix:/x.sock") == 0, "listen");
  ok (strcmp (cfg.tls_cert, "c.pem") == 0 && strcmp (cfg.tls_key, "k.pem") == 0
          && cfg.tls_client_ca == NULL,
      "tls.* (strings inside an object)");
  ok (cfg.max_concurrent == 7 && cfg.shutdown_grace_ms == 0 && cfg.drain_delay_ms == 5
          && cfg.request_read_timeout_ms == 2000 && cfg.ready_pool_grace_ms == 3000,
      "whole numbers at the top");
  ok (cfg.max_body_bytes == 4096, "a 64-bit one");
  ok (cfg.max_containers == 9 && cfg.create_concurrency == 3 && cfg.queue_max == 0
          && cfg.image_refresh_ms == 11 && cfg.engine_recheck_ms == 12,
      "the pools' and engines' figures");
  ok (cfg.admission_queue_max == 13 && cfg.max_wait_ms == 14, "admission.*");
  ok (cfg.start_limit.initial == 4 && cfg.start_limit.min == 2 && cfg.start_limit.max == 6,
      "start_limit.*");
  ok (strcmp (cfg.store_path, "/h.db") == 0 && cfg.store_retention_days == 0
          && cfg.store_max_backlog == 15,
      "store.*");
  ok (cfg.pool_default.max_ready == 2 && cfg.n_pools == 1 && cfg.pools[0].min_ready == 3, "pools");
  ok (cfg.n_engines == 2 && cfg.engines[1].weight == 2
          && strcmp (cfg.engines[1].endpoint, "tcp://127.0.0.1:2") == 0,
      "engines");
  sched_config_clear (&cfg);
}

static void
test_refusals (void)
{
  static const struct
  {
    const char *json, *says;
  } bad[] = {
      {"[]", "not a JSON object"},
      {"{\"max_concurent\":1}", "unknown key \"max_concurent\""},
      {"{\"admission\":{\"queue\":1}}", "unknown key \"admission.queue\""},
      {"{\"admission\":3}", "\"admission\" must be an object"},
      {"{\"max_concurrent\":0}", "\"max_concurrent\" must be a whole number in [1, 100000]"},
      {"{\"max_concurrent\":1.5}", "whole number"},
      {"{\"max_concurrent\":\"8\"}", "whole number"},
      {"{\"start_limit\":{\"max\":4097}}",
       "\"start_limit.max\" must be a whole number in [1, 4096]"},
      {"{\"start_limit\":{\"min\":4,\"max\":2}}", "start_limit.max is below start_limit.min"},
      {"{\"store\":{\"path\":\"\"}}", "\"store.path\" must be a non-empty string"},
      {"{\"max_body_bytes\":1023}", "\"max_body_bytes\" must be a whole number"},
      {"{\"tls\":{\"crt\":\"x\"}}", "unknown key \"tls.crt\""},
      {"{\"engine\":{},\"engines\":[{\"name\":\"x\"}]}", "not both"},
      {"{\"listen\":[1]}", "\"listen\" must hold strings"},
      {"{\"tls.cert\":\"x\"}",
       "unknown key \"tls.cert\""}, /* a dotted key only inside its object */
      {"{\"admission.max_wait_ms\":5}", "unknown key \"admission.max_wait_ms\""},
      {"{\"engine\":{\"kind\":\"kata\"}}", "kind must be \"docker\" or \"oci\""},
      {"{\"engine\":{\"root\":\"/x\"}}", "are for \"kind\": \"oci\""},
      {"{\"engine\":{\"runtime_timeout_ms\":1000}}", "are for \"kind\": \"oci\""},
      {"{\"engine\":{\"kind\":\"oci\",\"endpoint\":\"unix:///x\"}}", "no endpoint"},
      {"{\"engine\":{\"kind\":\"oci\",\"root\":\"rel\"}}", "absolute paths"},
      {"{\"engine\":{\"kind\":\"oci\",\"runtime_timeout_ms\":5}}", "runtime_timeout_ms"},
  };

  for (size_t i = 0; i < WB_ARRAY_SIZE (bad); i++)
    {
      sched_config_t cfg;
      wb_err_t err;
      int rc = sched_config_defaults (&cfg, &err) == 0 ? parse (&cfg, bad[i].json, &err) : 0;
      ok (rc < 0 && err.code == WB_E_INVALID && strstr (err.msg, bad[i].says) != NULL,
          "%s: refused (%s)", bad[i].json, rc < 0 ? err.msg : "accepted");
      sched_config_clear (&cfg);
    }
}

/* A reload copies exactly the reloadable keys; everything else keeps the
 * running value. */
static void
test_reload (void)
{
  sched_config_t running, fresh;
  wb_err_t err;
  const char *names[16];
  size_t n = sched_config_reloadable_keys (names, WB_ARRAY_SIZE (names));
  char list[256] = "";

  for (size_t i = 0; i < n && i < WB_ARRAY_SIZE (names); i++)
    snprintf (list + strlen (list), sizeof list - strlen (list), "%s%s", i ? " " : "", names[i]);
  is_str (list, "drain_delay_ms request_read_timeout_ms ready_pool_grace_ms pools tokens",
          "the reloadable keys (docs/operators.md: SIGHUP)");
  ok (sched_config_defaults (&running, &err) == 0 && sched_config_defaults (&fresh, &err) == 0,
      "two configs");
  ok (parse (&fresh,
             "{\"max_concurrent\":3,\"drain_delay_ms\":9,\"request_read_timeout_ms\":4000,"
             "\"ready_pool_grace_ms\":5000,\"max_containers\":2,\"admission\":{\"max_wait_ms\":7},"
             "\"pools\":{\"default\":{\"min_ready\":4,\"max_ready\":4},\"ruby\":{\"min_ready\":1,"
             "\"max_ready\":1}},"
             "\"tokens\":[{\"name\":\"a\",\"sha256\":\""
             "0000000000000000000000000000000000000000000000000000000000000000\"}],"
             "\"profiles_dir\":\"/elsewhere\"}",
             &err)
          == 0,
      "the fresh file parses (%s)", err.msg);
  sched_config_apply_reloadable (&running, &fresh);
  ok (running.drain_delay_ms == 9 && running.request_read_timeout_ms == 4000
          && running.ready_pool_grace_ms == 5000,
      "reloadable figures applied");
  ok (running.pool_default.min_ready == 4 && running.n_pools == 1
          && strcmp (running.pools[0].language, "ruby") == 0,
      "pool sizes applied");
  ok (running.n_tokens == 1 && strcmp (running.tokens[0].name, "a") == 0, "tokens applied");
  ok (running.max_concurrent == 64 && running.max_containers == 64 && running.max_wait_ms == 60000
          && strcmp (running.profiles_dir, "/elsewhere") != 0,
      "the rest keeps the running values (a restart applies them)");
  sched_config_clear (&running);
  sched_config_clear (&fresh);
}

/* An OCI engine: its defaults, its endpoint (the helper's socket), and
 * --engine oci[:ROOT] over a Docker one and back. */
static void
test_oci (void)
{
  sched_config_t cfg;
  wb_err_t err;

  must (sched_config_defaults (&cfg, &err));
  must (parse (&cfg,
               "{\"engines\":[{\"name\":\"o\",\"kind\":\"oci\",\"runtime_timeout_ms\":2000},"
               "{\"name\":\"d\",\"endpoint\":\"unix:///var/run/docker.sock\"}]}",
               &err));
  ok (cfg.n_engines == 2 && cfg.engines[0].oci && !cfg.engines[1].oci
          && strcmp (cfg.engines[0].endpoint, "unix:///run/warmbox/oci-o/engine.sock") == 0
          && strcmp (cfg.engines[0].oci_root, "/run/warmbox/oci-o") == 0
          && strcmp (cfg.engines[0].oci_images, "/var/lib/warmbox/oci-images") == 0
          && cfg.engines[0].oci_runtime == NULL && cfg.engines[0].oci_runtime_timeout_ms == 2000,
      "an OCI engine beside a Docker one: its root, store and endpoint by default");
  sched_config_clear (&cfg);
  must (sched_config_defaults (&cfg, &err));
  must (sched_config_set_engine (&cfg, "oci:/tmp/r", &err));
  ok (cfg.n_engines == 1 && cfg.engines[0].oci
          && strcmp (cfg.engines[0].endpoint, "unix:///tmp/r/engine.sock") == 0,
      "--engine oci:/tmp/r: the OCI engine on that root");
  must (sched_config_set_engine (&cfg, "unix:///var/run/docker.sock", &err));
  ok (!cfg.engines[0].oci && cfg.engines[0].oci_root == NULL
          && strcmp (cfg.engines[0].endpoint, "unix:///var/run/docker.sock") == 0,
      "--engine unix://... after it: a Docker engine, nothing of the OCI one left");
  sched_config_clear (&cfg);
}

int
main (void)
{
  failmalloc_install ();
  test_values ();
  test_refusals ();
  test_oci ();
  test_reload ();
  return tap_done ();
}
