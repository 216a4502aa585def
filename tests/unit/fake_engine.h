/* tests/unit/fake_engine.h: an in-process Docker engine for unit tests.
 *
 * tests/unit/fake_engine.c implements include/warmbox/engine.h (all of it
 * but the pure protocol helpers, which stay in engine/proto.c), so a test
 * binary links it instead of engine/engine.c and engine/attach.c and drives
 * pools, sandboxes and executions without Docker, with fault injection.
 * The contract of engine.h holds: every callback runs on the event loop,
 * never from inside the call that started the request, exactly once unless
 * the request is cancelled.
 *
 * Containers live in memory.  When one is started and its stdin is closed,
 * the fake reads the warmbox stdin frame
 *   "<code length>[ <arg length>...][ f<name
 * length>:<size>...]\n<code><args...><files...><stdin...>" and interprets the code as a tiny
 * script, commands separated by ';' or newlines: out TEXT   TEXT and "\n" to stdout        err TEXT
 * the same on stderr sleep MS   pause MS milliseconds          exit N    exit with N (& 255) flood
 * N    N bytes of 'x' to stdout, up to 64 KiB per loop pass oom        exit 137, OOMKilled hang run
 * until killed die N      exit N with no init's report (the init killed, the runtime dead)
 *   cutreport N  the init's report cut short (mark, files, half a usage line), exit N
 *   oomkill    exit 137, OOMKilled, no init's report (the kernel killed it all)
 *   stall N    exit N, its output stream never ending until it is removed
 *   echo       the program's stdin to stdout  args      each arg + "\n"
 *   file NAME CONTENT  a file the init reports
 *   state TEXT the session's state for its next call: the one this call got
 *              (the frame's file .warmbox-session), then TEXT (a session's
 *              execution: the init's line ends " s<max>"; the trailer then
 *              has its session section)
 *   showstate  the state this call got, to stdout
 * The frame's files (" f<name length>:<size>" in the header) are skipped.
 * An unknown command writes "fake: unknown command\n" to stderr and exits
 * 2; a malformed frame "fake: bad stdin frame\n", exit 2.  The end of the
 * script exits 0.  On exit the output already written is delivered, the
 * container becomes exited, the waits answer, then the attach streams end.
 *
 * Faults (see fake_engine_faults_t) are decided when a call is made:
 *   null     the call returns NULL with WB_E_NOMEM; nothing else happens
 *   down/fail  "connection refused": WB_E_ENGINE_DOWN, the operation is
 *            not performed
 *   hang     no answer; after eng_config_t.request_timeout_ms (ping: at most
 *            5 s, as engine.c; wait: never) WB_E_ENGINE_DOWN "timed out";
 *            the operation is not performed
 *   garbage  the operation IS performed, the reply is unreadable:
 *            WB_E_ENGINE "reply is not JSON" (a wait: when the container
 *            exits; an attach: on_ready, then on_end(-1) "malformed stream")
 *   lost     the operation IS performed, the connection drops before its
 *            answer (a proxy in front of the engine dies): WB_E_ENGINE_DOWN
 *            "connection to the engine lost" (a wait: when the container
 *            exits; an attach: on_end(-1) before on_ready)
 * Each call to ping, image inspect, create, start, wait, kill, inspect,
 * remove, list and attach_open counts, from 1, from eng_new on; fault
 * numbers name those counts.  (A call refused at once as invalid, a bad id
 * say, is not counted: the real client sends nothing either.)
 *
 * Engine-side semantics worth knowing: an op takes effect when its answer
 * is due (after the latency), not when called; wait is next-exit, so on an
 * exited container it waits for the removal, which wakes waits with the
 * last exit code (0 if never run); attach to an exited container gives
 * on_ready then on_end(0); closing an attach stream closes the container's
 * stdin when its body says "StdinOnce": true; kill with SIGx exits 128+x.
 * Answers are FIFO; on a normal exit the waits answer before on_end, after
 * a kill either may come first (as with Docker).  A create may name its
 * container (409 when the name is taken); every call on a container takes
 * its full id or its name.
 *
 * eng_run_open (warmbox-oci's run) is one call, FAKE_OP_RUN: the attach,
 * the frame as its stdin, the start and, on stream 3, "started" and
 * "exit <code> <oom>" (before the stream's end).  A container that is
 * gone or not created answers 404 / 409 (eng_attach_status; nothing
 * starts); down/fail: never connected (status -1); hang: no 101, the
 * request timeout ends it (status 0; nothing starts); garbage: started,
 * then a malformed stream; lost: started, then the connection drops
 * before the 101 (status 0).
 *
 * Not supported (as with the real client): eng_free from inside one of its
 * own callbacks, or using an attach handle after eng_free (eng_free closes
 * and frees every attach stream).  Single-threaded, like the daemon. */
