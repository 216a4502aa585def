/* warmbox-oci: the OCI-runtime engine's helper (oci/oci.h says why it
 * exists and what it owns).
 *
 *   warmbox-oci serve --socket PATH [--root DIR] [--images DIR]
 *                     [--runtime crun|runc|auto|PATH] [--init PATH] [--runsc PATH | --no-runsc]
 *                     [--runtime-timeout-ms N] [--userns-base N [--userns-if-possible]]
 *                     [--die-with-parent]
 *   warmbox-oci load [--images DIR] ARCHIVE
 *
 * serve: the engine API on PATH (mode 0600) until SIGTERM; then every
 * container it holds is removed.  warmboxd starts it so (an engine of
 * "kind": "oci"), with --die-with-parent: then a keeper runs the server
 * and restarts it if it is killed (keeper.c), and both stop on SIGUSR1
 * or at warmboxd's death.  load: put a docker-save
 * archive into the image store (make images does, so that a host needs
 * no Docker engine to run the OCI engine).
 *
 * --runtime: the native runtime (profiles of runtime "runc", the host's
 * kernel): by default crun where it is installed and this host's cgroups
 * let it run, else runc (runtime.c); what it chose and why goes to
 * stderr and /info.
 *
 * --userns-base N: runc containers run in a user namespace, their ids
 * 0-65535 the host's N...N+65535.  When the host does not let this
 * process make a user namespace, serve exits 1, or with
 * --userns-if-possible says so on stderr and runs containers without
 * one. */
#define _GNU_SOURCE
#include "oci/oci.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_ROOT "/run/warmbox/oci"
#define DEFAULT_IMAGES "/var/lib/warmbox/oci-images"

static void
usage (void)
{
  fprintf (
      stderr,
      "usage: warmbox-oci serve --socket PATH [--root DIR] [--images DIR] [--runtime "
      "crun|runc|auto|PATH]\n"
      "                         [--init PATH] [--runsc PATH | --no-runsc]\n"
      "                         [--runtime-timeout-ms N] [--userns-base N [--userns-if-possible]]\n"
      "                         [--die-with-parent]\n"
      "       warmbox-oci load [--images DIR] ARCHIVE\n");
  exit (2);
}

static const char *
first_executable (const char *const *candidates)
{
  for (; *candidates; candidates++)
    if (access (*candidates, X_OK) == 0)
      return *candidates;
  return NULL;
}

/* Can a child of this process make a user namespace (and, as the runtime
 * does, write its map)?  The kernel's limit, a distribution's policy or a
 * confining seccomp filter may say no. */
static bool
userns_possible (void)
{
  int st;
  pid_t pid = fork ();
  if (pid < 0)
    return false;
  if (pid == 0)
    _exit (unshare (CLONE_NEWUSER) == 0 ? 0 : 1);
  while (waitpid (pid, &st, 0) < 0)
    if (errno != EINTR)
      return false;
  return WIFEXITED (st) && WEXITSTATUS (st) == 0;
}

int
main (int argc, char **argv)
{
  static const char *const inits[] = {"/usr/bin/tini-static", "/usr/bin/docker-init", NULL};
  static const char *const runscs[]
      = {"/usr/bin/runsc", "/usr/sbin/runsc", "/usr/local/bin/runsc", NULL};
  bool no_runsc = false;
  oci_paths_t paths = {.images = DEFAULT_IMAGES, .root = DEFAULT_ROOT};
  const char *socket_path = NULL, *archive = NULL, *runtime = NULL;
  bool die_with_parent = false, userns_if_possible = false;
  wb_err_t err;

  /* The frames it passes hold users' code: never in a core file. */
  if (wb_no_core_dumps (&err) < 0)
    {
      fprintf (stderr, "warmbox-oci: %s\n", err.msg);
      return 1;
    }
  if (argc < 2)
    usage ();
  for (int i = 2; i < argc; i++)
    {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (strcmp (a, "--die-with-parent") == 0)
        {
          die_with_parent = true;
          continue;
        }
      if (strcmp (a, "--no-runsc") == 0)
        {
          no_runsc = true;
          continue;
        }
      if (strcmp (a, "--userns-if-possible") == 0)
        {
          userns_if_possible = true;
          continue;
        }
      if (a[0] != '-')
        {
          if (archive)
            usage ();
          archive = a;
          continue;
        }
      if (v == NULL)
        usage ();
      if (strcmp (a, "--socket") == 0)
        socket_path = v;
      else if (strcmp (a, "--root") == 0)
        paths.root = v;
      else if (strcmp (a, "--images") == 0)
        paths.images = v;
      else if (strcmp (a, "--runtime") == 0)
        runtime = v;
      else if (strcmp (a, "--init") == 0)
        paths.init = v;
      else if (strcmp (a, "--runsc") == 0)
        paths.runsc = v;
      else if (strcmp (a, "--userns-base") == 0)
        paths.userns_base = (uint32_t) strtoul (v, NULL, 10);
      else if (strcmp (a, "--runtime-timeout-ms") == 0)
        paths.runtime_timeout_ms = (uint32_t) strtoul (v, NULL, 10);
      else
        usage ();
      i++;
    }
  if (paths.images[0] != '/' || paths.root[0] != '/')
    {
      fprintf (stderr, "warmbox-oci: --root and --images must be absolute paths\n");
      return 2;
    }
  if (strcmp (argv[1], "load") == 0)
    {
      char id[80];
      int fd;
      if (archive == NULL)
        usage ();
      if ((fd = open (archive, O_RDONLY | O_CLOEXEC)) < 0)
        {
          fprintf (stderr, "warmbox-oci: %s: %s\n", archive, strerror (errno));
          return 1;
        }
      /* Root's: others may only pass through (a user namespace's root
       * must reach the image's root), never list or change it. */
      if ((mkdir (paths.images, 0711) < 0 && errno != EEXIST) || chmod (paths.images, 0711) < 0)
        {
          fprintf (stderr, "warmbox-oci: %s: %s\n", paths.images, strerror (errno));
          return 1;
        }
      if (oci_image_load (paths.images, fd, id, sizeof id, &err) < 0)
        {
          fprintf (stderr, "warmbox-oci: %s: %s\n", archive, err.msg);
          return 1;
        }
      printf ("%s\n", id);
      return 0;
    }
  if (strcmp (argv[1], "serve") != 0 || socket_path == NULL || archive)
    usage ();
  if (oci_runtime_choose (runtime, "/sys/fs/cgroup", &paths.runtime, &err) < 0)
    {
      fprintf (stderr, "warmbox-oci: %s\n", err.msg);
      return 1;
    }
  if (paths.init == NULL)
    paths.init = first_executable (inits); /* NULL: profiles with Init are refused */
  if (no_runsc)
    paths.runsc = NULL;
  else if (paths.runsc == NULL)
    paths.runsc = first_executable (runscs); /* NULL: runsc profiles are refused */
  if (paths.userns_base > 0 && !userns_possible ())
    {
      if (!userns_if_possible)
        {
          fprintf (stderr, "warmbox-oci: this host does not let the helper make a user namespace "
                           "(user.max_user_namespaces, or a policy): set \"userns\": false to run "
                           "containers without one\n");
          return 1;
        }
      fprintf (stderr, "warmbox-oci: this host does not let the helper make a user namespace: "
                       "containers run without one\n");
      paths.userns_base = 0;
    }
  return die_with_parent ? oci_keep (&paths, socket_path) : oci_serve (&paths, socket_path, false);
}
