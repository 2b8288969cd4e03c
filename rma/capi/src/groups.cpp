// Groups: ARMCI_Group values name rma groups by their communicator.
//
// Programs copy ARMCI_Group by value (Global Arrays keeps them in its own tables and reads
// group.comm), so the struct itself must identify the group: its `comm` is the rma group's
// communicator, the key of a registry of live groups. The other fields are filled as ARMCI-MPI
// fills them with rank translation caching on.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "internal.hpp"

namespace armada::armci {

namespace {

struct Entry {
  GroupInfo info;
  std::vector<int> abs_to_grp;  // what ARMCI_Group::abs_to_grp points at
};

std::mutex g_mutex;
std::map<MPI_Comm, Entry> g_groups;
ARMCI_Group g_world{};
ARMCI_Group g_default{};

std::string describe(MPI_Comm comm) {
  std::uintmax_t bits = 0;  // MPI_Comm is a pointer in Open MPI, an int in MPICH
  std::memcpy(&bits, &comm, std::min(sizeof bits, sizeof comm));
  char text[32];
  std::snprintf(text, sizeof text, "%#jx", bits);
  return std::string("a group with comm ") + text;
}

void free_scopes(GroupInfo& info) {
  if (info.node != MPI_COMM_NULL) MPI_Comm_free(&info.node);
  if (info.masters != MPI_COMM_NULL) MPI_Comm_free(&info.masters);
}

/// Registers `group` and describes it in `out`. Collective over the group's members (they make
/// the communicators of the node and masters scopes); a non-member gets the empty group.
void publish(const rma::Group& group, ARMCI_Group* out) {
  *out = ARMCI_Group{MPI_COMM_NULL, MPI_COMM_NULL, nullptr, nullptr, -1, 0};
  if (!group.is_member()) return;
  Entry entry;
  entry.info.group = group;
  MPI_Comm comm = group.comm();
  MPI_Comm_split(comm, rma::node_of(rma::rank()), group.rank(), &entry.info.node);
  int node_rank = 0;
  MPI_Comm_rank(entry.info.node, &node_rank);
  MPI_Comm_split(comm, node_rank == 0 ? 0 : MPI_UNDEFINED, group.rank(), &entry.info.masters);
  entry.abs_to_grp.assign(static_cast<std::size_t>(rma::size()), -1);
  for (int g = 0; g < group.size(); ++g) entry.abs_to_grp[static_cast<std::size_t>(group.world_rank(g))] = g;

  std::lock_guard lock(g_mutex);
  Entry& stored = g_groups.insert_or_assign(comm, std::move(entry)).first->second;
  out->comm = comm;
  out->grp_to_abs = const_cast<int*>(group.world_ranks().data());  // lives as long as the group
  out->abs_to_grp = stored.abs_to_grp.data();
  out->rank = group.rank();
  out->size = group.size();
}

const Entry& find_locked(const char* function, const char* argument, const ARMCI_Group* group) {
  not_null(function, argument, group);
  if (group->comm == MPI_COMM_NULL)
    bad_argument(function, argument, "a group without this process",
                 "only members of a group may use it (this process got MPI_COMM_NULL)");
  auto it = g_groups.find(group->comm);
  if (it == g_groups.end())
    bad_argument(function, argument, describe(group->comm), "not a live ARMCI group (freed, or never created)");
  return it->second;
}

GroupInfo lookup(const char* function, const char* argument, const ARMCI_Group* group) {
  require_init(function);
  std::lock_guard lock(g_mutex);
  return find_locked(function, argument, group).info;
}

/// A child of `parent` with the members `ranks` (parent ranks), in that order.
void create_child(const char* function, int size, const int* ranks, ARMCI_Group* out, const GroupInfo& parent) {
  not_null(function, "group_out", out);
  const std::size_t n = to_size(function, "grp_size", size);
  if (n) not_null(function, "pid_list", ranks);
  publish(rma::Group::create(parent.group, std::span<const int>(ranks, n)), out);
}

}  // namespace

GroupInfo group_of(const char* function, const ARMCI_Group* group) { return lookup(function, "group", group); }
GroupInfo world_group() { return lookup("ARMCI_Group_get_world", "group", &g_world); }
GroupInfo default_group() { return lookup("ARMCI_Group_get_default", "default group", &g_default); }

void groups_init() {
  publish(rma::Group::world(), &g_world);
  g_default = g_world;
}

void groups_finalize() {
  std::lock_guard lock(g_mutex);
  for (auto& [comm, entry] : g_groups) free_scopes(entry.info);
  g_groups.clear();
  g_world = g_default = ARMCI_Group{};
}

}  // namespace armada::armci

using namespace armada::armci;

void ARMCI_Group_create(int grp_size, int* pid_list, ARMCI_Group* group_out) {
  guard_void("ARMCI_Group_create", [&] {
    create_child("ARMCI_Group_create", grp_size, pid_list, group_out, default_group());
  });
}

