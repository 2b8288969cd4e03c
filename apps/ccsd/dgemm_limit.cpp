#include "dgemm_limit.hpp"

#include <mpi.h>

#include <algorithm>
#include <numeric>

#include "kernels.hpp"
#include "world.hpp"

namespace armada::apps::ccsd {

TaskListBytes task_list_bytes(const TermPlans& plans, int rank, int ranks) {
  TaskListBytes b;
  for (const TermPlan& plan : plans)
    for (std::size_t i = static_cast<std::size_t>(rank); i < plan.tasks.size(); i += static_cast<std::size_t>(ranks)) {
      const Task& t = plan.tasks[i];
      for (const Chunk& ch : t.chunks) b.gets += 8.0 * static_cast<double>(ch.k * (plan.a_streamed() ? t.m : t.n));
      b.accumulates += 8.0 * static_cast<double>(t.m * t.n);
    }
  return b;
}

DgemmRun run_dgemm_limit(const TermPlans& plans) {
  const int rank = world_rank(), ranks = world_size();
  std::int64_t a = 0, b = 0, c = 0;
  for (const TermPlan& plan : plans)
    for (const Task& t : plan.tasks)
      for (const Chunk& ch : t.chunks) {
        const GemmShape s = plan.gemm_of(t, ch);
        a = std::max(a, s.m * s.lda), b = std::max(b, s.k * s.ldb), c = std::max(c, s.m * s.ldc);
      }
  std::vector<double> A(static_cast<std::size_t>(a)), B(static_cast<std::size_t>(b)), C(static_cast<std::size_t>(c));
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = 0.5 + static_cast<double>(i % 7) / 7;
  for (std::size_t i = 0; i < B.size(); ++i) B[i] = 0.5 + static_cast<double>(i % 5) / 5;

  DgemmRun run;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (std::size_t term = 0; term < plans.size(); ++term) {
    const TermPlan& plan = plans[term];
    const double term_start = MPI_Wtime();
    const Task* last = nullptr;
    for (std::size_t i = static_cast<std::size_t>(rank); i < plan.tasks.size(); i += static_cast<std::size_t>(ranks)) {
      const Task& t = plan.tasks[i];
      for (std::size_t k = 0; k < t.chunks.size(); ++k) dgemm(plan.gemm_of(t, t.chunks[k]), A.data(), B.data(), C.data(), k > 0);
      run.term_flops[term] += t.flops();
      last = &t;
    }
    run.term_seconds[term] = MPI_Wtime() - term_start;
    run.flops += run.term_flops[term];
    if (last) run.checksum += std::accumulate(C.begin(), C.begin() + last->m * last->n, 0.0);
  }
  run.seconds = MPI_Wtime() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  return run;
}

}  // namespace armada::apps::ccsd
