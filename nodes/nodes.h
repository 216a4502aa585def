/* nodes/nodes.h: the engines warmboxd schedules on (nodes.c): one node per
 * configured engine, with what belongs to it alone (its engine client, its
 * sandbox, its pools, its start gate, the profiles' images it holds,
 * verified), and the set of them (health, image resolution and transfer,
 * placement).
 *
 * Ownership: the daemon makes one nodes_t (nodes_new) and frees it last
 * (nodes_free); the set owns its nodes, which live as long as it does, so
 * an execution may keep a node pointer while it runs.  A node's struct is
 * private (nodes_int.h, for nodes.c and the unit tests); everything above
 * this layer goes through the functions below.  Nothing here calls up: an
 * engine taken out is reported through the callback the daemon installs
 * (nodes_set_lost_cb). */
#ifndef WARMBOX_NODES_H
#define WARMBOX_NODES_H

#include "nodes/startgate.h"
#include "warmbox/engine.h"
#include "warmbox/pool.h"
#include "warmbox/profile.h"
#include "warmbox/sandbox.h"
#include "warmbox/store.h"
#include "warmbox/wb.h"

struct event_base;

#define SCHED_MAX_ENGINES 16

/* engines[] in the config: a container engine warmboxd schedules on. */
typedef struct sched_engine_config
{
  char name[33];  /* unique; [A-Za-z0-9_.-] */
  char *endpoint; /* NULL: DOCKER_HOST, else the default socket */
  char *tls_ca, *tls_cert, *tls_key;
  uint32_t max_containers; /* containers on it at most; 0: the global max_containers */
  uint32_t weight;         /* its share of each pool's sizes, against the others' (>= 1) */
  char *seccomp_dir;       /* Podman: where its allowlists are, on its host (warmboxd writes
                              them when the folder is on this host) */
  /* "kind": "oci": warmboxd starts warmbox-oci (daemon/oci.c) before it
   * confines itself, and endpoint is that helper's socket; the nodes see
   * an engine like any other. */
  bool oci;
  char *oci_root;    /* the helper's state (its socket, the runtime's state, bundles) */
  char *oci_images;  /* the image store (shared by every helper of this host) */
  char *oci_runtime; /* the runtime's command; NULL: runc from the PATH's usual places */
  uint32_t oci_runtime_timeout_ms; /* a runtime command's bound; 0: the helper's 30 s */
  /* runc containers in a user namespace (daemon/oci.h): where the host
   * allows one (the default), always (an engine that cannot is refused),
   * or never. */
  enum
  {
    SCHED_USERNS_AUTO = 0,
    SCHED_USERNS_ON,
    SCHED_USERNS_OFF,
  } oci_userns;
} sched_engine_config_t;

/* pools.<language> (or pools.default) in the config. */
typedef struct sched_pool_config
{
  char language[33];
  uint32_t min_ready, max_ready;
} sched_pool_config_t;

/* What the nodes read of the configuration.  The arrays point into the
 * daemon's configuration, which outlives the set; a reload updates them in
 * place and calls nodes_set_config with the new figures. */
typedef struct nodes_config
{
  const sched_engine_config_t *engines;
  size_t n_engines;
  uint32_t max_containers;     /* per engine unless its own entry says */
  uint32_t create_concurrency; /* pool creates in flight per engine */
  uint32_t queue_max;          /* requests waiting per pool */
  startgate_config_t start_limit;
  uint32_t ready_pool_grace_ms; /* nodes_pools_healthy */
  uint32_t engine_recheck_ms;   /* how often an engine up is asked /info again */
  const char *uid_lease_dir;    /* sandbox/uids.c's folder; NULL: each engine's own rotation */
  const sched_pool_config_t *pool_default;
  const sched_pool_config_t *pools;
  size_t n_pools;
  /* Timings the unit tests shorten (0: the defaults). */
  uint32_t pool_tick_ms;
  uint32_t pool_backoff_ms;
  uint32_t removal_retry_ms;
  long engine_timeout_ms;
} nodes_config_t;

/* The sizes configured for a language (its own entry, else the default). */
const sched_pool_config_t *nodes_config_pool (const nodes_config_t *cfg, const char *language);

