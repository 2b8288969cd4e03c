#include "npb_cg.hpp"

#include <algorithm>
#include <cmath>

#include "armada/apps/npb_random.hpp"

namespace armada::apps::cg {

const CgClass* find_cg_class(char letter) {
  for (const CgClass& c : cg_classes)
    if (c.name == letter) return &c;
  return nullptr;
}

std::string cg_class_letters() {
  std::string s;
  for (const CgClass& c : cg_classes) s += c.name;
  return s;
}

namespace {

// One random sparse vector of n entries (1-based positions): `nonzer` distinct random
// positions with random values (NPB's sprnvc), then position `i` set to 0.5 (NPB's vecset).
struct SparseVector {
  std::vector<double> value;
  std::vector<long> position;
};

void random_sparse_vector(long n, int nonzer, long nn1, double& seed, SparseVector& v) {
  v.value.clear();
  v.position.clear();
  while (static_cast<int>(v.position.size()) < nonzer) {
    const double value = randlc(seed, npb_multiplier);
    const double where = randlc(seed, npb_multiplier);
    const long pos = static_cast<long>(static_cast<double>(nn1) * where) + 1;
    if (pos > n || std::find(v.position.begin(), v.position.end(), pos) != v.position.end()) continue;
    v.value.push_back(value);
    v.position.push_back(pos);
  }
}

void set_entry(SparseVector& v, long pos, double value) {
  bool found = false;
  for (std::size_t k = 0; k < v.position.size(); ++k)
    if (v.position[k] == pos) {
      v.value[k] = value;
      found = true;
    }
  if (!found) {
    v.value.push_back(value);
    v.position.push_back(pos);
  }
}

}  // namespace

std::vector<arrays::Triplet<double>> make_cg_matrix(const CgClass& c, long row_begin, long row_end) {
  const long n = c.na;
  long nn1 = 1;
  do nn1 *= 2; while (nn1 < n);
  double seed = cg_seed;
  (void)randlc(seed, npb_multiplier);  // NPB draws one number (its initial zeta) before makea
  const double ratio = std::pow(cg_rcond, 1.0 / static_cast<double>(n));
  double size = 1.0;
  std::vector<arrays::Triplet<double>> out;
  out.reserve(static_cast<std::size_t>((row_end - row_begin) * (c.nonzer + 1) * (c.nonzer + 1)));
  SparseVector v;
  for (long i = 1; i <= n; ++i) {
    random_sparse_vector(n, c.nonzer, nn1, seed, v);
    set_entry(v, i, 0.5);
    for (std::size_t a = 0; a < v.position.size(); ++a) {
      const long row = v.position[a];
      if (row - 1 < row_begin || row - 1 >= row_end) continue;
      const double scale = size * v.value[a];
      for (std::size_t b = 0; b < v.position.size(); ++b) {
        const long col = v.position[b];
        double entry = v.value[b] * scale;
        if (col == row && row == i) entry = entry + cg_rcond - c.shift;
        out.push_back({row - 1, col - 1, entry});
      }
    }
    size *= ratio;
  }
  return out;
}

double cg_mops(const CgClass& c, double seconds) {
  const double per_row = static_cast<double>(c.nonzer) * (c.nonzer + 1);
  const double ops = 2.0 * c.niter * static_cast<double>(c.na) * (3.0 + per_row + 25.0 * (5.0 + per_row) + 3.0);
  return seconds > 0 ? ops / seconds / 1e6 : 0.0;
}

}  // namespace armada::apps::cg
