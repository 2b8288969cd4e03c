// GA's process-group handles (groups/groups.hpp).
#include <optional>
#include <span>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/sync.hpp"
#include "groups/groups.hpp"

namespace armada::ga {

namespace {
std::vector<std::optional<rma::Group>> g_groups;  // GA group handle = index
int g_default_pgroup = world_pgroup;
int g_self_pgroup = world_pgroup;
}  // namespace

// ---- process groups ---------------------------------------------------------------------------

rma::Group group(const char* function, int handle) {
  if (handle == world_pgroup) return rma::Group::world();
  if (handle < 0 || handle >= static_cast<int>(g_groups.size()) || !g_groups[static_cast<std::size_t>(handle)])
    bad_argument(function, "p_handle", std::to_string(handle), "not a live process group handle");
  return *g_groups[static_cast<std::size_t>(handle)];
}

int add_group(rma::Group g) {
  g_groups.emplace_back(std::move(g));
  return static_cast<int>(g_groups.size()) - 1;
}

void forget_group(const char* function, int handle) {
  group(function, handle);
  if (handle == world_pgroup) bad_argument(function, "p_handle", std::to_string(handle), "the world group stays");
  g_groups[static_cast<std::size_t>(handle)].reset();
  if (g_default_pgroup == handle) g_default_pgroup = world_pgroup;
}

int default_pgroup() { return g_default_pgroup; }
void set_default_pgroup(int handle) { g_default_pgroup = handle; }
rma::Group default_group() { return group("GA default group", g_default_pgroup); }

int handle_of(const rma::Group& g) {
  if (g == rma::Group::world()) return world_pgroup;
  for (std::size_t i = 0; i < g_groups.size(); ++i)
    if (g_groups[i] && *g_groups[i] == g) return static_cast<int>(i);
  return add_group(g);
}

void forget_all_groups() {
  g_groups.clear();
  g_default_pgroup = world_pgroup;
}

void make_self_pgroup() {
  const int me = rma::Group::world().rank();
  g_self_pgroup = add_group(rma::Group::create(rma::Group::world(), std::span<const int>(&me, 1)));
}

int self_pgroup() { return g_self_pgroup; }

void sync_group(const rma::Group& g) {
  rma::fence_all();
  if (g == rma::Group::world()) {
    arrays::sync();
    return;
  }
  if (g.is_member()) rma::agree_on("rma::barrier", nullptr, g);  // tells a member in another call
}

}  // namespace armada::ga