typedef enum sched_node_state
{
  NODE_CONNECTING, /* not answered yet: no work */
  NODE_UP,         /* takes work */
  NODE_DOWN,       /* taken out: stopped answering (or answers garbage) */
  NODE_RECOVERING, /* answers again: its leftovers are removed before it takes work */
  NODE_REFUSED,    /* cannot run the sandboxes as asked (a created container lacks a
                      limit, say): never used until warmboxd restarts */
} sched_node_state_t;

/* "connecting", "up", "down", "recovering", "refused".  Never NULL. */
const char *sched_node_state_name (sched_node_state_t st);

/* What an engine says of itself in /info that its verification stands
 * on.  Read when it is admitted, and again at the first ping
 * engine_recheck_ms after the last read while it is up: any change
 * (restarted with another runtime or version, rootless, another host or
 * engine behind the address), or /info failing SCHED_INFO_FAILURES_MAX
 * times in a row, takes it out, to be admitted and verified again. */
#define SCHED_INFO_FAILURES_MAX 3

typedef struct sched_engine_facts
{
  char kind[8];       /* "docker" or "podman" (its ping says) */
  char engine_id[96]; /* Docker's ID ("" for Podman, whose ID is new at every call) */
  char server_version[48];
  char default_runtime[32];
  char runtimes[128]; /* comma-separated */
  char cgroup_version[8];
  char oci_runtime[96]; /* warmbox-oci's native runtime ("crun version 1.8.1"); "" on Docker */
  char security[256];   /* SecurityOptions, ';'-separated */
} sched_engine_facts_t;

typedef struct nodes nodes_t;
typedef struct sched_node sched_node_t;

/* An engine was taken out (down or refused): what was placed on it must
 * move or stop.  Called from the loop, after its pools were emptied. */
typedef void (*nodes_lost_cb) (void *arg, sched_node_t *node);

/* One node per cfg->engines entry: engine client, sandbox, pools, start
 * gate; nothing is asked of the engines yet (nodes_ping does).  profiles
 * must outlive the set or be replaced first (nodes_profiles_swap).
 * instance_id labels every container.  NULL with err. */
nodes_t *nodes_new (struct event_base *base, const nodes_config_t *cfg, const prof_set_t *profiles,
                    const char instance_id[33], wb_err_t *err);
/* Cancel what is in flight and free every node.  Executions placed on a
 * node must have ended first.  Can't fail. */
void nodes_free (nodes_t *ns);
/* The reloadable figures (pool sizes, the start limit's bounds, the
 * recheck period): applied at the next pool update.  Can't fail. */
void nodes_set_config (nodes_t *ns, const nodes_config_t *cfg);
void nodes_set_lost_cb (nodes_t *ns, nodes_lost_cb cb, void *arg);
/* Pool events go to the history from here on (NULL: nowhere). */
void nodes_set_store (nodes_t *ns, store_t *store);
/* SIGTERM's drain: pools are no longer refilled nor re-made. */
void nodes_set_draining (nodes_t *ns, bool draining);

/* Shutdown: remove every ready container (returns how many go), and hurry
 * the removals that wait for a retry (the engine may be back). */
size_t nodes_drain_pools (nodes_t *ns);
void nodes_retry_removals (nodes_t *ns);

/* The daemon's owner label (the same on every engine), and whether the
 * daemon that wrote label owner is still alive (for the history's
 * start-up check). */
const char *nodes_owner (const nodes_t *ns);
bool nodes_owner_alive (const nodes_t *ns, const char *owner);

/* (Re)make the pools of profile i on every engine up that holds its
 * image. */
void nodes_pool_update (nodes_t *ns, size_t i);
/* Resolve (or re-resolve) every profile's image id and see that every
 * engine up holds it (sending it from one that does); pools follow.
 * Async; can't fail (what fails is logged and tried at the next
 * refresh). */
void nodes_images_refresh (nodes_t *ns);
/* SIGHUP replaced the profiles: image ids of unchanged images carry over
 * (old, new: the two sets), retired languages' pools drain.  After it
 * returns 0 the set reads fresh (the caller keeps the old one alive while
 * executions point into it).  -1 with err (out of memory): nothing
 * changed. */
