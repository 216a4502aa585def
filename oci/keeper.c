/* oci/keeper.c: the process warmboxd starts for an OCI engine (oci.h).
 *
 * warmboxd cannot start a program once it has confined itself, so if the
 * server it started died (a crash, the OOM killer, a kill -9), the OCI
 * engine would stay down until warmboxd restarts.  The keeper is that
 * restart: a small parent that runs the server as its child, and runs a
 * new one when the server is killed by a signal.  The new server takes the
 * root's lock once the dead one's is released, deletes what it left (its
 * containers, their cgroups, its bundles), and serves; warmboxd sees the
 * engine come back as after any engine restart.  A server that exits with
 * a code (it could not start: no runtime, another server on the root) is
 * not restarted: the keeper exits with that code, and warmboxd says so.
 *
 * The keeper is the containers' subreaper above the server: the inits a
 * dead server leaves become its children, and it reaps them as the next
 * server's runtime deletes them.  It stops on SIGUSR1 (warmboxd's, by pid)
 * or at warmboxd's death, by stopping its server (which removes every
 * container) and waiting for it. */
#define _GNU_SOURCE
#include "oci/oci.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RESTART_FIRST_MS 100
#define RESTART_MAX_MS 10000
#define LIVED_WELL_S 60 /* a server that served this long restarts at once again */

static int64_t
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
oci_keep (const oci_paths_t *paths, const char *socket_path)
{
  pid_t parent = getppid (), server = -1;
  sigset_t set;
  bool stopping = false;
  int64_t started = 0, restart_at = 0, backoff = RESTART_FIRST_MS;

  /* As the server does when warmboxd starts it: a signal to the whole
   * group (Ctrl-C, a service manager's SIGTERM) must not take the engine
   * away under a draining warmboxd. */
  prctl (PR_SET_PDEATHSIG, SIGUSR1);
  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, SIG_IGN);
  if (getppid () != parent)
    return 1;
  if (prctl (PR_SET_CHILD_SUBREAPER, 1) < 0)
    {
      wb_log_error ("cannot be the containers' subreaper: %s", strerror (errno));
      return 1;
    }
  sigemptyset (&set);
  sigaddset (&set, SIGUSR1);
  sigaddset (&set, SIGCHLD);
  if (sigprocmask (SIG_BLOCK, &set, NULL) < 0)
    return 1;
  for (;;)
    {
      int64_t now = now_ms (), wait_ms = 1000;
      struct timespec tick;
      siginfo_t si;
      int status;
      pid_t r;

      if (server < 0 && !stopping && now >= restart_at)
        {
          started = now;
          if ((server = fork ()) == 0)
            {
              sigprocmask (SIG_UNBLOCK, &set, NULL);
              _exit (oci_serve (paths, socket_path, true));
            }
          if (server < 0)
            {
              wb_log_error ("cannot start the server: %s", strerror (errno));
              return 1;
            }
        }
      if (server < 0 && restart_at - now < wait_ms)
        wait_ms = restart_at - now > 0 ? restart_at - now : 1;
      tick.tv_sec = wait_ms / 1000;
      tick.tv_nsec = (long) (wait_ms % 1000) * 1000000L;
      if ((sigtimedwait (&set, &si, &tick) == SIGUSR1 || getppid () != parent) && !stopping)
        {
          stopping = true;
          if (server > 0)
            kill (server, SIGUSR1);
        }
      while ((r = waitpid (-1, &status, WNOHANG)) > 0)
        {
          if (r != server)
            continue; /* an init a dead server left, deleted by the next one */
          server = -1;
          if (stopping || !WIFSIGNALED (status))
            return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
          if (now_ms () - started >= LIVED_WELL_S * 1000)
            backoff = RESTART_FIRST_MS;
          wb_warn (
              "the engine's server (pid %d) was killed by signal %d: a new one in %lld ms deletes "
              "what it left and serves",
              (int) r, WTERMSIG (status), (long long) backoff);
          restart_at = now_ms () + backoff;
          backoff = backoff * 2 > RESTART_MAX_MS ? RESTART_MAX_MS : backoff * 2;
        }
      if (stopping && server < 0)
        return 0;
    }
}
