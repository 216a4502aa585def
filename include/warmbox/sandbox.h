/* sandbox: one container's life on one engine, and nothing else.
 *
 * This is the only module that builds a container's create body, labels a
 * container, picks its uid, creates it, runs it (run.c: attach, start,
 * wait, kill, inspect, or warmbox-oci's one exchange), removes it and
 * reaps what a dead daemon left behind.  Pools (policy) and executions (what runs in a
 * container) go through it, so no path can create a container that differs
 * in hardening or labels, or that the reaper cannot find.
 *
 * Every container carries four labels:
 *   warmbox.instance  this daemon's random instance id
 *   warmbox.owner     host/boot id/pid/process start time of this daemon: the
 *                     reaper of a later daemon on this host removes the
 *                     containers of an owner that is gone
 *   warmbox.pool      the key of the pool it was made for
 *   warmbox.language  the profile's language
 * and runs as a uid of its own from one rotation (the per-uid nproc limit
 * then bounds that container alone).
 *
 * Building a body fails closed: any allocation failure while adding a field
 * fails the whole body; a partial body (say, one without ReadonlyRootfs or
 * its seccomp option) is never produced.
 *
 * Ownership: a sandbox manager (sbx_t) belongs to its creator and borrows
 * the engine.  A template (sbx_tmpl_t) belongs to whoever made it.  A created
 * container belongs to the caller of sbx_create until it is given back with
 * sbx_remove, which never fails: a removal the engine refuses is retried
 * (with backoff) while the daemon lives, and left to the next start-up's
 * reaper after that.
 *
 * Callbacks run on the event loop.  sbx_create's callback may call back into
 * the sandbox (create, remove).
 */
#ifndef WARMBOX_SANDBOX_H
#define WARMBOX_SANDBOX_H

#include "warmbox/engine.h"
#include "warmbox/profile.h"
#include "warmbox/wb.h"

struct event_base;
typedef struct sbx sbx_t;
typedef struct sbx_tmpl sbx_tmpl_t;
typedef struct sbx_op sbx_op_t;

#define SBX_UID_FIRST 20000u
#define SBX_UID_COUNT 40000u
#define SBX_KEY_MAX 160

/* ---- create bodies (pure; no I/O) ------------------------------------ */

/* How an engine differs from Docker in what a create body must say
 * (every such difference is here, behind this one switch).  NULL: Docker. */
typedef struct sbx_dialect
{
  /* Podman's Docker-compatible service: it reads seccomp= as a file on
   * its host (seccomp_file, holding the profile's list plus what its init,
   * catatonit, needs: sbx_seccomp_with), and mounts writable tmpfs on /run
   * and /var/tmp of a read-only root unless told otherwise (they are
   * mounted read-only, empty, noexec). */
  bool podman;
  const char *seccomp_file;
} sbx_dialect_t;

/* Who a container is: everything of its body that is not the profile. */
typedef struct sbx_identity
{
  const char *image_id;         /* "sha256:..." (the exact image) */
  const char *instance_id;      /* warmbox.instance */
  const char *owner;            /* warmbox.owner */
  const char *pool_key;         /* warmbox.pool */
  uint32_t uid;                 /* the non-root uid:gid the program runs as */
  const sbx_dialect_t *dialect; /* NULL: Docker */
} sbx_identity_t;

/* Append the Engine API create body for profile p with limits lim (already
 * within p->max) to out: every hardening setting of DESIGN.md and the four
 * labels.  On error (memory) returns -1, err set, and out holds nothing of
 * the body. */
WB_MUST_CHECK int sbx_body (const prof_t *p, const prof_limits_t *lim, const sbx_identity_t *id,
                            wb_buf_t *out, wb_err_t *err);

/* The pool key of a container recipe:
 *   "<language>/<image id, 19 chars>/<profile hash, 12 chars>"
 * with "/m<MB>" appended when memory_mb is not the profile's default (the
 * memory limit belongs to the container's cgroup, so such a container can't
 * serve a default request).  Writes at most SBX_KEY_MAX bytes.  Can't fail. */
