// Groups: ARMCI_Group values over rma groups.
//
// Programs copy ARMCI_Group by value (Global Arrays keeps copies in its own tables and uses
// group.comm for MPI calls of its own), so the struct itself must name the group: its `comm` is
// ARMCI's own duplicate of the rma group's communicator (the program's MPI traffic never meets
// the core's) and the key of a registry of live groups. The other fields are filled as ARMCI-MPI
// fills them with its rank translation cache on.
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
  std::uint64_t sequence = 0;    // creation order, the same on every member
  std::vector<int> grp_to_abs;   // what ARMCI_Group::grp_to_abs points at
  std::vector<int> abs_to_grp;   // what ARMCI_Group::abs_to_grp points at
};

struct Registry {
  std::mutex mutex;
  std::map<MPI_Comm, Entry> groups;
  std::uint64_t next_sequence = 0;
  ARMCI_Group world{};
  ARMCI_Group fallback_default{};  // the default group (ARMCI_Group_set_default)
};
Registry g_registry;

constexpr ARMCI_Group kNoGroup{MPI_COMM_NULL, MPI_COMM_NULL, nullptr, nullptr, -1, 0};

std::string describe(MPI_Comm comm) {
  std::uintmax_t bits = 0;  // MPI_Comm is a pointer in Open MPI, an int in MPICH
  std::memcpy(&bits, &comm, std::min(sizeof bits, sizeof comm));
  char text[48];
  std::snprintf(text, sizeof text, "a group with comm %#jx", bits);
  return text;
}

/// Registers `group` and describes it in `out`. Collective over the group's members (they
/// duplicate its communicator); a non-member gets the empty group, as from ARMCI-MPI.
void publish(const char* fn, const rma::Group& group, ARMCI_Group* out) {
  *out = kNoGroup;
  if (!group.is_member()) return;
  Entry entry;
  entry.info.group = group;
  check_mpi(fn, "MPI_Comm_dup", MPI_Comm_dup(group.comm(), &entry.info.comm));
  // Errors on this communicator come back to us and become ARMCI errors naming the call.
  MPI_Comm_set_errhandler(entry.info.comm, MPI_ERRORS_RETURN);
  const auto members = group.world_ranks();
  entry.grp_to_abs.assign(members.begin(), members.end());
  entry.abs_to_grp.assign(static_cast<std::size_t>(rma::size()), MPI_UNDEFINED);
  for (int g = 0; g < group.size(); ++g) entry.abs_to_grp[static_cast<std::size_t>(members[static_cast<std::size_t>(g)])] = g;

  std::lock_guard lock(g_registry.mutex);
  entry.sequence = g_registry.next_sequence++;
  const MPI_Comm comm = entry.info.comm;
  Entry& stored = g_registry.groups.emplace(comm, std::move(entry)).first->second;
  *out = ARMCI_Group{comm, MPI_COMM_NULL, stored.grp_to_abs.data(), stored.abs_to_grp.data(),
                     group.rank(), group.size()};
}

const Entry& find_locked(const char* fn, const char* argument, const ARMCI_Group* group) {
  not_null(fn, argument, group);
  if (group->comm == MPI_COMM_NULL)
    bad_argument(fn, argument, "a group without this process",
                 "only members may use a group (this process got MPI_COMM_NULL)");
  auto it = g_registry.groups.find(group->comm);
  if (it == g_registry.groups.end())
    bad_argument(fn, argument, describe(group->comm), "not a live ARMCI group (freed, or never created)");
  return it->second;
}

GroupInfo lookup(const char* fn, const char* argument, const ARMCI_Group* group) {
  require_init(fn);
  std::lock_guard lock(g_registry.mutex);
  return find_locked(fn, argument, group).info;
}

/// A child of `parent` with the members `ranks` (parent ranks), in that order. Collective over
/// the parent.
void create_child(const char* fn, int size, const int* ranks, ARMCI_Group* out, const GroupInfo& parent) {
  not_null(fn, "group_out", out);
  const std::size_t n = to_size(fn, "grp_size", size);
  if (n) not_null(fn, "pid_list", ranks);
  publish(fn, rma::Group::create(parent.group, std::span<const int>(ranks, n)), out);
}

void free_comm(MPI_Comm& comm) {
  if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

}  // namespace

GroupInfo group_of(const char* function, const char* argument, const ARMCI_Group* group) {
  return lookup(function, argument, group);
}
GroupInfo world_group(const char* function) { return lookup(function, "world group", &g_registry.world); }
GroupInfo default_group(const char* function) {
  require_init(function);
  std::lock_guard lock(g_registry.mutex);
  return find_locked(function, "default group", &g_registry.fallback_default).info;
}
ARMCI_Group world_group_value() {
  std::lock_guard lock(g_registry.mutex);
  return g_registry.world;
}

void groups_init() {
  publish("ARMCI_Init", rma::Group::world(), &g_registry.world);
  std::lock_guard lock(g_registry.mutex);
  g_registry.fallback_default = g_registry.world;
}

// Frees ARMCI's communicators in creation order (the same on every member).
void groups_finalize() {
  std::vector<Entry> doomed;
  {
    std::lock_guard lock(g_registry.mutex);
    for (auto& [comm, entry] : g_registry.groups) doomed.push_back(std::move(entry));
    g_registry.groups.clear();
    g_registry.world = g_registry.fallback_default = kNoGroup;
  }
  std::sort(doomed.begin(), doomed.end(), [](const Entry& a, const Entry& b) { return a.sequence < b.sequence; });
  for (Entry& entry : doomed) free_comm(entry.info.comm);
}

}  // namespace armada::armci

