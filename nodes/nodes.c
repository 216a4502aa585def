/* nodes/nodes.c: the engines (health, admission, taking out), the profiles' images on each
 * engine (resolution, distribution between engines) and the pools that
 * follow them.  See nodes.h.
 *
 * An engine's life:
 *   CONNECTING --ping answers--> RECOVERING --leftovers gone--> UP
 *   UP / RECOVERING --two failed pings--> DOWN --ping answers--> RECOVERING
 *   UP --its /info (read again every cfg.engine_recheck_ms) or its kind differs
 *        from when it was admitted, or /info fails 3 times in a row--> DOWN
 *        (then admitted and verified anew)
 *   CONNECTING --a failed ping--> DOWN
 *   any --a created container lacks a hardening setting--> REFUSED (for good)
 * Only an UP engine takes work.  Taking one out (node_out, node_refuse:
 * node_drop_work) empties its pools (their removals wait for it), sends
 * its waiting executions elsewhere and stops those it ran (exec.c).
 * RECOVERING reaps what dead daemons left, retries the removals that
 * waited and removes what this daemon made and lost track of
 * (sbx_reconcile); it becomes UP once the engine holds none of this
 * daemon's containers.
 *
 * Images: a profile names a tag.  The first engine in config order that is
 * up and resolves the tag fixes the profile's image id; each other engine
 * up is asked for that id, and one that lacks it gets the image from the
 * first through the Engine API (GET /images/{name}/get into an unlinked
 * temporary file, checked by eng_archive_check, POST /images/load from it),
 * then is asked again.  One transfer runs at a time.  An engine's image
 * of a profile is used only once a container of it, created there, was
 * inspected and holds every hardening setting (probe_*, node_set_image):
 * its pools fill from then on. */
#define _GNU_SOURCE
#include "nodes/nodes_int.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One profile's image, resolved on every engine: the tag on the engines in
 * config order until one has it, then that id on each other engine.
 * Carries the language, not an index: a SIGHUP may replace the profile
 * set meanwhile. */
typedef struct image_sync
{
  nodes_t *ns;
  struct image_sync *prev, *next; /* ns->syncs */
  eng_req_t *req;
  size_t node;   /* the engine asked now */
  bool by_id;    /* asking for image_id (the tag was resolved) */
  bool again;    /* a refresh came meanwhile: one more pass at the end */
  size_t source; /* the engine that resolved the tag */
  char language[33];
  char image[256];
  char image_id[80];
} image_sync_t;

/* An image on its way from one engine to another. */
typedef struct image_transfer
{
  nodes_t *ns;
  struct image_transfer *prev, *next; /* ns->transfers */
  eng_req_t *req;
  int fd; /* the archive, an unlinked temporary file */
  size_t from, to;
  bool loading, verifying, running;
  uint64_t started_ms;
  char language[33];
  char image[256];
  char image_id[80];
} image_transfer_t;

/* A container of one profile created on one engine, inspected and
 * removed: does the engine hold every hardening setting asked? */
typedef struct image_probe
{
  sched_node_t *node;
  struct image_probe *prev, *next; /* node->probes */
  sbx_op_t *op;                    /* the create */
  eng_req_t *req;                  /* the inspect */
  sbx_tmpl_t *tmpl;
  char container_id[80];
  char language[33];
  char image[256];
  char image_id[80];
  char hash[65];      /* the profile's, when it started */
  uint64_t taken_out; /* the engine's outages when it started */
} image_probe_t;

static void sync_next (image_sync_t *sy);
static void node_refuse (sched_node_t *n, const char *why);
static void transfer_next (nodes_t *ns);
static void node_check_recovered (sched_node_t *n);

const char *
sched_node_state_name (sched_node_state_t st)
{
  switch (st)
    {
    case NODE_CONNECTING:
      return "connecting";
    case NODE_UP:
      return "up";
    case NODE_DOWN:
      return "down";
    case NODE_RECOVERING:
      return "recovering";
    case NODE_REFUSED:
      return "refused";
    }
  return "down";
}

static int
profile_index (const nodes_t *ns, const char *language, const char *image)
{
  for (size_t i = 0; i < ns->profiles->n; i++)
    if (strcmp (ns->profiles->items[i]->language, language) == 0)
      return image == NULL || strcmp (ns->profiles->items[i]->image, image) == 0 ? (int) i : -1;
  return -1;
}

/* ---- events from the sandboxes and pools ----------------------------- */

static void
pool_event_cb (void *arg, const char *event, const char *language, const char *pool_key,
               const char *container_id, double duration_ms, const char *detail)
{
  sched_node_t *n = arg;

  if (n->ns->store)
    store_submit_pool_event (n->ns->store, event, language, pool_key, container_id, duration_ms,
                             detail);
}

static void
container_gone_cb (void *arg)
{
  sched_node_t *n = arg;

  pool_mgr_kick (n->pools);
  if (n->state == NODE_RECOVERING)
    node_check_recovered (n);
}

/* Whether the daemon that wrote label owner (rows and containers carry
 * the same one) is still alive. */
bool
nodes_owner_alive (const nodes_t *ns, const char *owner)
{
  return !sbx_owner_gone (ns->nodes[0].sbx, owner);
}

const char *
nodes_owner (const nodes_t *ns)
{
  return sbx_owner (ns->nodes[0].sbx);
}

uint32_t
nodes_containers (const nodes_t *ns)
{
  uint32_t n = 0;

  for (size_t i = 0; i < ns->n_nodes; i++)
    n += sbx_count (ns->nodes[i].sbx);
  return n;
}

uint32_t
nodes_busy (const nodes_t *ns)
{
  uint32_t n = 0;

  for (size_t i = 0; i < ns->n_nodes; i++)
    n += sbx_busy (ns->nodes[i].sbx);
  return n;
}

bool
nodes_profile_ready (const nodes_t *ns, size_t i)
{
  for (size_t k = 0; k < ns->n_nodes; k++)
    if (ns->nodes[k].state == NODE_UP && ns->nodes[k].image_ids[i])
      return true;
  return false;
}

bool
nodes_pools_healthy (const nodes_t *ns)
{
  for (size_t i = 0; i < ns->n_nodes; i++)
    if (ns->nodes[i].state == NODE_UP
        && pool_mgr_healthy (ns->nodes[i].pools, ns->cfg.ready_pool_grace_ms))
      return true;
  return false;
}

bool
nodes_any_up (const nodes_t *ns)
{
  return ns->engine_ok;
}

const char *
nodes_current_image (const nodes_t *ns, size_t i)
{
  return i < ns->profiles->n ? ns->image_ids[i] : NULL;
}

size_t
nodes_count (const nodes_t *ns)
{
  return ns->n_nodes;
}

sched_node_t *
nodes_at (nodes_t *ns, size_t k)
{
  return k < ns->n_nodes ? &ns->nodes[k] : NULL;
}

const sched_node_t *
nodes_at_const (const nodes_t *ns, size_t k)
{
  return k < ns->n_nodes ? &ns->nodes[k] : NULL;
}

