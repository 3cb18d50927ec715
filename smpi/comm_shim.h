/* SimGrid comms whose payload is a pointer, for the DTL's channels under SMPI. SMPI installs a
 * copy callback that treats every payload as an MPI buffer (it copies bytes from it and frees
 * detached ones); the C API cannot choose another per comm, so these set SimGrid's pointer copy
 * on each of the DTL's comms (C++: comm_shim.cpp). Same contracts as the sg_mailbox_ calls. */
#ifndef SITU_COMM_SHIM_H
#define SITU_COMM_SHIM_H

#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

sg_comm_t situ_shim_put_init(sg_mailbox_t mailbox, void *payload, long simulated_bytes);
sg_comm_t situ_shim_put_async(sg_mailbox_t mailbox, void *payload, long simulated_bytes);
void *situ_shim_get(sg_mailbox_t mailbox);
sg_comm_t situ_shim_get_async(sg_mailbox_t mailbox, void **data);

#ifdef __cplusplus
}
#endif

#endif
