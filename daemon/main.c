/* daemon/main.c: warmboxd.  Thin: flags, config, the signals and timers,
 * the event loop.  The work lives in the layers below (docs/architecture.md);
 * SIGHUP is reload.c's, SIGTERM shutdown.c's. */
#define _GNU_SOURCE
#include "api/agent.h"
#include "api/http.h"
#include "daemon/confine.h"
#include "daemon/daemon.h"
#include "daemon/oci.h"
#include "daemon/reload.h"
#include "daemon/shutdown.h"

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
static struct event *sig_term, *sig_int, *sig_hup, *ping_timer, *image_timer;
static sched_shutdown_t *shutdown_;
static sched_oci_t oci; /* the OCI engines' helpers (daemon/oci.h) */
static const char *config_path;

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

static void
signal_cb (evutil_socket_t sig, short what, void *arg)
{
  (void) what;
  (void) arg;
  sched_shutdown_signal (shutdown_, (int) sig);
}

static void
reload_cb (evutil_socket_t sig, short what, void *arg)
{
  (void) sig;
  (void) what;
  (void) arg;
  sched_reload (&ctx, http, config_path);
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

  /* Sessions' state and users' code live in this memory: no crash may
   * write it to a core file. */
  if (wb_no_core_dumps (&err) < 0)
    {
      fprintf (stderr, "warmboxd: %s\n", err.msg);
      return 1;
    }
  while ((c = getopt_long (argc, argv, "c:l:vh", opts, NULL)) != -1)
    switch (c)
      {
      case 'c':
        config_path = optarg;
        break;
      case 'l':
        if (n_listen_flags == SCHED_MAX_LISTEN)
          {
            fprintf (stderr, "warmboxd: at most %d --listen\n", SCHED_MAX_LISTEN);
            return 2;
          }
        listen_flags[n_listen_flags++] = optarg;
        break;
      case 'E':
        engine = optarg;
        break;
      case 'P':
        profiles = optarg;
        break;
      case 'D':
        store_path = optarg;
        break;
      case 'N':
        no_confine = true;
        break;
      case 'I':
        insecure = true;
        break;
      case 'S':
        print_spec = optarg;
        break;
      case 'K':
        check_profiles = true;
        break;
      case 'C':
        check_only = true;
        config_path = optarg;
        break;
      case 'v':
        wb_log_set_level (WB_LOG_DEBUG);
        break;
      case 'V':
        printf ("warmboxd %s\n", WB_VERSION);
        return 0;
      case 'h':
        fputs (usage_text, stdout);
        return 0;
      default:
        fputs (usage_text, stderr);
        return 2;
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

  /* Every daemon of the host leases its sandboxes' uids from one folder
   * (sandbox/uids.c); "none" keeps each engine's own rotation. */
  if (ctx.cfg.uid_lease_dir == NULL)
    {
      const char *xdg = getenv ("XDG_RUNTIME_DIR");
      char dir[512];
      if (geteuid () == 0)
        snprintf (dir, sizeof dir, "/run/warmbox/uids");
      else if (xdg && *xdg)
        snprintf (dir, sizeof dir, "%s/warmbox-uids", xdg);
      else
        dir[0] = '\0'; /* no private place: set uid_lease_dir to share one */
      if (dir[0] && (ctx.cfg.uid_lease_dir = strdup (dir)) == NULL)
        goto nomem;
    }
  else if (strcmp (ctx.cfg.uid_lease_dir, "none") == 0)
    {
      free (ctx.cfg.uid_lease_dir);
      ctx.cfg.uid_lease_dir = NULL;
    }
  if (prof_load_dir (ctx.cfg.profiles_dir, &ctx.profiles, &err) < 0)
    goto fatal;
  if (!print_spec)
    sched_warn_short_grace (&ctx.cfg, ctx.profiles);
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
          const sched_pool_config_t *pc
              = sched_config_pool (&ctx.cfg, ctx.profiles->items[i]->language);
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
  /* The OCI engines' helpers, while warmboxd may still start programs. */
  if (sched_oci_start (&ctx.cfg, &oci, &err) < 0)
    goto fatal;
  if (sched_ctx_init (&ctx, &err) < 0)
    goto fatal;
  if (sched_http_start (&ctx.api, &http, &err) < 0)
    goto fatal;
  if (ctx.cfg.agent_listen && sched_agent_start (&ctx.api, ctx.cfg.agent_listen, &agent, &err) < 0)
    goto fatal;
  if ((shutdown_ = sched_shutdown_new (&ctx, http, &err)) == NULL)
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
      wb_info ("warmboxd %s instance %s, %zu languages, engine %s: %s", WB_VERSION, ctx.instance_id,
               ctx.profiles->n, v.name, v.endpoint);
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
  sched_shutdown_free (shutdown_);
  shutdown_ = NULL;
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
  /* Last: a helper removes what is left of its containers as it stops. */
  sched_oci_stop (&oci);
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
