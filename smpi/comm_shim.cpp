// The DTL's pointer payloads under SMPI (see comm_shim.h).
#include "comm_shim.h"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

using simgrid::s4u::Comm;

// A reference for the C side, as sg_mailbox_put_init gives: sg_comm_wait/detach drop it.
static sg_comm_t to_c(const simgrid::s4u::CommPtr &comm)
{
    comm->add_ref();
    return comm.get();
}

sg_comm_t situ_shim_put_init(sg_mailbox_t mailbox, void *payload, long simulated_bytes)
{
    auto comm = mailbox->put_init(payload, simulated_bytes);
    comm->set_copy_data_callback(Comm::copy_pointer_callback);
    return to_c(comm);
}

sg_comm_t situ_shim_put_async(sg_mailbox_t mailbox, void *payload, long simulated_bytes)
{
    auto comm = mailbox->put_init(payload, simulated_bytes);
    comm->set_copy_data_callback(Comm::copy_pointer_callback);
    comm->start();
    return to_c(comm);
}

static simgrid::s4u::CommPtr get_init(sg_mailbox_t mailbox, void **data)
{
    auto comm = mailbox->get_init();
    comm->set_dst_data(data, sizeof(void *));
    comm->set_copy_data_callback(Comm::copy_pointer_callback);
    return comm;
}

void *situ_shim_get(sg_mailbox_t mailbox)
{
    void *data = nullptr;
    get_init(mailbox, &data)->wait();
    return data;
}

sg_comm_t situ_shim_get_async(sg_mailbox_t mailbox, void **data)
{
    auto comm = get_init(mailbox, data);
    comm->start();
    return to_c(comm);
}