#ifndef WARMBOX_FAKE_ENGINE_H
#define WARMBOX_FAKE_ENGINE_H

#include "warmbox/engine.h"

struct cJSON;

/* The fake is the engine: a fake_engine_t is the eng_t from eng_new. */
typedef struct eng fake_engine_t;
typedef struct fake_container fake_container_t;

typedef enum fake_op
{
  FAKE_OP_ANY = 0, /* in fake_engine_faults_t.op: count every call */
  FAKE_OP_PING,
  FAKE_OP_IMAGE_INSPECT,
  FAKE_OP_CREATE,
  FAKE_OP_START,
  FAKE_OP_WAIT,
  FAKE_OP_KILL,
  FAKE_OP_INSPECT,
  FAKE_OP_REMOVE,
  FAKE_OP_LIST,
  FAKE_OP_ATTACH,
  FAKE_OP_INFO,
  FAKE_OP_IMAGE_SAVE,
  FAKE_OP_IMAGE_LOAD,
  FAKE_OP_RUN, /* eng_run_open: warmbox-oci's one exchange */
  FAKE_OP_COUNT
} fake_op_t;

/* Each knob names one call, 1-based; 0 is off.  With op FAKE_OP_ANY the
 * number counts every call; otherwise only calls of that operation (so
 * {.op = FAKE_OP_CREATE, .fail_call = 2} fails the second create), and
 * other operations are not affected by the knobs.  When two knobs name
 * the same call, null wins, then fail, hang, garbage, lost. */
typedef struct fake_engine_faults
{
  fake_op_t op;
  unsigned long fail_call;
  unsigned long hang_call;
  unsigned long garbage_call;
  unsigned long lost_call;
  unsigned long null_call;
  unsigned long fail_from; /* every call of op from this one on fails (0: none) */
} fake_engine_faults_t;

typedef struct fake_image
{
  const char *name;   /* as passed to eng_image_inspect */
  const char *id;     /* "sha256:..." */
  const char *config; /* image save writes it as the config (its SHA-256 should be id) */
} fake_image_t;

/* Read by every eng_new (the faults are copied; the image table is
 * borrowed and must outlive the engines made from it). */
typedef struct fake_engine_config
{
  long latency_ms; /* each answer's delay; 0: on the next loop pass */
  fake_engine_faults_t faults;
  const fake_image_t *images;
  size_t n_images;
  bool down; /* start as if set_down (fake, true) */
  /* It is warmbox-oci: /info names a runtime ("fake-runc"), so warmboxd
   * runs its containers with eng_run_open (fake_engine.c: the run). */
  bool oci;
} fake_engine_config_t;

extern fake_engine_config_t fake_engine_config;

/* Back to all zeros (no latency, no faults, no images, up). */
void fake_engine_config_reset (void);

/* The fake behind an engine (the same object).  Never fails. */
fake_engine_t *fake_engine_of (eng_t *eng);
/* The engine made last by eng_new that is not freed yet, or NULL: for
 * tests whose code under test creates its own engine. */
fake_engine_t *fake_engine_current (void);

/* The live fault knobs, to change between calls.  Never NULL. */
fake_engine_faults_t *fake_engine_faults (fake_engine_t *fe);
/* All knobs off (down is not a knob: see set_down).  Can't fail. */
void fake_engine_reset_faults (fake_engine_t *fe);
/* Calls made so far: all of them for FAKE_OP_ANY, else of that op.  So
 * "fail the next create" is fail_call = fake_engine_calls (fe, op) + 1
 * with op = FAKE_OP_CREATE. */
unsigned long fake_engine_calls (const fake_engine_t *fe, fake_op_t op);

void fake_engine_set_latency (fake_engine_t *fe, long ms);
/* Runs from now on (NULL: as warmbox-oci does) answer first with line
 * instead of "started" (borrowed): "not-started ..." leaves the
 * container unstarted and ends the stream; "" says nothing after the 101
 * and starts nothing (a stuck helper); any other line ("start-failed
 * ...", an exit line that does not parse) starts it as usual. */
