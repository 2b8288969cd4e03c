#include "dgemm_limit.hpp"

#include <mpi.h>

#include <algorithm>
#include <numeric>

#include "kernels.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

DgemmRun run_dgemm_limit(const TaskLists& tasks) {
  const int rank = world_rank(), ranks = world_size();
  std::int64_t a = 0, b = 0, r = 0;
  for (const auto& list : tasks)
    for (const Task& t : list) a = std::max(a, t.a_size()), b = std::max(b, t.b_size()), r = std::max(r, t.r_size());
  std::vector<double> A(static_cast<std::size_t>(a)), B(static_cast<std::size_t>(b)), C(static_cast<std::size_t>(r));
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = 0.5 + static_cast<double>(i % 7) / 7;
  for (std::size_t i = 0; i < B.size(); ++i) B[i] = 0.5 + static_cast<double>(i % 5) / 5;

  DgemmRun run;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (const auto& list : tasks) {
    const Task* last = nullptr;
    for (std::size_t i = static_cast<std::size_t>(rank); i < list.size(); i += static_cast<std::size_t>(ranks)) {
      const Task& t = list[i];
      dgemm(t.m, t.n, t.k, A.data(), B.data(), C.data());
      run.flops += t.flops();
      last = &t;
    }
    if (last) run.checksum += std::accumulate(C.begin(), C.begin() + last->r_size(), 0.0);
  }
  run.seconds = MPI_Wtime() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  return run;
}

}  // namespace armada::apps::ccsd
