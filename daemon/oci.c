/* daemon/oci.c: starting and stopping the OCI engines' helpers (oci.h). */
#define _GNU_SOURCE
#include "daemon/oci.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* warmbox-oci beside the running warmboxd. */
static int
helper_path (char *out, size_t size)
{
  char self[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  char *slash;
  if (n <= 0)
    return -1;
  self[n] = '\0';
  if ((slash = strrchr (self, '/')) == NULL)
    return -1;
  *slash = '\0';
  return snprintf (out, size, "%s/warmbox-oci", self) < (int) size ? 0 : -1;
}

static void
sleep_ms (long ms)
{
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep (&ts, &ts) < 0 && errno == EINTR)
    ;
}

static pid_t
spawn (const char *helper, const sched_engine_config_t *e, const char *sock)
{
  pid_t pid = fork ();
  if (pid != 0)
    return pid;
  {
    const char *argv[24];
    char timeout[16], base[16];
    size_t n = 0;
    argv[n++] = helper;
    argv[n++] = "serve";
    argv[n++] = "--socket";
    argv[n++] = sock;
    argv[n++] = "--root";
    argv[n++] = e->oci_root;
    argv[n++] = "--images";
    argv[n++] = e->oci_images;
    if (e->oci_runtime)
      {
        argv[n++] = "--runtime";
        argv[n++] = e->oci_runtime;
      }
    if (e->oci_runtime_timeout_ms)
      {
        snprintf (timeout, sizeof timeout, "%u", e->oci_runtime_timeout_ms);
        argv[n++] = "--runtime-timeout-ms";
        argv[n++] = timeout;
      }
    if (e->oci_userns != SCHED_USERNS_OFF)
      {
        snprintf (base, sizeof base, "%u", SCHED_OCI_USERNS_BASE);
        argv[n++] = "--userns-base";
        argv[n++] = base;
        if (e->oci_userns == SCHED_USERNS_AUTO)
          argv[n++] = "--userns-if-possible";
      }
    argv[n++] = "--die-with-parent";
    argv[n] = NULL;
    signal (SIGPIPE, SIG_DFL);
    execv (helper, (char *const *) argv);
    fprintf (stderr, "warmboxd: cannot run %s: %s\n", helper, strerror (errno));
    _exit (127);
  }
}

int
sched_oci_start (const sched_config_t *cfg, sched_oci_t *out, wb_err_t *err)
{
  char helper[PATH_MAX];

  memset (out, 0, sizeof *out);
  for (size_t i = 0; i < cfg->n_engines; i++)
    {
      const sched_engine_config_t *e = &cfg->engines[i];
      char sock[PATH_MAX];
      pid_t pid;
      int status;
      if (!e->oci)
        continue;
      if (out->n == 0 && helper_path (helper, sizeof helper) < 0)
        {
          wb_error (err, WB_E_INTERNAL, "cannot find warmbox-oci beside warmboxd");
          goto fail;
        }
      snprintf (sock, sizeof sock, "%s/engine.sock", e->oci_root);
      if (wb_mkdir_p (e->oci_root, 0700) < 0)
        {
          wb_error_errno (err, WB_E_IO, errno, "engine %s: cannot make %s", e->name, e->oci_root);
          goto fail;
        }
      /* A socket left by an earlier helper is not this one's answer. */
      unlink (sock);
      if ((pid = spawn (helper, e, sock)) < 0)
        {
          wb_error_errno (err, WB_E_INTERNAL, errno, "engine %s: cannot start %s", e->name, helper);
          goto fail;
        }
      out->pids[out->n] = pid;
      snprintf (out->names[out->n], sizeof out->names[0], "%s", e->name);
      out->n++;
      for (int waited = 0;; waited += 20)
        {
          if (access (sock, F_OK) == 0)
            break;
          if (waitpid (pid, &status, WNOHANG) == pid)
            {
              out->pids[--out->n] = 0;
              wb_error (err, WB_E_ENGINE_DOWN,
                        "engine %s: warmbox-oci exited (status %d) before it listened; its "
                        "log lines above say why",
                        e->name,
                        WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
              goto fail;
            }
          if (waited >= 150000)
            {
              wb_error (err, WB_E_ENGINE_DOWN,
                        "engine %s: warmbox-oci did not listen on %s in 150 s", e->name, sock);
              goto fail;
            }
          sleep_ms (20);
        }
      wb_info ("engine %s: warmbox-oci (pid %d) runs the OCI runtime, on %s", e->name, (int) pid,
               sock);
    }
  return 0;
fail:
  sched_oci_stop (out);
  return -1;
}

void
sched_oci_stop (sched_oci_t *o)
{
  /* SIGUSR1: a helper started by warmboxd ignores SIGTERM and SIGINT,
   * which a terminal or a service manager sends to the whole group. */
  for (size_t i = 0; i < o->n; i++)
    if (o->pids[i] > 0)
      kill (o->pids[i], SIGUSR1);
  for (size_t i = 0; i < o->n; i++)
    {
      int status;
      if (o->pids[i] <= 0)
        continue;
      for (int waited = 0;; waited += 50)
        {
          pid_t r = waitpid (o->pids[i], &status, WNOHANG);
          if (r == o->pids[i] || (r < 0 && errno == ECHILD))
            break;
          if (waited == 30000)
            {
              wb_warn ("engine %s: warmbox-oci (pid %d) did not stop in 30 s: killed", o->names[i],
                       (int) o->pids[i]);
              kill (o->pids[i], SIGKILL);
            }
          sleep_ms (50);
        }
      o->pids[i] = 0;
    }
  o->n = 0;
}
