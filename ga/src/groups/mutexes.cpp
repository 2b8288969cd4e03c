// GA's mutexes: a set of `number` mutexes spread over the world, mutex i on process
// i / per_process (GA's block spread), on rma's mutex sets.
#include <string>

#include "armada/rma/mutex.hpp"
#include "armada/rma/runtime.hpp"
#include "base/call.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

// GA's mutexes: `number` of them, mutex i on process i / per_process (GA's block spread).
rma::MutexSet g_mutexes;
int g_mutex_number = -1;  // -1: none created
int g_mutex_per_process = 1;

void mutex_place(const char* function, int mutex, int& index, int& rank) {
  if (g_mutex_number < 0) throw rma::StateError(function, rma::error_message(function, "GA_Create_mutexes was not called"));
  if (mutex < 0 || mutex >= g_mutex_number)
    bad_argument(function, "mutex", std::to_string(mutex),
                 "not a mutex (0 .. " + std::to_string(g_mutex_number - 1) + ")");
  rank = mutex / g_mutex_per_process;
  index = mutex % g_mutex_per_process;
}

}  // namespace

extern "C" {

int GA_Create_mutexes(int number) {
  return guarded("GA_Create_mutexes", [&] {
    if (number < 0) bad_argument("GA_Create_mutexes", "number", std::to_string(number), "must be >= 0");
    if (g_mutex_number >= 0)
      throw rma::StateError("GA_Create_mutexes",
                            rma::error_message("GA_Create_mutexes", "mutexes exist already (GA_Destroy_mutexes first)"));
    const int np = rma::size();
    g_mutex_per_process = std::max(1, (number + np - 1) / np);
    const int first = rma::rank() * g_mutex_per_process;
    const int mine = std::clamp(number - first, 0, g_mutex_per_process);
    g_mutexes = rma::MutexSet::create(mine);
    g_mutex_number = number;
    return 1;
  });
}
int GA_Destroy_mutexes(void) {
  return guarded("GA_Destroy_mutexes", [] {
    if (g_mutex_number < 0)
      throw rma::StateError("GA_Destroy_mutexes",
                            rma::error_message("GA_Destroy_mutexes", "GA_Create_mutexes was not called"));
    g_mutexes.destroy();
    g_mutexes = rma::MutexSet{};
    g_mutex_number = -1;
    return 1;
  });
}
void GA_Lock(int mutex) {
  guarded("GA_Lock", [&] {
    int index, rank;
    mutex_place("GA_Lock", mutex, index, rank);
    // Named here by GA's mutex number (rma's check names the rank's own index).
    if (g_mutexes.held_by_this_thread(index, rank))
      bad_argument("GA_Lock", "mutex", std::to_string(mutex),
                   "is held by this thread already (GA_Lock without GA_Unlock); a second GA_Lock would wait for ever");
    g_mutexes.lock(index, rank);
  });
}
void GA_Unlock(int mutex) {
  guarded("GA_Unlock", [&] {
    int index, rank;
    mutex_place("GA_Unlock", mutex, index, rank);
    // Complete this process's updates first: the next holder must see what was written under
    // the lock.
    rma::fence_all();
    g_mutexes.unlock(index, rank);
  });
}

}  // extern "C"
