// Scatter/gather: every rank scatters values to scattered elements of a distributed array
// (a permutation, so no element twice), accumulates into a histogram with repeated subscripts
// (scatter_acc adds once per occurrence), and gathers elements back. Checks all of it and exits
// 1 on a wrong value.
#include <armada/arrays/arrays.hpp>
#include <armada/rma/rma.hpp>

#include <cstdio>
#include <vector>

namespace aa = armada::arrays;
namespace rma = armada::rma;

constexpr long n = 97;     // elements (prime: i * 37 mod n is a permutation)
constexpr long bins = 10;  // histogram bins

long slot(long i) { return (i * 37) % n; }  // where element i's value goes

int main(int argc, char** argv) {
  rma::Session session("example_scatter_gather", &argc, &argv);
  const int me = rma::rank(), p = rma::size();
  auto values = aa::GlobalArray<long>::create({n}, {.name = "values"});
  auto histogram = aa::GlobalArray<long>::create({bins}, {.name = "histogram"});
  aa::zero(values);
  aa::zero(histogram);

  // Rank r scatters value 1000 + i to slot(i) for its share of i (i = r, r + p, ...).
  std::vector<aa::Coord> where;
  std::vector<long> what;
  for (long i = me; i < n; i += p) {
    where.push_back({slot(i)});
    what.push_back(1000 + i);
  }
  values.scatter(where, what.data());
  // Every rank counts i % bins for all i < n: bins repeat, each occurrence adds one.
  std::vector<aa::Coord> hits;
  for (long i = 0; i < n; ++i) hits.push_back({i % bins});
  const std::vector<long> ones(hits.size(), 1);
  histogram.scatter_acc(hits, ones.data());
  aa::sync();

  // Gather the slots of the elements the next rank scattered.
  std::vector<aa::Coord> ask;
  std::vector<long> want;
  for (long i = (me + 1) % p; i < n; i += p) {
    ask.push_back({slot(i)});
    want.push_back(1000 + i);
  }
  std::vector<long> got(ask.size());
  values.gather(ask, got.data());
  long wrong = 0;
  for (std::size_t k = 0; k < got.size(); ++k) wrong += got[k] != want[k];
  const auto h = histogram.get({0}, {bins});
  for (long b = 0; b < bins; ++b) wrong += h[b] != p * ((n - b + bins - 1) / bins);
  rma::allreduce(std::span<long>(&wrong, 1), rma::ReduceOp::Sum);
  if (me == 0)
    std::printf("scatter_gather: %ld elements, %ld-bin histogram on %d ranks: %s\n", n, bins, p,
                wrong == 0 ? "correct" : "WRONG");
  values.destroy();
  histogram.destroy();
  return wrong == 0 ? 0 : 1;
}
