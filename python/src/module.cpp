// armada._core: the compiled part of the Python package armada (python/armada/__init__.py wraps
// it). The runtime functions live here; arrays in array.cpp and collective.cpp, linalg in
// linalg.cpp, conversions and errors in convert.cpp.
#include <mpi.h>

#include "armada/rma/runtime.hpp"
#include "bindings.hpp"

namespace armada::python {
namespace {

// Armada's world is the communicator given by its Fortran handle (mpi4py's Comm.py2f()).
void init(std::int64_t fortran_comm) {
  int mpi_ready = 0;
  MPI_Initialized(&mpi_ready);
  if (!mpi_ready) throw BindingError(ErrorKind::state, "armada.init: MPI is not initialized (import mpi4py.MPI first)");
  MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_comm));
  py::gil_scoped_release unlocked;
  rma::init(comm);
}

// Destroys the arrays still alive (collective over each one's group, in creation order, which is
// the same on every member), then stops the runtime. MPI stays up: mpi4py finalizes it.
void finalize() {
  require_runtime("armada.finalize");
  py::gil_scoped_release unlocked;
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
  m.def("transport_choice", [] { require_runtime("armada.transport_choice"); return rma::transport_choice(); });
  bind_array(m);
  bind_sparse(m);
  bind_linalg(m);
  bind_io(m);
}
