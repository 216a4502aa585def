/* tests/unit/test_oci_runtime.c: the native runtime's choice and its exec
 * fifo (oci/runtime.c).
 *
 * A runtime is asked for by name, path or "auto"; anything else, and a
 * binary that is neither crun nor runc, is refused with a sentence.  On a
 * cgroup root that is not a hybrid layout crun fits.  The exec fifo is
 * released as each runtime's own start does: crun's init reads one byte
 * we write (and the fifo is gone: "running"), runc's init writes one we
 * read; without an init on the other end the start fails. */
#define _GNU_SOURCE
#include "oci/oci.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool
refused (const char *asked, const char *says)
{
  oci_runtime_t rt;
  wb_err_t err = {0};
  if (oci_runtime_choose (asked, "/sys/fs/cgroup", &rt, &err) == 0)
    return false;
  if (strstr (err.msg, says) == NULL)
    printf ("# said: %s\n", err.msg);
  return strstr (err.msg, says) != NULL;
}

static void
test_choose (void)
{
  char dir[] = "/tmp/wb-runtime-XXXXXX", path[128];
  FILE *f;

  ok (refused ("bogus", "must be \"crun\", \"runc\", \"auto\" or an absolute path"),
      "a runtime that is no name or path is refused");
  ok (refused ("/bin/true", "neither crun nor runc"),
      "a binary that is neither crun nor runc is refused");
  ok (refused ("/nonexistent/runc", "cannot be run"), "a path that cannot be run is refused");
  ok (refused ("/bin/false", "does not answer --version"),
      "a binary that fails --version is refused");
  must (mkdtemp (dir) ? 0 : -1);
  snprintf (path, sizeof path, "%s/fake-runc", dir);
  must ((f = fopen (path, "w")) ? 0 : -1);
  fputs ("#!/bin/sh\necho 'runc version 9.9.9'\necho 'commit: x'\n", f);
  fclose (f);
  must (chmod (path, 0755));
  {
    oci_runtime_t rt;
    wb_err_t err = {0};
    ok (oci_runtime_choose (path, "/sys/fs/cgroup", &rt, &err) == 0 && rt.kind == OCI_RUNTIME_RUNC
            && strcmp (rt.version, "runc version 9.9.9") == 0 && strcmp (rt.path, path) == 0,
        "a path is taken by what its --version says: %s (%s)", rt.version, err.msg);
  }
  {
    /* The choice, whatever this host has: a runtime that is installed. */
    oci_runtime_t rt;
    wb_err_t err = {0};
    if (oci_runtime_find (OCI_RUNTIME_CRUN) || oci_runtime_find (OCI_RUNTIME_RUNC))
      ok (oci_runtime_choose ("auto", "/sys/fs/cgroup", &rt, &err) == 0 && rt.path[0] == '/'
              && strncmp (rt.version, oci_runtime_name (rt.kind), 4) == 0 && rt.why[0],
          "auto: %s (%s: %s)", rt.path, rt.version, rt.why);
    else
      ok (refused ("auto", "no OCI runtime"), "auto without crun or runc: refused");
  }
  {
    /* A directory that is no cgroup file system at all: not hybrid. */
    char why[200] = "";
    ok (oci_crun_fits_cgroups (dir, why, sizeof why) && why[0] == '\0',
        "a root that is no hybrid layout: crun fits");
  }
  unlink (path);
  rmdir (dir);
}

static void
test_fifo (void)
{
  char dir[] = "/tmp/wb-fifo-XXXXXX", fifo[128], b[4];
  int init_end, fd = -1;

  must (mkdtemp (dir) ? 0 : -1);
  snprintf (fifo, sizeof fifo, "%s/exec.fifo", dir);

  /* crun: the init holds the read end (opened by its create). */
  must (mkfifo (fifo, 0600));
  must (init_end = open (fifo, O_RDONLY | O_NONBLOCK));
  ok (oci_exec_fifo_release (OCI_RUNTIME_CRUN, fifo, &fd) == 1 && fd == -1,
      "crun: released at once, nothing left to wait on");
  ok (read (init_end, b, sizeof b) == 1, "crun: its init reads the one byte");
  ok (access (fifo, F_OK) < 0, "crun: the fifo is gone, as crun start leaves it (running)");
  close (init_end);

  /* crun's init gone: no reader, the start fails. */
  must (mkfifo (fifo, 0600));
  errno = 0;
  ok (oci_exec_fifo_release (OCI_RUNTIME_CRUN, fifo, &fd) < 0 && errno == ENXIO,
      "crun: an init that is gone is not started (ENXIO)");
  ok (access (fifo, F_OK) == 0, "crun: a start that failed leaves the fifo (still created)");

  /* runc: we read, its init writes. */
  ok (oci_exec_fifo_release (OCI_RUNTIME_RUNC, fifo, &fd) == 0 && fd >= 0,
      "runc: the read end, to wait on the init's byte");
  must (init_end = open (fifo, O_WRONLY | O_NONBLOCK));
  ok (read (fd, b, sizeof b) < 0 && errno == EAGAIN, "runc: nothing before the init writes");
  must (write (init_end, "0", 1) == 1 ? 0 : -1);
  ok (read (fd, b, sizeof b) == 1, "runc: the init's byte says it runs the program");
  close (init_end);
  close (fd);
  unlink (fifo);
  ok (oci_exec_fifo_release (OCI_RUNTIME_RUNC, fifo, &fd) < 0 && fd == -1,
      "runc: no fifo (a container that is not created): refused");
  rmdir (dir);
}

int
main (void)
{
  test_choose ();
  test_fifo ();
  return tap_done ();
}
