/* daemon/confine.h: warmboxd's own seccomp filter (confine.c). */
#ifndef WARMBOX_SCHED_CONFINE_H
#define WARMBOX_SCHED_CONFINE_H

#include "warmbox/wb.h"

/* Deny warmboxd itself execve, ptrace, mount, module, kexec and namespace
 * calls (EPERM), in every thread.  -1 with err if the filter cannot load. */
WB_MUST_CHECK int sched_confine (wb_err_t *err);

#endif
