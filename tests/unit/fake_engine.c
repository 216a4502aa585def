/* tests/unit/fake_engine.c: the engine of include/warmbox/engine.h, in
 * memory, for unit tests.  See fake_engine.h for what it emulates.
 *
 * How answers are made.  Every request, attach stream and container owns
 * one event, allocated with it, so answering never allocates.  Internal
 * state changes (a container exits, a wait is resolved, output is queued
 * for an attach stream, the engine is lost) never call into the user: they
 * record the outcome and activate the owner's event.  Every user callback
 * therefore runs from the handler of its own object's event, so a callback
 * may start, cancel or free anything: no list is being walked while it
 * runs.  libevent runs activated events in FIFO order, which keeps the
 * order of answers deterministic (e.g. on exit the waits are activated
 * before the attach streams' ends).
 *
 * Requests:
 *   QUEUED  --answer (latency)--> the op is performed --> DONE
 *   HUNG    --request timeout--> WB_E_ENGINE_DOWN --> DONE (a wait: never)
 *   a wait: QUEUED --> registered, armed() --> WAITING
 *           --exit / removal / lose--> DONE
 *   DONE    --> the callback, then the request is freed.
 * The op is performed when its answer is due, not when it is called, as an
 * engine does it when the request arrives.
 *
 * Attach streams:
 *   CONNECTING (or HUNG) --answer--> on_ready --> READY --> ENDED (on_end)
 * The program's output is queued on each READY stream as multiplexed
 * frames and demultiplexed on delivery by engine/proto.c, as attach.c does
 * with the bytes from the socket.  Callbacks into the owner may free the
 * stream: as in attach.c, `busy` and `dead` defer the free until our
 * handler unwinds. */
#define _GNU_SOURCE
#include "fake_engine.h"

#include <cjson/cJSON.h>
#include <event2/event.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#define API_VERSION "1.41"
#define PING_TIMEOUT_MS 5000 /* engine.c's fixed ping timeout */
#define DEFAULT_TIMEOUT_MS 30000
#define CHUNK_MAX (64 * 1024) /* largest frame the program writes */
#define FRAME_HEADER_MAX 4096 /* as SCHED_FRAME_HEADER_MAX */
#define FRAME_ARGS_MAX 256    /* as SCHED_MAX_ARGS */
#define SCRIPT_NUMBER_MAX 1000000000000ULL

fake_engine_config_t fake_engine_config;
static fake_engine_t *current;

typedef enum fault
{
  FAULT_NONE,
  FAULT_NULL,
  FAULT_DOWN,
  FAULT_FAIL,
  FAULT_HANG,
  FAULT_GARBAGE,
  FAULT_LOST,
} fault_t;

struct fake_container
{
  eng_t *eng;
  TAILQ_ENTRY (fake_container) link;
  char id[65];
  char name[128]; /* the create's name, another handle on it; "" if none */
  fake_state_t state;
  char *body;
  cJSON *spec; /* NULL when the body is not a JSON object */
  bool stdin_once;
  wb_buf_t in; /* everything written to stdin */
  bool in_eof;
  unsigned starts;
  long exit_code;
  bool oom;

  /* The program: runs once the container runs and stdin is closed. */
  struct event *prog_ev;
  bool prog_started, prog_parsed;
  size_t hdr_len; /* the frame's header line, without '\n' */
  size_t code_off, code_len;
  size_t in_off;  /* the program's own stdin, after code and args */
  size_t base;    /* where the frame starts: after the init's line, if any */
  char nonce[33]; /* from "w1 <nonce> ...\n" (the init's), or "" */
  wb_buf_t files; /* the trailer's file records ("file NAME CONTENT") */
  unsigned n_files;
  wb_buf_t compile;  /* the trailer's compile section ("compile EXIT MSG"), or empty */
  bool init_timeout; /* the trailer says the init stopped the program ("inittimeout") */
  bool compiled;     /* the init's line carries a compile stage's limits: "compile 0" writes the run
                        mark */
  bool run_mark;     /* the init's line asks for the run mark (" m"): written as the program
                        starts */
  bool mark_after_sleep; /* "slowstart": the mark once its sleep is over */
  /* A session's execution (the init's line ends " s<max>"): the state
   * the frame brought (its file .warmbox-session) and the one "state"
   * leaves, reported in the trailer's session section. */
  bool session;
  size_t state_in_off, state_in_len;
  wb_buf_t state_out;
  bool state_set;
  size_t pc; /* next byte of the code to interpret */
  uint64_t flood_left;
  bool exiting;     /* exits at the next step (output goes out first) */
  bool hold_attach; /* on exit its attach streams do not end ("stall") */
  long exit_next;
  bool oom_next;
};

typedef enum req_phase
{
  PH_QUEUED,
  PH_HUNG,
  PH_WAITING,
  PH_DONE,
} req_phase_t;

struct eng_req
{
  eng_t *eng;
  TAILQ_ENTRY (eng_req) link;
  bool linked;
  fake_op_t op;
  fault_t fault;
  req_phase_t phase;
  eng_cb cb;
  bool not_running; /* a wait on condition not-running */
  eng_armed_cb armed;
  void *arg;
  struct event *ev;
  char *target;               /* container id, image name or list label */
  char *value_key;            /* list */
  long kill_code;             /* kill: the exit code the signal causes */
  fake_container_t *newc;     /* create: the container to be, until the answer */
  fake_container_t *c;        /* WAITING: the container waited on */
  eng_result_t res;           /* the answer, once DONE */
  const char **ids, **values; /* list: owned arrays behind res */
  char id_buf[65];
  int fd;     /* image save, image load: the archive */
  char *json; /* inspect: the reply's text */
  bool in_callback, in_armed, cancelled;
};

typedef enum attach_phase
{
  AT_CONNECTING,
  AT_HUNG,
  AT_READY,
  AT_ENDED,
} attach_phase_t;

struct eng_attach
{
  eng_t *eng;
  TAILQ_ENTRY (eng_attach) link;
  eng_attach_cbs_t cbs;
  void *arg;
  char *id;
  fault_t fault;
  attach_phase_t phase;
  struct event *ev;
  fake_container_t *c; /* READY and attached to this container */
  wb_buf_t in_early;   /* stdin written before the 101 */
  bool close_early;
  wb_buf_t out; /* multiplexed frames not yet delivered */
  eng_demux_t demux;
  bool eof;     /* end with 0 once out is delivered */
  bool failing; /* end with -1 (fail_err) at the next delivery */
  wb_err_t fail_err;
  bool stdin_closed, paused, dead;
  int busy;
  /* a run (eng_run_open): */
  eng_event_cb on_event; /* NULL: an attach */
  int status;            /* eng_attach_status */
  eng_event_line_t event;
};

struct eng
{
  struct event_base *base;
  long request_timeout_ms;
  long latency_ms;
  const struct timeval *latency_tv; /* a common timeout: keeps answers FIFO */
  fake_engine_faults_t faults;
  const fake_image_t *images;
  size_t n_images;
  struct
  {
    char name[128], id[80], config[128];
  } loaded[16]; /* images an image load added */
  size_t n_loaded;
  bool down;
  bool oci;                           /* /info names an OCI runtime: warmbox-oci */
  const char *run_answer;             /* fake_engine_set_run_answer (borrowed), or NULL */
  const char *version;                /* /info's ServerVersion (borrowed), "fake" by default */
  bool podman;                        /* its ping says Libpod-Api-Version */
  unsigned long calls[FAKE_OP_COUNT]; /* [FAKE_OP_ANY]: all of them */
  unsigned long created, started, removed, double_starts;
  size_t live, n_reqs, n_attaches;
  TAILQ_HEAD (, eng_req) reqs;
  TAILQ_HEAD (, eng_attach) attaches;
  TAILQ_HEAD (, fake_container) containers;
};

static void req_event_cb (evutil_socket_t fd, short what, void *arg);
static void attach_event_cb (evutil_socket_t fd, short what, void *arg);
static void prog_event_cb (evutil_socket_t fd, short what, void *arg);

/* ---- small helpers --------------------------------------------------- */

static const char *
op_what (fake_op_t op)
{
  switch (op)
    {
    case FAKE_OP_PING:
      return "ping";
    case FAKE_OP_IMAGE_INSPECT:
      return "image inspect";
    case FAKE_OP_CREATE:
      return "container create";
    case FAKE_OP_START:
      return "container start";
    case FAKE_OP_WAIT:
      return "container wait";
    case FAKE_OP_KILL:
      return "container kill";
    case FAKE_OP_INSPECT:
      return "container inspect";
    case FAKE_OP_REMOVE:
      return "container remove";
    case FAKE_OP_LIST:
      return "container list";
    case FAKE_OP_ATTACH:
      return "attach";
    case FAKE_OP_INFO:
      return "info";
    case FAKE_OP_IMAGE_SAVE:
      return "image save";
    case FAKE_OP_IMAGE_LOAD:
      return "image load";
    case FAKE_OP_RUN:
      return "run";
    case FAKE_OP_ANY:
    case FAKE_OP_COUNT:
      break;
    }
  return "request";
}

/* Run ev's handler after ms (0: as soon as the loop gets to it), replacing
 * whatever it was scheduled for.  Adding a timer may need memory (the
 * timer heap grows); when it fails the handler runs early rather than
 * never, so an answer is never lost. */
static void
fire (eng_t *eng, struct event *ev, long ms)
{
  struct timeval tv;
  int r;

  event_del (ev);
  if (ms <= 0)
    {
      event_active (ev, EV_TIMEOUT, 0);
      return;
    }
  if (ms == eng->latency_ms && eng->latency_tv)
    r = evtimer_add (ev, eng->latency_tv);
  else
    {
      tv.tv_sec = ms / 1000;
      tv.tv_usec = (ms % 1000) * 1000;
      r = evtimer_add (ev, &tv);
    }
  if (r < 0)
    event_active (ev, EV_TIMEOUT, 0);
}

/* Activate ev unless it already is (it keeps its place in the queue). */
static void
kick (struct event *ev)
{
  if (!event_pending (ev, EV_TIMEOUT, NULL))
    event_active (ev, EV_TIMEOUT, 0);
}

/* 64 lower-case hex digits, distinct for every container of the process:
 * splitmix64 is a bijection of its counter, so the first 16 digits alone
 * never repeat.  (No hashing: it must not allocate.) */
static void
make_id (char out[65])
{
  static uint64_t state;

  for (int i = 0; i < 4; i++)
    {
      uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      snprintf (out + 16 * i, 17, "%016" PRIx64, z);
    }
}

