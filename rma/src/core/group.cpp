#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/agree.hpp"
#include "common/check.hpp"
#include "core/group_impl.hpp"
#include "core/state.hpp"

namespace armada::rma {

using detail::throw_invalid;

namespace {
bool mpi_alive() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return !finalized;
}
}  // namespace

Group::Impl::~Impl() {
  if (!mpi_alive()) return;
  if (node_comm != MPI_COMM_NULL) MPI_Comm_free(&node_comm);
  if (owns_comm && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

int Group::Impl::group_rank_of(int world) const {
  if (is_world) return world;
  const auto it = std::lower_bound(group_rank_by_world.begin(), group_rank_by_world.end(), std::make_pair(world, -1));
  return it != group_rank_by_world.end() && it->first == world ? it->second : -1;
}

void Group::Impl::index_members() {
  group_rank_by_world.clear();
  group_rank_by_world.reserve(world_ranks.size());
  for (std::size_t i = 0; i < world_ranks.size(); ++i) group_rank_by_world.emplace_back(world_ranks[i], static_cast<int>(i));
  std::sort(group_rank_by_world.begin(), group_rank_by_world.end());
}

MPI_Comm Group::Impl::node_members() {
  if (node_comm == MPI_COMM_NULL) {
    auto& s = *detail::g_state;
    MPI_Comm_split(comm, s.topology.node_of[static_cast<std::size_t>(s.rank)], rank, &node_comm);
  }
  return node_comm;
}

std::shared_ptr<const std::vector<std::uint32_t>> Group::Impl::node_places(const detail::Topology& topology) {
  std::call_once(places_made_, [&] {
    auto places = std::make_shared<std::vector<std::uint32_t>>(world_ranks.size());
    std::vector<std::uint32_t> seen(topology.members.size(), 0);  // per node: members placed so far
    for (std::size_t g = 0; g < world_ranks.size(); ++g)
      (*places)[g] = seen[static_cast<std::size_t>(topology.node_of[static_cast<std::size_t>(world_ranks[g])])]++;
    places_ = std::move(places);
  });
  return places_;
}

Group Group::world() { return detail::state("rma::Group::world").world_group; }

namespace {

std::string list_text(std::span<const int> ranks) {
  std::string s = "[";
  for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s + "]";
}

// Every parent member's list, in parent rank order.
std::vector<std::vector<int>> gather_lists(const char* op, const Group& parent, std::span<const int> ranks) {
  const detail::Gathered<int> g = detail::allgather_varying(op, parent.comm(), ranks);
  std::vector<std::vector<int>> lists;
  for (std::size_t r = 0; r < g.counts.size(); ++r) {
    const auto at = g.all.begin() + g.displs[r];
    lists.emplace_back(at, at + g.counts[r]);
  }
  return lists;
}

// MPI_Comm_create's rule (MPI 3.1, 6.4.2): every rank named in a non-empty list passes exactly
// that list. One list for all, disjoint lists (one group per node, as Global Arrays makes),
// and ranks in no group (an empty list, or a list without themselves) all satisfy it; lists
// that overlap inconsistently do not. Every member evaluates the same lists: the same verdict.
void check_consistent(const char* op, const Group& parent, const std::vector<std::vector<int>>& lists) {
  for (std::size_t r = 0; r < lists.size(); ++r)
    for (const int m : lists[r]) {
      if (lists[static_cast<std::size_t>(m)] == lists[r]) continue;
      const std::vector<int>& other = lists[static_cast<std::size_t>(m)];
      throw_invalid(op, "ranks", list_text(lists[static_cast<std::size_t>(parent.rank())]),
                    "parent rank " + std::to_string(r) + " listed parent rank " + std::to_string(m) + " in " +
                        list_text(lists[r]) + ", but rank " + std::to_string(m) + " passed " + list_text(other) +
                        ": every rank of a new group must pass that group's list, in the same order");
    }
}

// FNV-1a over a list's length and ranks.
std::uint64_t hash_of(std::span<const int> ranks) {
  std::uint64_t h = 1469598103934665603ull ^ ranks.size();
  for (const int r : ranks) h = (h ^ static_cast<std::uint32_t>(r)) * 1099511628211ull;
  return h;
}

// Whether every rank named in a non-empty list passed that list, by comparing hashes of the
// lists (8 bytes per parent member gathered, not every list: a world-sized group would gather
// P lists of P ranks). Equal lists have equal hashes, so a mismatch found is real; only then are
// the lists gathered, for check_consistent's message (every member takes that path together).
// Two different lists with one 64-bit hash (odds 2^-64 per pair) would pass unnoticed.
void check_lists(const char* op, const Group& parent, std::span<const int> ranks) {
  const std::uint64_t mine = hash_of(ranks);
  std::vector<std::uint64_t> hashes(static_cast<std::size_t>(parent.size()));
  detail::allgather_polling(op, &mine, 1, MPI_UINT64_T, hashes.data(), parent.comm());
  int bad = 0;
  for (const int m : ranks) bad |= hashes[static_cast<std::size_t>(m)] != mine;
  detail::allreduce_polling(op, &bad, 1, MPI_INT, MPI_MAX, parent.comm());
  if (bad) check_consistent(op, parent, gather_lists(op, parent, ranks));
}

}  // namespace

Group Group::create(const Group& parent, std::span<const int> ranks) {
  constexpr const char* op = "rma::Group::create";
  detail::state(op);
  if (!parent.impl_ || !parent.is_member())
    throw_invalid(op, "parent", "a group this rank is not a member of", "the caller must belong to the parent group");
  // Every member checks its own list and all agree; then every member sees every list and
  // checks them alike, before MPI_Comm_create, which an inconsistent list would make erroneous.
  const int psize = parent.size();
  agree(op, [&] {
    std::vector<char> seen(static_cast<std::size_t>(psize), 0);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const int r = ranks[i];
      if (r < 0 || r >= psize)
        throw_invalid(op, ("ranks[" + std::to_string(i) + "]").c_str(), std::to_string(r),
                      "not a rank of the parent group (size " + std::to_string(psize) + ")");
      if (seen[static_cast<std::size_t>(r)]++)
        throw_invalid(op, ("ranks[" + std::to_string(i) + "]").c_str(), std::to_string(r), "listed twice");
    }
  }, parent);
  check_lists(op, parent, ranks);

  auto impl = std::make_shared<Impl>();
  impl->owns_comm = true;
  MPI_Group parent_group, new_group = MPI_GROUP_EMPTY;
  MPI_Comm_group(parent.comm(), &parent_group);
  if (!ranks.empty()) MPI_Group_incl(parent_group, static_cast<int>(ranks.size()), ranks.data(), &new_group);
  // Blocking (MPI has no nonblocking form), but every member has passed check_lists' reduction:
  // all are here, and none waits for a request that only this process executes.
  MPI_Comm_create(parent.comm(), new_group, &impl->comm);
  if (new_group != MPI_GROUP_EMPTY) MPI_Group_free(&new_group);
  MPI_Group_free(&parent_group);

  impl->world_size = detail::g_state->size;
  for (const int r : ranks) impl->world_ranks.push_back(parent.world_rank(r));
  impl->index_members();
  impl->rank = impl->group_rank_of(detail::g_state->rank);
  return Group(std::move(impl));
}

int Group::size() const noexcept { return impl_ ? static_cast<int>(impl_->world_ranks.size()) : 0; }
int Group::rank() const noexcept { return impl_ ? impl_->rank : -1; }
MPI_Comm Group::comm() const noexcept { return impl_ ? impl_->comm : MPI_COMM_NULL; }
std::span<const int> Group::world_ranks() const noexcept {
  return impl_ ? std::span<const int>(impl_->world_ranks) : std::span<const int>();
}

int Group::world_rank(int group_rank) const {
  if (group_rank < 0 || group_rank >= size())
    throw_invalid("rma::Group::world_rank", "group_rank", std::to_string(group_rank),
                  "not a rank of the group (size " + std::to_string(size()) + ")");
  return impl_->world_ranks[static_cast<std::size_t>(group_rank)];
}

int Group::group_rank(int world_rank) const {
  if (!impl_ || world_rank < 0 || world_rank >= impl_->world_size)
    throw_invalid("rma::Group::group_rank", "world_rank", std::to_string(world_rank),
                  "not a rank of the world (size " + std::to_string(impl_ ? impl_->world_size : 0) + ")");
  return impl_->group_rank_of(world_rank);
}

}  // namespace armada::rma
