/* sandbox/sandbox_int.h: shared by the files of sandbox/ only. */
#ifndef WARMBOX_SANDBOX_INT_H
#define WARMBOX_SANDBOX_INT_H

#include "warmbox/sandbox.h"

/* Append the template's body stamped with this container's identity
 * (User, warmbox.instance, warmbox.owner) to out.  -1 with err on
 * allocation failure; out then holds nothing of the body. */
WB_MUST_CHECK int sbx_tmpl_render (const sbx_tmpl_t *t, const char *instance_id, const char *owner,
                                   uint32_t uid, wb_buf_t *out, wb_err_t *err);

/* Host-wide uid leases (uids.c).  Open the lease folder dir (made, with
 * its parents, when missing): a descriptor, or -1 with err when it cannot
 * be made, is no folder, or is not this user's alone to write. */
WB_MUST_CHECK int sbx_uid_dir_open (const char *dir, wb_err_t *err);
/* A uid no other live sandbox on the host holds, tried from *cursor on
 * (which moves past it) in the folder dirfd: *uid, and *fd, the lease,
 * held until closed.  -1 with err: WB_E_BUSY (every uid held), WB_E_IO. */
WB_MUST_CHECK int sbx_uid_lease (int dirfd, uint32_t *cursor, uint32_t *uid, int *fd,
                                 wb_err_t *err);

/* The engine and loop a sandbox works on (run.c). */
eng_t *sbx_engine (const sbx_t *s);
struct event_base *sbx_base (const sbx_t *s);

#endif
