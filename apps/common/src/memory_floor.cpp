#include "armada/apps/memory_floor.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace armada::apps {
namespace {

// The slowest rank's time of one run of `kernel`, all ranks starting together.
template <class Kernel>
double slowest(Kernel kernel, MPI_Comm comm) {
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  kernel();
  double t = MPI_Wtime() - t0, max = 0;
  MPI_Allreduce(&t, &max, 1, MPI_DOUBLE, MPI_MAX, comm);
  return max;
}

std::size_t elements(double bytes, double per_element) {
  return std::max<std::size_t>(1, static_cast<std::size_t>(bytes / per_element));
}

}  // namespace

MemoryFloor MemoryFloor::best(const MemoryFloor& other) const {
  MemoryFloor m = *this;
  m.copy_bw = std::max(copy_bw, other.copy_bw);
  m.triad_bw = std::max(triad_bw, other.triad_bw);
  m.seconds = m.bytes / std::max(m.copy_bw, m.triad_bw);
  return m;
}

MemoryFloor measure_memory_floor(double rank_bytes, MPI_Comm comm, int repetitions, double max_volume) {
  // Far beyond every cache the bandwidth no longer depends on the volume: a cap keeps MG class
  // C (13 GB an iteration) from allocating its volume again.
  const double volume = std::min(rank_bytes, max_volume);
  const std::size_t nc = elements(volume, 16), nt = elements(volume, 24);
  // Touched before timing (first-touch page faults are not bandwidth).
  std::vector<double> a(std::max(nc, nt), 0.0), b(a.size(), 1.0), c(a.size(), 2.0);
  double* __restrict pa = a.data();
  const double* __restrict pb = b.data();
  const double* __restrict pc = c.data();
  const double s = 3.0;
  const auto copy = [&] { std::copy(pb, pb + nc, pa); };
  const auto triad = [&] {
    for (std::size_t i = 0; i < nt; ++i) pa[i] = pb[i] + s * pc[i];
  };
  copy();
  triad();
  double copy_s = std::numeric_limits<double>::infinity(), triad_s = copy_s;
  for (int r = 0; r < repetitions; ++r) {  // alternated, so that a slow spell hits both
    copy_s = std::min(copy_s, slowest(copy, comm));
    triad_s = std::min(triad_s, slowest(triad, comm));
  }
  // The bytes every rank moved (each kernel's own element count), summed.
  double moved[3] = {rank_bytes, 16.0 * static_cast<double>(nc), 24.0 * static_cast<double>(nt)};
  MPI_Allreduce(MPI_IN_PLACE, moved, 3, MPI_DOUBLE, MPI_SUM, comm);
  // Keep the stores observable: a value the compiler cannot know, shared by every rank.
  double check = pa[nt - 1];
  MPI_Allreduce(MPI_IN_PLACE, &check, 1, MPI_DOUBLE, MPI_MAX, comm);
  MemoryFloor f;
  f.bytes = moved[0];
  f.copy_bw = moved[1] / copy_s;
  f.triad_bw = moved[2] / triad_s;
  f.seconds = f.bytes / std::max(f.copy_bw, f.triad_bw);
  if (check != 7.0) f.seconds = std::numeric_limits<double>::quiet_NaN();  // b + 3 c = 7: the kernel ran
  return f;
}

}  // namespace armada::apps