void sbx_pool_key (const prof_t *p, const prof_limits_t *lim, const char *image_id,
                   char out[SBX_KEY_MAX]);

/* A container recipe, rendered and checked once: the body of profile p with
 * limits lim on image_id.  Independent of p afterwards (p may be freed).
 * NULL with err on allocation failure. */
sbx_tmpl_t *sbx_tmpl_new (const prof_t *p, const prof_limits_t *lim, const char *image_id,
                          const sbx_dialect_t *dialect, wb_err_t *err);

/* ---- engines that differ (pure; no I/O) ------------------------------ */

/* The system calls Podman's init (catatonit) makes that Docker's
 * (docker-init) does not, so that profiles' allowlists miss: derived with
 *   strace -f catatonit -- /bin/sh -c 'sleep 0.1; exit 3'
 * (tests/integration/test_podman.py derives them again and fails on any
 * call missing here).  NULL-terminated. */
extern const char *const sbx_catatonit_syscalls[];

/* Profile p's allowlist with extra (NULL-terminated) names added to its
 * unconditional allow rule, as compact JSON appended to out: what an
 * engine whose init needs more (Podman: sbx_catatonit_syscalls) runs
 * under.  -1 with err (memory, or an allowlist without such a rule). */
WB_MUST_CHECK int sbx_seccomp_with (const prof_t *p, const char *const *extra, wb_buf_t *out,
                                    wb_err_t *err);

/* Does a created container (the engine's inspect reply, json[0..len))
 * hold every hardening setting of template t?  Compared: Memory,
 * MemorySwap, PidsLimit, NanoCpus, ReadonlyRootfs, no capability added and
 * all dropped (Podman lists the defaults it dropped rather than "ALL"),
 * no-new-privileges and a seccomp option, NetworkMode, Init, the tmpfs
 * mounts (no more than asked: Podman adds writable ones unless told not
 * to), the ulimits, Config.User.  An engine may say it enforces limits
 * and drop them (rootless Podman on cgroup v1 shows Memory 0): this is
 * how warmboxd finds out.  0, or -1 with err naming the first difference.
 * Fuzzed by its callers' inputs (the reply is the engine's). */
WB_MUST_CHECK int sbx_verify_created (const sbx_tmpl_t *t, const char *json, size_t len,
                                      wb_err_t *err);
void sbx_tmpl_free (sbx_tmpl_t *t);
/* Its pool key (see sbx_pool_key), language and image id.  Never NULL. */
const char *sbx_tmpl_key (const sbx_tmpl_t *t);
const char *sbx_tmpl_language (const sbx_tmpl_t *t);
const char *sbx_tmpl_image_id (const sbx_tmpl_t *t);

/* ---- the manager ----------------------------------------------------- */

typedef struct sbx_config
{
  const char *instance_id; /* copied */
  /* Told of "created", "create_failed" and "destroyed" with the container's
   * language, pool key and id, a duration in ms and a detail (the engine's
   * error, for the operator).  May be NULL.  Must not call into the
   * sandbox. */
  void (*on_event) (void *arg, const char *event, const char *language, const char *pool_key,
                    const char *container_id, double duration_ms, const char *detail);
  /* A container stopped existing (removed, or its create failed): room
   * under a cap.  May be NULL.  Must not free the sandbox. */
  void (*on_gone) (void *arg);
  void *arg;
  /* The host-wide uid leases' folder (sandbox/uids.c), shared by every
   * daemon of the host; NULL: uids rotate by this sandbox alone. */
  const char *uid_dir;
  uint32_t retry_ms;     /* first retry of a failed removal; 0: 1000 */
  uint32_t reconcile_ms; /* reconcile pass after a failed create or removal; 0: 1000 */
} sbx_config_t;

