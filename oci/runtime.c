/* The native OCI runtime: which one runs this helper's containers (crun
 * where this host lets it, else runc), and the one step of a container's
 * life that differs between them, its exec fifo (oci/oci.h). */
#define _GNU_SOURCE
#include "oci/oci.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define CGROUP_ROOT "/sys/fs/cgroup"

static const char *const crun_paths[]
    = {"/usr/bin/crun", "/usr/sbin/crun", "/usr/local/bin/crun", NULL};
static const char *const runc_paths[]
    = {"/usr/sbin/runc", "/usr/bin/runc", "/usr/local/sbin/runc", NULL};

const char *
oci_runtime_find (oci_runtime_kind_t kind)
{
  for (const char *const *p = kind == OCI_RUNTIME_CRUN ? crun_paths : runc_paths; *p; p++)
    if (access (*p, X_OK) == 0)
      return *p;
  return NULL;
}

const char *
oci_runtime_name (oci_runtime_kind_t kind)
{
  return kind == OCI_RUNTIME_CRUN ? "crun" : "runc";
}

bool
oci_crun_fits_cgroups (const char *cgroup_root, char *why, size_t size)
{
  char path[512], controllers[256] = "";
  struct statfs st;
  int fd;
  ssize_t n;

  if (statfs (cgroup_root, &st) < 0 || st.f_type == CGROUP2_SUPER_MAGIC)
    return true; /* unified (or none: crun says so itself) */
  snprintf (path, sizeof path, "%s/unified", cgroup_root);
  if (statfs (path, &st) < 0 || st.f_type != CGROUP2_SUPER_MAGIC)
    return true; /* legacy v1 only */
  /* Hybrid: crun refuses while the v2 hierarchy holds any controller
   * (libcrun_cgroup_enter: "cgroups in hybrid mode not supported"). */
  snprintf (path, sizeof path, "%s/unified/cgroup.controllers", cgroup_root);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return true;
  n = read (fd, controllers, sizeof controllers - 1);
  close (fd);
  controllers[n > 0 ? n : 0] = '\0';
  controllers[strcspn (controllers, "\n")] = '\0';
  if (controllers[strspn (controllers, " ")] == '\0')
    return true;
  snprintf (why, size,
            "this host's cgroups are hybrid and the v2 hierarchy holds %s, which crun refuses "
            "(scripts/setup.sh mounts such controllers on v1 hierarchies of their own)",
            controllers);
  return false;
}

/* "crun version 1.8.1" or "runc version 1.1.5+ds1": the first line of
 * its --version, into buf.  -1 when it cannot be run. */
static int
runtime_version (const char *path, char *buf, size_t size)
{
  int p[2], st = 0;
  pid_t got;
  ssize_t n = 0, r;
  pid_t pid;

  buf[0] = '\0';
  if (pipe2 (p, O_CLOEXEC) < 0)
    return -1;
  if ((pid = fork ()) < 0)
    {
      close (p[0]);
      close (p[1]);
      return -1;
    }
  if (pid == 0)
    {
      dup2 (p[1], 1);
      execl (path, path, "--version", (char *) NULL);
      _exit (127);
    }
  close (p[1]);
  /* Read to the end (what does not fit is drained: a runtime must not
   * die of SIGPIPE for saying more than we keep). */
  for (;;)
    {
      char spill[256];
      bool keep = (size_t) n < size - 1;
      r = keep ? read (p[0], buf + n, size - 1 - (size_t) n) : read (p[0], spill, sizeof spill);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      if (keep)
        n += r;
    }
  close (p[0]);
  while ((got = waitpid (pid, &st, 0)) < 0 && errno == EINTR)
    ;
  buf[n] = '\0';
  buf[strcspn (buf, "\n")] = '\0';
  return got == pid && WIFEXITED (st) && WEXITSTATUS (st) == 0 && n > 0 ? 0 : -1;
}

