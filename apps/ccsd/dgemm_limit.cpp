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

DgemmRun run_dgemm_limit(const TermPlans& plans, bool streamed) {
  const int rank = world_rank(), ranks = world_size();
  const auto mine = [&](std::size_t task) { return task % static_cast<std::size_t>(ranks) == static_cast<std::size_t>(rank); };
  // One buffer per operand, for the largest chunk; streamed, the streamed operands' buffers hold
  // every chunk of this rank's share one after the other (as many bytes as it gets or reads in place).
  std::int64_t a = 0, b = 0, c = 0, a_all = 0, b_all = 0;
  for (const TermPlan& plan : plans)
    for (std::size_t i = 0; i < plan.tasks.size(); ++i)
      for (const Chunk& ch : plan.tasks[i].chunks) {
        const GemmShape s = plan.gemm_of(plan.tasks[i], ch);
        a = std::max(a, s.m * s.lda), b = std::max(b, s.k * s.ldb), c = std::max(c, s.m * s.ldc);
        if (!mine(i)) continue;
        if (plan.a_streamed()) a_all += s.m * s.lda;
        else b_all += s.k * s.ldb;
      }
  if (streamed) a = std::max(a, a_all), b = std::max(b, b_all);
  std::vector<double> A(static_cast<std::size_t>(a)), B(static_cast<std::size_t>(b)), C(static_cast<std::size_t>(c));
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = 0.5 + static_cast<double>(i % 7) / 7;
  for (std::size_t i = 0; i < B.size(); ++i) B[i] = 0.5 + static_cast<double>(i % 5) / 5;

  DgemmRun run;
  std::int64_t a_next = 0, b_next = 0;  // streamed: where the next chunk's operand starts
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (std::size_t term = 0; term < plans.size(); ++term) {
    const TermPlan& plan = plans[term];
    const double term_start = MPI_Wtime();
    const Task* last = nullptr;
    for (std::size_t i = static_cast<std::size_t>(rank); i < plan.tasks.size(); i += static_cast<std::size_t>(ranks)) {
      const Task& t = plan.tasks[i];
      for (std::size_t k = 0; k < t.chunks.size(); ++k) {
        const GemmShape g = plan.gemm_of(t, t.chunks[k]);
        const double* a_at = A.data() + (streamed && plan.a_streamed() ? a_next : 0);
        const double* b_at = B.data() + (streamed && !plan.a_streamed() ? b_next : 0);
        if (plan.a_streamed()) a_next += g.m * g.lda;
        else b_next += g.k * g.ldb;
        dgemm(g, a_at, b_at, C.data(), k > 0);
      }
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
