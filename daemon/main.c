/* daemon/main.c: warmboxd.  Thin: flags, config, the event loop,
 * signals.  The work lives in daemon.c, exec.c and http.c. */
#define _GNU_SOURCE
#include "api/agent.h"
#include "daemon/confine.h"
#include "daemon/daemon.h"
#include "api/http.h"

#include <errno.h>
#include <event2/event.h>
#include <event2/http.h>
#include <getopt.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#ifndef WB_VERSION
#define WB_VERSION "0.1.0"
#endif

static const char usage_text[]
    = "Usage: warmboxd [OPTIONS]\n"
      "Run untrusted code in hardened, disposable containers behind an HTTP API.\n"
      "\n"
      "  -c, --config FILE       JSON configuration (see docs/operators.md)\n"
      "  -l, --listen ADDR       unix:/path.sock, host:port or https://host:port (tls in the\n"
      "                          config); repeatable; replaces the\n"
      "                          configured listeners (default: unix:/run/warmbox/warmbox.sock\n"
      "                          as root, else $XDG_RUNTIME_DIR/warmbox.sock)\n"
      "      --engine ENDPOINT   unix:///var/run/docker.sock, tcp://host:port (default:\n"
      "                          config, else $DOCKER_HOST, else the local socket)\n"
      "      --profiles DIR      folder of language profiles\n"
      "      --store-path FILE   the execution history (SQLite; default: config, else\n"
      "                          /var/lib/warmbox/history.db as root)\n"
      "      --insecure-no-auth  allow a TCP listener without API tokens (loopback only)\n"
      "      --no-confine        skip warmboxd's own seccomp filter (debugging only)\n"
      "      --check-config FILE load FILE and the profiles, report, and exit\n"
      "      --check-profiles    load the profiles (every seccomp name resolved, the\n"
      "                          forbidden calls refused), report, and exit\n"
      "      --print-spec LANG   print the container create body for LANG and exit\n"
      "  -v, --verbose           debug logging\n"
      "      --version           print the version and exit\n"
      "  -h, --help              this text\n";

static sched_ctx_t ctx;
static sched_http_t *http;
static sched_agent_t *agent;
static struct event *sig_term, *sig_int, *sig_hup, *drain_timer, *delay_timer, *ping_timer, *image_timer;
static const char *config_path;
static bool pools_drained;
static uint64_t drain_started_ms, accepting_stopped_ms;

static int
default_listen (sched_config_t *cfg, wb_err_t *err)
{
  const char *xdg = getenv ("XDG_RUNTIME_DIR");
  char path[512];

  if (geteuid () == 0)
    {
      if (mkdir ("/run/warmbox", 0750) < 0 && errno != EEXIST)
        return wb_error_errno (err, WB_E_IO, errno, "mkdir /run/warmbox");
      snprintf (path, sizeof path, "unix:/run/warmbox/warmbox.sock");
    }
  else if (xdg && *xdg)
    snprintf (path, sizeof path, "unix:%s/warmbox.sock", xdg);
  else
    snprintf (path, sizeof path, "unix:/tmp/warmbox-%u.sock", (unsigned) geteuid ());
  return sched_config_add_listen (cfg, path, err);
}

/* SIGTERM: executions in flight run to their own end while the listeners
 * stay open, answering new executions with 503 (so a connection already
 * in the accept queue gets an answer, not a reset); then the listeners
 * close, the ready containers are removed, and the daemon exits once the
 * engine has answered every removal (or the grace period is over). */
static void
drain_check_cb (evutil_socket_t fd, short what, void *arg)
{
  size_t running = sched_exec_count (ctx.execs);
  uint64_t waited = wb_now_ms () - drain_started_ms;

  (void) fd;
  (void) what;
  (void) arg;
  if (running == 0 && !pools_drained)
    {
      size_t n;
      sched_http_stop_accepting (http);
      accepting_stopped_ms = wb_now_ms ();
      n = 0;
      n = nodes_drain_pools (ctx.nodes);
      pools_drained = true;
      if (n)
        wb_info ("executions done; removing %zu ready containers", n);
    }
  /* A removal that failed waits for its retry: hurry it (once a second),
   * the engine may be back. */
  if (pools_drained && nodes_busy (ctx.nodes) == 0 && nodes_containers (ctx.nodes) > 0
      && (wb_now_ms () - accepting_stopped_ms) % 1000 < 100)
    nodes_retry_removals (ctx.nodes);
  /* Connections that were queued when the socket was unlinked get a
   * moment to be accepted and answered. */
  if (running == 0 && pools_drained && nodes_busy (ctx.nodes) == 0
      && nodes_containers (ctx.nodes) == 0
      && wb_now_ms () - accepting_stopped_ms >= 200)
    {
      wb_info ("drained; exiting");
      event_base_loopbreak (ctx.base);
      return;
    }
  /* Removals get 15 s of their own after the executions' grace. */
  if (waited > ctx.cfg.shutdown_grace_ms + (running ? 0 : 15000))
    {
      wb_warn ("grace period over with %zu executions and %u engine calls pending; exiting "
               "(the next start-up marks the executions interrupted and reaps their containers)",
               running, nodes_busy (ctx.nodes));
      event_base_loopbreak (ctx.base);
    }
}