void fake_engine_set_run_answer (fake_engine_t *fe, const char *line);
/* The request bound from now on (eng_config_t.request_timeout_ms): what
 * hung requests wait, and what eng_request_timeout_ms says. */
void fake_engine_set_request_timeout (fake_engine_t *fe, long ms);
/* What /info says as ServerVersion from now on (borrowed; NULL: "fake"):
 * as if the engine were restarted in another version. */
void fake_engine_set_version (fake_engine_t *fe, const char *version);
/* Every wait pending on a running container answers 500 now, the
 * containers running on (Podman did, under load). */
void fake_engine_fail_waits (fake_engine_t *fe);
/* Its pings say it is Podman (or Docker again). */
void fake_engine_set_podman (fake_engine_t *fe, bool podman);
/* Replace the image table (borrowed).  Images an image load added (up to
 * 16) are the engine's own and stay.  Image save writes one line naming
 * the image and its id; image load reads it back: the archive of the
 * fake.  Image inspect finds an image by name or by id. */
void fake_engine_set_images (fake_engine_t *fe, const fake_image_t *images, size_t n);
/* The shipped profiles' images (warmbox/<language>:latest), each id the
 * SHA-256 of its config as an engine's is (eng_archive_check checks it):
 * what the tests that run a whole daemon on the fake give it. */
extern const fake_image_t fake_shipped_images[];
extern const size_t fake_n_shipped_images;
/* While down, every new call answers WB_E_ENGINE_DOWN (asynchronously);
 * requests, attach streams and programs already under way go on. */
void fake_engine_set_down (fake_engine_t *fe, bool down);
/* The engine dies (dockerd SIGKILLed): every request in flight answers
 * WB_E_ENGINE_DOWN, every attach stream ends with on_end(-1,
 * WB_E_ENGINE_DOWN), running containers become exited with 137 (they
 * remain, as after a restart), and the engine is down until
 * set_down (fe, false).  The answers come on the loop, as always; the state
 * changes are immediate.  May be called from any callback. */
void fake_engine_lose (fake_engine_t *fe);

typedef struct fake_engine_stats
{
  unsigned long calls;         /* = fake_engine_calls (fe, FAKE_OP_ANY) */
  unsigned long created;       /* containers created (garbled replies too) */
  unsigned long started;       /* successful starts */
  unsigned long removed;       /* containers removed */
  unsigned long double_starts; /* starts of a container already started: a bug */
  size_t live;                 /* containers not removed */
  size_t requests;             /* requests not yet answered nor cancelled */
  size_t attaches;             /* attach handles not yet freed */
} fake_engine_stats_t;

fake_engine_stats_t fake_engine_stats (const fake_engine_t *fe);

/* ---- containers -------------------------------------------------------
 * Pointers stay valid until the container is removed, which happens only
 * on the loop (a remove request's answer) or in eng_free: don't keep them
 * across loop runs. */

typedef enum fake_state
{
  FAKE_CREATED,
  FAKE_RUNNING,
  FAKE_EXITED,
} fake_state_t;

/* By full id or name; NULL when there is none (never created or removed). */
fake_container_t *fake_engine_container (fake_engine_t *fe, const char *id);
/* Live containers in creation order: first, then next until NULL. */
fake_container_t *fake_engine_containers (fake_engine_t *fe);
fake_container_t *fake_container_next (const fake_container_t *c);

const char *fake_container_id (const fake_container_t *c);
/* The name its create gave it, or "". */
const char *fake_container_name (const fake_container_t *c);
fake_state_t fake_container_state (const fake_container_t *c);
/* The value of label key, or NULL. */
const char *fake_container_label (const fake_container_t *c, const char *key);
/* The create body as sent, and parsed. */
const char *fake_container_body (const fake_container_t *c);
const struct cJSON *fake_container_spec (const fake_container_t *c);
/* Everything written to its stdin so far (NUL-terminated past *len). */
const char *fake_container_stdin (const fake_container_t *c, size_t *len);
bool fake_container_stdin_closed (const fake_container_t *c);
/* Start requests that reached it (more than 1: see double_starts). */
unsigned fake_container_starts (const fake_container_t *c);
long fake_container_exit_code (const fake_container_t *c);
bool fake_container_oom_killed (const fake_container_t *c);
/* The program dies on its own (a crash, the OOM killer): a running
 * container's init reports it (the trailer, for a profile with an init)
 * and it exits now with exit_code; no-op otherwise. */
void fake_container_exit (fake_container_t *c, long exit_code, bool oom_killed);

#endif
