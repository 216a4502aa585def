/* nodes/nodes_int.h: the insides of a node and of the set (nodes.c).
 * Private: only nodes/ and the unit tests include it; everything else
 * goes through nodes.h. */
#ifndef WARMBOX_NODES_INT_H
#define WARMBOX_NODES_INT_H

#include "nodes/nodes.h"

struct sched_node
{
  nodes_t *ns;
  size_t index;                     /* in ns->nodes and the config's engines */
  const sched_engine_config_t *cfg; /* ns->cfg.engines[index] */
  char endpoint[256];               /* as resolved (never a secret: TLS files are paths) */
  eng_t *eng;
  sbx_t *sbx;
  pool_mgr_t *pools;
  startgate_t gate;
  /* Per profile (ns->profiles order): the profile's image id when this
   * engine holds that very image (inspected by id) and a container of the
   * profile created on it was seen to hold every hardening setting
   * (sbx_verify_created), else NULL. */
  char **image_ids;
  /* Per profile, Podman only: the allowlist's file on the engine's host
   * (the profile's list plus what catatonit needs), else NULL. */
  char **seccomp_files;
  struct image_probe *probes; /* verifications in flight */
  bool podman;                /* Podman's Docker-compatible service (its ping says so) */
  sched_engine_facts_t facts; /* from /info when it was admitted */
  uint64_t facts_at_ms;       /* when /info was last read (wb_now_ms), 0: never */
  uint32_t failed_infos;      /* re-reads of /info failed in a row while up */
  char refused[512];          /* why it is REFUSED */
  sched_node_state_t state;
  char api_version[16];
  uint64_t last_seen_ms; /* last answered ping (wb_now_ms), 0: never */
  uint64_t state_since_ms;
  uint64_t ping_failures; /* all of them */
  uint64_t taken_out;     /* times */
  char last_error[512];
  eng_req_t *ping_req, *info_req;
  bool reaped, reaping;  /* orphans of dead daemons reaped once it answered */
  bool reap_stale;       /* the reap in flight began before it was taken out */
  uint32_t failed_pings; /* in a row */
  uint32_t executions;   /* executions placed on it now */
  uint64_t executions_total;
};

struct nodes
{
  struct event_base *base;
  nodes_config_t cfg;
  const prof_set_t *profiles;
  sched_node_t *nodes;
  size_t n_nodes;
  char instance_id[33];
  store_t *store; /* pool events go there (NULL: nowhere) */
  bool engine_ok; /* some engine is up */
  bool draining;
  struct image_sync *syncs;         /* image resolutions in flight */
  struct image_transfer *transfers; /* images on their way between engines */
  /* Image ids per profile (same order as profiles->items): the profile's
   * tag as the first engine (in config order) that is up and has it
   * resolves it.  Every other engine is given that very image. */
  char **image_ids;
  nodes_lost_cb on_lost;
  void *lost_arg;
};

#endif
