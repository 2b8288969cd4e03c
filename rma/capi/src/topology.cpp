// Topology: ARMCI_Same_node and the armci_domain_* queries.
//
// ARMCI's SMP domain is the set of processes whose ARMCI_Malloc memory the caller may load and
// store directly (Global Arrays' NGA_Access hands out such pointers for any process of the
// caller's domain). Armada returns each process's base in that process's own address space, so
// that set is the caller alone, as in ARMCI-MPI: every domain is one process. Armada's physical
// and virtual nodes still decide the transport (shm or server) of every operation.
#include <string>

#include "internal.hpp"

namespace armada::armci {
namespace {

void check_domain(const char* fn, armci_domain_t domain) {
  require_init(fn);
  if (domain != ARMCI_DOMAIN_SMP)
    bad_argument(fn, "domain", std::to_string(domain), "not an armci_domain_t (ARMCI_DOMAIN_SMP)");
}

/// A domain id: 0..count-1, or -1 for the caller's own domain where ARMCI allows it.
int domain_id(const char* fn, int id, bool allow_mine) {
  if (allow_mine && id == -1) return rma::rank();
  if (id < 0 || id >= rma::size())
    bad_argument(fn, "id", std::to_string(id),
                 "not a domain id (0.." + std::to_string(rma::size() - 1) + (allow_mine ? ", or -1)" : ")"));
  return id;
}

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

int armci_domain_nprocs(armci_domain_t domain, int id) {
  constexpr const char* fn = "armci_domain_nprocs";
  return guard_value(fn, -1, [&] {
    check_domain(fn, domain);
    domain_id(fn, id, true);
    return 1;
  });
}

int armci_domain_id(armci_domain_t domain, int glob_proc_id) {
  constexpr const char* fn = "armci_domain_id";
  return guard_value(fn, -1, [&] {
    check_domain(fn, domain);
    check_proc(fn, "glob_proc_id", glob_proc_id);
    return glob_proc_id;
  });
}

int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id) {
  constexpr const char* fn = "armci_domain_glob_proc_id";
  return guard_value(fn, -1, [&] {
    check_domain(fn, domain);
    const int d = domain_id(fn, id, false);
    if (loc_proc_id != 0)
      bad_argument(fn, "loc_proc_id", std::to_string(loc_proc_id), "not a process of the domain (it has 1 process: 0)");
    return d;
  });
}

int armci_domain_my_id(armci_domain_t domain) {
  constexpr const char* fn = "armci_domain_my_id";
  return guard_value(fn, -1, [&] {
    check_domain(fn, domain);
    return rma::rank();
  });
}

int armci_domain_count(armci_domain_t domain) {
  constexpr const char* fn = "armci_domain_count";
  return guard_value(fn, -1, [&] {
    check_domain(fn, domain);
    return rma::size();
  });
}

int armci_domain_same_id(armci_domain_t domain, int proc) {
  constexpr const char* fn = "armci_domain_same_id";
  return guard_value(fn, 0, [&] {
    check_domain(fn, domain);
    check_proc(fn, "proc", proc);
    return proc == rma::rank() ? 1 : 0;
  });
}

int ARMCI_Same_node(int proc) {
  constexpr const char* fn = "ARMCI_Same_node";
  return guard_value(fn, 0, [&] {
    check_proc(fn, "proc", proc);
    return proc == rma::rank() ? 1 : 0;
  });
}
