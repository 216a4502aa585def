/* sandbox/uids.c: host-wide leases of the sandboxes' uids.
 *
 * A sandbox runs as a uid of its own (SBX_UID_FIRST ...), which its
 * RLIMIT_NPROC counts: two live sandboxes of one host uid share it, so one
 * tenant's fork bomb would stop another's forks.  Every engine of every
 * daemon on a host takes its uids from one folder of lease files: a uid is
 * a container's while its process holds an exclusive flock on the file of
 * that name, from before the create to the container's removal.  The
 * kernel drops the locks of a process that dies, so a crashed daemon
 * leaks nothing.  Files stay (an empty file per uid ever used, on a
 * tmpfs): removing one while another process opens it would let two hold
 * "the same" uid.  A container's uid is also its host uid, or that plus
 * an engine's user-namespace offset (one for every OCI helper, past any
 * uid handed out here), so unique uids are unique host uids. */
#define _GNU_SOURCE
#include "sandbox_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int
sbx_uid_dir_open (const char *dir, wb_err_t *err)
{
  char path[4096];
  struct stat sb;
  int fd;

  if (snprintf (path, sizeof path, "%s", dir) >= (int) sizeof path)
    return wb_error (err, WB_E_INVALID, "uid leases: the folder's name is too long");
  /* Its parents as needed (/run/warmbox), then itself. */
  for (char *p = path + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (path, 0755) < 0 && errno != EEXIST)
          return wb_error_errno (err, WB_E_IO, errno, "uid leases: creating %s", path);
        *p = '/';
      }
  if (mkdir (path, 0700) < 0 && errno != EEXIST)
    return wb_error_errno (err, WB_E_IO, errno, "uid leases: creating %s", path);
  fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return wb_error_errno (err, WB_E_IO, errno, "uid leases: %s", path);
  /* Another user who could write there could hold, plant or remove the
   * leases: the folder must be this user's, writable by it alone. */
  if (fstat (fd, &sb) < 0 || sb.st_uid != geteuid () || (sb.st_mode & 022) != 0)
    {
      close (fd);
      return wb_error (err, WB_E_INVALID,
                       "uid leases: %s must be a folder of this user's that no one else may "
                       "write to",
                       path);
    }
  return fd;
}

int
sbx_uid_lease (int dirfd, uint32_t *cursor, uint32_t *uid, int *fd, wb_err_t *err)
{
  char name[16];

  for (uint32_t tried = 0; tried < SBX_UID_COUNT; tried++)
    {
      uint32_t u = SBX_UID_FIRST + (*cursor)++ % SBX_UID_COUNT;
      int f;
      snprintf (name, sizeof name, "%u", u);
      f = openat (dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (f < 0)
        return wb_error_errno (err, WB_E_IO, errno, "uid leases: %s", name);
      if (flock (f, LOCK_EX | LOCK_NB) == 0)
        {
          *uid = u;
          *fd = f;
          return 0;
        }
      int e = errno;
      close (f);
      if (e != EWOULDBLOCK)
        return wb_error_errno (err, WB_E_IO, e, "uid leases: locking %s", name);
    }
  return wb_error (err, WB_E_BUSY, "uid leases: all %u uids are held by live sandboxes",
                   SBX_UID_COUNT);
}