static void
start_drain (evutil_socket_t fd, short what, void *arg)
{
  struct timeval tv = {0, 100 * 1000};

  (void) fd;
  (void) what;
  (void) arg;
  wb_info ("no new executions; finishing %zu in flight", sched_exec_count (ctx.execs));
  sched_ctx_drain (&ctx); /* new executions get 503 from now on, pools stop refilling */
  drain_started_ms = wb_now_ms ();
  drain_timer = event_new (ctx.base, -1, EV_PERSIST, drain_check_cb, NULL);
  if (drain_timer == NULL || event_add (drain_timer, &tv) < 0)
    event_base_loopbreak (ctx.base);
}

/* SIGTERM or SIGINT: /readyz fails and the agent says drain at once; for
 * drain_delay_ms executions are still taken (a load balancer that has not
 * yet noticed keeps sending some), then start_drain. */
static void
signal_cb (evutil_socket_t sig, short what, void *arg)
{
  struct timeval tv = {ctx.cfg.drain_delay_ms / 1000, (ctx.cfg.drain_delay_ms % 1000) * 1000};

  (void) what;
  (void) arg;
  if (ctx.leaving)
    {
      wb_warn ("second signal: exiting now");
      event_base_loopbreak (ctx.base);
      return;
    }
  ctx.leaving = true;
  if (ctx.cfg.drain_delay_ms == 0)
    {
      wb_info ("signal %d", (int) sig);
      start_drain (-1, 0, NULL);
      return;
    }
  wb_info ("signal %d: not ready; new executions are still taken for %u ms", (int) sig,
           ctx.cfg.drain_delay_ms);
  delay_timer = evtimer_new (ctx.base, start_drain, NULL);
  if (delay_timer == NULL || evtimer_add (delay_timer, &tv) < 0)
    start_drain (-1, 0, NULL);
}

/* SIGHUP: load the profiles and the config file's pool sizes, tokens and
 * TLS certificates again.  A changed profile has a new hash, so its pool is replaced and the
 * old one drained; a profile or config that fails to load leaves everything
 * as it was. */
/* SIGTERM waits shutdown_grace_ms for executions in flight: say so when
 * the longest one the profiles allow (the wait for room, a compile stage,
 * the run, the init's slack and the kill's grace) would not fit, since it
 * would then be cut off without its answer. */
static void
warn_short_grace (const sched_config_t *cfg, const prof_set_t *profiles)
{
  uint64_t longest = 0;

  for (size_t i = 0; i < profiles->n; i++)
    {
      const prof_t *p = profiles->items[i];
      uint64_t ms = (uint64_t) p->max.timeout_ms + p->max.compile_timeout_ms + (p->compile_argv ? 1000 : 0);
      if (ms > longest)
        longest = ms;
    }
  longest += cfg->max_wait_ms + 5000;
  if (cfg->shutdown_grace_ms < longest)
    wb_warn ("shutdown_grace_ms %u is shorter than the longest execution the profiles allow (%llu ms, "
             "max_wait_ms included): at SIGTERM such an execution would be cut off without its answer",
             cfg->shutdown_grace_ms, (unsigned long long) longest);
}