/* No I/O.  -1 with err on allocation failure. */
WB_MUST_CHECK int sbx_new (struct event_base *base, eng_t *eng, const sbx_config_t *cfg,
                           sbx_t **out, wb_err_t *err);
/* Stop: creates in flight are cancelled (their containers, if the engine
 * made them, are left to the reaper), removals waiting for a retry are
 * logged and dropped.  No callback runs afterwards.  NULL is a no-op. */
void sbx_free (sbx_t *s);

/* This daemon's warmbox.owner label value.  Never NULL. */
const char *sbx_owner (const sbx_t *s);
/* The next uid of the rotation every container of this sandbox shares
 * (without a uid_dir: with one, sbx_create leases a uid no other live
 * sandbox of the host has).  Can't fail. */
uint32_t sbx_next_uid (sbx_t *s);

/* Create one container from t.  cb(arg, id, NULL) with the new id (valid
 * during the call; the caller owns the container from then on), or
 * cb(arg, NULL, err) when the engine refused.  Returns NULL with err when
 * nothing could be sent (memory); cb is then never called.  Cancelling
 * (sbx_op_cancel) before the answer: no callback, and a container the
 * engine makes anyway is removed.  The container is named before the
 * create is sent (wb-<instance id>-<serial>): when the answer may have
 * been lost (err WB_E_ENGINE_DOWN or WB_E_ENGINE), the sandbox removes it
 * by that name, counted in sbx_count until the engine has answered the
 * removal. */
typedef void (*sbx_created_cb) (void *arg, const char *id, const wb_err_t *err);
sbx_op_t *sbx_create (sbx_t *s, const sbx_tmpl_t *t, sbx_created_cb cb, void *arg, wb_err_t *err);
void sbx_op_cancel (sbx_op_t *op);

/* Remove a container (force: a running one is killed).  Never fails, see
 * above.  language and pool_key are for the event log. */
void sbx_remove (sbx_t *s, const char *id, const char *language, const char *pool_key);

/* Containers of this sandbox that exist on the engine or may (creating,
 * live, or being removed).  The global cap counts these. */
uint32_t sbx_count (const sbx_t *s);
/* Of those, the ones given back and not removed yet. */
uint32_t sbx_removing (const sbx_t *s);
/* Creates and removals in flight (removals waiting for a retry excluded). */
uint32_t sbx_busy (const sbx_t *s);
/* Try waiting removals now instead of at their next retry (shutdown). */
void sbx_retry_now (sbx_t *s);

/* Remove the labelled containers of daemons that are gone: an owner label
 * of this host with a dead pid (or one now naming another process), or of
 * an earlier boot of this host.  Another host's daemons reap their own.
 * Async; logs what it removes; done (may be NULL) runs once the list was
 * answered, with the number of removals started or -1. */
void sbx_reap_orphans (sbx_t *s, void (*done) (void *arg, int n), void *arg);

/* Remove containers of this instance that the sandbox does not know:
 * creates the engine performed although their reply was lost.  Runs by
 * itself every minute and soon after a failed create; this call asks for a
 * pass now (deferred while creates are in flight).  Async; can't fail. */
void sbx_reconcile (sbx_t *s);

/* ---- a container's run (run.c) --------------------------------------- */

/* Runs on this sandbox's engine go out as warmbox-oci's one exchange
 * (eng_run_open) when one_request, else as the Docker Engine API's four
 * (attach, wait, start, and an inspect after exit code 137).  nodes/ sets
 * it from what the engine says of itself (warmbox-oci names its runtime
 * in /info).  Runs already open keep theirs.  Can't fail. */
void sbx_set_one_request (sbx_t *s, bool one_request);
bool sbx_one_request (const sbx_t *s);

