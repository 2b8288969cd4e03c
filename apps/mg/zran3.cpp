#include "zran3.hpp"

#include <algorithm>
#include <functional>

#include "armada/apps/npb_random.hpp"
#include "classes.hpp"

namespace armada::mg {
namespace ap = armada::apps;

void zran3_row(Index n, Index z, Index y, Index x, Index count, double* out) {
  // The seed before point (z, y, x): skip its linear index at once (a^index), then generate.
  double seed = zran3_seed;
  ap::randlc(seed, ap::npb_power(ap::npb_multiplier, x + n * (y + n * z)));
  ap::vranlc(static_cast<long>(count), seed, ap::npb_multiplier, out);
}

namespace {

// The `keep` best (value, index) pairs under `better`, best first; values are distinct
// (the generator's states do not repeat within 2^44 numbers).
template <class Better>
struct Best {
  std::vector<std::pair<double, Index>> items;
  Better better;
  std::size_t keep;
  void offer(double value, Index index) {
    if (items.size() == keep && !better(value, items.back().first)) return;
    auto at = std::find_if(items.begin(), items.end(), [&](const auto& p) { return better(value, p.first); });
    items.insert(at, {value, index});
    if (items.size() > keep) items.pop_back();
  }
};

}  // namespace

std::vector<Charge> zran3_charges(const LevelLayout& layout, MPI_Comm comm) {
  const auto keep = static_cast<std::size_t>(zran3_charge_count);
  Best<std::greater<double>> largest{{}, {}, keep};
  Best<std::less<double>> smallest{{}, {}, keep};
  int me = 0;
  MPI_Comm_rank(comm, &me);
  Dim3<Index> lo, hi;
  layout.block(me, lo, hi);
  const Index n = layout.n;
  std::vector<double> row(static_cast<std::size_t>(std::max<Index>(hi[2] - lo[2], 0)));
  if (lo != hi)
    for (Index z = lo[0]; z < hi[0]; ++z)
      for (Index y = lo[1]; y < hi[1]; ++y) {
        zran3_row(n, z, y, lo[2], hi[2] - lo[2], row.data());
        for (Index x = lo[2]; x < hi[2]; ++x) {
          const double value = row[static_cast<std::size_t>(x - lo[2])];
          const Index index = x + n * (y + n * z);
          largest.offer(value, index);
          smallest.offer(value, index);
        }
      }

  // Every rank's candidates (padded with index -1), then the global best of each kind.
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<double> values(2 * keep, 0.0), all_values(values.size() * static_cast<std::size_t>(size));
  std::vector<long long> indices(2 * keep, -1), all_indices(all_values.size());
  for (std::size_t i = 0; i < largest.items.size(); ++i) std::tie(values[i], indices[i]) = largest.items[i];
  for (std::size_t i = 0; i < smallest.items.size(); ++i)
    std::tie(values[keep + i], indices[keep + i]) = smallest.items[i];
  MPI_Allgather(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, all_values.data(),
                static_cast<int>(values.size()), MPI_DOUBLE, comm);
  MPI_Allgather(indices.data(), static_cast<int>(indices.size()), MPI_LONG_LONG, all_indices.data(),
                static_cast<int>(indices.size()), MPI_LONG_LONG, comm);
  Best<std::greater<double>> global_largest{{}, {}, keep};
  Best<std::less<double>> global_smallest{{}, {}, keep};
  for (int p = 0; p < size; ++p)
    for (std::size_t i = 0; i < 2 * keep; ++i) {
      const std::size_t at = static_cast<std::size_t>(p) * 2 * keep + i;
      if (all_indices[at] < 0) continue;
      if (i < keep) global_largest.offer(all_values[at], all_indices[at]);
      else global_smallest.offer(all_values[at], all_indices[at]);
    }
  std::vector<Charge> charges;
  for (const auto& [value, index] : global_smallest.items) charges.push_back({index, -1.0});
  for (const auto& [value, index] : global_largest.items) charges.push_back({index, +1.0});
  return charges;
}

void zran3(LevelArray& v, const LevelLayout& layout, HaloPlan& plan, Exchange& exchange, MPI_Comm comm) {
  const std::vector<Charge> charges = zran3_charges(layout, comm);
  zero(v.frame);
  if (!v.frame.empty()) {
    const Index n = layout.n;
    for (const Charge& c : charges) {
      const Index x = c.index % n, y = (c.index / n) % n, z = c.index / (n * n);
      if (z >= v.lo[0] && z < v.hi[0] && y >= v.lo[1] && y < v.hi[1] && x >= v.lo[2] && x < v.hi[2])
        v.frame.at(z - v.lo[0] + 1, y - v.lo[1] + 1, x - v.lo[2] + 1) = c.value;
    }
  }
  exchange.ghosts(v, plan);
}

}  // namespace armada::mg