WB_MUST_CHECK int nodes_profiles_swap (nodes_t *ns, const prof_set_t *fresh, wb_err_t *err);
/* Ping every engine (health): one that fails is taken out (the lost
 * callback hears of it), one that answers again is re-admitted once its
 * leftovers are gone.  Async; can't fail. */
void nodes_ping (nodes_t *ns);

/* Containers of every engine (sbx_count) and engine calls in flight
 * (sbx_busy), summed. */
uint32_t nodes_containers (const nodes_t *ns);
uint32_t nodes_busy (const nodes_t *ns);
/* Some engine up holds profile i's image, verified: it can run now. */
bool nodes_profile_ready (const nodes_t *ns, size_t i);
/* Some engine is up and its pools are healthy (pool_mgr_healthy with
 * ready_pool_grace_ms). */
bool nodes_pools_healthy (const nodes_t *ns);
/* Some engine is up. */
bool nodes_any_up (const nodes_t *ns);
/* The image id profile i's tag resolves to (the first engine up that has
 * it, in config order), or NULL while none does. */
const char *nodes_current_image (const nodes_t *ns, size_t i);

size_t nodes_count (const nodes_t *ns);
sched_node_t *nodes_at (nodes_t *ns, size_t k);
const sched_node_t *nodes_at_const (const nodes_t *ns, size_t k);

/* ---- placement ------------------------------------------------------- */

/* The engine for a request of profile i (p, limits): among the engines up
 * that hold a verified image of it and are not in tried (bit per node
 * index), the one with the most ready containers for its key, else the
 * one with the most room per weight; the profile's current image first,
 * engines whose creates fail last.  NULL with err (WB_E_ENGINE_DOWN: none
 * is up, or every one that could was tried; WB_E_BUSY: the image is not
 * ready anywhere yet). */
sched_node_t *nodes_place (nodes_t *ns, const prof_t *p, const prof_limits_t *limits, size_t i,
                           uint32_t tried, wb_err_t *err);
/* Some engine up other than except and not in tried. */
bool nodes_other_up (const nodes_t *ns, const sched_node_t *except, uint32_t tried);

/* ---- one node -------------------------------------------------------- */

const char *node_name (const sched_node_t *n);
size_t node_index (const sched_node_t *n);
sched_node_state_t node_state (const sched_node_t *n);
eng_t *node_engine (sched_node_t *n);
/* Its containers' sandbox (their life: sandbox.h). */
sbx_t *node_sandbox (sched_node_t *n);
pool_mgr_t *node_pools (sched_node_t *n);
startgate_t *node_gate (sched_node_t *n);
/* The verified image id of profile i it holds, or NULL. */
const char *node_image (const sched_node_t *n, size_t i);
/* How its containers of profile i must be described (its dialect, see
 * sandbox.h), into d; returns d, or NULL for Docker. */
const sbx_dialect_t *node_dialect (const sched_node_t *n, size_t i, sbx_dialect_t *d);
/* An execution was placed on it, or left it (the count /v1/engines
 * shows). */
void node_exec_enter (sched_node_t *n);
void node_exec_leave (sched_node_t *n);
/* Starts come first: while a start is in flight or queued at its gate,
 * its pools' top-ups and removals wait (pool_mgr_set_yield). */
void node_yield_update (sched_node_t *n);

/* What /v1/engines, /metrics and the agent show of a node: a copy, valid
 * until the next event. */
typedef struct node_view
{
  const char *name;
  const char *endpoint;
  sched_node_state_t state;
  bool tls;
  bool podman;
  const char *api_version;
  const sched_engine_facts_t *facts;
  uint64_t facts_at_ms;
  const char *refused;    /* "" unless REFUSED */
  const char *last_error; /* "" when none */
  uint64_t last_seen_ms, state_since_ms;
  uint64_t ping_failures, taken_out;
  uint32_t executions;
  uint64_t executions_total;
  uint32_t weight;
  uint32_t max_containers;
  uint32_t containers; /* sbx_count */
  size_t images;       /* profiles whose image it holds, verified */
  const startgate_t *gate;
  pool_mgr_t *pools; /* for pool_mgr_stats: read, never changed */
} node_view_t;

void node_view (const sched_node_t *n, node_view_t *v);

#endif
