// Read-modify-write (ARMCI_Rmw) on the core's atomics: atomic with respect to every other Rmw on
// the same location, from any process and over any transport.
#include <string>

#include "internal.hpp"

namespace armada::armci {
namespace {

template <class T>
rma::GlobalPtr<T> remote(void* prem, int proc) {
  return rma::GlobalPtr<T>(proc, static_cast<T*>(prem));
}

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

// Fetch-and-add: *ploc receives the old value and the remote location grows by `value` (for
// the _LONG op, by `value` widened to long). Swap: the remote location receives *ploc and
// *ploc the old remote value; `value` is not used.
ARMCI_TWIN(int, ARMCI_Rmw, (int op, void* ploc, void* prem, int value, int proc)) {
  constexpr const char* fn = "ARMCI_Rmw";
  return guard(fn, [&] {
    require_init(fn);
    not_null(fn, "ploc", ploc);
    switch (op) {
      case ARMCI_FETCH_AND_ADD:
        *static_cast<int*>(ploc) = rma::fetch_add(remote<int>(prem, proc), value);
        return;
      case ARMCI_FETCH_AND_ADD_LONG:
        *static_cast<long*>(ploc) = rma::fetch_add(remote<long>(prem, proc), static_cast<long>(value));
        return;
      case ARMCI_SWAP:
        *static_cast<int*>(ploc) = rma::swap(remote<int>(prem, proc), *static_cast<int*>(ploc));
        return;
      case ARMCI_SWAP_LONG:
        *static_cast<long*>(ploc) = rma::swap(remote<long>(prem, proc), *static_cast<long*>(ploc));
        return;
    }
    bad_argument(fn, "op", std::to_string(op),
                 "not an ARMCI_Rmw op (ARMCI_FETCH_AND_ADD, _FETCH_AND_ADD_LONG, _SWAP, _SWAP_LONG)");
  });
}
