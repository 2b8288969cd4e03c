// Deferring the signals that end a job across library calls that leave a named object behind
// for a moment.
//
// Two libraries create shared memory with a name and remove the name a moment later, after every
// process attached: UCX makes a SysV segment and marks it for removal (IPC_RMID) inside
// ucp_mem_map and ucp_worker_create (the rdma transport), and Open MPI's osc sm makes a file in
// /dev/shm and unlinks it inside MPI_Win_allocate (the mpi-rma transport). A process that dies
// in between leaves the object until the machine reboots: seen in about 1 of 20 jobs ended while
// allocating (tests/rma/check_shm_churn.sh). SIGTERM, SIGINT and SIGHUP (how launchers and
// schedulers end jobs) are therefore held back while such a call runs: the handler notes the
// signal, and the end of the call delivers it with the disposition the program had. SIGKILL
// cannot be held back; that window stays (docs/reliability.md; mpi-rma's files are removed by the
// next start, transport/mpi_rma/leftovers.hpp).
#pragma once

namespace armada::rma::detail {

/// While one exists (in any thread), SIGTERM, SIGINT and SIGHUP are noted instead of acted on;
/// the last one to end delivers what was noted. The handler is installed on first use and
/// forwards at once, to the program's previous disposition, outside such calls. Once a signal
/// whose disposition ends the process is acted on, no new deferral begins: its thread waits for
/// the end (another thread could otherwise create a segment while the kernel ends the process).
class TerminationDeferred {
 public:
  TerminationDeferred();
  ~TerminationDeferred();
  TerminationDeferred(const TerminationDeferred&) = delete;
  TerminationDeferred& operator=(const TerminationDeferred&) = delete;
};

}  // namespace armada::rma::detail
