/* sandbox/sandbox_int.h: shared by the files of sandbox/ only. */
#ifndef WARMBOX_SANDBOX_INT_H
#define WARMBOX_SANDBOX_INT_H

#include "warmbox/sandbox.h"

/* Append the template's body stamped with this container's identity
 * (User, warmbox.instance, warmbox.owner) to out.  -1 with err on
 * allocation failure; out then holds nothing of the body. */
WB_MUST_CHECK int sbx_tmpl_render (const sbx_tmpl_t *t, const char *instance_id, const char *owner,
                                   uint32_t uid, wb_buf_t *out, wb_err_t *err);

#endif
