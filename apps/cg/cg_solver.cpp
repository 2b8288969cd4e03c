#include "cg_solver.hpp"

#include <cmath>

#include "npb_cg.hpp"

namespace armada::apps::cg {
namespace {

double global_sum(double local, MPI_Comm comm) {
  double s = 0;
  MPI_Allreduce(&local, &s, 1, MPI_DOUBLE, MPI_SUM, comm);
  return s;
}

double dot(const double* __restrict a, const double* __restrict b, std::size_t n, MPI_Comm comm) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return global_sum(s, comm);
}

}  // namespace

void reset_start_vector(const CgVectors& v) {
  double* x = v[Vec::x];
  for (std::size_t i = 0; i < v.n; ++i) x[i] = 1.0;
}

double conj_grad(const CgVectors& v, const Multiply& multiply, MPI_Comm comm) {
  const std::size_t n = v.n;
  double* __restrict x = v[Vec::x];
  double* __restrict z = v[Vec::z];
  double* __restrict p = v[Vec::p];
  double* __restrict q = v[Vec::q];
  double* __restrict r = v[Vec::r];
  for (std::size_t i = 0; i < n; ++i) {
    q[i] = 0;
    z[i] = 0;
    r[i] = x[i];
    p[i] = r[i];
  }
  double rho = dot(r, r, n, comm);
  for (int it = 0; it < cg_inner_iterations; ++it) {
    multiply(Vec::p, Vec::q);
    const double alpha = rho / dot(p, q, n, comm);
    const double rho0 = rho;
    double local = 0;
    for (std::size_t i = 0; i < n; ++i) {
      z[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      local += r[i] * r[i];
    }
    rho = global_sum(local, comm);
    const double beta = rho / rho0;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
  }
  // The explicit residual ||x - A z||.
  multiply(Vec::z, Vec::r);
  double local = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = x[i] - r[i];
    local += d * d;
  }
  return std::sqrt(global_sum(local, comm));
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