/* What engine.c accepts in a path (see its path_component_ok). */
static bool
path_component_ok (const char *s)
{
  if (s == NULL || *s == '\0' || strlen (s) > 256)
    return false;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
          || *p == '.' || *p == '-' || *p == '_' || *p == ':' || *p == '/' || *p == '@'))
      return false;
  return strstr (s, "..") == NULL;
}

/* A decimal number s[*i..end), advanced past it; -1 when there is none or
 * it exceeds max. */
static int
parse_number (const char *s, size_t end, size_t *i, uint64_t max, uint64_t *out)
{
  uint64_t n = 0;
  size_t start = *i;

  while (*i < end && s[*i] >= '0' && s[*i] <= '9')
    {
      uint64_t d = (uint64_t) (s[*i] - '0');
      if (n > (max - d) / 10)
        return -1;
      n = n * 10 + d;
      (*i)++;
    }
  if (*i == start)
    return -1;
  *out = n;
  return 0;
}

/* ---- containers ------------------------------------------------------ */

static fake_container_t *
find_container (eng_t *eng, const char *id)
{
  fake_container_t *c;

  TAILQ_FOREACH (c, &eng->containers, link)
  if (strcmp (c->id, id) == 0 || (c->name[0] && strcmp (c->name, id) == 0))
    return c;
  return NULL;
}

static void
container_destroy (fake_container_t *c)
{
  if (c == NULL)
    return;
  if (c->prog_ev)
    event_free (c->prog_ev);
  cJSON_Delete (c->spec);
  free (c->body);
  wb_buf_free (&c->in);
  wb_buf_free (&c->files);
  wb_buf_free (&c->state_out);
  wb_buf_free (&c->compile);
  free (c);
}

/* A container as a create body describes it, not yet known to the engine.
 * NULL when memory runs out. */
static fake_container_t *
container_new (eng_t *eng, const char *body)
{
  fake_container_t *c = calloc (1, sizeof *c);

  if (c == NULL)
    return NULL;
  c->eng = eng;
  c->state = FAKE_CREATED;
  c->body = strdup (body);
  c->prog_ev = evtimer_new (eng->base, prog_event_cb, c);
  if (c->body == NULL || c->prog_ev == NULL)
    {
      container_destroy (c);
      return NULL;
    }
  /* A parse failure from lack of memory also reads as a bad body (400):
   * an error all the same, and nothing leaks. */
  c->spec = cJSON_Parse (body);
  if (c->spec && !cJSON_IsObject (c->spec))
    c->spec = (cJSON_Delete (c->spec), NULL);
  c->stdin_once = cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (c->spec, "StdinOnce"));
  make_id (c->id);
  return c;
}

static void
prog_after (fake_container_t *c, uint64_t ms)
{
  struct timeval tv = {(time_t) (ms / 1000), (suseconds_t) ((ms % 1000) * 1000)};

  /* A timer even for 0 ms: one step per loop pass, so a flood lets the
   * rest of the loop (other programs, sockets) run between chunks.  As in
   * fire(), a failed add runs the step early rather than never. */
  if (evtimer_add (c->prog_ev, &tv) < 0)
    event_active (c->prog_ev, EV_TIMEOUT, 0);
}

static void
program_maybe_start (fake_container_t *c)
{
  if (c->state != FAKE_RUNNING || !c->in_eof || c->prog_started)
    return;
  c->prog_started = true;
  prog_after (c, 0);
}

static void
container_stdin_eof (fake_container_t *c)
{
  c->in_eof = true;
  program_maybe_start (c);
}

static void attach_finish (eng_attach_t *a);
static void run_event (eng_attach_t *a, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));
static void req_error (eng_req_t *req, wb_code_t code, long http_status, const char *fmt, ...)
    __attribute__ ((format (printf, 4, 5)));

/* Answer every next-exit wait on c with its exit code: on exit, and on
 * removal (dockerd wakes the waiters of a removed container too). */
static void
wake_waiters (fake_container_t *c)
{
  eng_t *eng = c->eng;
  eng_req_t *req;

  TAILQ_FOREACH (req, &eng->reqs, link)
  {
    if (req->phase != PH_WAITING || req->c != c)
      continue;
    req->c = NULL;
    if (req->fault == FAULT_GARBAGE)
      req_error (req, WB_E_ENGINE, 200, "container wait: reply is not JSON");
    else if (req->fault == FAULT_LOST)
      req_error (req, WB_E_ENGINE_DOWN, 0, "container wait: connection to the engine lost");
    else
      {
        memset (&req->res, 0, sizeof req->res);
        req->res.http_status = 200;
        req->res.exit_code = c->exit_code;
        req->phase = PH_DONE;
      }
    fire (eng, req->ev, 0);
  }
}

/* The program is over (or killed): no more output; waits answer, then
 * the attach streams end once their output is delivered. */
static void
container_exit (fake_container_t *c, long code, bool oom)
{
  eng_attach_t *a;

  if (c->state != FAKE_RUNNING)
    return;
  c->state = FAKE_EXITED;
  c->exit_code = code;
  c->oom = oom;
  event_del (c->prog_ev);
  c->exiting = false;
  c->flood_left = 0;
  wake_waiters (c);
  TAILQ_FOREACH (a, &c->eng->attaches, link)
  {
    if (a->c != c)
      continue;
    if (a->on_event)
      run_event (a, "exit %ld %d", code & 255, oom ? 1 : 0);
    if (!c->hold_attach)
      attach_finish (a);
  }
}

/* DELETE ?force=1: a running container is killed first. */
static void
container_remove (fake_container_t *c)
{
  eng_t *eng = c->eng;
  eng_attach_t *a;

  container_exit (c, 137, false);
  wake_waiters (c);
  TAILQ_FOREACH (a, &eng->attaches, link)
  if (a->c == c)
    attach_finish (a);
  TAILQ_REMOVE (&eng->containers, c, link);
  eng->live--;
  eng->removed++;
  container_destroy (c);
}

static bool
label_matches (const fake_container_t *c, const char *filter)
{
  const char *eq = strchr (filter, '=');
  size_t klen = eq ? (size_t) (eq - filter) : strlen (filter);
  cJSON *item;

  /* Docker's label filter: "key" (present) or "key=value". */
  cJSON_ArrayForEach (item, cJSON_GetObjectItemCaseSensitive (c->spec, "Labels"))
  {
    if (item->string == NULL || strlen (item->string) != klen
        || memcmp (item->string, filter, klen) != 0)
      continue;
    if (eq == NULL)
      return true;
    return cJSON_IsString (item) && strcmp (item->valuestring, eq + 1) == 0;
  }
  return false;
}

/* ---- the program ----------------------------------------------------- */

/* Append data[0..len) (NULL: that many 'x'), plus "\n" with nl, to a's
 * queue as frames of at most CHUNK_MAX bytes.  -1 (queue unaltered) when
 * memory runs out. */
static int
queue_frames (eng_attach_t *a, int stream, const char *data, size_t len, bool nl)
{
  size_t total = len + (nl ? 1 : 0), off = 0, start = a->out.len;

  while (off < total)
    {
      size_t n = total - off < CHUNK_MAX ? total - off : CHUNK_MAX;
      size_t from_data = off < len ? (len - off < n ? len - off : n) : 0;
      unsigned char h[8] = {(unsigned char) stream,
                            0,
                            0,
                            0,
                            (unsigned char) (n >> 24),
                            (unsigned char) (n >> 16),
                            (unsigned char) (n >> 8),
                            (unsigned char) n};
      char *p;

      if (wb_buf_reserve (&a->out, sizeof h + n) < 0)
        {
          a->out.len = start;
          if (a->out.data)
            a->out.data[start] = '\0';
          return -1;
        }
      p = a->out.data + a->out.len;
      memcpy (p, h, sizeof h);
      p += sizeof h;
      if (data)
        memcpy (p, data + off, from_data);
      else
        memset (p, 'x', from_data);
      if (from_data < n)
        p[from_data] = '\n'; /* only ever the last byte */
      a->out.len += sizeof h + n;
      off += n;
    }
  if (a->out.data)
    a->out.data[a->out.len] = '\0';
  return 0;
}

static void attach_fail (eng_attach_t *a, wb_code_t code, const char *msg);

/* A run's event line, as warmbox-oci sends it (stream 3). */
static void
run_event (eng_attach_t *a, const char *fmt, ...)
{
  char line[256];
  va_list ap;
  int n;

  if (a->dead || a->failing || a->phase == AT_ENDED)
    return;
  va_start (ap, fmt);
  n = vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  if (n < 0 || queue_frames (a, ENG_STREAM_EVENT, line, (size_t) n, false) < 0)
    attach_fail (a, WB_E_NOMEM, "run: out of memory");
  else
    kick (a->ev);
}

/* Output of c's program, to every stream attached to it. */
static void
emit (fake_container_t *c, int stream, const char *data, size_t len, bool nl)
{
  eng_attach_t *a;

  TAILQ_FOREACH (a, &c->eng->attaches, link)
  {
    if (a->c != c || a->phase != AT_READY || a->dead || a->paused || a->failing)
      continue;
    if (queue_frames (a, stream, data, len, nl) < 0)
      attach_fail (a, WB_E_NOMEM, "attach: out of memory");
    else
      kick (a->ev);
  }
}

/* As /warmbox/init does once the program is over by itself: its report
 * (the trailer), when the container has an init. */
static void
emit_trailer (fake_container_t *c)
{
  if (c->nonce[0])
    {
      char line[128];
      int n = snprintf (line, sizeof line, "\x1ewarmbox-trailer %s\n", c->nonce);
      emit (c, ENG_STREAM_STDERR, line, (size_t) n, false);
      if (c->compile.len)
        emit (c, ENG_STREAM_STDERR, c->compile.data, c->compile.len, false);
      n = snprintf (line, sizeof line, "files %u 0\n", c->n_files);
      emit (c, ENG_STREAM_STDERR, line, (size_t) n, false);
      if (c->files.len)
        emit (c, ENG_STREAM_STDERR, c->files.data, c->files.len, false);
      if (c->session)
        {
          n = snprintf (line, sizeof line, "session 0 %d %zu %zu 0\n", c->state_set ? 1 : 0,
                        c->state_set ? c->state_out.len : 0, c->state_set ? c->state_out.len : 0);
          emit (c, ENG_STREAM_STDERR, line, (size_t) n, false);
          if (c->state_set && c->state_out.len)
            emit (c, ENG_STREAM_STDERR, c->state_out.data, c->state_out.len, false);
        }
      n = snprintf (line, sizeof line, "%susage 2048 1500 500\nend %s\n",
                    c->init_timeout ? "timeout\n" : "", c->nonce);
      emit (c, ENG_STREAM_STDERR, line, (size_t) n, false);
    }
}

