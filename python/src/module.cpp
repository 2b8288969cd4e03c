// armada._core: the compiled part of the Python package armada (python/armada/__init__.py wraps
// it). The runtime functions live here; arrays in array.cpp and collective.cpp, linalg in
// linalg.cpp, conversions and errors in convert.cpp.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "armada/rma/runtime.hpp"
#include "bindings.hpp"

namespace armada::python {
namespace {

// mpi4py leaves MPI_ERRORS_RETURN on its communicators, and Armada's collectives do not look at
// return codes (in C and C++ programs MPI's default handler aborts): an MPI error, e.g. ranks in
// different collectives, would go unnoticed and the program on. Armada's communicators get this
// handler instead (duplicates and sub-communicators inherit it): the call raises armada.Error.
// The exception passes through MPI's C frames (they have unwind tables on x86-64, as the test
// test_an_mpi_error_in_armadas_world_raises shows); the runtime is not usable after it.
void raise_mpi_error(MPI_Comm*, int* code, ...) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(*code, text, &length) != MPI_SUCCESS) length = 0;
  const std::string what = length ? std::string(text, static_cast<std::size_t>(length)) : "code " + std::to_string(*code);
  throw rma::Error(rma::ErrorKind::system, "MPI",
                   rma::error_message("armada", "MPI error inside a collective: " + what +
                                                    " (are the ranks in different calls?)"));
}

MPI_Errhandler raising_handler() {
  static MPI_Errhandler handler = [] {
    MPI_Errhandler h = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(&raise_mpi_error, &h);
    return h;
  }();
  return handler;
}

// Where finalize's ranks tell each other they arrived: a communicator of its own, so that these
// messages match nothing a rank in another call waits for.
MPI_Comm g_finalizing = MPI_COMM_NULL;

// "rank 2" or "ranks 1, 3"
std::string rank_list(const std::vector<int>& ranks) {
  std::string s = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

// The ranks whose arrival message has not come (their receive is still pending).
std::vector<int> missing(const std::vector<MPI_Request>& arrivals) {
  std::vector<int> ranks;
  for (std::size_t r = 0; r < arrivals.size(); ++r)
    if (arrivals[r] != MPI_REQUEST_NULL) ranks.push_back(static_cast<int>(r));
  return ranks;
}

// finalize destroys the arrays collectively: a rank in another call, or stopped, would leave the
// others waiting forever. So first every rank tells every other one it is here (zero-byte
// messages, 2(n-1) per rank, once) and waits for theirs at most ARMADA_FINALIZE_WAIT seconds,
// saying whom it waits for after ARMADA_STALL_WARN; then it aborts naming the ranks not arrived.
void check_every_rank_finalizes(const char* op) {
  int me = 0, n = 0;
  MPI_Comm_rank(g_finalizing, &me);
  MPI_Comm_size(g_finalizing, &n);
  std::vector<MPI_Request> arrivals(static_cast<std::size_t>(n), MPI_REQUEST_NULL), sends(arrivals);
  for (int r = 0; r < n; ++r) {
    if (r == me) continue;
    MPI_Irecv(nullptr, 0, MPI_BYTE, r, 0, g_finalizing, &arrivals[static_cast<std::size_t>(r)]);
    MPI_Isend(nullptr, 0, MPI_BYTE, r, 0, g_finalizing, &sends[static_cast<std::size_t>(r)]);
  }
  const long wait = rma::config().integer("ARMADA_FINALIZE_WAIT");
  const long warn = rma::config().stall_warn_s;
  const double start = MPI_Wtime();
  bool warned = false;
  for (;;) {
    int arrived = 0;  // a completed receive becomes MPI_REQUEST_NULL
    for (MPI_Request& r : arrivals)
      if (r != MPI_REQUEST_NULL) MPI_Test(&r, &arrived, MPI_STATUS_IGNORE);
    if (missing(arrivals).empty()) break;
    const double waited = MPI_Wtime() - start;
    if (wait > 0 && waited >= static_cast<double>(wait)) {
      std::fprintf(stderr, "%s\n", rma::error_message(op, rank_list(missing(arrivals)) + " did not reach finalize within " +
                                                           std::to_string(wait) + " s (ARMADA_FINALIZE_WAIT): " +
                                                           "they are in another call, or stopped; aborting the job").c_str());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);  // the whole job, as armada._abort
    }
    if (!warned && warn > 0 && waited >= static_cast<double>(warn)) {
      warned = true;
      std::fprintf(stderr, "%s\n", rma::error_message(op, "waiting for " + rank_list(missing(arrivals)) +
                                                           " to reach finalize (ARMADA_STALL_WARN); " +
                                                           (wait > 0 ? "the job aborts after " + std::to_string(wait) + " s"
                                                                     : std::string("no limit")) +
                                                           " (ARMADA_FINALIZE_WAIT)").c_str());
      std::fflush(stderr);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  MPI_Waitall(n, sends.data(), MPI_STATUSES_IGNORE);
  MPI_Comm_free(&g_finalizing);
}

// Armada's world is the communicator given by its Fortran handle (mpi4py's Comm.py2f()).
void init(std::int64_t fortran_comm) {
  int mpi_ready = 0;
  MPI_Initialized(&mpi_ready);
  if (!mpi_ready) throw BindingError(ErrorKind::state, "armada.init: MPI is not initialized (import mpi4py.MPI first)");
  MPI_Comm given = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_comm));
  py::gil_scoped_release unlocked;
  MPI_Comm comm = MPI_COMM_NULL;  // `given` with the raising handler, for rma::init to duplicate
  MPI_Comm_dup(given, &comm);
  MPI_Comm_set_errhandler(comm, raising_handler());
  try {
    rma::init(comm);
  } catch (...) {
    MPI_Comm_free(&comm);
    throw;
  }
  MPI_Comm_free(&comm);
  MPI_Comm_dup(rma::world_comm(), &g_finalizing);
}

