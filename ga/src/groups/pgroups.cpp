// GA's process groups in its C API: creation (a list, a split, a duplicate), the default group,
// membership, synchronization, and a group's MPI communicator.
#include <string>
#include <vector>

#include <mpi.h>

#include "armada/rma/collectives.hpp"
#include "armada/rma/runtime.hpp"
#include "base/call.hpp"
#include "ga-mpi.h"
#include "groups/groups.hpp"

using namespace armada;
using namespace armada::ga;

extern "C" {

int GA_Pgroup_create(int* list, int count) {
  return guarded("GA_Pgroup_create", [&] {
    require_initialized("GA_Pgroup_create");
    if (count < 0) bad_argument("GA_Pgroup_create", "count", std::to_string(count), "must be >= 0");
    if (count > 0 && !list) bad_argument("GA_Pgroup_create", "list", "NULL", "count process ids are required");
    std::vector<int> ranks(list, list + count);
    return add_group(rma::Group::create(default_group(), ranks));
  });
}
int GA_Pgroup_destroy(int grp) {
  return guarded("GA_Pgroup_destroy", [&] {
    forget_group("GA_Pgroup_destroy", grp);
    return 1;
  });
}
int GA_Pgroup_get_default(void) { return default_pgroup(); }
void GA_Pgroup_set_default(int grp) {
  guarded("GA_Pgroup_set_default", [&] {
    const rma::Group g = group("GA_Pgroup_set_default", grp);
    if (!g.is_member())
      bad_argument("GA_Pgroup_set_default", "p_handle", std::to_string(grp), "this process is not a member");
    set_default_pgroup(grp);
  });
}
int GA_Pgroup_get_world(void) { return world_pgroup; }
int GA_Pgroup_self(void) {
  return guarded("GA_Pgroup_self", [] {
    require_initialized("GA_Pgroup_self");
    return self_pgroup();
  });
}
int GA_Pgroup_nodeid(int grp) {
  return guarded("GA_Pgroup_nodeid", [&] { return group("GA_Pgroup_nodeid", grp).rank(); });
}
int GA_Pgroup_nnodes(int grp) {
  return guarded("GA_Pgroup_nnodes", [&] { return group("GA_Pgroup_nnodes", grp).size(); });
}
void GA_Pgroup_sync(int grp) {
  guarded("GA_Pgroup_sync", [&] { sync_group(group("GA_Pgroup_sync", grp)); });
}
int GA_Pgroup_split(int grp, int num_group) {
  return guarded("GA_Pgroup_split", [&] {
    const rma::Group parent = group("GA_Pgroup_split", grp);
    const int n = parent.size();
    if (num_group < 1 || num_group > n)
      bad_argument("GA_Pgroup_split", "num_group", std::to_string(num_group),
                   "must be 1 .. the group's size (" + std::to_string(n) + ")");
    // GA's split: num_group groups of consecutive ranks, the first n % num_group one larger.
    const int me = parent.rank(), base = n / num_group, extra = n % num_group;
    std::vector<int> mine;
    for (int g = 0, first = 0; g < num_group; ++g) {
      const int size = base + (g < extra ? 1 : 0);
      if (me >= first && me < first + size)
        for (int r = first; r < first + size; ++r) mine.push_back(r);
      first += size;
    }
    return add_group(rma::Group::create(parent, mine));
  });
}
// The world rank of process `pid` of group `grp`.
int GA_Pgroup_absolute_id(int grp, int pid) {
  return guarded("GA_Pgroup_absolute_id", [&] {
    const rma::Group g = group("GA_Pgroup_absolute_id", grp);
    if (pid < 0 || pid >= g.size())
      bad_argument("GA_Pgroup_absolute_id", "pid", std::to_string(pid),
                   "not a process of the group (size " + std::to_string(g.size()) + ")");
    return g.world_rank(pid);
  });
}
// A new group of the same processes, in the same order. Collective over grp.
int GA_Pgroup_duplicate(int grp) {
  return guarded("GA_Pgroup_duplicate", [&] {
    const rma::Group parent = group("GA_Pgroup_duplicate", grp);
    if (!parent.is_member())
      bad_argument("GA_Pgroup_duplicate", "p_handle", std::to_string(grp), "this process is not a member");
    std::vector<int> all(static_cast<std::size_t>(parent.size()));
    for (int r = 0; r < parent.size(); ++r) all[static_cast<std::size_t>(r)] = r;
    return add_group(rma::Group::create(parent, all));
  });
}
// The processes of grp that pass the same color form a group, in their order in grp (as
// MPI_Comm_split with key 0); each process gets its own group's handle. Collective over grp.
int GA_Pgroup_split_irreg(int grp, int color) {
  return guarded("GA_Pgroup_split_irreg", [&] {
    const rma::Group parent = group("GA_Pgroup_split_irreg", grp);
    if (!parent.is_member())
      bad_argument("GA_Pgroup_split_irreg", "grp_id", std::to_string(grp), "this process is not a member");
    if (color < 0) bad_argument("GA_Pgroup_split_irreg", "color", std::to_string(color), "must be >= 0");
    std::vector<int> colors(static_cast<std::size_t>(parent.size()));
    rma::allgather_serving(&color, sizeof color, colors.data(), parent, "GA_Pgroup_split_irreg");
    std::vector<int> mine;
    for (int r = 0; r < parent.size(); ++r)
      if (colors[static_cast<std::size_t>(r)] == color) mine.push_back(r);
    return add_group(rma::Group::create(parent, mine));
  });
}

MPI_Comm GA_MPI_Comm(void) {
  return guarded("GA_MPI_Comm", [] { return rma::world_comm(); });
}
MPI_Comm GA_MPI_Comm_pgroup(int pgroup) {
  return guarded("GA_MPI_Comm_pgroup", [&] {
    const rma::Group g = group("GA_MPI_Comm_pgroup", pgroup);
    return pgroup == world_pgroup ? rma::world_comm() : g.comm();
  });
}
MPI_Comm GA_MPI_Comm_pgroup_default(void) { return GA_MPI_Comm_pgroup(default_pgroup()); }

}  // extern "C"