static void
reload_cb (evutil_socket_t sig, short what, void *arg)
{
  prof_set_t *fresh = NULL;
  sched_config_t cfg;
  api_config_t fresh_api;
  wb_err_t err;

  (void) sig;
  (void) what;
  (void) arg;
  if (ctx.leaving)
    {
      wb_info ("reload ignored: shutting down");
      return;
    }
  if (prof_load_dir (ctx.cfg.profiles_dir, &fresh, &err) < 0)
    {
      wb_log_error ("reload refused, keeping the running profiles: %s", err.msg);
      return;
    }
  warn_short_grace (&ctx.cfg, fresh);
  /* Everything that can refuse comes before anything is applied. */
  if (ctx.n_retired == WB_ARRAY_SIZE (ctx.retired) && sched_exec_count (ctx.execs) > 0)
    {
      wb_log_error ("reload refused: too many reloads in flight");
      prof_set_free (fresh);
      return;
    }
  if (config_path)
    {
      if (sched_config_defaults (&cfg, &err) < 0 || sched_config_load (&cfg, config_path, &err) < 0)
        {
          wb_log_error ("reload refused, keeping the running configuration: %s", err.msg);
          sched_config_clear (&cfg);
          prof_set_free (fresh);
          return;
        }
      sched_config_api (&cfg, &fresh_api);
      /* Tokens can be rotated, but auth can't be switched off by a reload. */
      if (ctx.cfg.n_tokens > 0 && cfg.n_tokens == 0)
        {
          wb_log_error ("reload refused: %s lists no tokens (authentication can't be turned off "
                        "by a reload; restart to do that)",
                        config_path);
          sched_config_clear (&cfg);
          prof_set_free (fresh);
          return;
        }
      /* The TLS listeners' certificate, key and client CA: read now, used
       * by new connections once nothing below refuses the reload. */
      if (sched_http_tls_prepare (http, &fresh_api, &err) < 0)
        {
          wb_log_error ("reload refused, keeping the running configuration: %s", err.msg);
          sched_config_clear (&cfg);
          prof_set_free (fresh);
          return;
        }
    }
  /* Keep resolved image ids of unchanged images; the refresh fixes the
   * rest.  The last step that can refuse (memory). */
  if (sched_ctx_profiles_swap (&ctx, fresh, &err) < 0)
    {
      wb_log_error ("reload refused: %s", err.msg);
      if (config_path)
        {
          sched_http_tls_abandon (http);
          sched_config_clear (&cfg);
        }
      prof_set_free (fresh);
      return;
    }
  if (config_path)
    {
      /* Pool sizes, tokens and the drain, read and readiness timings
       * apply at once; listeners (agent_listen too) and the engines need
       * a restart. */
      bool engines_changed = cfg.n_engines != ctx.cfg.n_engines;
      for (size_t i = 0; i < cfg.n_engines && !engines_changed; i++)
        engines_changed = strcmp (cfg.engines[i].name, ctx.cfg.engines[i].name) != 0
                          || strcmp (cfg.engines[i].endpoint ? cfg.engines[i].endpoint : "",
                                     ctx.cfg.engines[i].endpoint ? ctx.cfg.engines[i].endpoint : "")
                                 != 0;
      if (engines_changed && cfg.n_engines > 0)
        wb_warn ("the engines in %s changed: engines are read at start-up (restart to apply)",
                 config_path);
      /* Tokens kept by name keep their buckets (before the table copies
       * the new list in). */
      sched_auth_reload (&ctx.auth, &ctx.api.cfg, &fresh_api);
      sched_config_apply_reloadable (&ctx.cfg, &cfg);
      sched_config_clear (&cfg);
    }
  sched_ctx_configure (&ctx);
  sched_http_tls_commit (http);
  wb_info ("reloaded: %zu languages", fresh->n);
  for (size_t i = 0; i < fresh->n; i++)
    nodes_pool_update (ctx.nodes, i);
  nodes_images_refresh (ctx.nodes);
}

/* Tags move when images are rebuilt: a new id makes a new pool. */
static void
image_timer_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  (void) arg;
  if (!ctx.draining)
    nodes_images_refresh (ctx.nodes);
}

static void
ping_timer_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  (void) arg;
  nodes_ping (ctx.nodes);
}