/* The container exits with code, at the next step, after its output. */
static void
container_exits (fake_container_t *c, long code, bool oom)
{
  c->exiting = true;
  c->exit_next = code & 255;
  c->oom_next = oom;
  prog_after (c, 0);
}

static void
program_end (fake_container_t *c, long code, bool oom)
{
  emit_trailer (c);
  container_exits (c, code, oom);
}

/* Memory ran out building a line of the init's report into b (which
 * held had bytes): the line is taken back, so the report stays whole,
 * and the program fails as a program would (exit 2). */
static void
report_oom (fake_container_t *c, wb_buf_t *b, size_t had)
{
  b->len = had;
  if (b->data)
    b->data[had] = '\0';
  program_end (c, 2, false);
}

/* "<code length>[ <arg length>...]\n<code><args...><stdin...>" in c->in,
 * which no longer changes (stdin is closed).  -1 when malformed. */
static int
frame_parse (fake_container_t *c)
{
  const char *buf = c->in.data;
  size_t len = c->in.len;

  c->base = 0;
  /* The init's lines first (profiles whose argv starts with /warmbox/init):
   * "w1 <nonce>[ <files max> <files bytes> <inputs>]\n", one line per input. */
  if (len >= 36 && memcmp (buf, "w1 ", 3) == 0 && (buf[35] == '\n' || buf[35] == ' '))
    {
      const char *end = memchr (buf, '\n', len < 128 ? len : 128);
      size_t skip, inputs = 0;
      if (end == NULL)
        return -1;
      memcpy (c->nonce, buf + 3, 32);
      c->nonce[32] = '\0';
      if (buf[35] == ' ')
        {
          /* " <files max> <files bytes> <inputs>[ <compile timeout> <compile output> <run
           * timeout>]" */
          unsigned long long fmax, fbytes, in, ct, co, rt;
          char line[128];
          snprintf (line, sizeof line, "%.*s", (int) (end - (buf + 35)),
                    buf + 35); /* this line only */
          int got
              = sscanf (line, " %llu %llu %llu %llu %llu %llu", &fmax, &fbytes, &in, &ct, &co, &rt);
          inputs = got >= 3 ? (size_t) in : 0;
          c->compiled = got == 6;
          const char *m = strstr (line, " m");
          c->run_mark = m && (m[2] == '\0' || m[2] == ' ');
          const char *sess = strstr (line, " s");
          c->session = sess && sess[2] >= '0' && sess[2] <= '9';
        }
      skip = (size_t) (end - buf) + 1;
      for (size_t k = 0; k < inputs; k++)
        {
          const char *nl = memchr (buf + skip, '\n', len - skip);
          if (nl == NULL)
            return -1;
          skip = (size_t) (nl - buf) + 1;
        }
      c->base = skip;
      buf += skip;
      len -= skip;
    }
  /* "n<name length> " first when the frame names the program's file: the
   * name's bytes come before the code's. */
  size_t name_len = 0;
  if (len && buf[0] == 'n')
    {
      size_t j = 1;
      uint64_t nlen;
      if (parse_number (buf, len, &j, 255, &nlen) < 0 || j >= len || buf[j] != ' ')
        return -1;
      j++;
      name_len = (size_t) nlen;
      c->base += j;
      buf += j;
      len -= j;
    }
  const char *nl = len ? memchr (buf, '\n', len < FRAME_HEADER_MAX ? len : FRAME_HEADER_MAX) : NULL;
  size_t hdr, i = 0, n_args = 0;
  uint64_t n, total;

  if (nl == NULL)
    return -1;
  hdr = (size_t) (nl - buf);
  if (parse_number (buf, hdr, &i, SIZE_MAX / 2, &n) < 0)
    return -1;
  c->code_len = (size_t) n;
  total = n;
  while (i < hdr)
    {
      if (buf[i] == ' ' && i + 1 < hdr && buf[i + 1] == 'f')
        {
          /* " f<name length>:<size>": a file, its name then its content. */
          uint64_t nlen, size;
          i += 2;
          if (parse_number (buf, hdr, &i, 255, &nlen) < 0 || i >= hdr || buf[i++] != ':'
              || parse_number (buf, hdr, &i, SIZE_MAX / 4, &size) < 0 || total + nlen + size > len)
            return -1;
          const char *fname = buf + hdr + 1 + name_len + total;
          if (nlen == 16 && total + nlen <= len - hdr - 1
              && memcmp (fname, ".warmbox-session", 16) == 0)
            {
              c->state_in_off = (size_t) (fname + 16 - c->in.data);
              c->state_in_len = (size_t) size;
            }
          total += nlen + size;
          continue;
        }
      if (buf[i++] != ' ' || ++n_args > FRAME_ARGS_MAX
          || parse_number (buf, hdr, &i, SIZE_MAX / 2, &n) < 0)
        return -1;
      total += n;
      if (total > len)
        return -1;
    }
  if (total + name_len > len - hdr - 1)
    return -1;
  c->hdr_len = hdr;
  c->code_off = c->base + hdr + 1 + name_len;
  c->in_off = c->code_off + (size_t) total;
  return 0;
}

/* `args`: each argument on a line; their lengths follow the code's in the
 * header, their bytes follow the code. */
static void
emit_args (fake_container_t *c)
{
  const char *buf = c->in.data + c->base;
  size_t i = 0, off = c->code_off + c->code_len;
  uint64_t n = 0;

  /* frame_parse checked the header: skip the code's length, then one
   * " <length>" per argument. */
  parse_number (buf, c->hdr_len, &i, SIZE_MAX / 2, &n);
  while (i < c->hdr_len && !(i + 1 < c->hdr_len && buf[i + 1] == 'f'))
    {
      i++;
      n = 0;
      parse_number (buf, c->hdr_len, &i, SIZE_MAX / 2, &n);
      emit (c, ENG_STREAM_STDOUT, c->in.data + off, (size_t) n, true);
      off += (size_t) n;
    }
}

static bool
word_is (const char *w, size_t wlen, const char *name)
{
  return wlen == strlen (name) && memcmp (w, name, wlen) == 0;
}

/* Interpret commands from c->pc until one has to wait for the loop (sleep,
 * flood, exit, hang) or the script ends. */
static void
program_run (fake_container_t *c)
{
  const char *code = c->in.data + c->code_off;

  while (c->pc < c->code_len)
    {
      size_t s = c->pc, e = s, w, r, rend;
      uint64_t num = 0;

      while (e < c->code_len && code[e] != ';' && code[e] != '\n')
        e++;
      c->pc = e < c->code_len ? e + 1 : e;
      while (s < e && (code[s] == ' ' || code[s] == '\t' || code[s] == '\r'))
        s++;
      while (e > s && (code[e - 1] == ' ' || code[e - 1] == '\t' || code[e - 1] == '\r'))
        e--;
      if (s == e)
        continue;
      for (w = s; w < e && code[w] != ' ' && code[w] != '\t'; w++)
        ;
      for (r = w; r < e && (code[r] == ' ' || code[r] == '\t'); r++)
        ;
      rend = r;
      bool has_num = parse_number (code, e, &rend, SCRIPT_NUMBER_MAX, &num) == 0 && rend == e;

      if (word_is (code + s, w - s, "out") || word_is (code + s, w - s, "err"))
        emit (c, code[s] == 'o' ? ENG_STREAM_STDOUT : ENG_STREAM_STDERR, code + r, e - r, true);
      else if (word_is (code + s, w - s, "echo") && r == e)
        emit (c, ENG_STREAM_STDOUT, c->in.data + c->in_off, c->in.len - c->in_off, false);
      else if (word_is (code + s, w - s, "args") && r == e)
        emit_args (c);
      else if (word_is (code + s, w - s, "sleep") && has_num)
        {
          prog_after (c, num);
          return;
        }
      else if (word_is (code + s, w - s, "slowstart") && has_num)
        {
          /* The run mark N ms from now (prog_event_cb held it back). */
          c->mark_after_sleep = c->run_mark;
          prog_after (c, num);
          return;
        }
      else if (word_is (code + s, w - s, "exit") && (has_num || r == e))
        {
          program_end (c, (long) num, false);
          return;
        }
      else if (word_is (code + s, w - s, "flood") && has_num)
        {
          c->flood_left = num;
          prog_after (c, 0);
          return;
        }
      else if (word_is (code + s, w - s, "oom") && r == e)
        {
          program_end (c, 137, true);
          return;
        }
      else if (word_is (code + s, w - s, "hang") && r == e)
        return; /* until killed or removed */
      else if (word_is (code + s, w - s, "die") && has_num)
        {
          /* The sandbox ends without its init's report: the init killed
           * (by the program), the runtime dying (gVisor's sentry). */
          container_exits (c, (long) num, false);
          return;
        }
      else if (word_is (code + s, w - s, "lateexit") && has_num)
        {
          /* The program ends (exit 0) and its init reports it, but the
           * engine reports the container's exit N ms later (a loaded
           * Docker's wait). */
          emit_trailer (c);
          c->exiting = true;
          c->exit_next = 0;
          c->oom_next = false;
          prog_after (c, (uint64_t) num);
          return;
        }
      else if (word_is (code + s, w - s, "stall") && has_num)
        {
          /* It exits, but the engine never ends its output stream (the
           * init's report, if any, with it) until it is removed. */
          c->hold_attach = true;
          container_exits (c, (long) num, false);
          return;
        }
      else if (word_is (code + s, w - s, "oomkill") && r == e)
        {
          /* The kernel killed the whole sandbox for memory, its init
           * first: exit 137, OOMKilled, no report. */
          container_exits (c, 137, true);
          return;
        }
      else if (word_is (code + s, w - s, "cutreport") && has_num)
        {
          /* The init's report begins (its mark, the files line) and the
           * sandbox ends before the report does. */
          char line[128];
          int n = snprintf (line, sizeof line, "\x1ewarmbox-trailer %s\nfiles 0 0\nusage 2048",
                            c->nonce);
          if (c->nonce[0])
            emit (c, ENG_STREAM_STDERR, line, (size_t) n, false);
          container_exits (c, (long) num, false);
          return;
        }
      else if (word_is (code + s, w - s, "compile") && r < e)
        {
          /* "compile EXIT MSG": the compile stage's report (exit 0: the
           * rest of the script is the program; else it ends here). */
          size_t sp = r;
          uint64_t cexit = 0;
          while (sp < e && code[sp] != ' ')
            sp++;
          for (size_t k = r; k < sp; k++)
            cexit = cexit * 10 + (uint64_t) (code[k] - '0');
          size_t mlen = sp < e ? e - sp - 1 : 0;
          size_t had = c->compile.len;
          if (wb_buf_printf (&c->compile, "compile %llu 0 0 0 120000 0 %zu\n",
                             (unsigned long long) cexit, mlen)
                  < 0
              || wb_buf_append (&c->compile, sp < e ? code + sp + 1 : "", mlen) < 0)
            {
              report_oom (c, &c->compile, had);
              return;
            }
          if (cexit != 0)
            {
              program_end (c, (long) cexit, false);
              return;
            }
          if (c->compiled)
            {
              /* As the init does before it starts the program. */
              char mark[64];
              int n = snprintf (mark, sizeof mark, "\x1ewarmbox-run %s\n", c->nonce);
              emit (c, ENG_STREAM_STDERR, mark, (size_t) n, false);
            }
        }
      else if (word_is (code + s, w - s, "state"))
        {
          /* "state TEXT": the state the session's next call gets is the
           * one this call got, then TEXT. */
          wb_buf_reset (&c->state_out);
          if (wb_buf_append (&c->state_out, c->in.data + c->state_in_off, c->state_in_len) < 0
              || wb_buf_append (&c->state_out, code + r, e - r) < 0)
            {
              report_oom (c, &c->state_out, 0);
              return;
            }
          c->state_set = true;
        }
      else if (word_is (code + s, w - s, "showstate") && r == e)
        emit (c, ENG_STREAM_STDOUT, c->in.data + c->state_in_off, c->state_in_len, false);
      else if (word_is (code + s, w - s, "inittimeout") && r == e)
        {
          /* The init stopped the program at its own deadline. */
          c->init_timeout = true;
          program_end (c, 137, false);
          return;
        }
      else if (word_is (code + s, w - s, "file") && r < e)
        {
          /* "file NAME CONTENT": a file the init will report. */
          size_t sp = r;
          char hex[65];
          while (sp < e && code[sp] != ' ')
            sp++;
          size_t clen = sp < e ? e - sp - 1 : 0;
          wb_sha256_hex (sp < e ? code + sp + 1 : "", clen, hex);
          size_t had = c->files.len;
          if (wb_buf_printf (&c->files, "file %zu %zu %zu %s\n", sp - r, clen, clen, hex) < 0
              || wb_buf_append (&c->files, code + r, sp - r) < 0
              || wb_buf_append (&c->files, sp < e ? code + sp + 1 : "", clen) < 0)
            {
              report_oom (c, &c->files, had);
              return;
            }
          c->n_files++;
        }
      else
        {
          static const char msg[] = "fake: unknown command";
          emit (c, ENG_STREAM_STDERR, msg, sizeof msg - 1, true);
          program_end (c, 2, false);
          return;
        }
    }
  program_end (c, 0, false);
}

