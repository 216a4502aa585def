/* daemon/daemon.h: warmboxd's context, shared by the files of
 * scheduler/ (one per daemon; main.c owns it).
 *
 * Ownership: the context owns the configuration, the profile sets, the
 * engine client, the sandbox, the pool manager, the store and every
 * execution (through its registry: executions are found by serial, so
 * nothing that outlives one, such as a store commit, holds a pointer to
 * it). */
#ifndef WARMBOX_SCHED_DAEMON_H
#define WARMBOX_SCHED_DAEMON_H

#include "exec/admission.h"
#include "api/auth.h"
#include "daemon/config.h"
#include "exec/exec.h"
#include "api/metrics.h"
#include "nodes/startgate.h"
#include "warmbox/engine.h"
#include "warmbox/pool.h"
#include "warmbox/profile.h"
#include "warmbox/sandbox.h"
#include "warmbox/store.h"

struct event_base;

typedef enum sched_node_state
{
  NODE_CONNECTING, /* not answered yet: no work */
  NODE_UP,         /* takes work */
  NODE_DOWN,       /* taken out: stopped answering (or answers garbage) */
  NODE_RECOVERING, /* answers again: its leftovers are removed before it takes work */
  NODE_REFUSED,    /* cannot run the sandboxes as asked (a created container lacks a
                      limit, say): never used until warmboxd restarts */
} sched_node_state_t;

/* One engine warmboxd schedules on ("engines" in the config), with what
 * belongs to it alone: its client, its sandbox (containers, reaper), its
 * pools, its start gate, and the profiles' images it holds.  Made at
 * start-up, one per configured engine, and freed at exit: an execution
 * may keep a pointer to the node it runs on. */
/* What an engine says of itself in /info that its verification stands
 * on.  Read when it is admitted, and again at the first ping
 * cfg.engine_recheck_ms after the last read while it is up: any change
 * (restarted with another runtime or version, rootless, another host or
 * engine behind the address), or /info failing SCHED_INFO_FAILURES_MAX
 * times in a row, takes it out, to be admitted and verified again. */
#define SCHED_INFO_FAILURES_MAX 3 /* re-reads of /info failed in a row that take an engine out */

typedef struct sched_engine_facts
{
  char kind[8];             /* "docker" or "podman" (its ping says) */
  char engine_id[96];       /* Docker's ID ("" for Podman, whose ID is new at every call) */
  char server_version[48];
  char default_runtime[32];
  char runtimes[128];       /* comma-separated */
  char cgroup_version[8];
  char security[256];       /* SecurityOptions, ';'-separated */
} sched_engine_facts_t;

typedef struct sched_node
{
  sched_ctx_t *ctx;
  size_t index;                     /* in ctx->nodes and the config's engines */
  const sched_engine_config_t *cfg; /* ctx->cfg.engines[index] */
  char endpoint[256];               /* as resolved (never a secret: TLS files are paths) */
  eng_t *eng;
  sbx_t *sbx;
  pool_mgr_t *pools;
  startgate_t gate;
  /* Per profile (ctx->profiles order): the profile's image id when this
   * engine holds that very image (inspected by id) and a container of the
   * profile created on it was seen to hold every hardening setting
   * (sbx_verify_created), else NULL. */
  char **image_ids;
  /* Per profile, Podman only: the allowlist's file on the engine's host
   * (the profile's list plus what catatonit needs), else NULL. */
  char **seccomp_files;
  struct image_probe *probes; /* verifications in flight */
  bool podman;              /* Podman's Docker-compatible service (its ping says so) */
  sched_engine_facts_t facts; /* from /info when it was admitted */
  uint64_t facts_at_ms;     /* when /info was last read (wb_now_ms), 0: never */
  uint32_t failed_infos;    /* re-reads of /info failed in a row while up */
  char refused[512];        /* why it is REFUSED */
  sched_node_state_t state;
  char api_version[16];
  uint64_t last_seen_ms;    /* last answered ping (wb_now_ms), 0: never */
  uint64_t state_since_ms;
  uint64_t ping_failures;   /* all of them */
  uint64_t taken_out;       /* times */
  char last_error[512];
  eng_req_t *ping_req, *info_req;
  bool reaped, reaping;     /* orphans of dead daemons reaped once it answered */
  bool reap_stale;          /* the reap in flight began before it was taken out */
  uint32_t failed_pings;    /* in a row */
  uint32_t executions;      /* executions placed on it now */
  uint64_t executions_total;
} sched_node_t;

