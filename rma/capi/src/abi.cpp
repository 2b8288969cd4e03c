// The layouts compiled ARMCI clients depend on. Debian's Global Arrays is built against
// ARMCI-MPI 0.3.1's armci.h: it keeps armci_hdl_t by value in its own structs, reads
// ARMCI_Group::comm, and walks armci_giov_t arrays. A change here breaks those binaries.
#include <cstddef>
#include <type_traits>

#include "internal.hpp"

static_assert(sizeof(armci_hdl_t) == 8, "armci_hdl_t: 8 bytes, stored by value by compiled clients");
static_assert(offsetof(armci_hdl_t, target) == 0 && offsetof(armci_hdl_t, aggregate) == 4);

static_assert(offsetof(ARMCI_Group, comm) == 0, "ARMCI_Group: its MPI_Comm comes first");
static_assert(offsetof(ARMCI_Group, noncoll_pgroup_comm) == sizeof(MPI_Comm));
static_assert(sizeof(ARMCI_Group) == (sizeof(MPI_Comm) == 8 ? 40 : 32),
              "ARMCI_Group: two MPI_Comm, two int pointers, two ints (40 bytes with Open MPI)");

static_assert(sizeof(armci_giov_t) == 24, "armci_giov_t: two pointers and two ints");
static_assert(offsetof(armci_giov_t, bytes) == 16 && offsetof(armci_giov_t, ptr_array_len) == 20);

static_assert(std::is_standard_layout_v<armcix_mutex_hdl_s>);
static_assert(offsetof(armcix_mutex_hdl_s, grp) == 8, "armcix_mutex_hdl_s: two ints, then the group");

// Enum values of ARMCI-MPI 0.3.1.
static_assert(ARMCI_ACC_INT == 0 && ARMCI_ACC_LNG == 1 && ARMCI_ACC_FLT == 2 && ARMCI_ACC_DBL == 3 &&
              ARMCI_ACC_CPL == 4 && ARMCI_ACC_DCP == 5);
static_assert(ARMCI_FETCH_AND_ADD == 0 && ARMCI_FETCH_AND_ADD_LONG == 1 && ARMCI_SWAP == 2 &&
              ARMCI_SWAP_LONG == 3);
static_assert(SCOPE_ALL == 0 && SCOPE_NODE == 1 && SCOPE_MASTERS == 2);
static_assert(ARMCI_INT == 0 && ARMCI_LONG == 1 && ARMCI_LONG_LONG == 2 && ARMCI_FLOAT == 3 && ARMCI_DOUBLE == 4);
static_assert(ARMCI_DOMAIN_SMP == 0);
static_assert(std::is_same_v<armci_size_t, long> && std::is_same_v<armci_domain_t, int>);