static void
prog_event_cb (evutil_socket_t fd, short what, void *arg)
{
  fake_container_t *c = arg;

  (void) fd;
  (void) what;
  if (c->state != FAKE_RUNNING)
    return;
  if (c->exiting)
    {
      container_exit (c, c->exit_next, c->oom_next);
      return;
    }
  if (!c->prog_parsed)
    {
      if (frame_parse (c) < 0)
        {
          static const char msg[] = "fake: bad stdin frame";
          emit (c, ENG_STREAM_STDERR, msg, sizeof msg - 1, true);
          program_end (c, 2, false);
          return;
        }
      c->prog_parsed = true;
      /* "slowstart N" first: the init gets going N ms late (a loaded
       * host), its run mark with it (the word itself writes it). */
      if (c->run_mark
          && !(c->code_len >= 10 && memcmp (c->in.data + c->code_off, "slowstart ", 10) == 0))
        {
          /* As the init does before it starts the program. */
          char mark[64];
          int n = snprintf (mark, sizeof mark, "\x1ewarmbox-run %s\n", c->nonce);
          emit (c, ENG_STREAM_STDERR, mark, (size_t) n, false);
        }
    }
  if (c->mark_after_sleep)
    {
      char mark[64];
      int n = snprintf (mark, sizeof mark, "\x1ewarmbox-run %s\n", c->nonce);
      c->mark_after_sleep = false;
      emit (c, ENG_STREAM_STDERR, mark, (size_t) n, false);
    }
  if (c->flood_left)
    {
      size_t n = c->flood_left < CHUNK_MAX ? (size_t) c->flood_left : CHUNK_MAX;
      emit (c, ENG_STREAM_STDOUT, NULL, n, false);
      c->flood_left -= n;
      if (c->flood_left)
        {
          prog_after (c, 0);
          return;
        }
    }
  program_run (c);
}

/* ---- requests -------------------------------------------------------- */

static void
req_free (eng_req_t *req)
{
  if (req->linked)
    {
      TAILQ_REMOVE (&req->eng->reqs, req, link);
      req->eng->n_reqs--;
    }
  if (req->ev)
    event_free (req->ev);
  free (req->target);
  free (req->json);
  free (req->value_key);
  container_destroy (req->newc);
  free (req->ids);
  free (req->values);
  free (req);
}

/* Count the call and decide its fault. */
static fault_t
call_begin (eng_t *eng, fake_op_t op)
{
  const fake_engine_faults_t *f = &eng->faults;
  unsigned long n;

  eng->calls[FAKE_OP_ANY]++;
  eng->calls[op]++;
  if (f->op != FAKE_OP_ANY && f->op != op)
    return eng->down ? FAULT_DOWN : FAULT_NONE;
  n = eng->calls[f->op];
  if (n == f->null_call)
    return FAULT_NULL;
  if (eng->down)
    return FAULT_DOWN;
  if (n == f->fail_call || (f->fail_from && n >= f->fail_from))
    return FAULT_FAIL;
  if (n == f->hang_call)
    return FAULT_HANG;
  if (n == f->garbage_call)
    return FAULT_GARBAGE;
  if (n == f->lost_call)
    return FAULT_LOST;
  return FAULT_NONE;
}

/* A request not yet queued (req_submit queues it).  NULL with err set
 * when the call is refused (the null fault) or memory runs out. */
static eng_req_t *
req_new (eng_t *eng, fake_op_t op, const char *target, eng_cb cb, void *arg, wb_err_t *err)
{
  fault_t fault = call_begin (eng, op);
  eng_req_t *req;

  if (fault == FAULT_NULL)
    goto oom;
  req = calloc (1, sizeof *req);
  if (req == NULL)
    goto oom;
  req->eng = eng;
  req->op = op;
  req->fault = fault;
  req->cb = cb;
  req->arg = arg;
  req->ev = event_new (eng->base, -1, 0, req_event_cb, req);
  if (req->ev == NULL || (target && (req->target = strdup (target)) == NULL))
    {
      req_free (req);
      goto oom;
    }
  return req;

oom:
  wb_error (err, WB_E_NOMEM, "%s: out of memory", op_what (op));
  return NULL;
}

static long
req_timeout_ms (const eng_req_t *req)
{
  long t = req->eng->request_timeout_ms;

  if (req->op == FAKE_OP_WAIT)
    return 0;
  if (req->op == FAKE_OP_PING && t > PING_TIMEOUT_MS)
    return PING_TIMEOUT_MS;
  return t;
}

static eng_req_t *
req_submit (eng_req_t *req)
{
  eng_t *eng = req->eng;

  TAILQ_INSERT_TAIL (&eng->reqs, req, link);
  req->linked = true;
  eng->n_reqs++;
  if (req->fault == FAULT_HANG)
    {
      req->phase = PH_HUNG;
      if (req_timeout_ms (req) > 0)
        fire (eng, req->ev, req_timeout_ms (req));
    }
  else
    {
      /* A refused connection answers at once, whatever the latency. */
      req->phase = PH_QUEUED;
      fire (eng, req->ev,
            req->fault == FAULT_FAIL || req->fault == FAULT_DOWN ? 0 : eng->latency_ms);
    }
  return req;
}

/* The answer is an error; http_status as the real client reports it
 * (err.engine_status stays 0, as with wb_error). */
static void
req_error (eng_req_t *req, wb_code_t code, long http_status, const char *fmt, ...)
{
  char msg[sizeof req->res.err.msg];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  memset (&req->res, 0, sizeof req->res);
  req->res.rc = wb_error (&req->res.err, code, "%s", msg);
  req->res.http_status = http_status;
  req->phase = PH_DONE;
}

/* A non-2xx answer, mapped as eng_http_error does. */
__attribute__ ((format (printf, 3, 4))) static void
req_http_error (eng_req_t *req, long status, const char *fmt, ...)
{
  char msg[256];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  req_error (req, status == 404 ? WB_E_NOT_FOUND : WB_E_ENGINE, status,
             "%s: engine answered %ld: %s", op_what (req->op), status, msg);
  req->res.err.engine_status = (int) status;
}

static void
req_ok (eng_req_t *req, long http_status)
{
  req->res.http_status = http_status;
  req->phase = PH_DONE;
}

static void
apply_list (eng_req_t *req)
{
  eng_t *eng = req->eng;
  fake_container_t *c;
  size_t n = 0;

  TAILQ_FOREACH (c, &eng->containers, link)
  n += label_matches (c, req->target);
  req->ids = calloc (n + 1, sizeof *req->ids);
  req->values = calloc (n + 1, sizeof *req->values);
  if (req->ids == NULL || req->values == NULL)
    {
      /* Where engine.c allocates too, after the reply came. */
      req_error (req, WB_E_NOMEM, 200, "container list: out of memory");
      return;
    }
  n = 0;
  TAILQ_FOREACH (c, &eng->containers, link)
  if (label_matches (c, req->target))
    {
      req->ids[n] = c->id;
      req->values[n++] = req->value_key ? fake_container_label (c, req->value_key) : NULL;
    }
  req->res.ids = req->ids;
  req->res.values = req->values;
  req->res.n_ids = n;
  req_ok (req, 200);
}

/* The engine gets the request: perform it and fill the answer.  A wait
 * that registers goes WAITING; everything else DONE. */
