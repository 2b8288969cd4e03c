#include "core/arrival.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "armada/rma/collectives.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/memory.hpp"
#include "armada/rma/transfer.hpp"
#include "common/comm_attribute.hpp"
#include "common/stall.hpp"
#include "core/state.hpp"

namespace armada::rma::detail {

namespace {

// One rank's slot. A reader may see it half written: it only feeds a warning.
struct Slot {
  std::uint64_t members;  // the agreement's Ticket
  std::uint64_t seq;
  std::uint64_t waiting;  // 1 while in an agreement
  char call[104];         // its call's name, cut, NUL-terminated
};

std::vector<void*> g_slots;   // every world rank's slot (empty: not open)
Slot* g_mine = nullptr;

// Per communicator (an MPI attribute, so it dies with the communicator): its members' hash and
// the agreements this rank has entered on it.
struct CommInfo {
  std::uint64_t members = 0;
  std::uint64_t seq = 0;
};

int delete_info(MPI_Comm, int, void* value, void*) {
  delete static_cast<CommInfo*>(value);
  return MPI_SUCCESS;
}

std::vector<int> world_ranks_of(MPI_Comm comm) {
  MPI_Group group, world;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(g_state->world, &world);
  int n = 0;
  MPI_Group_size(group, &n);
  std::vector<int> local(static_cast<std::size_t>(n)), ranks(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) local[static_cast<std::size_t>(i)] = i;
  MPI_Group_translate_ranks(group, n, local.data(), world, ranks.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return ranks;
}

CommInfo& info_of(MPI_Comm comm) {
  static const CommAttribute<CommInfo> attribute(delete_info);
  return attribute.get_or_make(comm, [&] {
    auto* info = new CommInfo;
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the members' world ranks
    for (int r : world_ranks_of(comm)) h = (h ^ static_cast<std::uint64_t>(r)) * 1099511628211ull;
    info->members = h;
    return info;
  });
}

// Where rank `r`, which has not arrived, is instead.
std::string whereabouts(const Slot& s) {
  if (!s.waiting) return "in no collective call of Armada (computing, stopped, or gone)";
  return std::string("in another collective call or on another group: ") + s.call;
}

}  // namespace

void open_arrivals() {
  g_slots = allocate_segment("rma::init", sizeof(Slot), g_state->world_group, true);
  g_mine = static_cast<Slot*>(g_slots[static_cast<std::size_t>(g_state->rank)]);
}

void close_arrivals() noexcept {
  g_slots.clear();
  g_mine = nullptr;
}

Ticket arrive(MPI_Comm comm, const char* op) {
  if (!g_mine) return {};
  CommInfo& info = info_of(comm);
  const Ticket t{info.members, ++info.seq};
  g_mine->members = t.members;
  g_mine->seq = t.seq;
  // "GA_Sync (rma::barrier)", as agree.cpp's messages name a call, without allocating.
  std::size_t at = 0;
  auto append = [&](const char* text) {
    const std::size_t n = std::min(std::strlen(text), sizeof g_mine->call - 1 - at);
    std::memcpy(g_mine->call + at, text, n);
    at += n;
  };
  const char* entry = EntryPoint::current();
  if (entry && std::strcmp(entry, op) != 0) {
    append(entry);
    append(" (");
    append(op);
    append(")");
  } else {
    append(op);
  }
  g_mine->call[at] = '\0';
  g_mine->waiting = 1;
  return t;
}

void depart() noexcept {
  if (g_mine) g_mine->waiting = 0;
}

void warn_not_arrived(MPI_Comm comm, const Ticket& ticket, const char* call, int seconds) {
  std::string missing;
  if (!g_mine) missing = "(which, is unknown: the slots could not be allocated at init)";
  for (int r : world_ranks_of(comm)) {
    if (!g_mine || r == g_state->rank) continue;
    Slot s{};
    get_internal(g_slots[static_cast<std::size_t>(r)], &s, sizeof s, r);
    s.call[sizeof s.call - 1] = '\0';
    // Arrived: in this agreement, or already past it (its reduction may have ended there).
    if (s.members == ticket.members && s.seq >= ticket.seq) continue;
    missing += (missing.empty() ? "" : "; ") + rank_on_host(r, g_state->topology) + " is " + whereabouts(s);
  }
  if (missing.empty()) return;
  const std::string text =
      error_message(call, "waiting " + std::to_string(seconds) + " s for members of the group that have not arrived: " +
                              missing + "; still waiting (ARMADA_STALL_WARN sets when this is said)\n");
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace armada::rma::detail
