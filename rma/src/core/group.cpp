#include <algorithm>
#include <string>

#include "core/agree.hpp"
#include "core/check.hpp"
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

MPI_Comm Group::Impl::node_members() {
  if (node_comm == MPI_COMM_NULL) {
    auto& s = *detail::g_state;
    MPI_Comm_split(comm, s.topology.node_of[static_cast<std::size_t>(s.rank)], rank, &node_comm);
  }
  return node_comm;
}

Group Group::world() { return detail::state("rma::Group::world").world_group; }

Group Group::create(const Group& parent, std::span<const int> ranks) {
  constexpr const char* op = "rma::Group::create";
  detail::state(op);
  if (!parent.impl_ || !parent.is_member())
    throw_invalid(op, "parent", "a group this rank is not a member of", "the caller must belong to the parent group");
  // Every member checks its list, and all agree before MPI_Comm_create, which every member must
  // enter with the same list: a rank with a bad or different list fails every member.
  const int psize = parent.size();
  std::uint64_t digest = 1469598103934665603ull;  // FNV-1a of the list
  agree(op, [&] {
    std::vector<char> seen(static_cast<std::size_t>(psize), 0);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const int r = ranks[i];
      if (r < 0 || r >= psize)
        throw_invalid(op, ("ranks[" + std::to_string(i) + "]").c_str(), std::to_string(r),
                      "not a rank of the parent group (size " + std::to_string(psize) + ")");
      if (seen[static_cast<std::size_t>(r)]++)
        throw_invalid(op, ("ranks[" + std::to_string(i) + "]").c_str(), std::to_string(r), "listed twice");
      digest = (digest ^ static_cast<std::uint64_t>(r)) * 1099511628211ull;
    }
  }, parent);
  std::uint64_t range[2] = {digest, ~digest};  // max of the digest and of its complement (= min)
  MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_UINT64_T, MPI_MAX, parent.comm());
  if (range[0] != ~range[1])
    throw_invalid(op, "ranks", "a list of " + std::to_string(ranks.size()) + " ranks",
                  "the members of the parent group passed different lists; every member must pass the same one");
  auto impl = std::make_shared<Impl>();
  impl->owns_comm = true;
  MPI_Group parent_group, new_group;
  MPI_Comm_group(parent.comm(), &parent_group);
  MPI_Group_incl(parent_group, static_cast<int>(ranks.size()), ranks.data(), &new_group);
  MPI_Comm_create(parent.comm(), new_group, &impl->comm);
  MPI_Group_free(&new_group);
  MPI_Group_free(&parent_group);

  const int wsize = detail::g_state->size;
  impl->group_rank_of.assign(static_cast<std::size_t>(wsize), -1);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const int w = parent.world_rank(ranks[i]);
    impl->world_ranks.push_back(w);
    impl->group_rank_of[static_cast<std::size_t>(w)] = static_cast<int>(i);
  }
  impl->rank = impl->group_rank_of[static_cast<std::size_t>(detail::g_state->rank)];
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
  if (!impl_ || world_rank < 0 || world_rank >= static_cast<int>(impl_->group_rank_of.size()))
    throw_invalid("rma::Group::group_rank", "world_rank", std::to_string(world_rank),
                  "not a rank of the world (size " + std::to_string(impl_ ? impl_->group_rank_of.size() : 0) + ")");
  return impl_->group_rank_of[static_cast<std::size_t>(world_rank)];
}

}  // namespace armada::rma
