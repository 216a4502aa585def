/* daemon/config.c: warmboxd's configuration: defaults, then a JSON file,
 * then command-line flags (applied by main.c).
 *
 *   {"listen": ["unix:/run/warmbox/warmbox.sock", "127.0.0.1:8080"],
 *    "http": {"hosts": ["warmbox.example"], "origins": ["https://console.example"],
 *             "max_connections": 2048, "max_connections_per_address": 256,
 *             "max_reply_bytes": 268435456},
 *           (names TCP listeners answer for; browser origins served: none by default)
 *    "tls": {"cert": "server.pem", "key": "server.key", "client_ca": "ca.pem"},
 *           (for "https://host:port" listeners; client_ca: certificates required)
 *    "engine": {"endpoint": "unix:///var/run/docker.sock",
 *               "tls_ca": "...", "tls_cert": "...", "tls_key": "..."},
 *      or several (not both):
 *    "engines": [{"name": "local", "endpoint": "unix:///var/run/docker.sock"},
 *                {"name": "box2", "endpoint": "tcp://10.0.0.2:2376", "tls_ca": "ca.pem",
 *                 "tls_cert": "cert.pem", "tls_key": "key.pem",
 *                 "max_containers": 64, "weight": 2},
 *                {"name": "pod", "endpoint": "unix:///run/podman/podman.sock",
 *                 "seccomp_dir": "/var/lib/warmbox/seccomp"}],
 *    "profiles_dir": "/usr/local/share/warmbox/profiles",
 *    "max_concurrent": 64, "shutdown_grace_ms": 210000, "drain_delay_ms": 0,
 *    "request_read_timeout_ms": 30000, "ready_pool_grace_ms": 30000,
 *    "agent_listen": "127.0.0.1:8081",  (HAProxy agent-check: free capacity)
 *    "admission": {"queue_max": 1024, "max_wait_ms": 60000},
 *    "start_limit": {"initial": 64, "min": 1, "max": 64},  (initial: max)
 *    "max_body_bytes": 50331648,
 *    "uid_lease_dir": "/run/warmbox/uids",  (every daemon of a host: unique sandbox uids)
 *    "max_containers": 64, "create_concurrency": 2, "queue_max": 256,
 *    "image_refresh_ms": 10000, "engine_recheck_ms": 30000,
 *    "store": {"path": "/var/lib/warmbox/history.db", "retention_days": 30,
 *              "key_path": "/var/lib/warmbox/history.db.key",  (the input hashes' key)
 *              "max_backlog": 10000},
 *    "tokens": [{"name": "agents", "sha256": "<hex of the token>", "rate": 10,
 *                "burst": 20, "max_concurrent": 8, "role": "tenant"}],
 *    "callers": {"unix": {"role": "operator", "rate": 1000, "burst": 2000,
 *                         "max_concurrent": 512},             (callers without a token)
 *                "tcp": {"role": "tenant", "rate": 100, "burst": 200, "max_concurrent": 64},
 *                "certificates": {"monitor": {"role": "operator"},
 *                                 "*": {"role": "tenant", "rate": 10, "burst": 20,
 *                                       "max_concurrent": 8}}},
 *    "sessions": {"max_sessions": 256, "max_per_owner": 64, "max_bytes": 2147483648,
 *                 "owner_max_bytes": 536870912,
 *                 "state_max_bytes": 134217728, "files_max_bytes": 16777216, "files_max": 32,
 *                 "idle_ttl_s": 900, "idle_ttl_max_s": 86400, "max_life_s": 86400,
 *                 "queue_max": 8, "node": "a"},  (node: in the ids, for HAProxy)
 *    "pools": {"default": {"min_ready": 2, "max_ready": 8},
 *              "python": {"min_ready": 4, "max_ready": 16}}}
 */
#define _GNU_SOURCE
#include "daemon/config.h"

#include "api/auth.h"
#include "api/guard.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#ifndef WB_DEFAULT_PROFILES_DIR
#define WB_DEFAULT_PROFILES_DIR "/usr/local/share/warmbox/profiles"
#endif
#define CONFIG_FILE_MAX (1024 * 1024)

static void
engine_config_clear (sched_engine_config_t *e)
{
  free (e->endpoint);
  free (e->tls_ca);
  free (e->tls_cert);
  free (e->tls_key);
  free (e->seccomp_dir);
  free (e->oci_root);
  free (e->oci_images);
  free (e->oci_runtime);
  memset (e, 0, sizeof *e);
}