const sched_pool_config_t *
nodes_config_pool (const nodes_config_t *cfg, const char *language)
{
  for (size_t i = 0; i < cfg->n_pools; i++)
    if (strcmp (cfg->pools[i].language, language) == 0)
      return &cfg->pools[i];
  return cfg->pool_default;
}

void
nodes_set_config (nodes_t *ns, const nodes_config_t *cfg)
{
  /* The start gates keep the limits they were made with (start_limit is
   * not reloadable). */
  ns->cfg = *cfg;
}

size_t
nodes_drain_pools (nodes_t *ns)
{
  size_t n = 0;

  for (size_t i = 0; i < ns->n_nodes; i++)
    n += pool_mgr_drain_all (ns->nodes[i].pools);
  return n;
}

void
nodes_retry_removals (nodes_t *ns)
{
  for (size_t i = 0; i < ns->n_nodes; i++)
    sbx_retry_now (ns->nodes[i].sbx);
}

void
nodes_set_lost_cb (nodes_t *ns, nodes_lost_cb cb, void *arg)
{
  ns->on_lost = cb;
  ns->lost_arg = arg;
}

void
nodes_set_store (nodes_t *ns, store_t *store)
{
  ns->store = store;
}

void
nodes_set_draining (nodes_t *ns, bool draining)
{
  ns->draining = draining;
  for (size_t i = 0; draining && i < ns->n_nodes; i++)
    pool_mgr_set_draining (ns->nodes[i].pools); /* no top-ups: nobody new will use them */
}

/* ---- one node, to the layers above ------------------------------------ */

const char *
node_name (const sched_node_t *n)
{
  return n->cfg->name;
}

size_t
node_index (const sched_node_t *n)
{
  return n->index;
}

sched_node_state_t
node_state (const sched_node_t *n)
{
  return n->state;
}

eng_t *
node_engine (sched_node_t *n)
{
  return n->eng;
}

sbx_t *
node_sandbox (sched_node_t *n)
{
  return n->sbx;
}

pool_mgr_t *
node_pools (sched_node_t *n)
{
  return n->pools;
}

startgate_t *
node_gate (sched_node_t *n)
{
  return &n->gate;
}

const char *
node_image (const sched_node_t *n, size_t i)
{
  return i < n->ns->profiles->n ? n->image_ids[i] : NULL;
}

void
node_exec_enter (sched_node_t *n)
{
  n->executions++;
  n->executions_total++;
}

void
node_exec_leave (sched_node_t *n)
{
  n->executions--;
}

void
node_yield_update (sched_node_t *n)
{
  pool_mgr_set_yield (n->pools, n->gate.queued > 0 || n->gate.in_flight > 0);
}

void
node_view (const sched_node_t *n, node_view_t *v)
{
  memset (v, 0, sizeof *v);
  v->name = n->cfg->name;
  v->endpoint = n->endpoint;
  v->state = n->state;
  v->tls = n->cfg->tls_cert != NULL;
  v->podman = n->podman;
  v->api_version = n->api_version;
  v->facts = &n->facts;
  v->facts_at_ms = n->facts_at_ms;
  v->refused = n->refused;
  v->last_error = n->last_error;
  v->last_seen_ms = n->last_seen_ms;
  v->state_since_ms = n->state_since_ms;
  v->ping_failures = n->ping_failures;
  v->taken_out = n->taken_out;
  v->executions = n->executions;
  v->executions_total = n->executions_total;
  v->weight = n->cfg->weight;
  v->max_containers = n->cfg->max_containers ? n->cfg->max_containers : n->ns->cfg.max_containers;
  v->containers = sbx_count (n->sbx);
  for (size_t i = 0; i < n->ns->profiles->n; i++)
    v->images += n->image_ids[i] != NULL;
  v->gate = &n->gate;
  v->pools = n->pools;
}

/* ---- set-up and teardown --------------------------------------------- */