void ARMCI_Group_create_child(int grp_size, int* pid_list, ARMCI_Group* group_out, ARMCI_Group* group_parent) {
  constexpr const char* fn = "ARMCI_Group_create_child";
  guard_void(fn, [&] { create_child(fn, grp_size, pid_list, group_out, lookup(fn, "group_parent", group_parent)); });
}

void ARMCI_Group_free(ARMCI_Group* group) {
  constexpr const char* fn = "ARMCI_Group_free";
  guard_void(fn, [&] {
    not_null(fn, "group", group);
    if (group->comm != MPI_COMM_NULL) {
      require_init(fn);
      if (group->comm == g_world.comm) bad_argument(fn, "group", "the world group", "ARMCI_Finalize frees it");
      Entry doomed;
      {
        std::lock_guard lock(g_mutex);
        find_locked(fn, "group", group);
        auto node = g_groups.extract(group->comm);
        doomed = std::move(node.mapped());
      }
      free_scopes(doomed.info);
    }
    *group = ARMCI_Group{MPI_COMM_NULL, MPI_COMM_NULL, nullptr, nullptr, -1, 0};
  });
}

int ARMCI_Group_rank(ARMCI_Group* group, int* rank) {
  constexpr const char* fn = "ARMCI_Group_rank";
  return guard_value(fn, 1, [&] {
    *not_null(fn, "rank", rank) = not_null(fn, "group", group)->rank;
    return *rank >= 0 ? 0 : 1;  // nonzero: not a member
  });
}

void ARMCI_Group_size(ARMCI_Group* group, int* size) {
  constexpr const char* fn = "ARMCI_Group_size";
  guard_void(fn, [&] { *not_null(fn, "size", size) = not_null(fn, "group", group)->size; });
}

void ARMCI_Group_set_default(ARMCI_Group* group) {
  constexpr const char* fn = "ARMCI_Group_set_default";
  guard_void(fn, [&] {
    lookup(fn, "group", group);
    std::lock_guard lock(g_mutex);
    g_default = *group;
  });
}

void ARMCI_Group_get_default(ARMCI_Group* group_out) {
  constexpr const char* fn = "ARMCI_Group_get_default";
  guard_void(fn, [&] {
    require_init(fn);
    std::lock_guard lock(g_mutex);
    *not_null(fn, "group_out", group_out) = g_default;
  });
}

void ARMCI_Group_get_world(ARMCI_Group* group_out) {
  constexpr const char* fn = "ARMCI_Group_get_world";
  guard_void(fn, [&] {
    require_init(fn);
    *not_null(fn, "group_out", group_out) = g_world;
  });
}

int ARMCI_Absolute_id(ARMCI_Group* group, int group_rank) {
  constexpr const char* fn = "ARMCI_Absolute_id";
  return guard_value(fn, -1, [&] { return lookup(fn, "group", group).group.world_rank(group_rank); });
}

int ARMCIX_Group_split(ARMCI_Group* parent, int color, int key, ARMCI_Group* new_group) {
  constexpr const char* fn = "ARMCIX_Group_split";
  return guard(fn, [&] {
    const GroupInfo p = lookup(fn, "parent", parent);
    not_null(fn, "new_group", new_group);
    if (color < 0 && color != MPI_UNDEFINED)
      bad_argument(fn, "color", std::to_string(color), "must be nonnegative or MPI_UNDEFINED");
    // rma groups are made from a member list that every parent member passes, so learn every
    // member's (color, key) and create the groups one color at a time.
    const int n = p.group.size();
    const int mine[2] = {color, key};
    std::vector<int> all(2 * static_cast<std::size_t>(n));
    MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, p.group.comm());
    std::map<int, std::vector<std::pair<int, int>>> by_color;  // color -> (key, parent rank)
    for (int r = 0; r < n; ++r)
      if (const int c = all[2 * static_cast<std::size_t>(r)]; c != MPI_UNDEFINED)
        by_color[c].emplace_back(all[2 * static_cast<std::size_t>(r) + 1], r);
    rma::Group child(nullptr);
    for (auto& [c, members] : by_color) {
      std::sort(members.begin(), members.end());
      std::vector<int> ranks;
      for (const auto& m : members) ranks.push_back(m.second);
      rma::Group g = rma::Group::create(p.group, ranks);
      if (c == color) child = std::move(g);
    }
    publish(child, new_group);
  });
}

int ARMCIX_Group_dup(ARMCI_Group* parent, ARMCI_Group* new_group) {
  constexpr const char* fn = "ARMCIX_Group_dup";
  return guard(fn, [&] {
    const GroupInfo p = lookup(fn, "parent", parent);
    not_null(fn, "new_group", new_group);
    std::vector<int> ranks(static_cast<std::size_t>(p.group.size()));
    std::iota(ranks.begin(), ranks.end(), 0);
    publish(rma::Group::create(p.group, ranks), new_group);
  });
}