int
oci_runtime_choose (const char *asked, const char *cgroup_root, oci_runtime_t *rt, wb_err_t *err)
{
  char why[400] = "";

  memset (rt, 0, sizeof *rt);
  if (asked == NULL || *asked == '\0' || strcmp (asked, "auto") == 0)
    {
      const char *crun = oci_runtime_find (OCI_RUNTIME_CRUN);
      if (crun == NULL)
        snprintf (why, sizeof why, "not crun: it is not installed");
      else if (!oci_crun_fits_cgroups (cgroup_root, why + 10, sizeof why - 10))
        memcpy (why, "not crun: ", 10);
      else
        {
          snprintf (rt->path, sizeof rt->path, "%s", crun);
          snprintf (why, sizeof why, "crun runs on this host");
        }
      if (rt->path[0] == '\0')
        {
          const char *runc = oci_runtime_find (OCI_RUNTIME_RUNC);
          if (runc == NULL)
            return wb_error (err, WB_E_INVALID,
                             "no OCI runtime: %s, and runc is not installed (install Debian's "
                             "crun or runc)",
                             why);
          snprintf (rt->path, sizeof rt->path, "%s", runc);
        }
    }
  else if (strcmp (asked, "crun") == 0 || strcmp (asked, "runc") == 0)
    {
      oci_runtime_kind_t kind = asked[0] == 'c' ? OCI_RUNTIME_CRUN : OCI_RUNTIME_RUNC;
      const char *path = oci_runtime_find (kind);
      if (path == NULL)
        return wb_error (err, WB_E_INVALID, "runtime %s was asked for and is not installed", asked);
      snprintf (rt->path, sizeof rt->path, "%s", path);
      snprintf (why, sizeof why, "asked for");
    }
  else if (asked[0] == '/')
    {
      if (strlen (asked) >= sizeof rt->path)
        return wb_error (err, WB_E_INVALID, "the runtime's path is too long (%zu bytes at most)",
                         sizeof rt->path - 1);
      snprintf (rt->path, sizeof rt->path, "%s", asked);
      snprintf (why, sizeof why, "asked for");
    }
  else
    return wb_error (
        err, WB_E_INVALID,
        "runtime must be \"crun\", \"runc\", \"auto\" or an absolute path, not \"%.40s\"", asked);
  if (access (rt->path, X_OK) < 0)
    return wb_error (err, WB_E_INVALID, "the runtime %s cannot be run: %s", rt->path,
                     strerror (errno));
  if (runtime_version (rt->path, rt->version, sizeof rt->version) < 0)
    return wb_error (err, WB_E_INVALID, "the runtime %s does not answer --version", rt->path);
  if (strncmp (rt->version, "crun ", 5) == 0)
    rt->kind = OCI_RUNTIME_CRUN;
  else if (strncmp (rt->version, "runc ", 5) == 0)
    rt->kind = OCI_RUNTIME_RUNC;
  else
    return wb_error (err, WB_E_INVALID,
                     "the runtime %s is neither crun nor runc (it says \"%.60s\")", rt->path,
                     rt->version);
  snprintf (rt->why, sizeof rt->why, "%s", why);
  if (rt->kind == OCI_RUNTIME_CRUN && !oci_crun_fits_cgroups (cgroup_root, why, sizeof why))
    return wb_error (err, WB_E_INVALID, "%s is crun: %s", rt->path, why);
  return 0;
}

/* ---- the exec fifo --------------------------------------------------------- */

int
oci_exec_fifo_release (oci_runtime_kind_t kind, const char *fifo, int *fd_out)
{
  static const char byte = 0;
  int fd;
  ssize_t n;

  *fd_out = -1;
  if (kind == OCI_RUNTIME_RUNC)
    {
      /* runc's init opens the fifo to write and blocks until a reader
       * comes; its byte, read later, says it is about to exec. */
      if ((fd = open (fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
        return -1;
      *fd_out = fd;
      return 0;
    }
  /* crun's init holds the fifo's read end (its create opened it) and
   * waits for one byte (libcrun_status_write_exec_fifo).  Without a
   * reader the open fails (ENXIO): the init is gone. */
  if ((fd = open (fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
    return -1;
  unlink (fifo); /* as crun start does: the state now says running */
  do
    n = write (fd, &byte, 1);
  while (n < 0 && errno == EINTR);
  {
    int e = errno;
    close (fd);
    errno = e;
  }
  return n == 1 ? 1 : -1;
}
