/* oci/cgroup.c: the helper's side of the containers' cgroups: the memory
 * cgroup's OOM-kill count (read before the runtime's delete removes it),
 * and purging the cgroups a create killed half-way left behind. */
#define _GNU_SOURCE
#include "oci/server_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The memory cgroup's OOM-kill count (cgroup v1's memory.oom_control, v2's
 * memory.events): did the kernel kill a process of it for memory? */
bool
cgroup_oom (const ctr_t *k)
{
  char path[PATH_MAX], buf[1024];
  const char *line;
  snprintf (path, sizeof path, "/sys/fs/cgroup/memory/%s/%s/memory.oom_control",
            k->srv->cgroup_parent, k->id);
  if (read_small (path, buf, sizeof buf) < 0)
    {
      snprintf (path, sizeof path, "/sys/fs/cgroup/%s/%s/memory.events", k->srv->cgroup_parent,
                k->id);
      if (read_small (path, buf, sizeof buf) < 0)
        return false;
    }
  line = strstr (buf, "oom_kill ");
  return line && strtol (line + 9, NULL, 10) > 0;
}

/* What the runtime could not delete (a create killed half-way, a state
 * lost): every process of the container's cgroups killed, the cgroups
 * removed, in every hierarchy (v1) or the one (v2).  Only this helper's
 * parent cgroup is looked in.  id NULL: all of them. */
void
cgroup_purge (const server_t *s, const char *id)
{
  DIR *top = opendir ("/sys/fs/cgroup");
  struct dirent *h;
  bool v2 = access ("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0;

  if (top == NULL)
    return;
  for (h = v2 ? NULL : readdir (top);; h = readdir (top))
    {
      char parent[PATH_MAX];
      DIR *d;
      struct dirent *e;
      if (!v2 && h == NULL)
        break;
      if (!v2 && (h->d_name[0] == '.' || h->d_type != DT_DIR))
        continue;
      snprintf (parent, sizeof parent, "/sys/fs/cgroup/%s%s%s", v2 ? "" : h->d_name, v2 ? "" : "/",
                s->cgroup_parent);
      if ((d = opendir (parent)) != NULL)
        {
          while ((e = readdir (d)) != NULL)
            {
              char dir[PATH_MAX + 300], procs[PATH_MAX + 320], buf[8192];
              if (e->d_name[0] == '.' || e->d_type != DT_DIR || (id && strcmp (e->d_name, id) != 0))
                continue;
              snprintf (dir, sizeof dir, "%s/%s", parent, e->d_name);
              snprintf (procs, sizeof procs, "%s/cgroup.procs", dir);
              for (int tries = 0; tries < 50 && rmdir (dir) < 0 && errno == EBUSY; tries++)
                {
                  if (read_small (procs, buf, sizeof buf) > 0)
                    for (char *p = buf, *end; *p; p = end)
                      {
                        long pid = strtol (p, &end, 10);
                        if (end == p)
                          break;
                        if (pid > 1)
                          kill ((pid_t) pid, SIGKILL);
                      }
                  usleep (2000);
                }
            }
          closedir (d);
        }
      if (v2)
        break;
    }
  closedir (top);
}