/* One ustar member (header and padded content) to fd. */
static int
write_member (int fd, const char *name, const char *data, size_t len)
{
  char h[512], pad[512] = {0};
  unsigned sum = 0;

  memset (h, 0, sizeof h);
  snprintf (h, 100, "%s", name);
  snprintf (h + 100, 8, "0000644");
  snprintf (h + 124, 12, "%011o", (unsigned) len);
  h[156] = '0';
  memcpy (h + 257,
          "ustar\0"
          "00",
          8);
  memset (h + 148, ' ', 8);
  for (int i = 0; i < 512; i++)
    sum += (unsigned char) h[i];
  snprintf (h + 148, 8, "%06o", sum);
  if (write (fd, h, 512) != 512 || (len && write (fd, data, len) != (ssize_t) len))
    return -1;
  return len % 512 && write (fd, pad, 512 - len % 512) != (ssize_t) (512 - len % 512) ? -1 : 0;
}

/* The archive of one image as docker save makes it, reduced to what
 * warmboxd reads: its config ("<hex>.json") and manifest.json naming it and
 * its tag, then the two end blocks. */
static int
write_archive (int fd, const char *name, const char *id, const char *config)
{
  char manifest[512], config_name[80], pad[1024] = {0};
  const char *hex = strncmp (id, "sha256:", 7) == 0 ? id + 7 : id;
  int len = snprintf (manifest, sizeof manifest,
                      "[{\"Config\":\"%s.json\",\"RepoTags\":[\"%s\"],\"Layers\":[]}]", hex, name);

  if (len < 0 || (size_t) len >= sizeof manifest)
    return -1;
  snprintf (config_name, sizeof config_name, "%s.json", hex);
  if (config == NULL)
    config = "{}";
  return write_member (fd, config_name, config, strlen (config)) == 0
                 && write_member (fd, "manifest.json", manifest, (size_t) len) == 0
                 && write (fd, pad, sizeof pad) == (ssize_t) sizeof pad
             ? 0
             : -1;
}

static ssize_t
fd_read_at (void *arg, void *buf, size_t count, uint64_t offset)
{
  return pread (*(int *) arg, buf, count, (off_t) offset);
}

/* An archive write_archive made (or docker save): its image's name and id. */
static int
read_archive (int fd, char *name, size_t name_size, char *id, size_t id_size)
{
  char m[4096];
  size_t len = 0;
  cJSON *j, *img;
  const char *config, *tag;
  int rc = -1;

  if (eng_tar_member (fd_read_at, &fd, "manifest.json", m, sizeof m, &len) != 1)
    return -1;
  j = cJSON_ParseWithLength (m, len);
  img = cJSON_GetArrayItem (j, 0);
  config = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (img, "Config"));
  tag = cJSON_GetStringValue (
      cJSON_GetArrayItem (cJSON_GetObjectItemCaseSensitive (img, "RepoTags"), 0));
  if (config && tag && strlen (config) > 5)
    {
      snprintf (name, name_size, "%s", tag);
      snprintf (id, id_size, "sha256:%.*s", (int) (strlen (config) - 5), config);
      rc = 0;
    }
  cJSON_Delete (j);
  return rc;
}

/* An image by name or id, in the table or among the loaded ones. */
static void
find_image (eng_t *eng, const char *ref, const char **name, const char **id, const char **config)
{
  for (size_t i = 0; i < eng->n_images; i++)
    if ((eng->images[i].name && strcmp (eng->images[i].name, ref) == 0)
        || (eng->images[i].id && strcmp (eng->images[i].id, ref) == 0))
      {
        *name = eng->images[i].name ? eng->images[i].name : eng->images[i].id;
        *id = eng->images[i].id;
        *config = eng->images[i].config;
        return;
      }
  /* The newest load wins, as a tag moves to the image loaded last. */
  for (size_t i = eng->n_loaded; i-- > 0;)
    if (strcmp (eng->loaded[i].name, ref) == 0 || strcmp (eng->loaded[i].id, ref) == 0)
      {
        *name = eng->loaded[i].name;
        *id = eng->loaded[i].id;
        *config = eng->loaded[i].config;
        return;
      }
}

static void
req_answer (eng_req_t *req)
{
  eng_t *eng = req->eng;
  fake_container_t *c = NULL;

  if (req->fault == FAULT_DOWN || req->fault == FAULT_FAIL)
    {
      req_error (req, WB_E_ENGINE_DOWN, 0,
                 "%s: Couldn't connect to server: connection refused (fake engine%s)",
                 op_what (req->op), req->fault == FAULT_DOWN ? " down" : "");
      return;
    }
  memset (&req->res, 0, sizeof req->res);
  if (req->target && req->op != FAKE_OP_IMAGE_INSPECT && req->op != FAKE_OP_LIST
      && req->op != FAKE_OP_IMAGE_SAVE)
    c = find_container (eng, req->target);

  switch (req->op)
    {
    case FAKE_OP_PING:
      req->res.api_version = API_VERSION;
      req->res.podman = req->eng->podman;
      req_ok (req, 200);
      break;
    case FAKE_OP_IMAGE_INSPECT:
    case FAKE_OP_IMAGE_SAVE:
      {
        const char *name = NULL, *id = NULL, *config = NULL;
        find_image (eng, req->target, &name, &id, &config);
        if (id == NULL)
          req_http_error (req, 404, "No such image: %s", req->target);
        else if (req->op == FAKE_OP_IMAGE_INSPECT)
          {
            req->res.id = id; /* the table's, or the engine's own: outlives the answer */
            req_ok (req, 200);
          }
        else if (write_archive (req->fd, name, id, config) < 0)
          req_error (req, WB_E_IO, 0, "image save: the archive file");
        else
          req_ok (req, 200);
        break;
      }
    case FAKE_OP_IMAGE_LOAD:
      {
        char name[128], id[80], config[128];
        size_t clen = 0;
        if (read_archive (req->fd, name, sizeof name, id, sizeof id) < 0)
          req_error (req, WB_E_ENGINE, 200, "image load: archive/tar: invalid tar header");
        else if (eng->n_loaded == WB_ARRAY_SIZE (eng->loaded))
          req_error (req, WB_E_ENGINE, 200, "image load: no space left on device");
        else
          {
            snprintf (eng->loaded[eng->n_loaded].name, sizeof eng->loaded[0].name, "%s", name);
            snprintf (eng->loaded[eng->n_loaded].id, sizeof eng->loaded[0].id, "%s", id);
            /* The config, so that this engine's own saves carry it too. */
            snprintf (config, sizeof config, "%s.json", id + 7);
            if (eng_tar_member (fd_read_at, &req->fd, config, eng->loaded[eng->n_loaded].config,
                                sizeof eng->loaded[0].config - 1, &clen)
                != 1)
              clen = 0;
            eng->loaded[eng->n_loaded].config[clen] = '\0';
            eng->n_loaded++;
            req_ok (req, 200);
          }
        break;
      }
    case FAKE_OP_INFO:
      {
        static const char *const runtimes[] = {"runc"};
        req->res.runtimes = runtimes;
        req->res.n_runtimes = 1;
        req->res.default_runtime = "runc";
        static const char *const security[] = {"name=seccomp,profile=default"};
        req->res.server_version = req->eng->version ? req->eng->version : "fake";
        req->res.cgroup_version = "1";
        req->res.engine_id = "FAKE:ENGINE";
        req->res.oci_runtime = req->eng->oci ? "fake-runc version 1" : NULL;
        req->res.security_options = security;
        req->res.n_security_options = 1;
        req_ok (req, 200);
        break;
      }
    case FAKE_OP_CREATE:
      if (req->newc->spec == NULL)
        {
          req_http_error (req, 400, "invalid JSON in the request body");
          break;
        }
      if (req->newc->name[0] && find_container (eng, req->newc->name))
        {
          req_http_error (req, 409, "Conflict. The container name \"/%s\" is already in use",
                          req->newc->name);
          break;
        }
      c = req->newc;
      req->newc = NULL;
      TAILQ_INSERT_TAIL (&eng->containers, c, link);
      eng->live++;
      eng->created++;
      memcpy (req->id_buf, c->id, sizeof c->id);
      req->res.id = req->id_buf;
      req_ok (req, 201);
      break;
    case FAKE_OP_START:
      if (c == NULL)
        {
          req_http_error (req, 404, "No such container: %s", req->target);
          break;
        }
      c->starts++;
      if (c->state != FAKE_CREATED)
        {
          /* Docker answers 304 to a running one and restarts an exited
           * one; a pool container must never see either. */
          eng->double_starts++;
          req_error (req, WB_E_ENGINE, 304, "container start: already started");
          break;
        }
      c->state = FAKE_RUNNING;
      eng->started++;
      program_maybe_start (c);
      req_ok (req, 204);
      break;
    case FAKE_OP_WAIT:
      if (c == NULL)
        {
          req_http_error (req, 404, "No such container: %s", req->target);
          break;
        }
      /* not-running is met at once by a container that is not running
       * (exit code 0 when it never ran); next-exit never is: that waits
       * for the next exit (or the removal), even when the container has
       * exited before. */
      if (req->not_running && c->state != FAKE_RUNNING)
        {
          req->res.exit_code = c->state == FAKE_EXITED ? c->exit_code : 0;
          req_ok (req, 200);
          break;
        }
      req->c = c;
      req->phase = PH_WAITING;
      break;
    case FAKE_OP_KILL:
      /* 404 and 409 (not running) count as success, as in engine.c. */
      if (c == NULL)
        req_ok (req, 404);
      else if (c->state != FAKE_RUNNING)
        req_ok (req, 409);
      else
        {
          container_exit (c, req->kill_code, false);
          req_ok (req, 204);
        }
      break;
    case FAKE_OP_INSPECT:
      if (c == NULL)
        {
          req_http_error (req, 404, "No such container: %s", req->target);
          break;
        }
      req->res.exit_code = c->exit_code;
      req->res.oom_killed = c->oom;
      req->res.running = c->state == FAKE_RUNNING;
      {
        /* As Docker shows a container: its HostConfig as created,
         * Config.User, and Path (its command's first word). */
        cJSON *o = cJSON_CreateObject (), *cfg = o ? cJSON_AddObjectToObject (o, "Config") : NULL;
        cJSON *hc
            = o ? cJSON_Duplicate (cJSON_GetObjectItemCaseSensitive (c->spec, "HostConfig"), true)
                : NULL;
        cJSON *user = cJSON_GetObjectItemCaseSensitive (c->spec, "User");
        const char *path = cJSON_GetStringValue (
            cJSON_GetArrayItem (cJSON_GetObjectItemCaseSensitive (c->spec, "Cmd"), 0));
        if (cfg && cJSON_IsString (user))
          cJSON_AddStringToObject (cfg, "User", user->valuestring);
        if (o && path)
          cJSON_AddStringToObject (o, "Path", path);
        if (hc && !cJSON_AddItemToObject (o, "HostConfig", hc))
          cJSON_Delete (hc);
        req->json = cJSON_PrintUnformatted (o);
        cJSON_Delete (o);
        req->res.json = req->json;
        req->res.json_len = req->json ? strlen (req->json) : 0;
      }
      req_ok (req, 200);
      break;
    case FAKE_OP_REMOVE:
      if (c == NULL)
        {
          req_ok (req, 404);
          break;
        }
      container_remove (c);
      req_ok (req, 204);
      break;
    case FAKE_OP_LIST:
      apply_list (req);
      break;
    case FAKE_OP_ANY:
    case FAKE_OP_RUN:
    case FAKE_OP_ATTACH:
    case FAKE_OP_COUNT:
      req_error (req, WB_E_INTERNAL, 0, "fake engine: bad request kind");
      break;
    }

  /* Garbage: the engine did it, but its 2xx reply cannot be read. */
  if (req->fault == FAULT_GARBAGE && req->phase == PH_DONE && req->res.rc == 0)
    {
      if (req->op == FAKE_OP_PING)
        req_error (req, WB_E_ENGINE, 200, "ping: engine sent no usable API-Version");
      else
        req_error (req, WB_E_ENGINE, 200, "%s: reply is not JSON", op_what (req->op));
    }
  /* Lost: the engine did it, the connection dropped before its answer. */
  if (req->fault == FAULT_LOST && req->phase == PH_DONE)
    req_error (req, WB_E_ENGINE_DOWN, 0, "%s: connection to the engine lost", op_what (req->op));
  /* As engine.c maps it: a start refused outright did not run. */
  if (req->op == FAKE_OP_START && req->res.rc < 0)
    req->res.not_started
        = req->res.http_status == 400 || req->res.http_status == 404 || req->res.http_status == 409;
}

