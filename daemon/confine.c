/* daemon/confine.c: warmboxd confines itself once it is set up.
 *
 * The daemon never needs to run a program, trace a process, mount, load
 * kernel code or change namespaces; if its parsing or HTTP code were ever
 * subverted, those are the calls an attacker reaches for first.  After the
 * listeners, the history file and the engine client are set up, a seccomp
 * filter makes them fail with EPERM (not a kill: a bug in us should be an
 * error in the log, not a dead daemon).  Installed with no_new_privs, for
 * every thread, so the history writer thread is covered too. */
#define _GNU_SOURCE
#include "daemon/confine.h"

#include <errno.h>
#include <seccomp.h>
#include <string.h>

/* LeakSanitizer stops the world at exit with ptrace: a sanitizer build
 * (make ... SANITIZE=address) keeps ptrace and process_vm_readv allowed. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZER_BUILD 1
#else
#define SANITIZER_BUILD 0
#endif

static const char *const denied[] = {
    "execve",
    "execveat",
#if !SANITIZER_BUILD
    "ptrace",
    "process_vm_readv",
#endif
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "unshare",
    "setns",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "personality",
    "acct",
    "quotactl",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "adjtimex",
    "sethostname",
    "setdomainname",
};

int
sched_confine (wb_err_t *err)
{
  scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);
  int rc;

  if (ctx == NULL)
    return wb_error (err, WB_E_INTERNAL, "seccomp_init failed");
  if (SANITIZER_BUILD)
    wb_warn ("sanitizer build: ptrace stays allowed for LeakSanitizer");
  for (size_t i = 0; i < WB_ARRAY_SIZE (denied); i++)
    {
      int nr = seccomp_syscall_resolve_name (denied[i]);
      if (nr == __NR_SCMP_ERROR)
        continue; /* not on this architecture */
      rc = seccomp_rule_add (ctx, SCMP_ACT_ERRNO (EPERM), nr, 0);
      if (rc < 0)
        {
          seccomp_release (ctx);
          return wb_error_errno (err, WB_E_INTERNAL, -rc, "seccomp rule for %s", denied[i]);
        }
    }
  /* Every thread, including the history writer started earlier. */
  seccomp_attr_set (ctx, SCMP_FLTATR_CTL_TSYNC, 1);
  rc = seccomp_load (ctx);
  seccomp_release (ctx);
  if (rc < 0)
    return wb_error_errno (err, WB_E_INTERNAL, -rc, "loading warmboxd's own seccomp filter");
  return 0;
}
