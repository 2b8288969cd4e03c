#include "cg_solver.hpp"

#include <cmath>

#include "armada/apps/allreduce.hpp"
#include "npb_cg.hpp"

namespace armada::apps::cg {
namespace {

double global_sum(double local, MPI_Comm comm) { return allreduce(local, MPI_SUM, comm); }

double local_dot(const double* __restrict a, const double* __restrict b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// The timed run's clock: nothing at all (every call inlines to nothing, so conj_grad without a
// breakdown is the same code as before the breakdown existed).
struct NoClock {
  void start() {}
  void lap(double CgBreakdown::*) {}
};

// The breakdown's clock: one MPI_Wtime per phase boundary (5 per CG iteration, outside every
// loop), the time since the previous boundary added to the phase that just ended.
struct PhaseClock {
  CgBreakdown& b;
  double t = 0;
  void start() { t = MPI_Wtime(); }
  void lap(double CgBreakdown::*phase) {
    const double now = MPI_Wtime();
    b.*phase += now - t;
    t = now;
  }
};

template <class Clock>
double conj_grad_with(const CgVectors& v, const Multiply& multiply, MPI_Comm comm, Clock& clock) {
  using B = CgBreakdown;
  const std::size_t n = v.n;
  double* __restrict x = v[Vec::x];
  double* __restrict z = v[Vec::z];
  double* __restrict p = v[Vec::p];
  double* __restrict q = v[Vec::q];
  double* __restrict r = v[Vec::r];
  clock.start();
  for (std::size_t i = 0; i < n; ++i) {
    q[i] = 0;
    z[i] = 0;
    r[i] = x[i];
    p[i] = r[i];
  }
  clock.lap(&B::update);
  double rho = local_dot(r, r, n);
  clock.lap(&B::dot);
  rho = global_sum(rho, comm);
  clock.lap(&B::reduce);
  for (int it = 0; it < cg_inner_iterations; ++it) {
    multiply(Vec::p, Vec::q);
    clock.lap(&B::spmv);
    const double pq = local_dot(p, q, n);
    clock.lap(&B::dot);
    const double alpha = rho / global_sum(pq, comm);
    clock.lap(&B::reduce);
    const double rho0 = rho;
    double local = 0;
    for (std::size_t i = 0; i < n; ++i) {
      z[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      local += r[i] * r[i];
    }
    clock.lap(&B::update);
    rho = global_sum(local, comm);
    clock.lap(&B::reduce);
    const double beta = rho / rho0;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
    clock.lap(&B::update);
  }
  // The explicit residual ||x - A z||.
  multiply(Vec::z, Vec::r);
  clock.lap(&B::spmv);
  double local = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = x[i] - r[i];
    local += d * d;
  }
  clock.lap(&B::dot);
  const double norm = std::sqrt(global_sum(local, comm));
  clock.lap(&B::reduce);
  return norm;
}

}  // namespace

void reset_start_vector(const CgVectors& v) {
  double* x = v[Vec::x];
  for (std::size_t i = 0; i < v.n; ++i) x[i] = 1.0;
}

double conj_grad(const CgVectors& v, const Multiply& multiply, MPI_Comm comm) {
  NoClock clock;
  return conj_grad_with(v, multiply, comm, clock);
}

double conj_grad(const CgVectors& v, const Multiply& multiply, MPI_Comm comm, CgBreakdown& breakdown) {
  PhaseClock clock{breakdown};
  const double norm = conj_grad_with(v, multiply, comm, clock);
  breakdown.iterations += cg_inner_iterations;
  breakdown.products += cg_inner_iterations + 1;
  return norm;
}

double power_step(const CgVectors& v, double shift, MPI_Comm comm) {
  const std::size_t n = v.n;
  double* __restrict x = v[Vec::x];
  const double* __restrict z = v[Vec::z];
  double sums[2] = {0, 0};  // x . z and z . z, reduced together
  for (std::size_t i = 0; i < n; ++i) {
    sums[0] += x[i] * z[i];
    sums[1] += z[i] * z[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, comm);
  const double inv_norm = 1.0 / std::sqrt(sums[1]);
  for (std::size_t i = 0; i < n; ++i) x[i] = inv_norm * z[i];
  return shift + 1.0 / sums[0];
}

}  // namespace armada::apps::cg
