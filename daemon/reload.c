/* daemon/reload.c: SIGHUP (see reload.h). */
#define _GNU_SOURCE
#include "daemon/reload.h"

#include <string.h>

/* SIGTERM waits shutdown_grace_ms for executions in flight: say so when
 * the longest one the profiles allow (the wait for room, a compile stage,
 * the run, the init's slack and the kill's grace) would not fit, since it
 * would then be cut off without its answer. */
void
sched_warn_short_grace (const sched_config_t *cfg, const prof_set_t *profiles)
{
  uint64_t longest = 0;

  for (size_t i = 0; i < profiles->n; i++)
    {
      const prof_t *p = profiles->items[i];
      /* The start bound before the run mark, then the stages. */
      uint64_t ms = (uint64_t) cfg->start_bound_ms + p->max.timeout_ms + p->max.compile_timeout_ms
                    + (p->compile_argv ? 1000 : 0);
      if (ms > longest)
        longest = ms;
    }
  /* Past the deadline: the wait for an exit the engine reports late after
   * the init's report, the kill's grace, the output's drain. */
  uint64_t grace = cfg->exec_grace_ms ? cfg->exec_grace_ms : 5000;
  longest += cfg->max_wait_ms + 2 * grace + (cfg->exec_grace_ms ? cfg->exec_grace_ms : 2000);
  if (cfg->shutdown_grace_ms < longest)
    wb_warn (
        "shutdown_grace_ms %u is shorter than the longest execution the profiles allow (%llu ms, "
        "max_wait_ms and start_bound_ms included): at SIGTERM such an execution would be cut off "
        "without its answer",
        cfg->shutdown_grace_ms, (unsigned long long) longest);
}

void
sched_reload (sched_ctx_t *ctx, sched_http_t *http, const char *config_path)
{
  prof_set_t *fresh = NULL;
  sched_config_t cfg;
  api_config_t fresh_api;
  wb_err_t err;

  if (ctx->leaving)
    {
      wb_info ("reload ignored: shutting down");
      return;
    }
  if (prof_load_dir (ctx->cfg.profiles_dir, &fresh, &err) < 0)
    {
      wb_log_error ("reload refused, keeping the running profiles: %s", err.msg);
      return;
    }
  sched_warn_short_grace (&ctx->cfg, fresh);
  /* Everything that can refuse comes before anything is applied. */
  if (ctx->n_retired == WB_ARRAY_SIZE (ctx->retired) && sched_exec_count (ctx->execs) > 0)
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
      if (ctx->cfg.n_tokens > 0 && cfg.n_tokens == 0)
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
  if (sched_ctx_profiles_swap (ctx, fresh, &err) < 0)
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
      bool engines_changed = cfg.n_engines != ctx->cfg.n_engines;
      for (size_t i = 0; i < cfg.n_engines && !engines_changed; i++)
        engines_changed
            = strcmp (cfg.engines[i].name, ctx->cfg.engines[i].name) != 0
              || strcmp (cfg.engines[i].endpoint ? cfg.engines[i].endpoint : "",
                         ctx->cfg.engines[i].endpoint ? ctx->cfg.engines[i].endpoint : "")
                     != 0;
      if (engines_changed && cfg.n_engines > 0)
        wb_warn ("the engines in %s changed: engines are read at start-up (restart to apply)",
                 config_path);
      /* Tokens kept by name keep their buckets (before the table copies
       * the new list in). */
      sched_auth_reload (&ctx->auth, &ctx->api.cfg, &fresh_api);
      sched_config_apply_reloadable (&ctx->cfg, &cfg);
      sched_config_clear (&cfg);
    }
  sched_ctx_configure (ctx);
  sched_http_tls_commit (http);
  wb_info ("reloaded: %zu languages", fresh->n);
  for (size_t i = 0; i < fresh->n; i++)
    nodes_pool_update (ctx->nodes, i);
  nodes_images_refresh (ctx->nodes);
}