/* One run of one created container, which the caller owns (sbx_create)
 * and still removes with sbx_remove after sbx_run_free: the run opens its
 * streams and watches its exit (ready), takes its input, starts it, and
 * reports its output, its exit and its output's end, each once; a kill
 * and an OOM check may be asked on the way.  Every callback runs on the
 * loop, never inside the call that asked for it, and may free the run
 * (sbx_run_free), after which none runs. */
typedef struct sbx_run sbx_run_t;
typedef struct sbx_run_cbs
{
  /* Streams attached, exit watched: give the input, then start. */
  void (*ready) (void *arg);
  /* The start's answer.  rc -1 with err: not_started when the engine
   * said outright that the container did not start (it never will);
   * otherwise it may have run. */
  void (*started) (void *arg, int rc, bool not_started, const wb_err_t *err);
  /* Output, stream ENG_STREAM_STDOUT or ENG_STREAM_STDERR, in order. */
  void (*data) (void *arg, int stream, const char *data, size_t len);
  /* The container's exit: rc 0 with its code, or -1 with err when it
   * cannot be learned (WB_E_ENGINE_DOWN: the engine was lost).  Before a
   * start was sent or answered, either is the engine failing the run. */
  void (*exited) (void *arg, int rc, long code, const wb_err_t *err);
  /* The output ended: rc 0, or -1 with err (it was cut). */
  void (*output_end) (void *arg, int rc, const wb_err_t *err);
  /* A kill (sbx_run_kill) the engine did not carry out. */
  void (*kill_failed) (void *arg, const wb_err_t *err);
  /* sbx_run_oom's answer: did the kernel kill it for memory? */
  void (*oom) (void *arg, int rc, bool oom, const wb_err_t *err);
} sbx_run_cbs_t;

/* Open a run of container id (its id as sbx_create gave it).  NULL with
 * err when nothing could be sent; no callback then. */
sbx_run_t *sbx_run_open (sbx_t *s, const char *id, const sbx_run_cbs_t *cbs, void *arg,
                         wb_err_t *err);
/* The container's whole stdin, after ready and before the start: copied
 * (the caller wipes its own), then stdin is closed.  -1 with err when it
 * cannot be queued (memory, the streams gone). */
WB_MUST_CHECK int sbx_run_input (sbx_run_t *r, const void *data, size_t len, wb_err_t *err);
/* Start it (once).  -1 with err when nothing could be sent: it did not
 * start, and started is not called. */
WB_MUST_CHECK int sbx_run_start (sbx_run_t *r, wb_err_t *err);
/* SIGKILL it; kill_failed if the engine does not.  -1 with err when
 * nothing could be sent. */
WB_MUST_CHECK int sbx_run_kill (sbx_run_t *r, wb_err_t *err);
/* After its exit: ask whether it was killed for memory (oom answers).
 * -1 with err when nothing could be asked. */
WB_MUST_CHECK int sbx_run_oom (sbx_run_t *r, wb_err_t *err);
/* No more output wanted (data is not called again).  Can't fail. */
void sbx_run_mute (sbx_run_t *r);
/* Close its streams and cancel what is in flight; no callback runs
 * afterwards.  The container is left as it is.  NULL is a no-op. */
void sbx_run_free (sbx_run_t *r);

/* Resolve an image reference to its id ("sha256:...").  cb(arg, id, NULL)
 * or cb(arg, NULL, err) (not found: WB_E_NOT_FOUND).  NULL with err when
 * nothing could be sent. */
typedef void (*sbx_image_cb) (void *arg, const char *image_id, const wb_err_t *err);
sbx_op_t *sbx_resolve_image (sbx_t *s, const char *ref, sbx_image_cb cb, void *arg, wb_err_t *err);

/* Is the daemon named by an owner label gone?  Labels of other hosts are
 * never judged gone (their daemons reap their own).  Reads /proc. */
bool sbx_owner_gone (const sbx_t *s, const char *owner);
/* The same against a given host name and boot id (for tests). */
bool sbx_owner_is_dead (const char *owner, const char *host, const char *boot_id);

#endif