using namespace armada::armci;

// Collective over the default group; pid_list holds default-group ranks.
void ARMCI_Group_create(int grp_size, int* pid_list, ARMCI_Group* group_out) {
  constexpr const char* fn = "ARMCI_Group_create";
  guard_void(fn, [&] { create_child(fn, grp_size, pid_list, group_out, default_group(fn)); });
}

// Collective over the parent; pid_list holds parent ranks.
void ARMCI_Group_create_child(int grp_size, int* pid_list, ARMCI_Group* group_out, ARMCI_Group* group_parent) {
  constexpr const char* fn = "ARMCI_Group_create_child";
  guard_void(fn, [&] { create_child(fn, grp_size, pid_list, group_out, lookup(fn, "group_parent", group_parent)); });
}

// Collective over the group. The world group lives until ARMCI_Finalize: freeing a copy of it
// only empties that copy.
void ARMCI_Group_free(ARMCI_Group* group) {
  constexpr const char* fn = "ARMCI_Group_free";
  guard_void(fn, [&] {
    not_null(fn, "group", group);
    if (group->comm != MPI_COMM_NULL) {
      require_init(fn);
      Entry doomed;
      {
        std::lock_guard lock(g_registry.mutex);
        find_locked(fn, "group", group);
        if (group->comm != g_registry.world.comm) doomed = std::move(g_registry.groups.extract(group->comm).mapped());
      }
      free_comm(doomed.info.comm);
    }
    *group = kNoGroup;
  });
}

// 0 and the rank for a member; 1 and -1 for a non-member.
int ARMCI_Group_rank(ARMCI_Group* group, int* rank) {
  constexpr const char* fn = "ARMCI_Group_rank";
  return guard_value(fn, 1, [&] {
    not_null(fn, "rank", rank);
    *rank = not_null(fn, "group", group)->rank;
    return *rank >= 0 ? 0 : 1;
  });
}

void ARMCI_Group_size(ARMCI_Group* group, int* size) {
  constexpr const char* fn = "ARMCI_Group_size";
  guard_void(fn, [&] {
    not_null(fn, "size", size);
    *size = not_null(fn, "group", group)->size;
  });
}

void ARMCI_Group_set_default(ARMCI_Group* group) {
  constexpr const char* fn = "ARMCI_Group_set_default";
  guard_void(fn, [&] {
    require_init(fn);
    std::lock_guard lock(g_registry.mutex);
    find_locked(fn, "group", group);
    g_registry.fallback_default = *group;
  });
}

void ARMCI_Group_get_default(ARMCI_Group* group_out) {
  constexpr const char* fn = "ARMCI_Group_get_default";
  guard_void(fn, [&] {
    require_init(fn);
    not_null(fn, "group_out", group_out);
    std::lock_guard lock(g_registry.mutex);
    *group_out = g_registry.fallback_default;
  });
}

void ARMCI_Group_get_world(ARMCI_Group* group_out) {
  constexpr const char* fn = "ARMCI_Group_get_world";
  guard_void(fn, [&] {
    require_init(fn);
    *not_null(fn, "group_out", group_out) = world_group_value();
  });
}

// The world rank of a group rank; -1 (after reporting) if it is not one.
int ARMCI_Absolute_id(ARMCI_Group* group, int group_rank) {
  constexpr const char* fn = "ARMCI_Absolute_id";
  return guard_value(fn, -1, [&] {
    const GroupInfo info = lookup(fn, "group", group);
    if (group_rank < 0 || group_rank >= info.group.size())
      bad_argument(fn, "group_rank", std::to_string(group_rank),
                   "not a rank of the group (size " + std::to_string(info.group.size()) + ")");
    return info.group.world_rank(group_rank);
  });
}

// Collective over the parent, like MPI_Comm_split: one group per color (MPI_UNDEFINED: none),
// ordered by key, then by parent rank.
int ARMCIX_Group_split(ARMCI_Group* parent, int color, int key, ARMCI_Group* new_group) {
  constexpr const char* fn = "ARMCIX_Group_split";
  return guard(fn, [&] {
    const GroupInfo p = lookup(fn, "parent", parent);
    not_null(fn, "new_group", new_group);
    if (color < 0 && color != MPI_UNDEFINED)
      bad_argument(fn, "color", std::to_string(color), "must be nonnegative or MPI_UNDEFINED");
    // rma groups are made from a member list every parent member passes, so learn every
    // member's (color, key) and create the groups one color at a time.
    const int n = p.group.size();
    const int mine[2] = {color, key};
    std::vector<int> all(2 * static_cast<std::size_t>(n));
    MPI_Request request;
    check_mpi(fn, "MPI_Iallgather", MPI_Iallgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, p.comm, &request));
    rma::wait_serving(request, fn);
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
    if (color == MPI_UNDEFINED)
      *new_group = kNoGroup;
    else
      publish(fn, child, new_group);
  });
}

// Collective over the parent: the same members in the same order, a new communicator.
int ARMCIX_Group_dup(ARMCI_Group* parent, ARMCI_Group* new_group) {
  constexpr const char* fn = "ARMCIX_Group_dup";
  return guard(fn, [&] {
    const GroupInfo p = lookup(fn, "parent", parent);
    not_null(fn, "new_group", new_group);
    std::vector<int> ranks(static_cast<std::size_t>(p.group.size()));
    std::iota(ranks.begin(), ranks.end(), 0);
    publish(fn, rma::Group::create(p.group, ranks), new_group);
  });
}
