// Open MPI's osc sm window files that killed jobs left behind.
//
// osc sm, the one-sided component Open MPI takes for a window inside one host, makes the window's
// memory a named file, osc_sm.<host>.<job>.<rank>.<communicator> in its backing directory
// (/dev/shm unless osc_sm_backing_directory says otherwise), and unlinks it inside
// MPI_Win_allocate once every process of the window mapped it. A job killed in that moment
// leaves the file, and the memory it holds, until the machine reboots: 7 of 32 kills while
// allocating. The transport holds SIGTERM, SIGINT and SIGHUP back across the call
// (transport/base/termination.hpp); against SIGKILL, the first rank of each host removes, when
// the transport starts, this user's files of this host that no process holds (open or mapped),
// and says so. docs/reliability.md states what remains (a host the user never runs mpi-rma on
// again keeps the file).
#pragma once

#include <string>
#include <vector>

namespace armada::rma::detail::mpi_rma {

/// Removes this user's osc sm files for this host that no process has open or mapped, and
/// returns their paths. Best effort: a file that cannot be removed is left and not returned.
std::vector<std::string> remove_unheld_osc_sm_files();

}  // namespace armada::rma::detail::mpi_rma
