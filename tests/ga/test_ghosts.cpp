// GA's ghost-cell entry points on Armada: NGA_Update_ghost_dir (every side of every dimension,
// with and without corners), GA_Set_ghost_corner_flag with GA_Update_ghosts, NGA_Update_ghosts_nb
// with NGA_NbWait, NGA_NbGet_ghost_dir(64) one region at a time, NGA_Access_ghost_element(64)
// with the release forms. Every cell of every process's block and ghost frame against the value
// its owner holds, wrapped around the edges (GA's updates are periodic).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ga.h"
#include "ga_test_util.hpp"

namespace {

using ga_test::name;

constexpr double sentinel = -777;

/// The value every owner writes at global C index g.
double owner_value(const std::vector<int>& g) {
  double v = 1;
  for (int x : g) v = v * 100 + x;
  return v;
}

/// This process's block of g_a with its ghost frame, as GA describes it.
struct Frame {
  int ndim = 0;
  std::vector<int> dims, lo, hi, width, ext;  // hi inclusive; ext: extents with ghosts
  double* base = nullptr;
  bool owns() const { return !lo.empty() && hi[0] >= lo[0]; }
  /// Per dimension -1 below the block, 0 inside, +1 above, for local (ghosted) index i.
  std::vector<int> sides(const std::vector<int>& i) const {
    std::vector<int> s(static_cast<size_t>(ndim));
    for (int d = 0; d < ndim; ++d) s[d] = i[d] < width[d] ? -1 : i[d] >= ext[d] - width[d] ? 1 : 0;
    return s;
  }
  /// The global index of local index i, wrapped into the array.
  std::vector<int> global(const std::vector<int>& i) const {
    std::vector<int> g(static_cast<size_t>(ndim));
    for (int d = 0; d < ndim; ++d) g[d] = ((lo[d] - width[d] + i[d]) % dims[d] + dims[d]) % dims[d];
    return g;
  }
  double& at(const std::vector<int>& i) const {
    long off = 0;
    for (int d = 0; d < ndim; ++d) off = off * ext[d] + i[d];
    return base[off];
  }
  /// Calls f(local index) over the whole ghosted block.
  void each(const std::function<void(const std::vector<int>&)>& f) const {
    if (!owns()) return;
    std::vector<int> i(static_cast<size_t>(ndim), 0);
    for (;;) {
      f(i);
      int d = ndim - 1;
      for (; d >= 0; --d) {
        if (++i[d] < ext[d]) break;
        i[d] = 0;
      }
      if (d < 0) return;
    }
  }
};

int outside(const std::vector<int>& s) {
  int n = 0;
  for (int x : s) n += x != 0;
  return n;
}

/// Accesses this process's frame of g (released at once: GA's access pointer stays valid).
Frame frame_of(int g, const std::vector<int>& dims, const std::vector<int>& width) {
  Frame f;
  f.ndim = static_cast<int>(dims.size());
  f.dims = dims;
  f.width = width;
  f.lo.assign(dims.size(), 0);
  f.hi.assign(dims.size(), -1);
  NGA_Distribution(g, GA_Nodeid(), f.lo.data(), f.hi.data());
  if (!f.owns()) return f;
  std::vector<int> gd(dims.size()), ld(dims.size());
  NGA_Access_ghosts(g, gd.data(), &f.base, ld.data());
  f.ext = gd;
  for (int d = 0; d < f.ndim; ++d) EXPECT_EQ(gd[d], f.hi[d] - f.lo[d] + 1 + 2 * width[d]) << "dims[" << d << "]";
  for (int d = 0; d + 1 < f.ndim; ++d) EXPECT_EQ(ld[d], gd[d + 1]) << "ld[" << d << "]";
  NGA_Release_update_ghosts(g);
  return f;
}

/// Owners' values in the blocks, the sentinel in every frame; synchronized.
void reset(const Frame& f, bool block_too) {
  f.each([&](const std::vector<int>& i) {
    if (outside(f.sides(i)))
      f.at(i) = sentinel;
    else if (block_too)
      f.at(i) = owner_value(f.global(i));
  });
}

/// Checks every cell: the block and the cells `filled` accepts hold their (wrapped) owner's
/// value, the rest of the frame the sentinel.
void expect_frame(const Frame& f, const std::function<bool(const std::vector<int>&)>& filled, const std::string& what) {
  long bad = 0;
  std::string first;
  f.each([&](const std::vector<int>& i) {
    const std::vector<int> s = f.sides(i);
    const double want = outside(s) == 0 || filled(s) ? owner_value(f.global(i)) : sentinel;
    if (f.at(i) != want && bad++ == 0) first = std::to_string(f.at(i)) + " instead of " + std::to_string(want);
  });
  EXPECT_EQ(bad, 0) << "process " << GA_Nodeid() << ", " << what << ": first wrong cell " << first;
}

struct Shape {
  std::vector<int> dims, width;
};

/// A 2-D array with uneven irregular blocks and a 3-D one, ghost widths above 1.
std::vector<std::pair<Shape, int>> arrays_under_test() {
  const int p = GA_Nnodes();
  std::vector<std::pair<Shape, int>> out;
  {
    Shape s{{9, 12}, {2, 3}};
    std::vector<int> map{0};
    int block[2] = {1, 1};
    if (p >= 2) { block[0] = 2; map.push_back(2); }
    map.push_back(0);
    if (p >= 4) { block[1] = 2; map.push_back(7); }
    const int g = NGA_Create_ghosts_irreg(C_DBL, 2, s.dims.data(), s.width.data(), name("g2"), block, map.data());
    out.emplace_back(s, g);
  }
  {
    Shape s{{5, 6, 7}, {1, 2, 1}};
    const int g = NGA_Create_ghosts(C_DBL, 3, s.dims.data(), s.width.data(), name("g3"), nullptr);
    out.emplace_back(s, g);
  }
  return out;
}

/// Runs body(g, frame) on each array under test, its blocks holding the owners' values and its
/// frames the sentinel, then destroys it.
template <class F>
void on_each_array(F&& body) {
  for (const auto& [shape, handle] : arrays_under_test()) {
    const Frame f = frame_of(handle, shape.dims, shape.width);
    reset(f, true);
    GA_Sync();
    body(handle, f);
    GA_Destroy(handle);
  }
}

TEST(GaGhosts, UpdateGhostDirEverySideWithAndWithoutCorners) {
  on_each_array([](int g, const Frame& f) {
    for (int cflag : {0, 1})
      for (int dim = 0; dim < f.ndim; ++dim)
        for (int dir : {-1, 1}) {
          reset(f, false);
          EXPECT_EQ(NGA_Update_ghost_dir(g, dim, dir, cflag), 1);
          expect_frame(f, [&](const std::vector<int>& s) { return s[dim] == dir && (cflag || outside(s) == 1); },
                       std::to_string(f.ndim) + "-D, dimension " + std::to_string(dim) + ", idir " +
                           std::to_string(dir) + ", cflag " + std::to_string(cflag));
        }
    // GA's documented equivalent of GA_Update_ghosts: corners on every dimension but the last.
    reset(f, false);
    for (int dim = 0; dim < f.ndim; ++dim)
      for (int dir : {-1, 1}) NGA_Update_ghost_dir(g, dim, dir, dim + 1 < f.ndim);
    expect_frame(f, [](const std::vector<int>&) { return true; }, "every side");
  });
}

TEST(GaGhosts, CornerFlagDecidesWhatUpdateGhostsFills) {
  on_each_array([](int g, const Frame& f) {
    GA_Set_ghost_corner_flag(g, 0);
    GA_Update_ghosts(g);
    expect_frame(f, [](const std::vector<int>& s) { return outside(s) == 1; }, "corner flag 0");
    reset(f, false);
    NGA_Update_ghosts(g);
    expect_frame(f, [](const std::vector<int>& s) { return outside(s) == 1; }, "corner flag 0, NGA_Update_ghosts");
    GA_Set_ghost_corner_flag(g, 1);
    reset(f, false);
    GA_Update_ghosts(g);
    expect_frame(f, [](const std::vector<int>&) { return true; }, "corner flag 1");
  });
  // The flag set on a planned handle holds for the allocated array.
  int dims[2] = {6, 8}, width[2] = {1, 2};
  const int h = GA_Create_handle();
  NGA_Set_data(h, 2, dims, C_DBL);
  GA_Set_ghosts(h, width);
  GA_Set_ghost_corner_flag(h, 0);
  ASSERT_EQ(GA_Allocate(h), 1);
  const Frame f = frame_of(h, {6, 8}, {1, 2});
  reset(f, true);
  GA_Update_ghosts(h);
  expect_frame(f, [](const std::vector<int>& s) { return outside(s) == 1; }, "flag set before GA_Allocate");
  GA_Destroy(h);
}

TEST(GaGhosts, NonblockingUpdateWithWorkInBetween) {
  on_each_array([](int g, const Frame& f) {
    for (int corners : {1, 0}) {
      reset(f, false);
      GA_Set_ghost_corner_flag(g, corners);
      ga_nbhdl_t h;
      NGA_Update_ghosts_nb(g, &h);
      // Local work on the block while the ghost cells arrive: read it, sum it.
      double sum = 0, want = 0;
      f.each([&](const std::vector<int>& i) {
        if (outside(f.sides(i)) == 0) {
          sum += f.at(i);
          want += owner_value(f.global(i));
        }
      });
      EXPECT_EQ(sum, want);
      NGA_NbWait(&h);
      EXPECT_EQ(NGA_NbTest(&h), 1);  // complete (GA 5.8: 1 complete, 0 outstanding)
      expect_frame(f, [&](const std::vector<int>& s) { return corners || outside(s) == 1; },
                   std::string("nonblocking, corners ") + std::to_string(corners));
      GA_Sync();  // every process has its copies: blocks may change again
    }
  });
}

TEST(GaGhosts, NbGetGhostDirOneRegionAtATime) {
  on_each_array([](int g, const Frame& f) {
    int total = 1;
    for (int d = 0; d < f.ndim; ++d) total *= 3;
    for (int r = 0; r < total; ++r) {
      std::vector<int> mask(static_cast<size_t>(f.ndim));
      std::vector<int64_t> mask64(mask.size());
      for (int d = f.ndim - 1, code = r; d >= 0; --d, code /= 3) mask64[d] = mask[d] = code % 3 - 1;
      for (bool wide : {false, true}) {
        reset(f, false);  // local: the region gets are not collective
        ga_nbhdl_t h;
        if (wide)
          NGA_NbGet_ghost_dir64(g, mask64.data(), &h);
        else
          NGA_NbGet_ghost_dir(g, mask.data(), &h);
        NGA_NbWait(&h);
        expect_frame(f, [&](const std::vector<int>& s) { return s == mask; },
                     "region " + std::to_string(r) + (wide ? " (64)" : ""));
      }
    }
    GA_Sync();
  });
}

TEST(GaGhosts, AccessGhostElementAndRelease) {
  on_each_array([](int g, const Frame& f) {
    GA_Update_ghosts(g);
    long wrong = 0;
    f.each([&](const std::vector<int>& i) {
      double* p = nullptr;
      double* p64 = nullptr;
      std::vector<int> sub(i), ld(static_cast<size_t>(f.ndim));
      std::vector<int64_t> sub64(i.begin(), i.end()), ld64(static_cast<size_t>(f.ndim));
      NGA_Access_ghost_element(g, &p, sub.data(), ld.data());
      NGA_Access_ghost_element64(g, &p64, sub64.data(), ld64.data());
      wrong += p != &f.at(i) || p64 != p || *p != owner_value(f.global(i));
      for (int d = 0; d + 1 < f.ndim; ++d) wrong += ld[d] != f.ext[d + 1] || ld64[d] != f.ext[d + 1];
      NGA_Release_ghost_element(g, sub.data());
      NGA_Release_ghost_element64(g, sub64.data());
    });
    EXPECT_EQ(wrong, 0) << "element pointers, values or ld";
    // A store through the element pointer is the block's (the first owned element).
    if (f.owns()) {
      double* p = nullptr;
      std::vector<int> sub(f.width), ld(static_cast<size_t>(f.ndim));
      std::vector<int64_t> sub64(sub.begin(), sub.end());
      NGA_Access_ghost_element(g, &p, sub.data(), ld.data());
      *p = -1.5;
      NGA_Release_update_ghost_element(g, sub.data());
      NGA_Access_ghost_element64(g, &p, sub64.data(), nullptr);
      NGA_Release_update_ghost_element64(g, sub64.data());
    }
    GA_Sync();
    if (f.owns()) {
      std::vector<int> first(f.lo);
      double x = 0;
      std::vector<int> one(static_cast<size_t>(f.ndim), 1);
      NGA_Get(g, first.data(), first.data(), &x, one.data());
      EXPECT_EQ(x, -1.5);
    }
    GA_Sync();
  });
}

}  // namespace