const char *sched_node_state_name (sched_node_state_t st);

struct sched_ctx
{
  struct event_base *base;
  sched_config_t cfg;
  prof_set_t *profiles;
  sched_node_t *nodes;
  size_t n_nodes;
  char instance_id[33];
  bool leaving;       /* SIGTERM seen: /readyz fails, the agent says drain */
  bool draining;      /* drain_delay_ms later: refuse new work, finish what runs */
  bool engine_ok;     /* some engine is up */
  struct image_sync *syncs;         /* image resolutions in flight */
  struct image_transfer *transfers; /* images on their way between engines */
  /* Image ids per profile (same order as profiles->items): the profile's
   * tag as the first engine (in config order) that is up and has it
   * resolves it.  Every other engine is given that very image. */
  char **image_ids;
  store_t *store;
  sched_auth_t auth;
  metrics_t metrics;
  /* Every execution in flight (exec.c's registry), and those of them that
   * wait for room to run (max_concurrent), fair across clients. */
  sched_exec_t *execs;
  size_t n_execs;
  adm_queue_t admission;
  struct event *admit_ev;  /* admits from the queue, from the loop */
  uint64_t end_us[32];     /* when the last executions ended: the service rate */
  uint32_t n_ends;
  uint64_t next_serial;
  /* Profile sets replaced by SIGHUP: requests admitted before it still
   * point into them.  Freed when nothing runs. */
  prof_set_t *retired[16];
  size_t n_retired;
};

/* Set up everything but the listeners, the signals and the timers: engine
 * client, sandbox, pools, store (which marks rows a dead daemon left
 * "running" as "interrupted").  ctx->cfg and ctx->profiles must be loaded;
 * ctx->base made.  -1 with err; sched_ctx_clear then frees what was made. */
WB_MUST_CHECK int sched_ctx_init (sched_ctx_t *ctx, wb_err_t *err);
/* Abandon executions still in flight, close the store (its pending records
 * get up to store_timeout_ms), free the rest.  Leaves cfg and profiles to
 * the caller.  Can't fail. */
void sched_ctx_clear (sched_ctx_t *ctx, uint32_t store_timeout_ms);

/* (Re)make the pools of profile i on every engine up that holds its
 * image. */
void sched_pool_update (sched_ctx_t *ctx, size_t i);
/* Resolve (or re-resolve) every profile's image id and see that every
 * engine up holds it (sending it from one that does); pools follow.
 * Async. */
void sched_images_refresh (sched_ctx_t *ctx);
/* SIGHUP replaced the profiles: image ids of unchanged images carry over
 * (old, new: the two sets), retired languages' pools drain.  -1 without
 * memory, nothing changed. */
WB_MUST_CHECK int sched_profiles_swap (sched_ctx_t *ctx, prof_set_t *fresh);
/* Ping every engine (health): one that fails is taken out (its waiting
 * work goes elsewhere, what it ran ends engine_lost), one that answers
 * again is re-admitted once its leftovers are gone.  Async. */
void sched_nodes_ping (sched_ctx_t *ctx);
/* Containers of every engine (sbx_count) and engine calls in flight
 * (sbx_busy), summed. */
uint32_t sched_nodes_containers (const sched_ctx_t *ctx);
uint32_t sched_nodes_busy (const sched_ctx_t *ctx);
/* How engine n's containers of profile i must be described (its
 * dialect, see sandbox.h), into d; returns d, or NULL for Docker. */
const sbx_dialect_t *sched_node_dialect (const sched_node_t *n, size_t i, sbx_dialect_t *d);
/* Some engine up holds profile i's image, verified: it can run now. */
bool sched_profile_ready (const sched_ctx_t *ctx, size_t i);
/* /readyz and the agent: some engine is up and its pools are healthy
 * (pool_mgr_healthy with ready_pool_grace_ms). */
bool sched_pools_healthy (sched_ctx_t *ctx);
/* This daemon's owner label (the same on every engine). */
const char *sched_owner (const sched_ctx_t *ctx);

#endif