int
sched_config_defaults (sched_config_t *cfg, wb_err_t *err)
{
  memset (cfg, 0, sizeof *cfg);
  cfg->profiles_dir = strdup (WB_DEFAULT_PROFILES_DIR);
  cfg->max_concurrent = 64;
  /* Only who can reach the Unix socket (its owner and group) sees the
   * whole daemon by default; every caller has limits (docs/operators.md). */
  cfg->caller_unix = (sched_token_t){.name = "anon:unix",
                                     .role = SCHED_ROLE_OPERATOR,
                                     .rate = 1000,
                                     .burst = 2000,
                                     .max_concurrent = 512};
  cfg->caller_tcp = (sched_token_t){.name = "anon:tcp",
                                    .role = SCHED_ROLE_TENANT,
                                    .rate = 100,
                                    .burst = 200,
                                    .max_concurrent = 64};
  cfg->cert_callers[0] = (sched_token_t){
      .name = "*", .role = SCHED_ROLE_TENANT, .rate = 10, .burst = 20, .max_concurrent = 8};
  cfg->n_cert_callers = 1;
  cfg->admission_queue_max = 1024;
  cfg->max_wait_ms = 60000;
  cfg->start_bound_ms = 10000;
  cfg->shutdown_grace_ms = 210000;
  cfg->request_read_timeout_ms = 30000;
  cfg->ready_pool_grace_ms = 30000;
  cfg->max_body_bytes = 48u * 1024 * 1024;
  cfg->max_connections = 2048;
  cfg->max_connections_per_address = 256;
  cfg->max_reply_bytes = 256u * 1024 * 1024;
  cfg->max_containers = 64;
  cfg->create_concurrency = 2;
  cfg->queue_max = 256;
  cfg->image_refresh_ms = 10000;
  cfg->engine_recheck_ms = 30000;
  cfg->store_retention_days = 30;
  cfg->store_max_backlog = 10000;
  cfg->sessions.max_sessions = 256;
  cfg->sessions.max_per_owner = 64;
  cfg->sessions.max_bytes = 2ull << 30;
  cfg->sessions.owner_max_bytes = 512ull << 20;
  cfg->sessions.state_max_bytes = 128u << 20;
  cfg->sessions.files_max_bytes = 16u << 20;
  cfg->sessions.files_max = 32;
  cfg->sessions.idle_ttl_s = 900;
  cfg->sessions.idle_ttl_max_s = 86400;
  cfg->sessions.max_life_s = 86400;
  cfg->sessions.queue_max = 8;
  snprintf (cfg->pool_default.language, sizeof cfg->pool_default.language, "default");
  cfg->pool_default.min_ready = 1;
  cfg->pool_default.max_ready = 8;
  if (cfg->profiles_dir == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  return 0;
}

int
sched_config_add_listen (sched_config_t *cfg, const char *addr, wb_err_t *err)
{
  char *copy;

  if (cfg->n_listen >= SCHED_MAX_LISTEN)
    return wb_error (err, WB_E_INVALID, "at most %d listeners", SCHED_MAX_LISTEN);
  if (addr == NULL || *addr == '\0')
    return wb_error (err, WB_E_INVALID, "an empty listen address");
  copy = strdup (addr);
  if (copy == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  cfg->listen[cfg->n_listen++] = copy;
  return 0;
}

static int
set_string (char **dst, cJSON *item, const char *key, wb_err_t *err)
{
  char *copy;

  if (!cJSON_IsString (item) || item->valuestring[0] == '\0')
    return wb_error (err, WB_E_INVALID, "\"%s\" must be a non-empty string", key);
  copy = strdup (item->valuestring);
  if (copy == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  free (*dst);
  *dst = copy;
  return 0;
}

static int
set_uint (uint64_t *dst, cJSON *item, const char *key, double lo, double hi, wb_err_t *err)
{
  if (!cJSON_IsNumber (item) || !isfinite (item->valuedouble) || item->valuedouble < lo
      || item->valuedouble > hi || item->valuedouble != floor (item->valuedouble))
    return wb_error (err, WB_E_INVALID, "\"%s\" must be a whole number in [%.0f, %.0f]", key, lo,
                     hi);
  *dst = (uint64_t) item->valuedouble;
  return 0;
}

int
sched_token_add (sched_config_t *cfg, const char *name, const char *sha256_hex, double rate,
                 double burst, uint32_t max_concurrent, wb_err_t *err)
{
  return sched_tokens_add (cfg->tokens, &cfg->n_tokens, name, sha256_hex, rate, burst,
                           max_concurrent, err);
}

void
sched_config_api (const sched_config_t *cfg, api_config_t *out)
{
  memset (out, 0, sizeof *out);
  out->listen = cfg->listen;
  out->n_listen = cfg->n_listen;
  out->tls_cert = cfg->tls_cert;
  out->tls_key = cfg->tls_key;
  out->tls_client_ca = cfg->tls_client_ca;
  out->insecure_no_auth = cfg->insecure_no_auth;
  out->max_body_bytes = cfg->max_body_bytes;
  out->request_read_timeout_ms = cfg->request_read_timeout_ms;
  out->max_concurrent = cfg->max_concurrent;
  out->max_connections = cfg->max_connections;
  out->max_connections_per_address = cfg->max_connections_per_address;
  out->max_reply_bytes = cfg->max_reply_bytes;
  out->tokens = cfg->tokens;
  out->n_tokens = cfg->n_tokens;
  out->hosts = cfg->hosts;
  out->n_hosts = cfg->n_hosts;
  out->origins = cfg->origins;
  out->n_origins = cfg->n_origins;
  out->caller_unix = &cfg->caller_unix;
  out->caller_tcp = &cfg->caller_tcp;
  out->cert_callers = cfg->cert_callers;
  out->n_cert_callers = cfg->n_cert_callers;
}

const sched_pool_config_t *
sched_config_pool (const sched_config_t *cfg, const char *language)
{
  for (size_t i = 0; i < cfg->n_pools; i++)
    if (strcmp (cfg->pools[i].language, language) == 0)
      return &cfg->pools[i];
  return &cfg->pool_default;
}

static int
parse_pools (sched_config_t *cfg, cJSON *pools, wb_err_t *err)
{
  cJSON *entry;
  uint64_t v;

  if (!cJSON_IsObject (pools))
    return wb_error (err, WB_E_INVALID, "\"pools\" must be an object of languages");
  cJSON_ArrayForEach (entry, pools)
  {
    const char *lang = entry->string ? entry->string : "";
    sched_pool_config_t pc, *dst;
    cJSON *item;

    if (*lang == '\0' || strlen (lang) >= sizeof pc.language || !cJSON_IsObject (entry))
      return wb_error (err, WB_E_INVALID, "\"pools.%.32s\" must be an object", lang);
    pc = strcmp (lang, "default") == 0 ? cfg->pool_default : *sched_config_pool (cfg, lang);
    snprintf (pc.language, sizeof pc.language, "%s", lang);
    cJSON_ArrayForEach (item, entry)
    {
      const char *k = item->string ? item->string : "";
      if (strcmp (k, "min_ready") == 0 || strcmp (k, "max_ready") == 0)
        {
          if (set_uint (&v, item, k, 0, 1000, err) < 0)
            return wb_err_wrap (err, "pools.%s", lang);
          *(strcmp (k, "min_ready") == 0 ? &pc.min_ready : &pc.max_ready) = (uint32_t) v;
        }
      else
        return wb_error (err, WB_E_INVALID, "unknown key \"pools.%s.%.32s\"", lang, k);
    }
    if (pc.max_ready < pc.min_ready)
      return wb_error (err, WB_E_INVALID, "pools.%s: max_ready is below min_ready", lang);
    if (strcmp (lang, "default") == 0)
      {
        cfg->pool_default = pc;
        continue;
      }
    dst = NULL;
    for (size_t i = 0; i < cfg->n_pools; i++)
      if (strcmp (cfg->pools[i].language, lang) == 0)
        dst = &cfg->pools[i];
    if (dst == NULL)
      {
        if (cfg->n_pools == SCHED_MAX_POOL_CFG)
          return wb_error (err, WB_E_INVALID, "at most %d pools entries", SCHED_MAX_POOL_CFG);
        dst = &cfg->pools[cfg->n_pools++];
      }
    *dst = pc;
  }
  return 0;
}

static bool
engine_name_ok (const char *s)
{
  if (*s == '\0' || strlen (s) > 32)
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
          || *s == '_' || *s == '.' || *s == '-'))
      return false;
  return true;
}

/* One engine's object: "engine" (no name: "default") or an entry of
 * "engines" (a name required). */
static int
parse_engine (sched_engine_config_t *e, cJSON *obj, bool single, const char *where, wb_err_t *err)
{
  cJSON *item;
  uint64_t v;

  if (!cJSON_IsObject (obj))
    return wb_error (err, WB_E_INVALID, "\"%s\" must be an object", where);
  e->weight = 1;
  if (single)
    snprintf (e->name, sizeof e->name, "default");
  cJSON_ArrayForEach (item, obj)
  {
    const char *k = item->string ? item->string : "";
    char **dst = strcmp (k, "endpoint") == 0      ? &e->endpoint
                 : strcmp (k, "tls_ca") == 0      ? &e->tls_ca
                 : strcmp (k, "tls_cert") == 0    ? &e->tls_cert
                 : strcmp (k, "tls_key") == 0     ? &e->tls_key
                 : strcmp (k, "seccomp_dir") == 0 ? &e->seccomp_dir
                 : strcmp (k, "root") == 0        ? &e->oci_root
                 : strcmp (k, "images") == 0      ? &e->oci_images
                 : strcmp (k, "runtime") == 0     ? &e->oci_runtime
                                                  : NULL;
    if (dst)
      {
        if (set_string (dst, item, k, err) < 0)
          return wb_err_wrap (err, "%s", where);
      }
    else if (strcmp (k, "name") == 0 && !single)
      {
        if (!cJSON_IsString (item) || !engine_name_ok (item->valuestring))
          return wb_error (err, WB_E_INVALID, "%s.name must be 1 to 32 of [A-Za-z0-9_.-]", where);
        snprintf (e->name, sizeof e->name, "%s", item->valuestring);
      }
    else if (strcmp (k, "kind") == 0)
      {
        if (!cJSON_IsString (item)
            || (strcmp (item->valuestring, "docker") != 0
                && strcmp (item->valuestring, "oci") != 0))
          return wb_error (err, WB_E_INVALID, "%s.kind must be \"docker\" or \"oci\"", where);
        e->oci = strcmp (item->valuestring, "oci") == 0;
      }
    else if (strcmp (k, "userns") == 0)
      {
        if (!cJSON_IsBool (item))
          return wb_error (err, WB_E_INVALID, "%s.userns must be true or false", where);
        e->oci_userns = cJSON_IsTrue (item) ? SCHED_USERNS_ON : SCHED_USERNS_OFF;
      }
    else if (strcmp (k, "runtime_timeout_ms") == 0)
      {
        if (set_uint (&v, item, k, 100, 600000, err) < 0)
          return wb_err_wrap (err, "%s", where);
        e->oci_runtime_timeout_ms = (uint32_t) v;
      }
    else if (strcmp (k, "max_containers") == 0 || strcmp (k, "weight") == 0)
      {
        if (set_uint (&v, item, k, 1, 100000, err) < 0)
          return wb_err_wrap (err, "%s", where);
        *(strcmp (k, "weight") == 0 ? &e->weight : &e->max_containers) = (uint32_t) v;
      }
    else
      return wb_error (err, WB_E_INVALID, "unknown key \"%s.%.64s\"", where, k);
  }
  if (e->name[0] == '\0')
    return wb_error (err, WB_E_INVALID, "%s has no name", where);
  if ((e->tls_cert == NULL) != (e->tls_key == NULL))
    return wb_error (err, WB_E_INVALID, "%s: tls_cert and tls_key go together", where);
  return sched_config_oci_final (e, where, err);
}

/* "engine" (one object) or "engines" (an array): replaces the list. */
static int
parse_engines (sched_config_t *cfg, cJSON *item, bool single, wb_err_t *err)
{
  sched_engine_config_t list[SCHED_MAX_ENGINES];
  size_t n = 0;
  cJSON *e;
  int rc = 0;

  memset (list, 0, sizeof list);
  if (single)
    rc = parse_engine (&list[n++], item, true, "engine", err);
  else if (!cJSON_IsArray (item) || cJSON_GetArraySize (item) == 0)
    rc = wb_error (err, WB_E_INVALID, "\"engines\" must be a non-empty array of engines");
  else if (cJSON_GetArraySize (item) > SCHED_MAX_ENGINES)
    rc = wb_error (err, WB_E_INVALID, "at most %d engines", SCHED_MAX_ENGINES);
  else
    cJSON_ArrayForEach (e, item)
    {
      char where[32];
      snprintf (where, sizeof where, "engines[%zu]", n);
      if ((rc = parse_engine (&list[n++], e, false, where, err)) < 0)
        break;
      for (size_t i = 0; i + 1 < n; i++)
        if (strcmp (list[i].name, list[n - 1].name) == 0)
          {
            rc = wb_error (err, WB_E_INVALID, "two engines are named \"%s\"", list[i].name);
            break;
          }
      if (rc < 0)
        break;
    }
  if (rc == 0 && cfg->n_engines > 0 && cfg->engines_from_list != !single)
    rc = wb_error (err, WB_E_INVALID, "give \"engine\" or \"engines\", not both");
  if (rc < 0)
    {
      for (size_t i = 0; i < n; i++)
        engine_config_clear (&list[i]);
      return -1;
    }
  for (size_t i = 0; i < cfg->n_engines; i++)
    engine_config_clear (&cfg->engines[i]);
  memcpy (cfg->engines, list, sizeof list);
  cfg->n_engines = n;
  cfg->engines_from_list = !single;
  return 0;
}

/* An OCI engine: its paths (defaults under /run and /var/lib), and its
 * endpoint, the helper's socket.  A Docker engine: none of those keys. */
int
sched_config_oci_final (sched_engine_config_t *e, const char *where, wb_err_t *err)
{
  char path[600];
  const char *const set[] = {e->oci_root, e->oci_images, e->oci_runtime};

  if (!e->oci)
    {
      for (size_t i = 0; i < WB_ARRAY_SIZE (set); i++)
        if (set[i] || e->oci_runtime_timeout_ms || e->oci_userns != SCHED_USERNS_AUTO)
          return wb_error (err, WB_E_INVALID,
                           "%s: root, images, runtime, runtime_timeout_ms and userns are for "
                           "\"kind\": \"oci\"",
                           where);
      return 0;
    }
  if (e->endpoint || e->tls_ca || e->tls_cert || e->seccomp_dir)
    return wb_error (err, WB_E_INVALID,
                     "%s: an OCI engine has no endpoint, TLS or seccomp_dir (warmboxd starts it)",
                     where);
  if (e->oci_root == NULL)
    {
      snprintf (path, sizeof path, "/run/warmbox/oci-%s", e->name);
      if ((e->oci_root = strdup (path)) == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  if (e->oci_images == NULL && (e->oci_images = strdup ("/var/lib/warmbox/oci-images")) == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  for (size_t i = 0; i < 2; i++)
    {
      const char *p = i == 0 ? e->oci_root : e->oci_images;
      if (p && (p[0] != '/' || strlen (p) > 400))
        return wb_error (err, WB_E_INVALID, "%s: root and images must be absolute paths", where);
    }
  /* The helper chooses among these (oci/runtime.c) and says why not. */
  if (e->oci_runtime && strcmp (e->oci_runtime, "auto") != 0 && strcmp (e->oci_runtime, "crun") != 0
      && strcmp (e->oci_runtime, "runc") != 0
      && (e->oci_runtime[0] != '/' || strlen (e->oci_runtime) > 400))
    return wb_error (err, WB_E_INVALID,
                     "%s: runtime must be \"auto\", \"crun\", \"runc\" or an absolute path", where);
  snprintf (path, sizeof path, "unix://%s/engine.sock", e->oci_root);
  if ((e->endpoint = strdup (path)) == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  return 0;
}

int
sched_config_set_engine (sched_config_t *cfg, const char *endpoint, wb_err_t *err)
{
  char *copy;

  if (cfg->n_engines > 1)
    return wb_error (err, WB_E_INVALID,
                     "--engine can't replace the %zu engines the config file "
                     "lists",
                     cfg->n_engines);
  if ((copy = strdup (endpoint)) == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  if (cfg->n_engines == 0)
    {
      memset (&cfg->engines[0], 0, sizeof cfg->engines[0]);
      snprintf (cfg->engines[0].name, sizeof cfg->engines[0].name, "default");
      cfg->engines[0].weight = 1;
      cfg->n_engines = 1;
    }
  free (cfg->engines[0].endpoint);
  cfg->engines[0].endpoint = copy;
  /* "oci" or "oci:ROOT": the OCI engine (its helper's root, if given). */
  if (strcmp (endpoint, "oci") == 0 || strncmp (endpoint, "oci:", 4) == 0)
    {
      sched_engine_config_t *e = &cfg->engines[0];
      free (e->endpoint);
      free (e->oci_root);
      free (e->tls_ca);
      free (e->tls_cert);
      free (e->tls_key);
      free (e->seccomp_dir);
      e->endpoint = e->oci_root = e->tls_ca = e->tls_cert = e->tls_key = e->seccomp_dir = NULL;
      e->oci = true;
      if (endpoint[3] == ':' && (e->oci_root = strdup (endpoint + 4)) == NULL)
        return wb_error (err, WB_E_NOMEM, "out of memory");
      return sched_config_oci_final (e, "--engine", err);
    }
  if (cfg->engines[0].oci)
    {
      sched_engine_config_t *e = &cfg->engines[0];
      free (e->oci_root);
      free (e->oci_images);
      free (e->oci_runtime);
      e->oci_root = e->oci_images = e->oci_runtime = NULL;
      e->oci = false;
      e->oci_userns = SCHED_USERNS_AUTO;
      e->oci_runtime_timeout_ms = 0;
    }
  return 0;
}

int
sched_config_engines_final (sched_config_t *cfg, wb_err_t *err)
{
  if (cfg->n_engines > 0)
    return 0;
  memset (&cfg->engines[0], 0, sizeof cfg->engines[0]);
  snprintf (cfg->engines[0].name, sizeof cfg->engines[0].name, "default");
  cfg->engines[0].weight = 1;
  cfg->n_engines = 1;
  (void) err;
  return 0;
}

/* ---- the key table ------------------------------------------------------ */

/* "listen": replaces the list. */
static int
parse_listen (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  cJSON *a;

  if (!cJSON_IsArray (item))
    return wb_error (err, WB_E_INVALID, "\"listen\" must be an array of addresses");
  for (size_t i = 0; i < cfg->n_listen; i++)
    free (cfg->listen[i]);
  cfg->n_listen = 0;
  cJSON_ArrayForEach (a, item)
  {
    if (!cJSON_IsString (a))
      return wb_error (err, WB_E_INVALID, "\"listen\" must hold strings");
    if (sched_config_add_listen (cfg, a->valuestring, err) < 0)
      return -1;
  }
  return 0;
}

/* "http.hosts" and "http.origins": replace their list. */
static int
parse_names (char **names, size_t *n, cJSON *item, bool origins, wb_err_t *err)
{
  const char *key = origins ? "http.origins" : "http.hosts";
  cJSON *a;

  if (!cJSON_IsArray (item))
    return wb_error (err, WB_E_INVALID, "\"%s\" must be an array of strings", key);
  for (size_t i = 0; i < *n; i++)
    free (names[i]);
  *n = 0;
  cJSON_ArrayForEach (a, item)
  {
    if (*n == SCHED_MAX_NAMES)
      return wb_error (err, WB_E_INVALID, "\"%s\": at most %d", key, SCHED_MAX_NAMES);
    if (!cJSON_IsString (a) || !http_guard_config_ok (a->valuestring, origins))
      return wb_error (err, WB_E_INVALID,
                       origins ? "\"http.origins\" holds origins as a browser sends them: "
                                 "\"https://host\" or \"http://host:port\", nothing after"
                               : "\"http.hosts\" holds host names in lower case, without a port");
    if ((names[*n] = strdup (a->valuestring)) == NULL)
      return wb_error (err, WB_E_NOMEM, "out of memory");
    (*n)++;
  }
  return 0;
}

static int
parse_hosts (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  return parse_names (cfg->hosts, &cfg->n_hosts, item, false, err);
}

static int
parse_origins (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  return parse_names (cfg->origins, &cfg->n_origins, item, true, err);
}

static int
parse_engine_key (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  return parse_engines (cfg, item, true, err);
}

static int
parse_engines_key (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  return parse_engines (cfg, item, false, err);
}

/* A role's name: "tenant" or "operator". */
static int
parse_role (cJSON *item, const char *key, sched_role_t *role, wb_err_t *err)
{
  const char *v = cJSON_GetStringValue (item);

  if (v && strcmp (v, "tenant") == 0)
    *role = SCHED_ROLE_TENANT;
  else if (v && strcmp (v, "operator") == 0)
    *role = SCHED_ROLE_OPERATOR;
  else
    return wb_error (err, WB_E_INVALID, "\"%s\" must be \"tenant\" or \"operator\"", key);
  return 0;
}

/* A caller's entry: {"role", "rate", "burst", "max_concurrent"}, each
 * optional (what c holds stays). */
static int
parse_caller (cJSON *item, const char *key, sched_token_t *c, wb_err_t *err)
{
  cJSON *f;
  uint64_t conc;

  if (!cJSON_IsObject (item))
    return wb_error (err, WB_E_INVALID,
                     "\"%s\" must be an object: {\"role\", \"rate\", \"burst\", "
                     "\"max_concurrent\"}",
                     key);
  cJSON_ArrayForEach (f, item)
  {
    const char *k = f->string ? f->string : "";
    if (strcmp (k, "role") == 0)
      {
        if (parse_role (f, key, &c->role, err) < 0)
          return -1;
      }
    else if (strcmp (k, "rate") == 0 || strcmp (k, "burst") == 0)
      {
        if (!cJSON_IsNumber (f) || !(f->valuedouble > 0) || f->valuedouble > 1e6
            || (strcmp (k, "burst") == 0 && f->valuedouble < 1))
          return wb_error (err, WB_E_INVALID, "\"%s.%s\" must be a number > 0 (burst >= 1)", key,
                           k);
        *(strcmp (k, "rate") == 0 ? &c->rate : &c->burst) = f->valuedouble;
      }
    else if (strcmp (k, "max_concurrent") == 0)
      {
        if (set_uint (&conc, f, "max_concurrent", 1, 100000, err) < 0)
          return -1;
        c->max_concurrent = (uint32_t) conc;
      }
    else
      return wb_error (err, WB_E_INVALID, "unknown key \"%s.%.32s\"", key, k);
  }
  return 0;
}

static int
parse_caller_unix (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  return parse_caller (item, "callers.unix", &cfg->caller_unix, err);
}

static int
parse_caller_tcp (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  return parse_caller (item, "callers.tcp", &cfg->caller_tcp, err);
}

/* "callers.certificates": {"NAME": {...}, "*": {...}}; replaces the list
 * but for "*", which keeps what it holds unless it is given. */
static int
parse_cert_callers (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  cJSON *e;
  sched_token_t any = cfg->cert_callers[0];

  if (!cJSON_IsObject (item))
    return wb_error (err, WB_E_INVALID,
                     "\"callers.certificates\" must be an object: {\"NAME\": {\"role\": ...}}");
  cfg->n_cert_callers = 1;
  /* "*" first: a name listed takes its limits for what it does not say. */
  e = cJSON_GetObjectItemCaseSensitive (item, "*");
  if (e && parse_caller (e, "callers.certificates.*", &any, err) < 0)
    return -1;
  snprintf (any.name, sizeof any.name, "*");
  cfg->cert_callers[0] = any;
  cJSON_ArrayForEach (e, item)
  {
    sched_token_t *c;
    if (e->string == NULL || e->string[0] == '\0' || strlen (e->string) > 64)
      return wb_error (err, WB_E_INVALID,
                       "\"callers.certificates\": a name of 1 to 64 characters, or \"*\"");
    if (strcmp (e->string, "*") == 0)
      continue;
    else
      {
        for (size_t i = 1; i < cfg->n_cert_callers; i++)
          if (strcmp (cfg->cert_callers[i].name, e->string) == 0)
            return wb_error (err, WB_E_INVALID, "\"callers.certificates\": %.64s is given twice",
                             e->string);
        if (cfg->n_cert_callers == SCHED_MAX_CERT_CALLERS)
          return wb_error (err, WB_E_INVALID, "\"callers.certificates\": at most %d names",
                           SCHED_MAX_CERT_CALLERS - 1);
        c = &cfg->cert_callers[cfg->n_cert_callers++];
        /* A name listed takes "*"'s limits for what it does not say. */
        *c = cfg->cert_callers[0];
        snprintf (c->name, sizeof c->name, "%s", e->string);
      }
    if (parse_caller (e, "callers.certificates.NAME", c, err) < 0)
      return -1;
  }
  return 0;
}

/* "tokens": replaces the list. */
static int
parse_tokens (sched_config_t *cfg, cJSON *item, wb_err_t *err)
{
  cJSON *tok;

  if (!cJSON_IsArray (item))
    return wb_error (err, WB_E_INVALID, "\"tokens\" must be an array");
  cfg->n_tokens = 0;
  cJSON_ArrayForEach (tok, item)
  {
    cJSON *f;
    const char *name = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (tok, "name"));
    const char *hash = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (tok, "sha256"));
    double rate = 10, burst = 20;
    uint64_t conc = 8;
    sched_role_t role = SCHED_ROLE_TENANT;
    cJSON_ArrayForEach (f, tok)
    {
      const char *tk = f->string ? f->string : "";
      if (strcmp (tk, "rate") == 0 || strcmp (tk, "burst") == 0)
        {
          if (!cJSON_IsNumber (f) || !(f->valuedouble > 0) || f->valuedouble > 1e6)
            return wb_error (err, WB_E_INVALID, "tokens[].%s must be a positive number", tk);
          *(strcmp (tk, "rate") == 0 ? &rate : &burst) = f->valuedouble;
        }
      else if (strcmp (tk, "max_concurrent") == 0)
        {
          if (set_uint (&conc, f, "tokens[].max_concurrent", 1, 100000, err) < 0)
            return -1;
        }
      else if (strcmp (tk, "role") == 0)
        {
          if (parse_role (f, "tokens[].role", &role, err) < 0)
            return -1;
        }
      else if (strcmp (tk, "name") != 0 && strcmp (tk, "sha256") != 0)
        return wb_error (err, WB_E_INVALID, "unknown key \"tokens[].%.32s\"", tk);
    }
    if (sched_token_add (cfg, name, hash, rate, burst, (uint32_t) conc, err) < 0)
      return -1;
    cfg->tokens[cfg->n_tokens - 1].role = role;
  }
  return 0;
}

static void
apply_tokens (sched_config_t *running, const sched_config_t *fresh)
{
  memcpy (running->tokens, fresh->tokens, sizeof fresh->tokens);
  running->n_tokens = fresh->n_tokens;
}

static void
apply_pools (sched_config_t *running, const sched_config_t *fresh)
{
  running->pool_default = fresh->pool_default;
  memcpy (running->pools, fresh->pools, sizeof fresh->pools);
  running->n_pools = fresh->n_pools;
}

typedef enum config_type
{
  CFG_U32,
  CFG_U64,
  CFG_STRING,
  CFG_CUSTOM, /* parse (and, when reloadable, apply) say how */
} config_type_t;

/* One key of the file.  A dotted name ("admission.queue_max") is a key
 * of that object.  Reloadable keys are applied to the running
 * configuration by sched_config_apply_reloadable; the rest need a
 * restart (the TLS files are re-read by the listeners themselves). */
typedef struct config_key
{
  const char *name;
  config_type_t type;
  size_t offset; /* into sched_config_t (CFG_U32, CFG_U64, CFG_STRING) */
  double lo, hi; /* whole numbers' range */
  bool reloadable;
  int (*parse) (sched_config_t *cfg, cJSON *item, wb_err_t *err);
  void (*apply) (sched_config_t *running, const sched_config_t *fresh);
} config_key_t;

#define U32(key, field, lo, hi, reload)                                                            \
  {                                                                                                \
    key, CFG_U32, offsetof (sched_config_t, field), lo, hi, reload, NULL, NULL                     \
  }
#define U64(key, field, lo, hi)                                                                    \
  {                                                                                                \
    key, CFG_U64, offsetof (sched_config_t, field), lo, hi, false, NULL, NULL                      \
  }
#define STR(key, field)                                                                            \
  {                                                                                                \
    key, CFG_STRING, offsetof (sched_config_t, field), 0, 0, false, NULL, NULL                     \
  }
#define CUSTOM(key, parse, apply)                                                                  \
  {                                                                                                \
    key, CFG_CUSTOM, 0, 0, 0, apply != NULL, parse, apply                                          \
  }

static const config_key_t config_keys[] = {
    CUSTOM ("listen", parse_listen, NULL),
    CUSTOM ("http.hosts", parse_hosts, NULL),
    U32 ("http.max_connections", max_connections, 1, 1000000, false),
    U32 ("http.max_connections_per_address", max_connections_per_address, 1, 1000000, false),
    U64 ("http.max_reply_bytes", max_reply_bytes, 1048576, 1099511627776.0),
    CUSTOM ("http.origins", parse_origins, NULL),
    CUSTOM ("engine", parse_engine_key, NULL),
    CUSTOM ("engines", parse_engines_key, NULL),
    STR ("tls.cert", tls_cert),
    STR ("tls.key", tls_key),
    STR ("tls.client_ca", tls_client_ca),
    STR ("profiles_dir", profiles_dir),
    U32 ("max_concurrent", max_concurrent, 1, 100000, false),
    U32 ("shutdown_grace_ms", shutdown_grace_ms, 0, 3600000, false),
    U32 ("drain_delay_ms", drain_delay_ms, 0, 3600000, true),
    U32 ("request_read_timeout_ms", request_read_timeout_ms, 1000, 3600000, true),
    U32 ("ready_pool_grace_ms", ready_pool_grace_ms, 1000, 3600000, true),
    STR ("agent_listen", agent_listen),
    U64 ("max_body_bytes", max_body_bytes, 1024, 1073741824.0),
    U32 ("max_containers", max_containers, 1, 3600000, false),
    U32 ("create_concurrency", create_concurrency, 1, 3600000, false),
    U32 ("queue_max", queue_max, 0, 3600000, false),
    U32 ("image_refresh_ms", image_refresh_ms, 1, 3600000, false),
    U32 ("engine_recheck_ms", engine_recheck_ms, 1, 3600000, false),
    U32 ("admission.queue_max", admission_queue_max, 0, 1000000, false),
    U32 ("admission.max_wait_ms", max_wait_ms, 1, 3600000, false),
    U32 ("admission.start_bound_ms", start_bound_ms, 100, 600000, false),
    U32 ("start_limit.initial", start_limit.initial, 1, 4096, false),
    U32 ("start_limit.min", start_limit.min, 1, 4096, false),
    U32 ("start_limit.max", start_limit.max, 1, 4096, false),
    STR ("store.path", store_path),
    STR ("store.key_path", store_key_path),
    STR ("uid_lease_dir", uid_lease_dir),
    U32 ("store.retention_days", store_retention_days, 0, 36500, false),
    U32 ("store.max_backlog", store_max_backlog, 1, 10000000, false),
    U32 ("sessions.max_sessions", sessions.max_sessions, 1, 1000000, false),
    U32 ("sessions.max_per_owner", sessions.max_per_owner, 1, 1000000, false),
    U64 ("sessions.max_bytes", sessions.max_bytes, 1048576, 1099511627776.0),
    U64 ("sessions.owner_max_bytes", sessions.owner_max_bytes, 1048576, 1099511627776.0),
    U64 ("sessions.state_max_bytes", sessions.state_max_bytes, 4096, 1073741824.0),
    U64 ("sessions.files_max_bytes", sessions.files_max_bytes, 0, 16777216.0),
    U32 ("sessions.files_max", sessions.files_max, 0, 62, false),
    U32 ("sessions.idle_ttl_s", sessions.idle_ttl_s, 1, 31536000, false),
    U32 ("sessions.idle_ttl_max_s", sessions.idle_ttl_max_s, 1, 31536000, false),
    U32 ("sessions.max_life_s", sessions.max_life_s, 1, 31536000, false),
    U32 ("sessions.queue_max", sessions.queue_max, 1, 1024, false),
    STR ("sessions.node", session_node),
    CUSTOM ("pools", parse_pools, apply_pools),
    CUSTOM ("tokens", parse_tokens, apply_tokens),
    CUSTOM ("callers.unix", parse_caller_unix, NULL),
    CUSTOM ("callers.tcp", parse_caller_tcp, NULL),
    CUSTOM ("callers.certificates", parse_cert_callers, NULL),
};

#undef U32
#undef U64
#undef STR
#undef CUSTOM

static const config_key_t *
config_key (const char *name)
{
  for (size_t i = 0; i < WB_ARRAY_SIZE (config_keys); i++)
    if (strcmp (config_keys[i].name, name) == 0)
      return &config_keys[i];
  return NULL;
}

/* Is name the object of some dotted key ("admission" for "admission.*")? */
static bool
config_object (const char *name)
{
  size_t len = strlen (name);

  for (size_t i = 0; i < WB_ARRAY_SIZE (config_keys); i++)
    if (strncmp (config_keys[i].name, name, len) == 0 && config_keys[i].name[len] == '.')
      return true;
  return false;
}

static int
config_set (sched_config_t *cfg, const config_key_t *key, cJSON *item, wb_err_t *err)
{
  char *field = (char *) cfg + key->offset;
  uint64_t v;

  switch (key->type)
    {
    case CFG_U32:
      if (set_uint (&v, item, key->name, key->lo, key->hi, err) < 0)
        return -1;
      *(uint32_t *) (void *) field = (uint32_t) v;
      return 0;
    case CFG_U64:
      return set_uint ((uint64_t *) (void *) field, item, key->name, key->lo, key->hi, err);
    case CFG_STRING:
      return set_string ((char **) (void *) field, item, key->name, err);
    case CFG_CUSTOM:
      return key->parse (cfg, item, err);
    }
  return wb_error (err, WB_E_INTERNAL, "key %s: unknown type", key->name);
}

/* Every string the table names is owned by the config, and so are the
 * listeners and the engines' strings. */
void
sched_config_clear (sched_config_t *cfg)
{
  for (size_t i = 0; i < cfg->n_listen; i++)
    free (cfg->listen[i]);
  for (size_t i = 0; i < cfg->n_hosts; i++)
    free (cfg->hosts[i]);
  for (size_t i = 0; i < cfg->n_origins; i++)
    free (cfg->origins[i]);
  for (size_t i = 0; i < cfg->n_engines; i++)
    engine_config_clear (&cfg->engines[i]);
  for (size_t i = 0; i < WB_ARRAY_SIZE (config_keys); i++)
    if (config_keys[i].type == CFG_STRING)
      free (*(char **) (void *) ((char *) cfg + config_keys[i].offset));
  memset (cfg, 0, sizeof *cfg);
}

int
sched_config_parse (sched_config_t *cfg, const char *json, size_t len, wb_err_t *err)
{
  cJSON *root = cJSON_ParseWithLength (json, len), *item;
  int ret = -1;

  if (root == NULL || !cJSON_IsObject (root))
    {
      wb_error (err, WB_E_INVALID, "not a JSON object");
      goto out;
    }
  cJSON_ArrayForEach (item, root)
  {
    const char *k = item->string ? item->string : "";
    /* Dotted names are keys inside their object, never at the top. */
    const config_key_t *key = strchr (k, '.') ? NULL : config_key (k);
    cJSON *e;

    if (key)
      {
        if (config_set (cfg, key, item, err) < 0)
          goto out;
        continue;
      }
    if (strchr (k, '.') || !config_object (k))
      {
        wb_error (err, WB_E_INVALID, "unknown key \"%.64s\"", k);
        goto out;
      }
    if (!cJSON_IsObject (item))
      {
        wb_error (err, WB_E_INVALID, "\"%s\" must be an object", k);
        goto out;
      }
    cJSON_ArrayForEach (e, item)
    {
      char name[96];
      snprintf (name, sizeof name, "%s.%.64s", k, e->string ? e->string : "");
      if ((key = config_key (name)) == NULL)
        {
          wb_error (err, WB_E_INVALID, "unknown key \"%s\"", name);
          goto out;
        }
      if (config_set (cfg, key, e, err) < 0)
        goto out;
    }
  }
  if (cfg->start_limit.min && cfg->start_limit.max && cfg->start_limit.max < cfg->start_limit.min)
    {
      wb_error (err, WB_E_INVALID, "start_limit.max is below start_limit.min");
      goto out;
    }
  ret = 0;
out:
  cJSON_Delete (root);
  return ret;
}

void
sched_config_apply_reloadable (sched_config_t *running, const sched_config_t *fresh)
{
  for (size_t i = 0; i < WB_ARRAY_SIZE (config_keys); i++)
    {
      const config_key_t *key = &config_keys[i];
      if (!key->reloadable)
        continue;
      if (key->apply)
        key->apply (running, fresh);
      else if (key->type == CFG_U32)
        memcpy ((char *) running + key->offset, (const char *) fresh + key->offset,
                sizeof (uint32_t));
      else if (key->type == CFG_U64)
        memcpy ((char *) running + key->offset, (const char *) fresh + key->offset,
                sizeof (uint64_t));
    }
}

size_t
sched_config_reloadable_keys (const char **names, size_t max)
{
  size_t n = 0;

  for (size_t i = 0; i < WB_ARRAY_SIZE (config_keys); i++)
    if (config_keys[i].reloadable)
      {
        if (n < max)
          names[n] = config_keys[i].name;
        n++;
      }
  return n;
}

int
sched_config_load (sched_config_t *cfg, const char *path, wb_err_t *err)
{
  cleanup_file FILE *f = fopen (path, "re");
  cleanup_buf wb_buf_t text = WB_BUF_INIT;
  char chunk[8192];
  size_t n;

  if (f == NULL)
    return wb_error_errno (err, WB_E_IO, errno, "config %s", path);
  while ((n = fread (chunk, 1, sizeof chunk, f)) > 0)
    if (text.len + n > CONFIG_FILE_MAX || wb_buf_append (&text, chunk, n) < 0)
      return wb_error (err, WB_E_TOO_LARGE, "config %s: too large", path);
  if (sched_config_parse (cfg, text.data ? text.data : "", text.len, err) < 0)
    return wb_err_wrap (err, "config %s", path);
  return 0;
}