static int
node_init (nodes_t *ns, sched_node_t *n, size_t index, wb_err_t *err)
{
  const sched_engine_config_t *e = &ns->cfg.engines[index];
  eng_config_t ecfg;
  sbx_config_t scfg;
  pool_mgr_config_t pcfg;

  n->ns = ns;
  n->index = index;
  n->cfg = e;
  n->state = NODE_CONNECTING;
  n->state_since_ms = wb_now_ms ();
  snprintf (n->endpoint, sizeof n->endpoint, "%s", eng_default_endpoint (e->endpoint));
  n->image_ids = calloc (ns->profiles->n ? ns->profiles->n : 1, sizeof *n->image_ids);
  n->seccomp_files = calloc (ns->profiles->n ? ns->profiles->n : 1, sizeof *n->seccomp_files);
  if (n->image_ids == NULL || n->seccomp_files == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  memset (&ecfg, 0, sizeof ecfg);
  ecfg.endpoint = e->endpoint;
  ecfg.tls_ca = e->tls_ca;
  ecfg.tls_cert = e->tls_cert;
  ecfg.tls_key = e->tls_key;
  ecfg.request_timeout_ms = ns->cfg.engine_timeout_ms;
  if (eng_new (ns->base, &ecfg, &n->eng, err) < 0)
    return wb_err_wrap (err, "engine %s", e->name);
  memset (&scfg, 0, sizeof scfg);
  scfg.instance_id = ns->instance_id;
  scfg.on_event = pool_event_cb;
  scfg.on_gone = container_gone_cb;
  scfg.arg = n;
  scfg.uid_dir = ns->cfg.uid_lease_dir;
  scfg.retry_ms = ns->cfg.removal_retry_ms;
  scfg.reconcile_ms = ns->cfg.removal_retry_ms;
  if (sbx_new (ns->base, n->eng, &scfg, &n->sbx, err) < 0)
    return -1;
  memset (&pcfg, 0, sizeof pcfg);
  pcfg.max_containers = e->max_containers ? e->max_containers : ns->cfg.max_containers;
  pcfg.create_concurrency = ns->cfg.create_concurrency;
  pcfg.max_waiters = ns->cfg.queue_max;
  pcfg.tick_ms = ns->cfg.pool_tick_ms;
  pcfg.backoff_min_ms = ns->cfg.pool_backoff_ms;
  pcfg.on_event = pool_event_cb;
  pcfg.event_arg = n;
  if (pool_mgr_new (ns->base, n->sbx, &pcfg, &n->pools, err) < 0)
    return -1;
  startgate_init (&n->gate, &ns->cfg.start_limit);
  return 0;
}

nodes_t *
nodes_new (struct event_base *base, const nodes_config_t *cfg, const prof_set_t *profiles,
           const char instance_id[33], wb_err_t *err)
{
  nodes_t *ns;

  if (cfg->n_engines == 0 || cfg->n_engines > SCHED_MAX_ENGINES)
    {
      wb_error (err, WB_E_INVALID, "%zu engines (1 to %d)", cfg->n_engines, SCHED_MAX_ENGINES);
      return NULL;
    }
  ns = calloc (1, sizeof *ns);
  if (ns == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      return NULL;
    }
  ns->base = base;
  ns->cfg = *cfg;
  ns->profiles = profiles;
  snprintf (ns->instance_id, sizeof ns->instance_id, "%s", instance_id);
  ns->image_ids = calloc (profiles->n ? profiles->n : 1, sizeof *ns->image_ids);
  ns->nodes = calloc (cfg->n_engines ? cfg->n_engines : 1, sizeof *ns->nodes);
  if (ns->image_ids == NULL || ns->nodes == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      nodes_free (ns);
      return NULL;
    }
  for (size_t i = 0; i < cfg->n_engines; i++)
    {
      ns->n_nodes = i + 1;
      if (node_init (ns, &ns->nodes[i], i, err) < 0)
        {
          nodes_free (ns);
          return NULL;
        }
    }
  return ns;
}

static void
sync_free (image_sync_t *sy)
{
  eng_req_cancel (sy->req);
  WB_LIST_UNLINK (sy->ns->syncs, sy);
  free (sy);
}

static void
transfer_free (image_transfer_t *t)
{
  eng_req_cancel (t->req);
  if (t->fd >= 0)
    close (t->fd);
  WB_LIST_UNLINK (t->ns->transfers, t);
  free (t);
}

/* A probe's container, if made, is left to the next start-up's reaper
 * (this runs at exit) or was already given back. */
static void
probe_free (image_probe_t *pr)
{
  sbx_op_cancel (pr->op);
  eng_req_cancel (pr->req);
  sbx_tmpl_free (pr->tmpl);
  WB_LIST_UNLINK (pr->node->probes, pr);
  free (pr);
}

static void
free_ids (char **ids, size_t n)
{
  if (ids)
    for (size_t i = 0; i < n; i++)
      free (ids[i]);
  free (ids);
}

void
nodes_free (nodes_t *ns)
{
  if (ns == NULL)
    return;
  while (ns->syncs)
    sync_free (ns->syncs);
  while (ns->transfers)
    transfer_free (ns->transfers);
  for (size_t i = 0; i < ns->n_nodes; i++)
    {
      sched_node_t *n = &ns->nodes[i];
      eng_req_cancel (n->ping_req);
      eng_req_cancel (n->info_req);
      while (n->probes)
        probe_free (n->probes);
      startgate_clear (&n->gate);
      pool_mgr_free (n->pools);
      sbx_free (n->sbx);
      eng_free (n->eng);
      free_ids (n->image_ids, ns->profiles->n);
      free_ids (n->seccomp_files, ns->profiles->n);
    }
  free (ns->nodes);
  free_ids (ns->image_ids, ns->profiles->n);
  free (ns);
}

/* ---- pools ------------------------------------------------------------ */

/* A pool's sizes, spread over the engines up by weight (rounded up: with
 * min_ready 1 every engine keeps one). */
static uint32_t
spread (const nodes_t *ns, const sched_node_t *n, uint32_t size)
{
  uint64_t total = 0;

  for (size_t i = 0; i < ns->n_nodes; i++)
    if (ns->nodes[i].state == NODE_UP)
      total += ns->nodes[i].cfg->weight;
  if (total == 0)
    return size;
  return (uint32_t) (((uint64_t) size * n->cfg->weight + total - 1) / total);
}

static void
node_pool_update (sched_node_t *n, size_t i)
{
  nodes_t *ns = n->ns;
  const prof_t *p = ns->profiles->items[i];
  const sched_pool_config_t *pc = nodes_config_pool (&ns->cfg, p->language);
  pool_spec_t spec;
  sbx_dialect_t d;
  wb_err_t err;

  if (n->image_ids[i] == NULL || n->state != NODE_UP || ns->draining)
    return;
  memset (&spec, 0, sizeof spec);
  spec.tmpl = sbx_tmpl_new (p, &p->def, n->image_ids[i], node_dialect (n, i, &d), &err);
  spec.profile_hash = p->hash;
  spec.min_ready = spread (ns, n, pc->min_ready);
  spec.max_ready = spread (ns, n, pc->max_ready);
  if (spec.tmpl == NULL || pool_mgr_ensure (n->pools, &spec, &err) == NULL)
    wb_log_error ("engine %s: pool for %s: %s", node_name (n), p->language, err.msg);
}

void
nodes_pool_update (nodes_t *ns, size_t i)
{
  for (size_t k = 0; k < ns->n_nodes; k++)
    node_pool_update (&ns->nodes[k], i);
}

static void
pools_update_all (nodes_t *ns)
{
  for (size_t i = 0; i < ns->profiles->n; i++)
    nodes_pool_update (ns, i);
}

/* ---- images ------------------------------------------------------------ */

const sbx_dialect_t *
node_dialect (const sched_node_t *n, size_t i, sbx_dialect_t *d)
{
  if (!n->podman)
    return NULL;
  d->podman = true;
  d->seccomp_file = n->seccomp_files[i]; /* NULL: no template can be made (sbx_tmpl_new fails) */
  return d;
}

/* Why engine n cannot run profile p as asked, or NULL. */
static const char *
cannot_run (const sched_node_t *n, const prof_t *p, char *buf, size_t size)
{
  size_t len = strlen (p->runtime);
  const char *r = n->facts.runtimes;

  if (n->podman)
    {
      /* Podman ignores HostConfig.Runtime: what runs is its default. */
      if (strcmp (p->runtime, n->facts.default_runtime) != 0)
        {
          snprintf (buf, size,
                    "it is Podman, which runs its default runtime (%s) whatever is "
                    "asked, and %s needs %s",
                    n->facts.default_runtime, p->language, p->runtime);
          return buf;
        }
      return NULL;
    }
  while (r && *r)
    {
      if (strncmp (r, p->runtime, len) == 0 && (r[len] == ',' || r[len] == '\0'))
        return NULL;
      r = strchr (r, ',');
      r = r ? r + 1 : NULL;
    }
  snprintf (buf, size, "it has no runtime %s (it lists %s)", p->runtime, n->facts.runtimes);
  return buf;
}

/* Podman reads seccomp= as a file on its host: the profile's allowlist
 * plus what its init needs, written where it looks (in that folder when
 * it is on this host: always for an engine on a Unix socket; for a remote
 * engine the operator puts it there).  0, or -1 with why. */
static int
podman_seccomp_file (sched_node_t *n, size_t i, char *why, size_t size)
{
  const prof_t *p = n->ns->profiles->items[i];
  const char *dir = n->cfg->seccomp_dir;
  wb_buf_t json = WB_BUF_INIT;
  char path[768], tmp[800], real[512];
  struct stat st;
  wb_err_t err;
  int fd, rc = -1;

  if (dir == NULL)
    {
      snprintf (why, size,
                "it is Podman, which reads the seccomp allowlist from a file on its "
                "host: set seccomp_dir for it");
      return -1;
    }
  /* An engine on a Unix socket is on this host, and so is its folder,
   * which must exist.  One over TCP may be elsewhere: its folder is
   * checked and written when it is here, else the operator puts the
   * files there. */
  bool local = strncmp (n->endpoint, "unix://", 7) == 0 || stat (dir, &st) == 0;
  /* Podman reads the file when it creates each container: whoever can
   * change the folder could swap in a weaker allowlist.  Checked at every
   * verification (an engine re-admitted is checked again); the resolved
   * path is the one written and given to Podman (a symbolic link is not
   * followed again). */
  if (local)
    {
      if (wb_dir_trusted (dir, real, sizeof real, &err) < 0)
        {
          snprintf (why, size,
                    "its seccomp_dir is not safe: %.300s (whoever can change it could "
                    "swap the allowlist Podman reads)",
                    err.msg);
          return -1;
        }
      dir = real;
    }
  snprintf (path, sizeof path, "%s/%s-%.12s-catatonit.json", dir, p->language, p->hash);
  if (n->seccomp_files[i] && strcmp (n->seccomp_files[i], path) == 0)
    return 0;
  if (local)
    {
      if (sbx_seccomp_with (p, sbx_catatonit_syscalls, &json, &err) < 0)
        {
          snprintf (why, size, "its %s allowlist: %.300s", p->language, err.msg);
          return -1;
        }
      /* A fresh file of our own (O_EXCL), whatever the folder holds, made
       * readable by the engine's user, then renamed over the old one. */
      snprintf (tmp, sizeof tmp, "%s.XXXXXX", path);
      fd = mkostemp (tmp, O_CLOEXEC);
      bool written = fd >= 0 && fchmod (fd, 0644) == 0
                     && write (fd, json.data, json.len) == (ssize_t) json.len && fsync (fd) == 0;
      if (fd >= 0 && close (fd) != 0)
        written = false;
      if (written && rename (tmp, path) == 0)
        rc = 0;
      else
        {
          snprintf (why, size, "cannot write its allowlist %.300s: %.100s", path, strerror (errno));
          if (fd >= 0)
            unlink (tmp);
        }
      wb_buf_free (&json);
      if (rc < 0)
        return -1;
    }
  free (n->seccomp_files[i]);
  if ((n->seccomp_files[i] = strdup (path)) == NULL)
    {
      snprintf (why, size, "out of memory");
      return -1;
    }
  return 0;
}

static void probe_start (sched_node_t *n, size_t i, const char *id);

/* Engine n holds profile i's image (id), or (id NULL) does not.  A new
 * image is used only once a container of it, created there, is seen to
 * hold every hardening setting (probe_start). */
static void
node_set_image (sched_node_t *n, size_t i, const char *id)
{
  const prof_t *p = n->ns->profiles->items[i];
  char why[512];

  if (id == NULL)
    {
      free (n->image_ids[i]);
      n->image_ids[i] = NULL;
      return;
    }
  if (n->image_ids[i] && strcmp (n->image_ids[i], id) == 0)
    {
      node_pool_update (n, i); /* made, resized, or left as it is */
      return;
    }
  if (cannot_run (n, p, why, sizeof why))
    {
      if (n->image_ids[i] == NULL)
        wb_warn ("engine %s does not run %s: %s", node_name (n), p->language, why);
      return;
    }
  if (n->podman && podman_seccomp_file (n, i, why, sizeof why) < 0)
    {
      node_refuse (n, why);
      return;
    }
  probe_start (n, i, id);
}

static void
probe_inspected_cb (void *arg, const eng_result_t *r)
{
  image_probe_t *pr = arg;
  sched_node_t *n = pr->node;
  int i = profile_index (n->ns, pr->language, pr->image);
  wb_err_t err;
  char why[600];

  pr->req = NULL;
  sbx_remove (n->sbx, pr->container_id, pr->language, sbx_tmpl_key (pr->tmpl));
  if (r->rc < 0)
    {
      wb_warn ("engine %s: the %s container made to check its hardening could not be inspected: %s",
               node_name (n), pr->language, r->err.msg);
      probe_free (pr);
      return;
    }
  if (sbx_verify_created (pr->tmpl, r->json, r->json_len, &err) < 0)
    {
      snprintf (why, sizeof why, "a %s container created there: %s", pr->language, err.msg);
      probe_free (pr);
      node_refuse (n, why);
      return;
    }
  /* Only for what it was made for: the same profile (hash), the image
   * in force, and the engine as it was (no outage since). */
  if (i >= 0 && n->state == NODE_UP && pr->taken_out == n->taken_out
      && strcmp (n->ns->profiles->items[i]->hash, pr->hash) == 0 && n->ns->image_ids[i]
      && strcmp (n->ns->image_ids[i], pr->image_id) == 0)
    {
      char *copy = strdup (pr->image_id);
      if (copy)
        {
          free (n->image_ids[i]);
          n->image_ids[i] = copy;
          wb_info ("engine %s: language %s: image %s is %.19s, profile %.12s; a container created "
                   "there holds every hardening setting",
                   node_name (n), pr->language, pr->image, copy, n->ns->profiles->items[i]->hash);
          node_pool_update (n, (size_t) i);
        }
      else
        wb_log_error ("engine %s: language %s: out of memory recording its verified image (not "
                      "used there yet)",
                      node_name (n), pr->language);
    }
  probe_free (pr);
}

static void
probe_created_cb (void *arg, const char *id, const wb_err_t *perr)
{
  image_probe_t *pr = arg;
  sched_node_t *n = pr->node;
  wb_err_t err;
  char why[600];

  pr->op = NULL;
  if (id == NULL)
    {
      /* An engine that answers but will not make the container as asked
       * (a body it refuses) can't serve; one that went away is dealt
       * with by its pings. */
      if (eng_err_refused (perr) && n->state == NODE_UP && pr->taken_out == n->taken_out)
        {
          snprintf (why, sizeof why, "it will not create a %s container: %s", pr->language,
                    perr->msg);
          probe_free (pr);
          node_refuse (n, why);
          return;
        }
      wb_warn ("engine %s: a %s container to check its hardening: %s", node_name (n), pr->language,
               perr->msg);
      probe_free (pr);
      return;
    }
  snprintf (pr->container_id, sizeof pr->container_id, "%s", id);
  pr->req = eng_container_inspect (n->eng, pr->container_id, probe_inspected_cb, pr, &err);
  if (pr->req == NULL)
    {
      wb_warn ("engine %s: %s", node_name (n), err.msg);
      sbx_remove (n->sbx, pr->container_id, pr->language, sbx_tmpl_key (pr->tmpl));
      probe_free (pr);
    }
}

static void
probe_start (sched_node_t *n, size_t i, const char *id)
{
  const prof_t *p = n->ns->profiles->items[i];
  image_probe_t *pr;
  wb_err_t err;

  for (pr = n->probes; pr; pr = pr->next)
    if (strcmp (pr->language, p->language) == 0 && strcmp (pr->image_id, id) == 0
        && strcmp (pr->hash, p->hash) == 0 && pr->taken_out == n->taken_out)
      return; /* one is on its way */
  pr = calloc (1, sizeof *pr);
  if (pr == NULL)
    return;
  pr->node = n;
  snprintf (pr->language, sizeof pr->language, "%s", p->language);
  snprintf (pr->image, sizeof pr->image, "%s", p->image);
  snprintf (pr->image_id, sizeof pr->image_id, "%s", id);
  snprintf (pr->hash, sizeof pr->hash, "%s", p->hash);
  pr->taken_out = n->taken_out;
  WB_LIST_PUSH (n->probes, pr);
  sbx_dialect_t d;
  pr->tmpl = sbx_tmpl_new (p, &p->def, id, node_dialect (n, i, &d), &err);
  if (pr->tmpl == NULL
      || (pr->op = sbx_create (n->sbx, pr->tmpl, probe_created_cb, pr, &err)) == NULL)
    {
      wb_warn ("engine %s: %s", node_name (n), err.msg);
      probe_free (pr);
    }
}

static void
transfer_queue (nodes_t *ns, size_t from, size_t to, const char *language, const char *image,
                const char *image_id)
{
  image_transfer_t *t;

  for (t = ns->transfers; t; t = t->next)
    if (t->to == to && strcmp (t->language, language) == 0 && strcmp (t->image_id, image_id) == 0)
      return; /* already on its way */
  t = calloc (1, sizeof *t);
  if (t == NULL)
    {
      wb_log_error ("engine %s: cannot queue the %s image: out of memory", ns->cfg.engines[to].name,
                    language);
      return;
    }
  t->ns = ns;
  t->fd = -1;
  t->from = from;
  t->to = to;
  snprintf (t->language, sizeof t->language, "%s", language);
  snprintf (t->image, sizeof t->image, "%s", image);
  snprintf (t->image_id, sizeof t->image_id, "%s", image_id);
  WB_LIST_PUSH (ns->transfers, t);
  transfer_next (ns);
}

static void
sync_answer_cb (void *arg, const eng_result_t *r)
{
  image_sync_t *sy = arg;
  nodes_t *ns = sy->ns;
  sched_node_t *n = &ns->nodes[sy->node];
  int i = profile_index (ns, sy->language, sy->image);

  sy->req = NULL;
  if (i < 0)
    {
      sync_free (sy); /* the profile changed meanwhile; its own sync follows */
      return;
    }
  if (n->state != NODE_UP)
    {
      /* Taken out meanwhile: its answer says nothing now (its re-admission
       * asks again). */
      sy->node++;
      sync_next (sy);
      return;
    }
  if (!sy->by_id)
    {
      if (r->rc == 0)
        {
          /* The first engine holding the tag fixes the image. */
          bool changed = ns->image_ids[i] == NULL || strcmp (ns->image_ids[i], r->id) != 0;
          char *copy = changed ? strdup (r->id) : NULL;
          if (copy)
            {
              free (ns->image_ids[i]);
              ns->image_ids[i] = copy;
            }
          else if (changed)
            wb_log_error ("language %s: out of memory recording its image %.19s; the history names "
                          "the one before",
                          sy->language, r->id);
          snprintf (sy->image_id, sizeof sy->image_id, "%s", r->id);
          sy->by_id = true;
          sy->source = sy->node;
          node_set_image (n, (size_t) i, r->id);
          sy->node = 0;
        }
      else
        {
          if (r->err.code != WB_E_NOT_FOUND)
            wb_warn ("engine %s: image %s for %s: %s", node_name (n), sy->image, sy->language,
                     r->err.msg);
          node_set_image (n, (size_t) i, NULL);
          sy->node++;
        }
    }
  else
    {
      if (r->rc == 0 && strcmp (r->id, sy->image_id) == 0)
        node_set_image (n, (size_t) i, r->id);
      else if (r->rc == 0 || r->err.code == WB_E_NOT_FOUND)
        {
          node_set_image (n, (size_t) i, NULL);
          transfer_queue (ns, sy->source, sy->node, sy->language, sy->image, sy->image_id);
        }
      else
        wb_warn ("engine %s: image %.19s for %s: %s", node_name (n), sy->image_id, sy->language,
                 r->err.msg);
      sy->node++;
    }
  sync_next (sy);
}

/* Ask the next engine up (the tag, or once resolved the id), or end. */
static void
sync_next (image_sync_t *sy)
{
  nodes_t *ns = sy->ns;
  wb_err_t err;

  for (; sy->node < ns->n_nodes; sy->node++)
    {
      sched_node_t *n = &ns->nodes[sy->node];
      if (n->state != NODE_UP || (sy->by_id && sy->node == sy->source))
        continue;
      sy->req = eng_image_inspect (n->eng, sy->by_id ? sy->image_id : sy->image, sync_answer_cb, sy,
                                   &err);
      if (sy->req)
        return;
      wb_warn ("engine %s: %s", node_name (n), err.msg);
    }
  if (!sy->by_id && sy->ns->engine_ok)
    wb_warn ("sandbox image %s for %s is on no engine that is up (build it with `make images`)",
             sy->image, sy->language);
  if (sy->again)
    {
      /* An engine came up meanwhile, say: ask them all again. */
      sy->again = sy->by_id = false;
      sy->node = 0;
      sync_next (sy);
      return;
    }
  sync_free (sy);
}

void
nodes_images_refresh (nodes_t *ns)
{
  for (size_t i = 0; i < ns->profiles->n; i++)
    {
      const prof_t *p = ns->profiles->items[i];
      image_sync_t *sy;

      for (sy = ns->syncs; sy; sy = sy->next)
        if (strcmp (sy->language, p->language) == 0 && strcmp (sy->image, p->image) == 0)
          break;
      if (sy)
        {
          sy->again = true; /* one at a time per profile */
          continue;
        }
      sy = calloc (1, sizeof *sy);
      if (sy == NULL)
        return;
      sy->ns = ns;
      snprintf (sy->language, sizeof sy->language, "%s", p->language);
      snprintf (sy->image, sizeof sy->image, "%s", p->image);
      WB_LIST_PUSH (ns->syncs, sy);
      sync_next (sy);
    }
}

/* ---- distribution ------------------------------------------------------ */

static void
transfer_fail (image_transfer_t *t, const char *what, const wb_err_t *err)
{
  nodes_t *ns = t->ns;

  wb_warn ("engine %s: the %s image %s could not be brought from engine %s (%s): %s; tried "
           "again at the next image refresh",
           ns->cfg.engines[t->to].name, t->language, t->image, ns->cfg.engines[t->from].name, what,
           err->msg);
  transfer_free (t);
  transfer_next (ns);
}

static void
transfer_verified_cb (void *arg, const eng_result_t *r)
{
  image_transfer_t *t = arg;
  nodes_t *ns = t->ns;
  sched_node_t *to = &ns->nodes[t->to];
  int i = profile_index (ns, t->language, t->image);
  wb_err_t err;

  t->req = NULL;
  if (r->rc < 0 || strcmp (r->id, t->image_id) != 0)
    {
      if (r->rc == 0)
        wb_error (&err, WB_E_ENGINE, "it holds %.19s after the load, not %.19s", r->id,
                  t->image_id);
      transfer_fail (t, "verify", r->rc < 0 ? &r->err : &err);
      return;
    }
  wb_info ("engine %s: the %s image %.19s came from engine %s in %.1f s", node_name (to),
           t->language, t->image_id, ns->cfg.engines[t->from].name,
           (double) (wb_now_ms () - t->started_ms) / 1000.0);
  if (i >= 0 && to->state == NODE_UP && ns->image_ids[i]
      && strcmp (ns->image_ids[i], t->image_id) == 0)
    node_set_image (to, (size_t) i, t->image_id);
  transfer_free (t);
  transfer_next (ns);
}

static void
transfer_loaded_cb (void *arg, const eng_result_t *r)
{
  image_transfer_t *t = arg;
  wb_err_t err;

  t->req = NULL;
  close (t->fd);
  t->fd = -1;
  if (r->rc < 0)
    {
      transfer_fail (t, "load", &r->err);
      return;
    }
  t->req = eng_image_inspect (t->ns->nodes[t->to].eng, t->image_id, transfer_verified_cb, t, &err);
  if (t->req == NULL)
    transfer_fail (t, "verify", &err);
}

static ssize_t
fd_read_at (void *arg, void *buf, size_t count, uint64_t offset)
{
  ssize_t r;

  do
    r = pread (*(int *) arg, buf, count, (off_t) offset);
  while (r < 0 && errno == EINTR);
  return r;
}

static void
transfer_saved_cb (void *arg, const eng_result_t *r)
{
  image_transfer_t *t = arg;
  sched_node_t *to = &t->ns->nodes[t->to];
  wb_err_t err;

  t->req = NULL;
  if (r->rc < 0)
    {
      transfer_fail (t, "save", &r->err);
      return;
    }
  /* An engine loads every image and tag an archive holds: this one must
   * hold the image asked for (its config's digest) and nothing else. */
  if (eng_archive_check (fd_read_at, &t->fd, t->image_id, t->image, &err) < 0)
    {
      transfer_fail (t, "check", &err);
      return;
    }
  if (to->state != NODE_UP)
    {
      wb_error (&err, WB_E_ENGINE_DOWN, "it is %s", sched_node_state_name (to->state));
      transfer_fail (t, "load", &err);
      return;
    }
  t->req = eng_image_load (to->eng, t->fd, transfer_loaded_cb, t, &err);
  if (t->req == NULL)
    transfer_fail (t, "load", &err);
}

/* The archive's file: in $TMPDIR (else /var/tmp), unlinked at once, so
 * nothing is left behind whatever happens. */
static int
archive_file (wb_err_t *err)
{
  const char *dir = getenv ("TMPDIR");
  char path[512];
  int fd;

  snprintf (path, sizeof path, "%s/warmbox-image-XXXXXX", dir && *dir ? dir : "/var/tmp");
  fd = mkostemp (path, O_CLOEXEC);
  if (fd < 0)
    return wb_error_errno (err, WB_E_IO, errno, "cannot make a file for the image archive in %s",
                           dir && *dir ? dir : "/var/tmp");
  unlink (path);
  return fd;
}

static void
transfer_next (nodes_t *ns)
{
  image_transfer_t *t, *next = NULL;
  wb_err_t err;

  for (t = ns->transfers; t; t = t->next)
    {
      if (t->running)
        return; /* one at a time: each is the whole disk's and link's */
      next = t; /* the oldest (the list pushes at its head) */
    }
  if ((t = next) == NULL)
    return;
  if (ns->nodes[t->from].state != NODE_UP || ns->nodes[t->to].state != NODE_UP)
    {
      wb_error (&err, WB_E_ENGINE_DOWN, "an engine was taken out");
      transfer_fail (t, "save", &err);
      return;
    }
  t->running = true;
  t->started_ms = wb_now_ms ();
  wb_info ("engine %s lacks the %s image %.19s: bringing it from engine %s",
           ns->cfg.engines[t->to].name, t->language, t->image_id, ns->cfg.engines[t->from].name);
  if ((t->fd = archive_file (&err)) < 0)
    {
      transfer_fail (t, "save", &err);
      return;
    }
  t->req = eng_image_save (ns->nodes[t->from].eng, t->image, t->fd, transfer_saved_cb, t, &err);
  if (t->req == NULL)
    transfer_fail (t, "save", &err);
}

/* ---- health ------------------------------------------------------------- */

static void
update_engine_ok (nodes_t *ns)
{
  ns->engine_ok = false;
  for (size_t i = 0; i < ns->n_nodes; i++)
    if (ns->nodes[i].state == NODE_UP)
      ns->engine_ok = true;
}

static void
node_set_state (sched_node_t *n, sched_node_state_t st)
{
  n->state = st;
  n->state_since_ms = wb_now_ms ();
  update_engine_ok (n->ns);
}

/* An engine no longer takes work (down or refused): its pools emptied,
 * its images forgotten (checked again when it is back), its executions
 * moved or stopped (exec.c), its share of the pools to the others.
 * Transfers to or from it fail at their next step. */
static void
node_drop_work (sched_node_t *n)
{
  nodes_t *ns = n->ns;

  pool_mgr_engine_lost (n->pools);
  for (size_t i = 0; i < ns->profiles->n; i++)
    {
      free (n->image_ids[i]);
      n->image_ids[i] = NULL;
    }
  if (ns->on_lost)
    ns->on_lost (ns->lost_arg, n);
  pools_update_all (ns);
}

/* Taken out: no more work; what it held is dealt with (see the top). */
static void
node_out (sched_node_t *n, const char *why)
{
  if (n->state == NODE_DOWN || n->state == NODE_REFUSED)
    return;
  if (n->state == NODE_CONNECTING && n->taken_out == 0 && n->last_seen_ms == 0)
    wb_warn ("engine %s (%s) unreachable: %s; not used until it answers", node_name (n),
             n->endpoint, why);
  else
    wb_warn ("engine %s (%s) taken out: %s", node_name (n), n->endpoint, why);
  n->taken_out++;
  node_set_state (n, NODE_DOWN);
  eng_req_cancel (n->info_req);
  n->info_req = NULL;
  n->reaped = false;
  n->reap_stale = n->reaping;
  node_drop_work (n);
}

/* It cannot run the sandboxes as asked: never used (until a restart),
 * said loudly, shown by /v1/engines. */
static void
node_refuse (sched_node_t *n, const char *why)
{

  if (n->state == NODE_REFUSED)
    return;
  wb_log_error ("engine %s (%s) refused: %s; it will not be used (fix it, then restart warmboxd)",
                node_name (n), n->endpoint, why);
  snprintf (n->refused, sizeof n->refused, "%s", why);
  snprintf (n->last_error, sizeof n->last_error, "refused: %s", why);
  node_set_state (n, NODE_REFUSED);
  eng_req_cancel (n->info_req);
  n->info_req = NULL;
  node_drop_work (n);
}

static void
node_check_recovered (sched_node_t *n)
{
  nodes_t *ns = n->ns;

  if (n->state != NODE_RECOVERING || !n->reaped || n->info_req || sbx_count (n->sbx) > 0)
    return;
  wb_info ("engine %s (%s) admitted: API %s, runtimes %s%s%s", node_name (n), n->endpoint,
           n->api_version, n->facts.runtimes[0] ? n->facts.runtimes : "(none listed)",
           n->facts.oci_runtime[0] ? "; runc profiles run on " : "", n->facts.oci_runtime);
  node_set_state (n, NODE_UP);
  pool_mgr_engine_back (n->pools);
  pools_update_all (ns);
  if (!ns->draining)
    nodes_images_refresh (ns);
}

static void
reaped_cb (void *arg, int nr)
{
  sched_node_t *n = arg;

  n->reaping = false;
  /* A failed list is tried again at the next ping; so is one taken
   * before the engine was taken out (it says nothing of it now). */
  n->reaped = nr >= 0 && !n->reap_stale;
  n->reap_stale = false;
  node_check_recovered (n);
}

/* The parts of /info the verification stands on (a list cut at its
 * field's size still compares: the same engine says it the same way). */
/* items joined by sep into buf, as many whole items as fit. */
static void
join (char *buf, size_t size, const char *const *items, size_t n, const char *sep)
{
  size_t len = 0;

  buf[0] = '\0';
  for (size_t i = 0; i < n; i++)
    {
      int w = snprintf (buf + len, size - len, "%s%s", i ? sep : "", items[i]);
      if (w < 0 || (size_t) w >= size - len)
        {
          buf[len] = '\0';
          break;
        }
      len += (size_t) w;
    }
}

static void
facts_of (const eng_result_t *r, bool podman, sched_engine_facts_t *f)
{
  memset (f, 0, sizeof *f);
  join (f->runtimes, sizeof f->runtimes, r->runtimes, r->n_runtimes, ",");
  join (f->security, sizeof f->security, r->security_options, r->n_security_options, ";");
  snprintf (f->engine_id, sizeof f->engine_id, "%s", r->engine_id ? r->engine_id : "");
  snprintf (f->server_version, sizeof f->server_version, "%s",
            r->server_version ? r->server_version : "");
  snprintf (f->default_runtime, sizeof f->default_runtime, "%s",
            r->default_runtime ? r->default_runtime : "runc");
  snprintf (f->cgroup_version, sizeof f->cgroup_version, "%s",
            r->cgroup_version ? r->cgroup_version : "");
  snprintf (f->oci_runtime, sizeof f->oci_runtime, "%s", r->oci_runtime ? r->oci_runtime : "");
  /* Podman's compat /info gives a fresh random ID at every call (4.3,
   * measured): no identity there. */
  if (podman)
    f->engine_id[0] = '\0';
  snprintf (f->kind, sizeof f->kind, "%s", podman ? "podman" : "docker");
}

/* The first fact that differs, said for the log ("its default runtime:
 * "runc" when it was verified, "crun" now"); 0 when none does. */
static int
facts_changed (const sched_engine_facts_t *was, const sched_engine_facts_t *is, char *buf,
               size_t size)
{
  static const struct
  {
    const char *what;
    size_t off;
  } fields[] = {
      {"kind", offsetof (sched_engine_facts_t, kind)},
      {"ID", offsetof (sched_engine_facts_t, engine_id)},
      {"version", offsetof (sched_engine_facts_t, server_version)},
      {"default runtime", offsetof (sched_engine_facts_t, default_runtime)},
      {"runtimes", offsetof (sched_engine_facts_t, runtimes)},
      {"cgroup version", offsetof (sched_engine_facts_t, cgroup_version)},
      {"OCI runtime", offsetof (sched_engine_facts_t, oci_runtime)},
      {"security options", offsetof (sched_engine_facts_t, security)},
  };

  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    {
      const char *a = (const char *) was + fields[i].off, *b = (const char *) is + fields[i].off;
      if (strcmp (a, b) != 0)
        {
          snprintf (buf, size, "its %s: \"%.250s\" when it was verified, \"%.250s\" now",
                    fields[i].what, a, b);
          return 1;
        }
    }
  return 0;
}

static void
info_cb (void *arg, const eng_result_t *r)
{
  sched_node_t *n = arg;
  sched_engine_facts_t now;
  char why[640];

  n->info_req = NULL;
  if (n->state == NODE_REFUSED)
    return;
  if (r->rc < 0)
    {
      snprintf (n->last_error, sizeof n->last_error, "%s", r->err.msg);
      /* Up, it answers pings: one slow /info (it counts every container)
       * is asked again at the next ping, not a reason to stop what runs
       * there; an engine that will not say what it is cannot stay
       * verified.  Being admitted, it must answer. */
      if (n->state == NODE_UP && ++n->failed_infos < SCHED_INFO_FAILURES_MAX)
        wb_warn ("engine %s (%s): /info (%u in a row): %s", node_name (n), n->endpoint,
                 n->failed_infos, r->err.msg);
      else
        {
          if (n->state == NODE_UP)
            snprintf (why, sizeof why, "/info failed %u times in a row: %.400s", n->failed_infos,
                      r->err.msg);
          else
            snprintf (why, sizeof why, "/info failed: %.400s", r->err.msg);
          snprintf (n->last_error, sizeof n->last_error, "%.480s", why);
          node_out (n, why);
        }
      return;
    }
  n->failed_infos = 0;
  n->facts_at_ms = wb_now_ms ();
  facts_of (r, n->podman, &now);
  if (n->state == NODE_UP)
    {
      if (facts_changed (&n->facts, &now, why, sizeof why))
        {
          snprintf (n->last_error, sizeof n->last_error, "%.500s", why);
          node_out (n, why);
        }
      return;
    }
  n->facts = now;
  /* warmbox-oci names its runtime: it speaks the one-exchange run. */
  sbx_set_one_request (n->sbx, now.oci_runtime[0] != '\0');
  node_check_recovered (n);
}

static void
pinged_cb (void *arg, const eng_result_t *r)
{
  sched_node_t *n = arg;
  wb_err_t err;

  n->ping_req = NULL;
  if (n->state == NODE_REFUSED)
    {
      if (r->rc == 0)
        n->last_seen_ms = wb_now_ms ();
      return;
    }
  if (r->rc < 0)
    {
      n->ping_failures++;
      n->failed_pings++;
      snprintf (n->last_error, sizeof n->last_error, "%s", r->err.msg);
      /* Two in a row (a busy engine may miss one): what runs there is
       * stopped when it goes, so one slow answer must not do it.  One
       * that never answered is not used until it does. */
      if (n->failed_pings >= 2 || n->state == NODE_CONNECTING)
        node_out (n, r->err.msg);
      return;
    }
  n->failed_pings = 0;
  n->last_seen_ms = wb_now_ms ();
  if (n->state == NODE_UP && r->podman != (strcmp (n->facts.kind, "podman") == 0))
    {
      /* Another engine answers at its address: what was verified was not
       * it. */
      snprintf (n->last_error, sizeof n->last_error, "it was %s when it was verified, is %s now",
                r->podman ? "Docker" : "Podman", r->podman ? "Podman" : "Docker");
      node_out (n, n->last_error);
      return;
    }
  n->podman = r->podman;
  snprintf (n->api_version, sizeof n->api_version, "%s", r->api_version);
  if (n->state == NODE_UP && n->info_req == NULL
      && n->last_seen_ms - n->facts_at_ms >= n->ns->cfg.engine_recheck_ms)
    {
      n->info_req = eng_info (n->eng, info_cb, n, &err);
      if (n->info_req == NULL)
        wb_warn ("engine %s: %s", node_name (n), err.msg);
    }
  if (n->state == NODE_DOWN || n->state == NODE_CONNECTING)
    {
      wb_info ("engine %s (%s) answers, API %s%s", node_name (n), n->endpoint, r->api_version,
               n->state == NODE_DOWN ? "; removing its leftovers before it takes work" : "");
      node_set_state (n, NODE_RECOVERING);
      /* What waited for it goes now; what it made for us and we lost
       * track of goes too. */
      sbx_retry_now (n->sbx);
      sbx_reconcile (n->sbx);
      n->info_req = eng_info (n->eng, info_cb, n, &err);
      if (n->info_req == NULL)
        wb_warn ("engine %s: %s", node_name (n), err.msg);
    }
  if (!n->reaped && !n->reaping)
    {
      n->reaping = true;
      sbx_reap_orphans (n->sbx, reaped_cb, n);
    }
  node_check_recovered (n);
}

void
nodes_ping (nodes_t *ns)
{
  for (size_t i = 0; i < ns->n_nodes; i++)
    {
      sched_node_t *n = &ns->nodes[i];
      wb_err_t err;

      if (n->ping_req)
        continue; /* a hung one ends at its own timeout */
      n->ping_req = eng_ping (n->eng, pinged_cb, n, &err);
      if (n->ping_req == NULL)
        wb_warn ("engine %s: %s", node_name (n), err.msg);
    }
}

/* ---- reload ------------------------------------------------------------ */

/* Ids of profiles whose language and image (and with same_hash, whole
 * profile: a node's ids stand for a verified container of it) did not
 * change. */
static char **
carry_ids (char **old, const prof_set_t *was, const prof_set_t *fresh, bool same_hash)
{
  char **ids = calloc (fresh->n ? fresh->n : 1, sizeof *ids);

  if (ids == NULL)
    return NULL;
  for (size_t i = 0; i < fresh->n; i++)
    for (size_t k = 0; k < was->n; k++)
      if (old[k] && strcmp (fresh->items[i]->language, was->items[k]->language) == 0
          && strcmp (fresh->items[i]->image, was->items[k]->image) == 0
          && (!same_hash || strcmp (fresh->items[i]->hash, was->items[k]->hash) == 0)
          && (ids[i] = strdup (old[k])) == NULL)
        {
          free_ids (ids, fresh->n);
          return NULL;
        }
  return ids;
}

int
nodes_profiles_swap (nodes_t *ns, const prof_set_t *fresh, wb_err_t *err)
{
  const prof_set_t *was = ns->profiles;
  char **ids = carry_ids (ns->image_ids, was, fresh, false);
  char **node_ids[SCHED_MAX_ENGINES] = {NULL}, **files[SCHED_MAX_ENGINES] = {NULL};
  bool oom = ids == NULL;

  for (size_t k = 0; k < ns->n_nodes && !oom; k++)
    oom = (node_ids[k] = carry_ids (ns->nodes[k].image_ids, was, fresh, true)) == NULL
          || (files[k] = carry_ids (ns->nodes[k].seccomp_files, was, fresh, true)) == NULL;
  if (oom)
    {
      free_ids (ids, fresh->n);
      for (size_t k = 0; k < ns->n_nodes; k++)
        {
          free_ids (node_ids[k], fresh->n);
          free_ids (files[k], fresh->n);
        }
      return wb_error (err, WB_E_NOMEM,
                       "out of memory carrying the images over to the new profiles");
    }
  /* A verified image carries over with its allowlist file only when the
   * profile (hash) is unchanged; probes of another hash finish into
   * nothing (probe_inspected_cb checks it). */
  for (size_t k = 0; k < was->n; k++)
    if (prof_find (fresh, was->items[k]->language) == NULL)
      for (size_t j = 0; j < ns->n_nodes; j++)
        pool_mgr_retire (ns->nodes[j].pools, was->items[k]->language);
  free_ids (ns->image_ids, was->n);
  ns->image_ids = ids;
  for (size_t k = 0; k < ns->n_nodes; k++)
    {
      free_ids (ns->nodes[k].image_ids, was->n);
      ns->nodes[k].image_ids = node_ids[k];
      free_ids (ns->nodes[k].seccomp_files, was->n);
      ns->nodes[k].seccomp_files = files[k];
    }
  ns->profiles = fresh;
  return 0;
}

/* ---- placement ---------------------------------------------------------- */

/* Passes: the current image on engines whose creates succeed, any image
 * they hold, then the same with failing creates allowed.  An engine still
 * on the previous image serves while the new one is checked there (an
 * image rebuild does not turn requests away). */
sched_node_t *
nodes_place (nodes_t *ns, const prof_t *p, const prof_limits_t *limits, size_t i, uint32_t tried,
             wb_err_t *err)
{
  const char *current = ns->image_ids[i];
  sched_node_t *best = NULL;
  uint32_t best_ready = 0;
  double best_room = 0;
  bool any_up = false;

  for (int pass = 0; pass < 4 && best == NULL; pass++)
    for (size_t k = 0; k < ns->n_nodes; k++)
      {
        sched_node_t *n = &ns->nodes[k];
        const char *id = n->image_ids[i];
        char key[SBX_KEY_MAX];
        pool_t *pool;
        uint32_t ready;
        double room;

        if (n->state != NODE_UP)
          continue;
        any_up = true;
        if ((tried & (1u << k)) || id == NULL
            || (pass % 2 == 0 && (current == NULL || strcmp (id, current) != 0))
            || (pass < 2 && pool_mgr_failing (n->pools)))
          continue;
        sbx_pool_key (p, limits, id, key);
        pool = pool_mgr_find_key (n->pools, key);
        ready = pool ? pool_ready_count (pool) : 0;
        room = (double) pool_mgr_free_capacity (n->pools) / n->cfg->weight;
        if (best == NULL || ready > best_ready || (ready == best_ready && room > best_room))
          best = n, best_ready = ready, best_room = room;
      }
  if (best)
    return best;
  if (!any_up)
    wb_error (err, WB_E_ENGINE_DOWN, "the container engine is unavailable");
  else if (tried)
    wb_error (err, WB_E_ENGINE_DOWN,
              "every container engine that could run it failed before "
              "it started");
  else
    wb_error (err, WB_E_BUSY,
              "the %s sandbox is not ready yet (its image is missing or still "
              "being resolved, copied or checked)",
              p->language);
  return NULL;
}

bool
nodes_other_up (const nodes_t *ns, const sched_node_t *except, uint32_t tried)
{
  for (size_t k = 0; k < ns->n_nodes; k++)
    if (&ns->nodes[k] != except && !(tried & (1u << k)) && ns->nodes[k].state == NODE_UP)
      return true;
  return false;
}