static void
req_event_cb (evutil_socket_t fd, short what, void *arg)
{
  eng_req_t *req = arg;

  (void) fd;
  (void) what;
  switch (req->phase)
    {
    case PH_QUEUED:
      req_answer (req);
      if (req->phase == PH_WAITING)
        {
          /* The 200 head of the wait: registered.  armed may cancel the
           * request; it is freed once armed returns. */
          if (req->armed)
            {
              req->in_armed = true;
              req->armed (req->arg);
              req->in_armed = false;
              if (req->cancelled)
                req_free (req);
            }
          return;
        }
      break;
    case PH_HUNG:
      req_error (req, WB_E_ENGINE_DOWN, 0,
                 "%s: Timeout was reached: Operation timed out after %ld milliseconds with 0 "
                 "bytes received",
                 op_what (req->op), req_timeout_ms (req));
      break;
    case PH_WAITING:
      return;
    case PH_DONE:
      break;
    }
  req->in_callback = true;
  req->cb (req->arg, &req->res);
  req_free (req);
}

void
eng_req_cancel (eng_req_t *req)
{
  if (req == NULL || req->in_callback || req->cancelled)
    return;
  if (req->in_armed)
    {
      req->cancelled = true;
      return;
    }
  req_free (req);
}

/* ---- the operations -------------------------------------------------- */

const char *
eng_default_endpoint (const char *cfg_endpoint)
{
  const char *env;

  if (cfg_endpoint && *cfg_endpoint)
    return cfg_endpoint;
  env = getenv ("DOCKER_HOST");
  if (env && *env)
    return env;
  return "unix:///var/run/docker.sock";
}