// Destroys the arrays still alive (collective over each one's group, in creation order, which is
// the same on every member), then stops the runtime. MPI stays up: mpi4py finalizes it.
void finalize() {
  require_runtime("armada.finalize");
  py::gil_scoped_release unlocked;
  check_every_rank_finalizes("armada.finalize");
  for (Array& a : arrays::live_arrays()) a.destroy();
  rma::finalize();
}

}  // namespace
}  // namespace armada::python

PYBIND11_MODULE(_core, m) {
  using namespace armada;
  using namespace armada::python;
  m.doc() = "Armada's distributed arrays (the compiled part of the armada package).";
  register_errors(m);
  m.def("prepare_mpi_environment", &rma::prepare_mpi_environment,
        "Sets the MPI settings Armada's transports need (mpi-rma: Open MPI's osc components), unless set; before MPI starts.");
  m.def("init", &python::init, py::arg("fortran_comm"));
  m.def("finalize", &python::finalize);
  m.def("initialized", &rma::initialized);
  m.def("rank", [] { require_runtime("armada.rank"); return rma::rank(); });
  m.def("size", [] { require_runtime("armada.size"); return rma::size(); });
  m.def("nodes", [] { require_runtime("armada.nodes"); return rma::node_count(); });
  m.def("sync", [] {
    require_runtime("armada.sync");
    py::gil_scoped_release unlocked;
    arrays::sync();
  });
  m.def("message_prefix", &rma::message_prefix,
        "The prefix of every Armada message: '[rank r] ' while Armada runs, '' otherwise.");
  // For the tests: raises Armada's error of kind `kind` (rma::to_string's names), as a call would.
  m.def("_raise_error", [](const std::string& kind, const std::string& text) {
    for (std::size_t k = 0; k < rma::error_kind_count; ++k)
      if (kind == rma::to_string(static_cast<rma::ErrorKind>(k)))
        throw rma::Error(static_cast<rma::ErrorKind>(k), "armada._raise_error",
                         rma::error_message("armada._raise_error", text));
    fail(ErrorKind::value, "armada._raise_error", "kind", kind, "is not an error kind");
  });
  // For the tests: an MPI error on Armada's world, as a failed collective there would report it.
  m.def("_mpi_error_on_world", [] {
    require_runtime("armada._core._mpi_error_on_world");
    MPI_Comm_call_errhandler(rma::world_comm(), MPI_ERR_TRUNCATE);
  });
  m.def("transport_choice", [] { require_runtime("armada.transport_choice"); return rma::transport_choice(); });
  bind_array(m);
  bind_sparse(m);
  bind_linalg(m);
  bind_io(m);
}
