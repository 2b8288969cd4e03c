// Helpers of the HDF5 I/O tests: a directory every rank shares, and the values every test
// writes (a function of the global index, so any reader — another rank count, another
// distribution, h5py — knows what each element must be).
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "test_util.hpp"

namespace armada::arrays::test {

/// The value of element `g` of an array with `dims`, offset by `salt` (different arrays and
/// checkpoint steps hold different values). Exact in every type; complex parts differ.
template <class T>
T io_value(const Coord& g, const Coord& dims, long salt = 0) {
  Index linear = 0;
  for (int d = 0; d < dims.size(); ++d) linear = linear * dims[d] + g[d];
  return value<T>(static_cast<long>(linear % 9973) - 300 + salt);
}

/// Sets every owned element of `a` to io_value (local access, no communication), and its ghost
/// cells (when it has them) to a value that would show if a ghost cell reached the file.
template <class T>
void fill_io(GlobalArray<T>& a, long salt = 0) {
  if (a.distribution().cyclic()) {  // its blocks in place
    for (const LocalView<T>& v : a.access_blocks())
      Reference<T>::each(v.lo, v.hi, [&](const Coord& x, Index) { v[x] = io_value<T>(x, a.dims(), salt); });
    a.release_update();
    a.sync_group();
    return;
  }
  {  // the ghost frame first (the owned block is overwritten next)
    auto g = a.access_ghosts();
    Reference<T>::each(g.lo, g.hi, [&](const Coord& x, Index) { g[x] = value<T>(-77777); });
  }
  auto v = a.access();
  Reference<T>::each(v.lo, v.hi, [&](const Coord& x, Index) { v[x] = io_value<T>(x, a.dims(), salt); });
  a.sync_group();
}

/// Every element of `a` equals io_value of element `origin` + g of an array with `file_dims`.
/// Every rank checks the whole array (the arrays of these tests are small).
template <class T>
void expect_io_values(const GlobalArray<T>& a, const Coord& file_dims, const Coord& origin, long salt = 0) {
  const Coord lo = Coord::filled(a.ndim(), 0);
  const std::vector<T> got = a.get(lo, a.dims());
  int bad = 0;
  Reference<T>::each(lo, a.dims(), [&](const Coord& g, Index pos) {
    Coord f = g;
    for (int d = 0; d < g.size(); ++d) f[d] += origin[d];
    const T want = io_value<T>(f, file_dims, salt);
    if (got[static_cast<std::size_t>(pos)] != want && bad++ < 5)
      ADD_FAILURE() << "element " << g.str() << " of '" << a.name() << "' is wrong (file index " << f.str() << ")";
  });
  EXPECT_EQ(bad, 0) << bad << " wrong elements in '" << a.name() << "'";
}

/// A fresh directory under $TMPDIR (or /tmp) made by world rank 0, known to every rank; removed
/// with its contents on destruction. Collective over the world.
class SharedDir {
 public:
  SharedDir() {
    std::string name;
    if (rma::rank() == 0) {
      const char* base = getenv("TMPDIR");
      std::string templ = std::string(base && *base ? base : "/tmp") + "/armada-io-XXXXXX";
      if (!mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
      name = templ;
    }
    std::uint64_t n = name.size();
    rma::broadcast(&n, sizeof n, 0);
    name.resize(n);
    rma::broadcast(name.data(), n, 0);
    path_ = name;
  }
  ~SharedDir() {
    rma::barrier();
    if (rma::rank() == 0) {
      std::error_code ec;
      std::filesystem::remove_all(path_, ec);
    }
  }
  std::string operator/(const std::string& file) const { return path_ + "/" + file; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The file names in `dir`, sorted.
inline std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> v;
  for (const auto& e : std::filesystem::directory_iterator(dir)) v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace armada::arrays::test