eng_req_t *
eng_ping (eng_t *eng, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req = req_new (eng, FAKE_OP_PING, NULL, cb, arg, err);
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_image_inspect (eng_t *eng, const char *name, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req;

  if (!path_component_ok (name))
    {
      wb_error (err, WB_E_INVALID, "image inspect: invalid name");
      return NULL;
    }
  req = req_new (eng, FAKE_OP_IMAGE_INSPECT, name, cb, arg, err);
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_info (eng_t *eng, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req = req_new (eng, FAKE_OP_INFO, NULL, cb, arg, err);
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_image_save (eng_t *eng, const char *name, int fd, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req;

  if (!path_component_ok (name))
    {
      wb_error (err, WB_E_INVALID, "image save: invalid name");
      return NULL;
    }
  req = req_new (eng, FAKE_OP_IMAGE_SAVE, name, cb, arg, err);
  if (req)
    req->fd = fd;
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_image_load (eng_t *eng, int fd, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req = req_new (eng, FAKE_OP_IMAGE_LOAD, NULL, cb, arg, err);
  if (req)
    req->fd = fd;
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_container_create (eng_t *eng, const char *name, const char *body_json, eng_cb cb, void *arg,
                      wb_err_t *err)
{
  eng_req_t *req;

  if (name && (!path_component_ok (name) || strchr (name, '/') != NULL || strlen (name) >= 128))
    {
      wb_error (err, WB_E_INVALID, "container create: invalid name");
      return NULL;
    }
  req = req_new (eng, FAKE_OP_CREATE, NULL, cb, arg, err);
  if (req == NULL)
    return NULL;
  /* Allocated now, so that only a call can fail for lack of memory. */
  req->newc = container_new (eng, body_json ? body_json : "");
  if (req->newc == NULL)
    {
      req_free (req);
      wb_error (err, WB_E_NOMEM, "container create: out of memory");
      return NULL;
    }
  snprintf (req->newc->name, sizeof req->newc->name, "%s", name ? name : "");
  return req_submit (req);
}

/* An operation on one container, with engine.c's check of the id. */
static eng_req_t *
container_op (eng_t *eng, fake_op_t op, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req;

  if (!path_component_ok (id) || strchr (id, '/') != NULL)
    {
      wb_error (err, WB_E_INVALID, "%s: invalid container id", op_what (op));
      return NULL;
    }
  req = req_new (eng, op, id, cb, arg, err);
  return req;
}

eng_req_t *
eng_container_start (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req = container_op (eng, FAKE_OP_START, id, cb, arg, err);
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_container_wait_stopped (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req = container_op (eng, FAKE_OP_WAIT, id, cb, arg, err);

  if (req == NULL)
    return NULL;
  req->not_running = true;
  return req_submit (req);
}

eng_req_t *
eng_container_wait (eng_t *eng, const char *id, eng_armed_cb armed, eng_cb cb, void *arg,
                    wb_err_t *err)
{
  eng_req_t *req = container_op (eng, FAKE_OP_WAIT, id, cb, arg, err);

  if (req == NULL)
    return NULL;
  req->armed = armed;
  return req_submit (req);
}

/* The exit code a signal gives a process that does not handle it. */
static long
signal_exit_code (const char *sig)
{
  static const struct
  {
    const char *name;
    int num;
  } sigs[] = {{"HUP", 1},   {"INT", 2},   {"QUIT", 3}, {"KILL", 9},
              {"USR1", 10}, {"USR2", 12}, {"TERM", 15}};
  size_t i = 0;
  uint64_t n;

  if (strncmp (sig, "SIG", 3) == 0)
    sig += 3;
  if (parse_number (sig, strlen (sig), &i, 64, &n) == 0 && sig[i] == '\0' && n > 0)
    return 128 + (long) n;
  for (i = 0; i < WB_ARRAY_SIZE (sigs); i++)
    if (strcmp (sig, sigs[i].name) == 0)
      return 128 + sigs[i].num;
  return 137;
}

eng_req_t *
eng_container_kill (eng_t *eng, const char *id, const char *signal, eng_cb cb, void *arg,
                    wb_err_t *err)
{
  eng_req_t *req;

  if (!path_component_ok (signal))
    {
      wb_error (err, WB_E_INVALID, "container kill: invalid name");
      return NULL;
    }
  req = container_op (eng, FAKE_OP_KILL, id, cb, arg, err);
  if (req == NULL)
    return NULL;
  req->kill_code = signal_exit_code (signal);
  return req_submit (req);
}

eng_req_t *
eng_container_inspect (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req = container_op (eng, FAKE_OP_INSPECT, id, cb, arg, err);
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_container_remove (eng_t *eng, const char *id, eng_cb cb, void *arg, wb_err_t *err)
{
  eng_req_t *req = container_op (eng, FAKE_OP_REMOVE, id, cb, arg, err);
  return req ? req_submit (req) : NULL;
}

eng_req_t *
eng_container_list (eng_t *eng, const char *label, const char *value_key, eng_cb cb, void *arg,
                    wb_err_t *err)
{
  eng_req_t *req;

  if (label == NULL)
    {
      wb_error (err, WB_E_INVALID, "container list: no label");
      return NULL;
    }
  req = req_new (eng, FAKE_OP_LIST, label, cb, arg, err);
  if (req == NULL)
    return NULL;
  if (value_key && (req->value_key = strdup (value_key)) == NULL)
    {
      req_free (req);
      wb_error (err, WB_E_NOMEM, "container list: out of memory");
      return NULL;
    }
  return req_submit (req);
}

/* ---- attach streams -------------------------------------------------- */

static void
attach_destroy (eng_attach_t *a)
{
  TAILQ_REMOVE (&a->eng->attaches, a, link);
  if (a->ev)
    event_free (a->ev);
  wb_buf_free (&a->in_early);
  wb_buf_free (&a->out);
  free (a->id);
  free (a);
}

/* The stream no longer feeds its container.  The hijacked connection
 * closing closes the container's stdin when it was created StdinOnce. */
static void
attach_detach (eng_attach_t *a)
{
  fake_container_t *c = a->c;

  a->c = NULL;
  if (c && c->stdin_once && !c->in_eof)
    container_stdin_eof (c);
}

static void
attach_end (eng_attach_t *a, int rc, const wb_err_t *err)
{
  a->phase = AT_ENDED;
  attach_detach (a);
  wb_buf_free (&a->out);
  event_del (a->ev);
  a->cbs.on_end (a->arg, rc, err);
}

/* The container is gone or exited: end after the output queued so far. */
static void
attach_finish (eng_attach_t *a)
{
  attach_detach (a);
  a->eof = true;
  kick (a->ev);
}

/* End with -1 at the next delivery, dropping undelivered output (the
 * connection is lost).  Replaces a pending answer or timeout. */
static void
attach_fail (eng_attach_t *a, wb_code_t code, const char *msg)
{
  if (a->dead || a->phase == AT_ENDED || a->failing)
    return;
  a->failing = true;
  wb_error (&a->fail_err, code, "%s", msg);
  attach_detach (a);
  wb_buf_free (&a->out);
  fire (a->eng, a->ev, 0);
}

static void
deliver_data (void *arg, int stream, const char *data, size_t len)
{
  eng_attach_t *a = arg;
  wb_err_t err;

  if (a->dead || a->failing || a->phase != AT_READY)
    return;
  if (stream == ENG_STREAM_EVENT)
    {
      /* Gathered whole, as engine/attach.c does (even while paused). */
      int r = eng_event_line_add (&a->event, data, len, a->demux.remaining == 0);
      if (r < 0)
        {
          wb_error (&err, WB_E_ENGINE, "run: an event line too long");
          attach_end (a, -1, &err);
        }
      else if (r == 1)
        a->on_event (a->arg, a->event.line);
      return;
    }
  if (!a->paused && stream != ENG_STREAM_STDIN)
    a->cbs.on_data (a->arg, stream, data, len);
}

/* The 101 (or the refusal). */
static void
attach_connect (eng_attach_t *a)
{
  static const unsigned char garbage[8] = {0x17, 3, 3, 0, 0, 0, 0, 1};
  fake_container_t *c;
  wb_err_t err;

  if (a->on_event && a->fault == FAULT_LOST)
    {
      /* Performed, the answer lost: it starts, and its stdin closes with
       * the connection. */
      c = find_container (a->eng, a->id);
      if (c && c->state == FAKE_CREATED)
        {
          if (a->in_early.len && wb_buf_append (&c->in, a->in_early.data, a->in_early.len) < 0)
            c->in.len = 0; /* out of memory: the program sees a bad frame */
          c->starts++;
          c->state = FAKE_RUNNING;
          a->eng->started++;
          container_stdin_eof (c);
        }
      wb_error (&err, WB_E_ENGINE_DOWN, "run: connection to the engine lost (fake engine)");
      attach_end (a, -1, &err);
      return;
    }
  if (a->fault == FAULT_DOWN || a->fault == FAULT_FAIL || a->fault == FAULT_LOST)
    {
      if (a->fault != FAULT_LOST)
        a->status = -1; /* never connected */
      wb_error (&err, WB_E_ENGINE_DOWN,
                "attach: connection to the engine failed: Connection %s (fake engine%s)",
                a->fault == FAULT_LOST ? "reset by peer" : "refused",
                a->fault == FAULT_DOWN ? " down" : "");
      attach_end (a, -1, &err);
      return;
    }
  c = find_container (a->eng, a->id);
  if (c == NULL)
    {
      wb_error (&err, WB_E_NOT_FOUND, "attach: engine answered 404: No such container: %s", a->id);
      err.engine_status = 404;
      a->status = 404;
      attach_end (a, -1, &err);
      return;
    }
  if (a->on_event && c->state != FAKE_CREATED)
    {
      wb_error (&err, WB_E_ENGINE, "run: engine answered 409: container %.12s cannot be run",
                a->id);
      err.engine_status = 409;
      a->status = 409;
      attach_end (a, -1, &err);
      return;
    }
  a->phase = AT_READY;
  a->status = 101;
  if (c->state != FAKE_EXITED)
    a->c = c;
  else
    a->eof = true; /* nothing will come: 101, then the end */
  if (a->c && a->in_early.len && !c->in_eof
      && wb_buf_append (&c->in, a->in_early.data, a->in_early.len) < 0)
    attach_fail (a, WB_E_NOMEM, "attach: out of memory");
  wb_buf_free (&a->in_early);
  if (a->c && a->close_early)
    container_stdin_eof (c);
  /* Garbage: bytes no demultiplexer accepts, first in the stream. */
  if (a->fault == FAULT_GARBAGE && !a->failing
      && wb_buf_append (&a->out, garbage, sizeof garbage) < 0)
    attach_fail (a, WB_E_NOMEM, "attach: out of memory");
  /* The run's start, as the start op's (after a garbage fault's bytes:
   * its "started" is never read), or the answer a test asked for. */
  const char *answer = a->eng->run_answer;
  if (a->on_event && !a->failing && answer
      && (answer[0] == '\0' || strncmp (answer, "not-started", 11) == 0))
    {
      if (answer[0])
        {
          run_event (a, "%s", answer);
          attach_finish (a); /* its init killed, nothing ran: the stream ends */
        }
      else
        attach_detach (a); /* stuck: nothing more comes */
    }
  else if (a->on_event && !a->failing)
    {
      c->starts++;
      c->state = FAKE_RUNNING;
      a->eng->started++;
      run_event (a, "%s", answer ? answer : "started");
      program_maybe_start (c);
    }
  if (a->failing)
    return;
  a->cbs.on_ready (a->arg);
}

static void
attach_deliver (eng_attach_t *a)
{
  wb_err_t err;

  while (!a->dead && !a->failing && (!a->paused || a->on_event) && a->phase == AT_READY
         && a->out.len > 0)
    {
      /* Taken out first: on_data may pause or free the stream. */
      wb_buf_t batch = a->out;
      int r;

      a->out = (wb_buf_t) WB_BUF_INIT;
      r = eng_demux_feed (&a->demux, batch.data, batch.len, deliver_data, a);
      wb_buf_free (&batch);
      if (r < 0 && !a->dead && a->phase == AT_READY)
        {
          wb_error (&err, WB_E_ENGINE, "attach: malformed multiplexed stream");
          attach_end (a, -1, &err);
        }
    }
  if (a->dead || a->phase != AT_READY)
    return;
  if (a->paused && a->on_event == NULL)
    wb_buf_free (&a->out);
  if (a->failing)
    attach_end (a, -1, &a->fail_err);
  else if (a->eof && a->out.len == 0)
    attach_end (a, 0, NULL);
}

static void
attach_event_cb (evutil_socket_t fd, short what, void *arg)
{
  eng_attach_t *a = arg;
  wb_err_t err;

  (void) fd;
  (void) what;
  a->busy++;
  if (a->dead || a->phase == AT_ENDED)
    goto out;
  if (a->failing)
    {
      err = a->fail_err;
      attach_end (a, -1, &err);
      goto out;
    }
  if (a->phase == AT_HUNG)
    {
      wb_error (&err, WB_E_ENGINE_DOWN, "attach: timed out after %ld ms waiting for the engine",
                a->eng->request_timeout_ms);
      attach_end (a, -1, &err);
      goto out;
    }
  if (a->phase == AT_CONNECTING)
    attach_connect (a);
  attach_deliver (a);
out:
  if (--a->busy == 0 && a->dead)
    attach_destroy (a);
}

static eng_attach_t *stream_open (eng_t *eng, fake_op_t op, const char *id,
                                  const eng_attach_cbs_t *cbs, eng_event_cb on_event, void *arg,
                                  wb_err_t *err);

eng_attach_t *
eng_attach_open (eng_t *eng, const char *id, const eng_attach_cbs_t *cbs, void *arg, wb_err_t *err)
{
  return stream_open (eng, FAKE_OP_ATTACH, id, cbs, NULL, arg, err);
}

eng_attach_t *
eng_run_open (eng_t *eng, const char *id, const void *frame, size_t len,
              const eng_attach_cbs_t *cbs, eng_event_cb on_event, void *arg, wb_err_t *err)
{
  eng_attach_t *a = stream_open (eng, FAKE_OP_RUN, id, cbs, on_event, arg, err);

  if (a == NULL)
    return NULL;
  /* The frame goes behind the request head, stdin closed after it. */
  if (wb_buf_append (&a->in_early, frame, len) < 0)
    {
      eng_attach_free (a);
      wb_error (err, WB_E_NOMEM, "run: out of memory");
      return NULL;
    }
  a->close_early = true;
  a->stdin_closed = true;
  return a;
}

int
eng_attach_status (const eng_attach_t *a)
{
  return a->status;
}

static eng_attach_t *
stream_open (eng_t *eng, fake_op_t op, const char *id, const eng_attach_cbs_t *cbs,
             eng_event_cb on_event, void *arg, wb_err_t *err)
{
  eng_attach_t *a;
  fault_t fault;

  for (const char *p = id; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
          || *p == '_' || *p == '-' || *p == '.'))
      {
        wb_error (err, WB_E_INVALID, "attach: invalid container id");
        return NULL;
      }
  fault = call_begin (eng, op);
  if (fault == FAULT_NULL)
    goto oom;
  a = calloc (1, sizeof *a);
  if (a == NULL)
    goto oom;
  a->id = strdup (id);
  a->ev = event_new (eng->base, -1, 0, attach_event_cb, a);
  if (a->id == NULL || a->ev == NULL)
    {
      if (a->ev)
        event_free (a->ev);
      free (a->id);
      free (a);
      goto oom;
    }
  a->eng = eng;
  a->cbs = *cbs;
  a->arg = arg;
  a->fault = fault;
  a->on_event = on_event;
  eng_demux_init (&a->demux);
  if (on_event)
    a->demux.max_stream = ENG_STREAM_EVENT;
  TAILQ_INSERT_TAIL (&eng->attaches, a, link);
  eng->n_attaches++;
  if (fault == FAULT_HANG)
    {
      /* No 101 comes; the request times out like any other. */
      a->phase = AT_HUNG;
      fire (eng, a->ev, eng->request_timeout_ms);
    }
  else
    {
      /* A refused connection answers at once, whatever the latency. */
      a->phase = AT_CONNECTING;
      fire (eng, a->ev, fault == FAULT_FAIL || fault == FAULT_DOWN ? 0 : eng->latency_ms);
    }
  return a;

oom:
  wb_error (err, WB_E_NOMEM, "attach: out of memory");
  return NULL;
}

int
eng_attach_write (eng_attach_t *a, const void *data, size_t len)
{
  if (a->dead || a->phase == AT_ENDED || a->failing || a->stdin_closed)
    return -1;
  if (a->phase != AT_READY)
    return wb_buf_append (&a->in_early, data, len);
  if (a->c == NULL || a->c->in_eof)
    return 0; /* the stream is closing: the bytes go nowhere, as on a socket */
  return wb_buf_append (&a->c->in, data, len);
}

void
eng_attach_close_stdin (eng_attach_t *a)
{
  if (a->dead || a->phase == AT_ENDED || a->stdin_closed)
    return;
  a->stdin_closed = true;
  if (a->phase != AT_READY)
    a->close_early = true;
  else if (a->c)
    container_stdin_eof (a->c);
}

void
eng_attach_pause (eng_attach_t *a)
{
  a->paused = true;
  if (a->on_event == NULL)
    wb_buf_free (&a->out); /* a run's events still come: deliver_data drops its output */
}

void
eng_attach_free (eng_attach_t *a)
{
  if (a == NULL || a->dead)
    return;
  a->dead = true;
  a->eng->n_attaches--;
  attach_detach (a);
  event_del (a->ev);
  if (a->busy == 0)
    attach_destroy (a);
}

/* ---- lifecycle ------------------------------------------------------- */

int
eng_new (struct event_base *base, const eng_config_t *cfg, eng_t **out, wb_err_t *err)
{
  eng_t *eng = calloc (1, sizeof *eng);

  if (eng == NULL)
    return wb_error (err, WB_E_NOMEM, "engine: out of memory");
  eng->base = base;
  eng->request_timeout_ms
      = cfg && cfg->request_timeout_ms > 0 ? cfg->request_timeout_ms : DEFAULT_TIMEOUT_MS;
  eng->faults = fake_engine_config.faults;
  eng->images = fake_engine_config.images;
  eng->n_images = fake_engine_config.n_images;
  eng->down = fake_engine_config.down;
  eng->oci = fake_engine_config.oci;
  TAILQ_INIT (&eng->reqs);
  TAILQ_INIT (&eng->attaches);
  TAILQ_INIT (&eng->containers);
  fake_engine_set_latency (eng, fake_engine_config.latency_ms);
  current = eng;
  *out = eng;
  return 0;
}

void
fake_engine_set_run_answer (fake_engine_t *fe, const char *line)
{
  fe->run_answer = line;
}

void
fake_engine_set_request_timeout (fake_engine_t *fe, long ms)
{
  fe->request_timeout_ms = ms > 0 ? ms : DEFAULT_TIMEOUT_MS;
}

long
eng_request_timeout_ms (const eng_t *eng)
{
  return eng->request_timeout_ms;
}

void
eng_free (eng_t *eng)
{
  eng_req_t *req;
  eng_attach_t *a;
  fake_container_t *c;

  if (eng == NULL)
    return;
  while ((req = TAILQ_FIRST (&eng->reqs)))
    req_free (req);
  while ((a = TAILQ_FIRST (&eng->attaches)))
    attach_destroy (a);
  while ((c = TAILQ_FIRST (&eng->containers)))
    {
      TAILQ_REMOVE (&eng->containers, c, link);
      container_destroy (c);
    }
  if (current == eng)
    current = NULL;
  free (eng);
}

/* ---- control --------------------------------------------------------- */

void
fake_engine_config_reset (void)
{
  memset (&fake_engine_config, 0, sizeof fake_engine_config);
}

fake_engine_t *
fake_engine_of (eng_t *eng)
{
  return eng;
}

fake_engine_t *
fake_engine_current (void)
{
  return current;
}

fake_engine_faults_t *
fake_engine_faults (fake_engine_t *fe)
{
  return &fe->faults;
}

void
fake_engine_reset_faults (fake_engine_t *fe)
{
  memset (&fe->faults, 0, sizeof fe->faults);
}

unsigned long
fake_engine_calls (const fake_engine_t *fe, fake_op_t op)
{
  return op >= FAKE_OP_ANY && op < FAKE_OP_COUNT ? fe->calls[op] : 0;
}

void
fake_engine_set_version (fake_engine_t *fe, const char *version)
{
  fe->version = version;
}

void
fake_engine_fail_waits (fake_engine_t *fe)
{
  eng_req_t *req;

  TAILQ_FOREACH (req, &fe->reqs, link)
  {
    if (req->phase != PH_WAITING || req->op != FAKE_OP_WAIT)
      continue;
    req->c = NULL;
    req_error (req, WB_E_ENGINE, 500, "container wait: the engine failed the wait");
    fire (fe, req->ev, 0);
  }
}

void
fake_engine_set_podman (fake_engine_t *fe, bool podman)
{
  fe->podman = podman;
}

void
fake_engine_set_latency (fake_engine_t *fe, long ms)
{
  struct timeval tv;

  fe->latency_ms = ms > 0 ? ms : 0;
  fe->latency_tv = NULL;
  if (fe->latency_ms == 0)
    return;
  tv.tv_sec = fe->latency_ms / 1000;
  tv.tv_usec = (fe->latency_ms % 1000) * 1000;
  /* NULL when memory runs out: plain timers then, just not FIFO. */
  fe->latency_tv = event_base_init_common_timeout (fe->base, &tv);
}

void
fake_engine_set_images (fake_engine_t *fe, const fake_image_t *images, size_t n)
{
  fe->images = images;
  fe->n_images = n;
}

void
fake_engine_set_down (fake_engine_t *fe, bool down)
{
  fe->down = down;
}

void
fake_engine_lose (fake_engine_t *fe)
{
  eng_req_t *req;
  eng_attach_t *a;
  fake_container_t *c;

  /* Only outcomes are recorded here; the callbacks run from the loop. */
  TAILQ_FOREACH (req, &fe->reqs, link)
  {
    if (req->in_callback || req->phase == PH_DONE)
      continue; /* answered already */
    req->c = NULL;
    req_error (req, WB_E_ENGINE_DOWN, 0, "%s: connection to the engine lost", op_what (req->op));
    fire (fe, req->ev, 0);
  }
  TAILQ_FOREACH (a, &fe->attaches, link)
  attach_fail (a, WB_E_ENGINE_DOWN, "attach: connection to the engine lost");
  /* A restarted dockerd reports its running containers exited, 137. */
  TAILQ_FOREACH (c, &fe->containers, link)
  container_exit (c, 137, false);
  fe->down = true;
}

fake_engine_stats_t
fake_engine_stats (const fake_engine_t *fe)
{
  fake_engine_stats_t s;

  memset (&s, 0, sizeof s);
  s.calls = fe->calls[FAKE_OP_ANY];
  s.created = fe->created;
  s.started = fe->started;
  s.removed = fe->removed;
  s.double_starts = fe->double_starts;
  s.live = fe->live;
  s.requests = fe->n_reqs;
  s.attaches = fe->n_attaches;
  return s;
}

fake_container_t *
fake_engine_container (fake_engine_t *fe, const char *id)
{
  return id ? find_container (fe, id) : NULL;
}

fake_container_t *
fake_engine_containers (fake_engine_t *fe)
{
  return TAILQ_FIRST (&fe->containers);
}

fake_container_t *
fake_container_next (const fake_container_t *c)
{
  return TAILQ_NEXT (c, link);
}

const char *
fake_container_id (const fake_container_t *c)
{
  return c->id;
}

const char *
fake_container_name (const fake_container_t *c)
{
  return c->name;
}

fake_state_t
fake_container_state (const fake_container_t *c)
{
  return c->state;
}

const char *
fake_container_label (const fake_container_t *c, const char *key)
{
  cJSON *labels = cJSON_GetObjectItemCaseSensitive (c->spec, "Labels");
  return cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (labels, key));
}

const char *
fake_container_body (const fake_container_t *c)
{
  return c->body;
}

const struct cJSON *
fake_container_spec (const fake_container_t *c)
{
  return c->spec;
}

const char *
fake_container_stdin (const fake_container_t *c, size_t *len)
{
  if (len)
    *len = c->in.len;
  return c->in.data ? c->in.data : "";
}

bool
fake_container_stdin_closed (const fake_container_t *c)
{
  return c->in_eof;
}

unsigned
fake_container_starts (const fake_container_t *c)
{
  return c->starts;
}

long
fake_container_exit_code (const fake_container_t *c)
{
  return c->exit_code;
}

bool
fake_container_oom_killed (const fake_container_t *c)
{
  return c->oom;
}

void
fake_container_exit (fake_container_t *c, long exit_code, bool oom_killed)
{
  if (c->state == FAKE_RUNNING)
    emit_trailer (c); /* the program ended: its init reports it */
  container_exit (c, exit_code, oom_killed);
}

/* Each id is the SHA-256 of its config, as an engine's is: archives are
 * checked against it (eng_archive_check). */
const fake_image_t fake_shipped_images[] = {
    {"warmbox/python:latest",
     "sha256:dd7bbacd0f949c4a00477621237bbccfa56395e7232e0e0116ba54613eb8820b",
     "{\"fake\":\"python\"}"},
    {"warmbox/javascript:latest",
     "sha256:553f224db1acdbf8e3c55afbf4e3c6107e27c49602ab2b92998f8654a0d581cd",
     "{\"fake\":\"javascript\"}"},
    {"warmbox/typescript:latest",
     "sha256:ddc7917f181e06fa9052defe5f25c01427d7c94896aaf08d26f6310e506f420b",
     "{\"fake\":\"typescript\"}"},
    {"warmbox/bash:latest",
     "sha256:b5095b61397783387eebf2818a434fd09f0b7f40cad9c523ad9ff5e6adc35b94",
     "{\"fake\":\"bash\"}"},
    {"warmbox/ruby:latest",
     "sha256:a9f2dabd898d4ae2e50c22e5ef31013894d1fbef72a3de83b8b8908605b2bf18",
     "{\"fake\":\"ruby\"}"},
    {"warmbox/c:latest", "sha256:e9bd117322a23f604aedc850608e9b91c2f99487bf12ce3500ab0333aa919ade",
     "{\"fake\":\"c\"}"},
    {"warmbox/cpp:latest",
     "sha256:4c7c538d4479ad8c7b95a5d408fca3fccbc1e6352d09ff9fbcd06c73fe6072a1",
     "{\"fake\":\"cpp\"}"},
    {"warmbox/go:latest", "sha256:dd50d5542b2af145d8c22e3691141c15c1aa3f8b5f63f266ea953f8aafc3f542",
     "{\"fake\":\"go\"}"},
    {"warmbox/rust:latest",
     "sha256:6bb85e73ac0300c5fb2c55c90785f79ffea49f885b7e081f40758248a4c891fc",
     "{\"fake\":\"rust\"}"},
    {"warmbox/java:latest",
     "sha256:2d4e1e6457c9c20280dac815c79987282a7df87f66d58ceda1f1a68505cf3728",
     "{\"fake\":\"java\"}"},
};
const size_t fake_n_shipped_images = WB_ARRAY_SIZE (fake_shipped_images);
