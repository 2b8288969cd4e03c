// A linalg C++ program built outside Armada's tree: C = A·B on distributed arrays with
// linalg::gemm, checked on every rank against the product of the same matrices in plain loops.
#include <cmath>
#include <cstdio>
#include <vector>

#include <armada/linalg/linalg.hpp>
#include <armada/rma/rma.hpp>

int main(int argc, char** argv) {
  namespace rma = armada::rma;
  namespace aa = armada::arrays;
  namespace la = armada::linalg;
  rma::Session session("linalg_program", &argc, &argv);
  const long m = 7, k = 5, n = 6;
  std::vector<double> a(m * k), b(k * n), expected(m * n, 0.0);
  for (long i = 0; i < m * k; ++i) a[i] = 1.0 + i % 11;
  for (long i = 0; i < k * n; ++i) b[i] = 2.0 - i % 7;
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j)
      for (long l = 0; l < k; ++l) expected[i * n + j] += a[i * k + l] * b[l * n + j];
  auto ga = aa::GlobalArray<double>::create({m, k}, {.name = "A"});
  auto gb = aa::GlobalArray<double>::create({k, n}, {.name = "B"});
  auto gc = aa::GlobalArray<double>::create({m, n}, {.name = "C"});
  if (rma::rank() == 0) {
    ga.put({0, 0}, {m, k}, a.data());
    gb.put({0, 0}, {k, n}, b.data());
  }
  la::gemm(la::Op::none, la::Op::none, 1.0, ga, gb, 0.0, gc);
  const std::vector<double> c = gc.get({0, 0}, {m, n});
  long wrong = 0;
  for (long i = 0; i < m * n; ++i) wrong += std::abs(c[i] - expected[i]) > 1e-12;
  std::printf("linalg_program rank %d: %s\n", rma::rank(), wrong ? "WRONG" : "correct");
  return wrong ? 1 : 0;
}