int
main (int argc, char **argv)
{
  static const struct option opts[] = {
    {"config", required_argument, NULL, 'c'},
    {"listen", required_argument, NULL, 'l'},
    {"engine", required_argument, NULL, 'E'},
    {"profiles", required_argument, NULL, 'P'},
    {"store-path", required_argument, NULL, 'D'},
    {"no-confine", no_argument, NULL, 'N'},
    {"insecure-no-auth", no_argument, NULL, 'I'},
    {"check-config", required_argument, NULL, 'C'},
    {"print-spec", required_argument, NULL, 'S'},
    {"check-profiles", no_argument, NULL, 'K'},
    {"verbose", no_argument, NULL, 'v'},
    {"version", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  const char *engine = NULL, *profiles = NULL, *store_path = NULL;
  const char *listen_flags[SCHED_MAX_LISTEN];
  size_t n_listen_flags = 0;
  bool check_only = false, check_profiles = false, insecure = false;
  const char *print_spec = NULL;
  bool no_confine = false;
  struct timeval ping_every = {2, 0}, image_every;
  wb_err_t err;
  int c, status = 1;

  while ((c = getopt_long (argc, argv, "c:l:vh", opts, NULL)) != -1)
    switch (c)
      {
      case 'c': config_path = optarg; break;
      case 'l':
        if (n_listen_flags == SCHED_MAX_LISTEN)
          {
            fprintf (stderr, "warmboxd: at most %d --listen\n", SCHED_MAX_LISTEN);
            return 2;
          }
        listen_flags[n_listen_flags++] = optarg;
        break;
      case 'E': engine = optarg; break;
      case 'P': profiles = optarg; break;
      case 'D': store_path = optarg; break;
      case 'N': no_confine = true; break;
      case 'I': insecure = true; break;
      case 'S': print_spec = optarg; break;
      case 'K': check_profiles = true; break;
      case 'C':
        check_only = true;
        config_path = optarg;
        break;
      case 'v': wb_log_set_level (WB_LOG_DEBUG); break;
      case 'V': printf ("warmboxd %s\n", WB_VERSION); return 0;
      case 'h': fputs (usage_text, stdout); return 0;
      default: fputs (usage_text, stderr); return 2;
      }
  if (optind < argc)
    {
      fprintf (stderr, "warmboxd: unexpected argument %s\n%s", argv[optind], usage_text);
      return 2;
    }

  if (sched_config_defaults (&ctx.cfg, &err) < 0
      || (config_path && sched_config_load (&ctx.cfg, config_path, &err) < 0))
    goto fatal;
  if (n_listen_flags)
    {
      for (size_t i = 0; i < ctx.cfg.n_listen; i++)
        free (ctx.cfg.listen[i]);
      ctx.cfg.n_listen = 0;
      for (size_t i = 0; i < n_listen_flags; i++)
        if (sched_config_add_listen (&ctx.cfg, listen_flags[i], &err) < 0)
          goto fatal;
    }
  if (engine)
    {
      if (sched_config_set_engine (&ctx.cfg, engine, &err) < 0)
        goto fatal;
    }
  if (profiles)
    {
      free (ctx.cfg.profiles_dir);
      if ((ctx.cfg.profiles_dir = strdup (profiles)) == NULL)
        goto nomem;
    }
  ctx.cfg.insecure_no_auth = insecure;
  if (store_path)
    {
      free (ctx.cfg.store_path);
      /* Lost to a failed copy, the flag would mean the default path. */
      if ((ctx.cfg.store_path = strdup (store_path)) == NULL)
        goto nomem;
    }

  if (prof_load_dir (ctx.cfg.profiles_dir, &ctx.profiles, &err) < 0)
    goto fatal;
  if (!print_spec)
    warn_short_grace (&ctx.cfg, ctx.profiles);
  if (print_spec)
    {
      const prof_t *p = prof_find (ctx.profiles, print_spec);
      sbx_identity_t id = {NULL, "print-spec", "print-spec", "", SBX_UID_FIRST, NULL};
      char key[SBX_KEY_MAX];
      wb_buf_t body = WB_BUF_INIT;
      if (p == NULL)
        {
          wb_error (&err, WB_E_NOT_FOUND, "no profile for language %s", print_spec);
          goto fatal;
        }
      id.image_id = p->image;
      sbx_pool_key (p, &p->def, p->image, key);
      id.pool_key = key;
      if (sbx_body (p, &p->def, &id, &body, &err) < 0)
        goto fatal;
      printf ("%s\n", body.data);
      wb_buf_free (&body);
      status = 0;
      goto out;
    }
  if (check_profiles || check_only)
    {
      for (size_t i = 0; i < ctx.profiles->n; i++)
        printf ("profile %s: image %s, runtime %s, hash %s\n", ctx.profiles->items[i]->language,
                ctx.profiles->items[i]->image, ctx.profiles->items[i]->runtime,
                ctx.profiles->items[i]->hash);
      if (check_profiles && !check_only)
        {
          printf ("profiles OK (%zu in %s)\n", ctx.profiles->n, ctx.cfg.profiles_dir);
          status = 0;
          goto out;
        }
      for (size_t i = 0; i < ctx.profiles->n; i++)
        {
          const sched_pool_config_t *pc = sched_config_pool (&ctx.cfg, ctx.profiles->items[i]->language);
          printf ("pool %s: min_ready %u, max_ready %u\n", ctx.profiles->items[i]->language,
                  pc->min_ready, pc->max_ready);
        }
      printf ("max_containers %u, create_concurrency %u, queue_max %u\n", ctx.cfg.max_containers,
              ctx.cfg.create_concurrency, ctx.cfg.queue_max);
      api_config_t api_view;
      sched_config_api (&ctx.cfg, &api_view);
      if (sched_http_check_tls (&api_view, &err) < 0)
        {
          fprintf (stderr, "warmboxd: %s\n", err.msg);
          goto out;
        }
      printf ("configuration OK\n");
      status = 0;
      goto out;
    }
  if (ctx.cfg.n_listen == 0 && default_listen (&ctx.cfg, &err) < 0)
    goto fatal;

  signal (SIGPIPE, SIG_IGN);
  ctx.base = event_base_new ();
  if (ctx.base == NULL)
    {
      wb_error (&err, WB_E_INTERNAL, "event_base_new failed");
      goto fatal;
    }
  if (sched_ctx_init (&ctx, &err) < 0)
    goto fatal;
  if (sched_http_start (&ctx.api, &http, &err) < 0)
    goto fatal;
  if (ctx.cfg.agent_listen && sched_agent_start (&ctx.api, ctx.cfg.agent_listen, &agent, &err) < 0)
    goto fatal;

  sig_term = evsignal_new (ctx.base, SIGTERM, signal_cb, NULL);
  sig_int = evsignal_new (ctx.base, SIGINT, signal_cb, NULL);
  sig_hup = evsignal_new (ctx.base, SIGHUP, reload_cb, NULL);
  ping_timer = event_new (ctx.base, -1, EV_PERSIST, ping_timer_cb, NULL);
  image_timer = event_new (ctx.base, -1, EV_PERSIST, image_timer_cb, NULL);
  image_every.tv_sec = ctx.cfg.image_refresh_ms / 1000;
  image_every.tv_usec = (ctx.cfg.image_refresh_ms % 1000) * 1000;
  if (!sig_term || !sig_int || !sig_hup || !ping_timer || !image_timer
      || event_add (sig_hup, NULL) < 0 || event_add (sig_term, NULL) < 0
      || event_add (sig_int, NULL) < 0 || event_add (ping_timer, &ping_every) < 0
      || event_add (image_timer, &image_every) < 0)
    {
      wb_error (&err, WB_E_INTERNAL, "cannot install signal handlers");
      goto fatal;
    }
  /* Everything is set up: from here on warmboxd needs no exec, ptrace,
   * mount, module or namespace call. */
  if (!no_confine && sched_confine (&err) < 0)
    goto fatal;
  /* First pings now. */
  nodes_ping (ctx.nodes);
  for (size_t i = 0; i < nodes_count (ctx.nodes); i++)
    {
      node_view_t v;
      node_view (nodes_at (ctx.nodes, i), &v);
      wb_info ("warmboxd %s instance %s, %zu languages, engine %s: %s", WB_VERSION,
               ctx.instance_id, ctx.profiles->n, v.name, v.endpoint);
    }

  event_base_dispatch (ctx.base);
  status = 0;
  goto out;

nomem:
  wb_error (&err, WB_E_NOMEM, "out of memory reading the command line");
fatal:
  fprintf (stderr, "warmboxd: %s\n", err.msg);
out:
  if (sig_term)
    event_free (sig_term);
  if (sig_int)
    event_free (sig_int);
  if (sig_hup)
    event_free (sig_hup);
  if (drain_timer)
    event_free (drain_timer);
  if (delay_timer)
    event_free (delay_timer);
  if (ping_timer)
    event_free (ping_timer);
  if (image_timer)
    event_free (image_timer);
  /* Executions still in flight (a second signal) are abandoned first: their
   * clients hear 503, their rows stay "running" for the next start-up to
   * mark interrupted.  Then the connections and the listeners go (a Unix
   * socket is unlinked unless another daemon has taken its path). */
  if (ctx.base)
    sched_ctx_clear (&ctx, 5000);
  sched_http_free (http);
  http = NULL;
  sched_agent_free (agent);
  agent = NULL;
  prof_set_free (ctx.profiles);
  while (ctx.n_retired)
    prof_set_free (ctx.retired[--ctx.n_retired]);
  sched_config_clear (&ctx.cfg);
  if (ctx.base)
    event_base_free (ctx.base);
  return status;
}
