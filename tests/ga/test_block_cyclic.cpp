// GA's block-cyclic arrays on Armada (GA_Set_block_cyclic, GA_Set_block_cyclic_proc_grid,
// GA_Set_tiled_proc_grid): the
// block queries against GA's numbering (as Debian's GA 5.8.2 answers them), patch operations of
// every element type on 1-, 2- and 3-d arrays with cut edge blocks against a serial model, the
// nonblocking, strided and periodic forms, local access of blocks, and the collective operations
// against the same operations on regular arrays.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "ga.h"
#include "ga_test_util.hpp"

namespace {

using ga_test::name;

/// A square-ish process grid of `ndim` dimensions whose product is the number of processes.
std::vector<int> grid_for(int ndim) {
  const int np = GA_Nnodes();
  std::vector<int> g(static_cast<size_t>(ndim), 1);
  int rest = np, d = 0;
  for (int f = 2; rest > 1;) {
    if (rest % f == 0) {
      g[static_cast<size_t>(d % ndim)] *= f;
      rest /= f;
      ++d;
    } else {
      ++f;
    }
  }
  return g;
}

enum Layout { simple, proc_grid, tiled };
const Layout layouts[] = {simple, proc_grid, tiled};
const char* const layout_names[] = {"simple", "proc grid", "tiled"};

/// A block-cyclic array made in steps, as GA programs make them.
int make_cyclic(int type, std::vector<int> dims, std::vector<int> block, Layout layout, const char* label = "bc") {
  const int g = GA_Create_handle();
  NGA_Set_data(g, static_cast<int>(dims.size()), dims.data(), type);
  NGA_Set_array_name(g, name(label));
  std::vector<int> grid = grid_for(static_cast<int>(dims.size()));
  if (layout == proc_grid) {
    NGA_Set_block_cyclic_proc_grid(g, block.data(), grid.data());
  } else if (layout == tiled) {
    NGA_Set_tiled_proc_grid(g, block.data(), grid.data());
  } else {
    NGA_Set_block_cyclic(g, block.data());
  }
  EXPECT_EQ(GA_Allocate(g), 1);
  return g;
}

struct Shape {
  std::vector<int> dims, block;
};
const std::vector<Shape> shapes = {
    {{13}, {4}}, {{7, 6}, {3, 2}}, {{10, 9}, {4, 5}}, {{5, 9, 4}, {2, 4, 3}}, {{3, 2}, {5, 5}}};

long elements(const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 1L, std::multiplies<>()); }

template <class T>
T value(long i) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return T(static_cast<typename T::value_type>(i % 31 - 7), static_cast<typename T::value_type>(i % 5));
  else
    return static_cast<T>(i % 53 - 11);
}

/// Buffer of patch [lo, hi] with every extent of dimensions 1.. widened by `pad` (GA's ld).
struct Buffer {
  std::vector<int> ld;
  long size = 1;
};
Buffer buffer_for(const std::vector<int>& lo, const std::vector<int>& hi, int pad) {
  Buffer b;
  for (size_t d = 0; d < lo.size(); ++d) {
    const int ext = hi[d] - lo[d] + 1 + (d > 0 ? pad : 0);
    if (d > 0) b.ld.push_back(ext);
    b.size *= ext;
  }
  return b;
}

/// Calls f(global linear index, buffer offset) for every element of patch [lo, hi].
template <class F>
void each(const std::vector<int>& dims, const std::vector<int>& lo, const std::vector<int>& hi, const Buffer& b, F&& f) {
  const size_t n = dims.size();
  std::vector<int> at = lo;
  for (;;) {
    long g = 0, o = 0;
    for (size_t d = 0; d < n; ++d) {
      g = g * dims[d] + at[d];
      o = d == 0 ? at[d] - lo[d] : o * b.ld[d - 1] + (at[d] - lo[d]);
    }
    f(g, o);
    int d = static_cast<int>(n) - 1;
    while (d >= 0 && at[static_cast<size_t>(d)] == hi[static_cast<size_t>(d)]) at[static_cast<size_t>(d)] = lo[static_cast<size_t>(d)], --d;
    if (d < 0) return;
    ++at[static_cast<size_t>(d)];
  }
}

template <class T>
void expect_whole(int g, const Shape& s, const std::vector<T>& model, const char* what) {
  std::vector<int> lo(s.dims.size(), 0), hi = s.dims;
  for (int& h : hi) --h;
  Buffer b = buffer_for(lo, hi, 0);
  std::vector<T> got(static_cast<size_t>(b.size));
  NGA_Get(g, lo.data(), hi.data(), got.data(), b.ld.empty() ? nullptr : b.ld.data());
  long bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += got[i] != model[i];
  EXPECT_EQ(bad, 0) << what << " (rank " << GA_Nodeid() << ")";
}

template <class T>
void put_get_acc(int type) {
  const int np = GA_Nnodes(), me = GA_Nodeid();
  for (Layout layout : layouts)
    for (const Shape& s : shapes) {
      const int g = make_cyclic(type, s.dims, s.block, layout);
      GA_Zero(g);
      std::vector<T> model(static_cast<size_t>(elements(s.dims)));
      // Process 0 puts the whole array.
      std::vector<int> lo(s.dims.size(), 0), hi = s.dims;
      for (int& h : hi) --h;
      Buffer whole = buffer_for(lo, hi, 0);
      std::vector<T> buf(static_cast<size_t>(whole.size));
      each(s.dims, lo, hi, whole, [&](long gi, long o) { buf[o] = model[gi] = value<T>(gi); });
      if (me == 0) NGA_Put(g, lo.data(), hi.data(), buf.data(), whole.ld.empty() ? nullptr : whole.ld.data());
      GA_Sync();
      expect_whole(g, s, model, "put of the whole array");
      // An inner patch: the last process puts, every process accumulates twice, through ld > extent.
      std::vector<int> plo = lo, phi = hi;
      for (size_t d = 0; d < plo.size(); ++d) plo[d] = s.dims[d] > 2 ? 1 : 0, phi[d] = s.dims[d] > 3 ? s.dims[d] - 2 : s.dims[d] - 1;
      Buffer pb = buffer_for(plo, phi, 3);
      std::vector<T> pbuf(static_cast<size_t>(pb.size), T(99));
      each(s.dims, plo, phi, pb, [&](long gi, long o) { pbuf[o] = value<T>(gi + 5); });
      GA_Sync();
      if (me == np - 1) NGA_Put(g, plo.data(), phi.data(), pbuf.data(), pb.ld.empty() ? nullptr : pb.ld.data());
      each(s.dims, plo, phi, pb, [&](long gi, long) { model[gi] = value<T>(gi + 5); });
      GA_Sync();
      T two = T(2);
      NGA_Acc(g, plo.data(), phi.data(), pbuf.data(), pb.ld.empty() ? nullptr : pb.ld.data(), &two);
      each(s.dims, plo, phi, pb, [&](long gi, long o) { model[gi] += T(2) * T(static_cast<float>(np)) * pbuf[o]; });
      GA_Sync();
      expect_whole(g, s, model, layout_names[layout]);
      // Every process reads the inner patch through its wide ld.
      std::vector<T> got(static_cast<size_t>(pb.size), T(-1));
      NGA_Get(g, plo.data(), phi.data(), got.data(), pb.ld.empty() ? nullptr : pb.ld.data());
      long bad = 0;
      each(s.dims, plo, phi, pb, [&](long gi, long o) { bad += got[o] != model[gi]; });
      EXPECT_EQ(bad, 0) << "patch get through ld";
      GA_Destroy(g);
    }
}

TEST(GaBlockCyclic, PutGetAccOfEveryTypeAndShape) {
  put_get_acc<int>(C_INT);
  put_get_acc<long>(C_LONG);
  put_get_acc<float>(C_FLOAT);
  put_get_acc<double>(C_DBL);
  put_get_acc<std::complex<float>>(C_SCPL);
  put_get_acc<std::complex<double>>(C_DCPL);
}

// What Debian's GA 5.8.2 answers for a 7 x 6 array of 3 x 2 blocks (both layouts): blocks
// numbered row-major over the 3 x 3 block grid; NGA_Distribution and NGA_Locate count blocks.
TEST(GaBlockCyclic, QueriesAsGaNumbersBlocks) {
  for (Layout layout : layouts) {
    const bool grid = layout != simple;
    const int g = make_cyclic(C_INT, {7, 6}, {3, 2}, layout);
    EXPECT_EQ(GA_Total_blocks(g), 9);
    EXPECT_EQ(GA_Uses_proc_grid(g), grid ? 1 : 0);
    int nb[2], bd[2];
    NGA_Get_block_info(g, nb, bd);
    EXPECT_EQ(nb[0], 3);
    EXPECT_EQ(nb[1], 3);
    EXPECT_EQ(bd[0], 3);
    EXPECT_EQ(bd[1], 2);
    NGA_Nblock(g, nb);
    EXPECT_EQ(nb[0], 3);
    for (int b = 0; b < 9; ++b) {
      int lo[2], hi[2];
      NGA_Distribution(g, b, lo, hi);
      EXPECT_EQ(lo[0], (b / 3) * 3);
      EXPECT_EQ(hi[0], std::min(6, (b / 3) * 3 + 2));
      EXPECT_EQ(lo[1], (b % 3) * 2);
      EXPECT_EQ(hi[1], (b % 3) * 2 + 1);
      EXPECT_EQ(NGA_Locate(g, lo), b);
    }
    int lo[2] = {1, 1}, hi[2] = {4, 4}, map[24], procs[6];
    EXPECT_EQ(NGA_Locate_num_blocks(g, lo, hi), 6);
    ASSERT_EQ(NGA_Locate_region(g, lo, hi, map, procs), 6);
    const int expect[6][4] = {{1, 1, 2, 1}, {1, 2, 2, 3}, {1, 4, 2, 4}, {3, 1, 4, 1}, {3, 2, 4, 3}, {3, 4, 4, 4}};
    for (int k = 0; k < 6; ++k) {
      EXPECT_EQ(procs[k], k);
      for (int e = 0; e < 4; ++e) EXPECT_EQ(map[4 * k + e], expect[k][e]) << "block " << k;
    }
    ga_test::expect_shape(g, C_INT, {7, 6});
    EXPECT_EQ(GA_Ndim(g), 2);
    EXPECT_EQ(GA_Get_dimension(g), 2);
    EXPECT_EQ(GA_Has_ghosts(g), 0);
    EXPECT_EQ(std::string(GA_Inquire_name(g)), "bc");
    EXPECT_EQ(GA_Valid_handle(g), 1);
    EXPECT_EQ(NGA_Get_pgroup(g), GA_Pgroup_get_world());
    const int d = GA_Duplicate(g, name("dup"));
    EXPECT_EQ(GA_Total_blocks(d), 9);
    EXPECT_EQ(GA_Uses_proc_grid(d), grid ? 1 : 0);
    EXPECT_EQ(std::string(GA_Inquire_name(d)), "dup");
    GA_Destroy(d);
    EXPECT_EQ(GA_Valid_handle(d), 0);
    GA_Destroy(g);
  }
  // 3-d: the last block is 1 x 1 x 1; block 5 is {0, 2, 1}.
  const int g = make_cyclic(C_DBL, {5, 9, 4}, {2, 4, 3}, simple);
  int lo[3], hi[3];
  NGA_Distribution(g, 17, lo, hi);
  EXPECT_EQ(lo[0], 4);
  EXPECT_EQ(hi[2], 3);
  NGA_Distribution(g, 5, lo, hi);
  EXPECT_EQ(lo[0], 0);
  EXPECT_EQ(hi[0], 1);
  EXPECT_EQ(lo[1], 8);
  EXPECT_EQ(lo[2], 3);
  EXPECT_EQ(GA_Total_blocks(g), 18);
  GA_Destroy(g);
  // Regular arrays: GA's -1 and 0, and NGA_Nblock the process grid in C order.
  int rd[2] = {6, 4};
  const int r = NGA_Create(C_DBL, 2, rd, name("regular"), nullptr);
  EXPECT_EQ(GA_Total_blocks(r), -1);
  EXPECT_EQ(GA_Uses_proc_grid(r), 0);
  int rl[2] = {0, 0}, rh[2] = {5, 3};
  EXPECT_EQ(NGA_Locate_num_blocks(r, rl, rh), -1);
  GA_Destroy(r);
}

/// The model of a 2-d double array, value(i * n + j).
std::vector<double> filled(int g, int m, int n) {
  ga_test::put_whole(g, m, n, [](int i, int j) { return static_cast<double>((i * 7 + j * 3) % 17 - 5); });
  std::vector<double> v(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) v[static_cast<size_t>(i) * n + j] = static_cast<double>((i * 7 + j * 3) % 17 - 5);
  return v;
}

TEST(GaBlockCyclic, NonblockingStridedAndPeriodic) {
  const int m = 11, n = 9, me = GA_Nodeid();
  for (Layout layout : layouts) {
    const int g = make_cyclic(C_DBL, {m, n}, {3, 4}, layout);
    std::vector<double> model = filled(g, m, n);
    // Nonblocking get, polled with NGA_NbTest until complete; put and acc waited.
    int lo[2] = {1, 2}, hi[2] = {9, 8}, ld[1] = {7};
    std::vector<double> got(9 * 7);
    ga_nbhdl_t h;
    NGA_NbGet(g, lo, hi, got.data(), ld, &h);
    while (!NGA_NbTest(&h)) {
    }
    long bad = 0;
    for (int i = 1; i <= 9; ++i)
      for (int j = 2; j <= 8; ++j) bad += got[(i - 1) * 7 + (j - 2)] != model[i * n + j];
    EXPECT_EQ(bad, 0);
    GA_Sync();
    if (me == 0) {
      NGA_NbPut(g, lo, hi, got.data(), ld, &h);  // the same values
      NGA_NbWait(&h);
    }
    GA_Sync();
    double one = 1;
    NGA_NbAcc(g, lo, hi, got.data(), ld, &one, &h);
    NGA_NbWait(&h);
    GA_Sync();
    for (int i = 1; i <= 9; ++i)
      for (int j = 2; j <= 8; ++j) model[i * n + j] += GA_Nnodes() * model[i * n + j];
    EXPECT_EQ(ga_test::whole(g, m, n), model);
    // Strided: every 2nd row and 3rd column of [0..10] x [1..8].
    int slo[2] = {0, 1}, shi[2] = {10, 8}, skip[2] = {2, 3}, sld[1] = {3};
    std::vector<double> s(6 * 3);
    NGA_Strided_get(g, slo, shi, skip, s.data(), sld);
    bad = 0;
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 3; ++b) bad += s[a * 3 + b] != model[(2 * a) * n + 1 + 3 * b];
    EXPECT_EQ(bad, 0);
    GA_Sync();
    for (double& x : s) x = 100;
    if (me == 0) NGA_Strided_put(g, slo, shi, skip, s.data(), sld);
    GA_Sync();
    NGA_Strided_acc(g, slo, shi, skip, s.data(), sld, &one);
    GA_Sync();
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 3; ++b) model[(2 * a) * n + 1 + 3 * b] = 100.0 * (1 + GA_Nnodes());
    EXPECT_EQ(ga_test::whole(g, m, n), model);
    // Periodic: rows 8 .. 13 (wrapping to 0 .. 2) and columns -2 .. 3.
    int plo[2] = {8, -2}, phi[2] = {13, 3}, pld[1] = {6};
    std::vector<double> p(6 * 6);
    NGA_Periodic_get(g, plo, phi, p.data(), pld);
    bad = 0;
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b) bad += p[a * 6 + b] != model[((8 + a) % m) * n + ((b - 2 + n) % n)];
    EXPECT_EQ(bad, 0);
    GA_Sync();
    if (me == 0) NGA_Periodic_acc(g, plo, phi, p.data(), pld, &one);
    GA_Sync();
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b) model[((8 + a) % m) * n + ((b - 2 + n) % n)] *= 2;
    EXPECT_EQ(ga_test::whole(g, m, n), model);
    GA_Destroy(g);
  }
}

TEST(GaBlockCyclic, LocalAccessOfOwnBlocks) {
  const int m = 10, n = 7, me = GA_Nodeid(), np = GA_Nnodes();
  for (Layout layout : layouts) {
    const bool grid = layout != simple;
    const int g = make_cyclic(C_DBL, {m, n}, {3, 2}, layout);
    std::vector<double> model = filled(g, m, n);
    long seen = 0, bad = 0;
    for (int b = 0; b < GA_Total_blocks(g); ++b) {
      int lo[2], hi[2];
      NGA_Distribution(g, b, lo, hi);
      const int owner = grid ? ((b / 4) % grid_for(2)[0]) * grid_for(2)[1] + (b % 4) % grid_for(2)[1] : b % np;
      if (owner != me) continue;
      double* p = nullptr;
      int ld[1];
      NGA_Access_block(g, b, &p, ld);
      for (int i = lo[0]; i <= hi[0]; ++i)
        for (int j = lo[1]; j <= hi[1]; ++j) {
          bad += p[(i - lo[0]) * ld[0] + (j - lo[1])] != model[i * n + j];
          p[(i - lo[0]) * ld[0] + (j - lo[1])] += 1000;
          ++seen;
        }
      NGA_Release_update_block(g, b);
      if (grid) {
        int index[2] = {b / 4, b % 4};
        double* q = nullptr;
        int64_t ld64[1];
        int64_t idx64[2] = {index[0], index[1]};
        NGA_Access_block_grid(g, index, &q, ld);
        EXPECT_EQ(q, p);
        NGA_Release_block_grid(g, index);
        NGA_Access_block_grid64(g, idx64, &q, ld64);
        EXPECT_EQ(ld64[0], ld[0]);
        NGA_Release_block_grid(g, index);
      }
    }
    EXPECT_EQ(bad, 0);
    long total = seen;
    GA_Lgop(&total, 1, const_cast<char*>("+"));
    EXPECT_EQ(total, m * n);
    GA_Sync();
    for (double& x : model) x += 1000;
    EXPECT_EQ(ga_test::whole(g, m, n), model);
    if (layout == proc_grid) {  // ScaLAPACK's local matrix, as GA's segment
      double* seg = nullptr;
      int len = 0;
      NGA_Access_block_segment(g, me, &seg, &len);
      long sum = len, all = 0;
      GA_Lgop(&sum, 1, const_cast<char*>("+"));
      EXPECT_EQ(sum, m * n);
      for (int k = 0; k < len; ++k) all += seg[k] >= 1000 - 5;
      EXPECT_EQ(all, len);
      NGA_Release_block_segment(g, me);
    }
    GA_Destroy(g);
  }
  // The simple layout's segment when no block is cut: GA's blocks one after another.
  for (Layout layout : {simple, tiled}) {
  const int g = make_cyclic(C_INT, {4, 6}, {2, 3}, layout);
  GA_Zero(g);
  int* seg = nullptr;
  int len = 0;
  NGA_Access_block_segment(g, me, &seg, &len);
  long all = len;
  GA_Lgop(&all, 1, const_cast<char*>("+"));
  EXPECT_EQ(all, 24);
  if (layout == simple) {
    int mine = 0;
    for (int b = me; b < 4; b += np) ++mine;
    EXPECT_EQ(len, mine * 6);
  }
  NGA_Release_block_segment(g, me);
  GA_Destroy(g);
  }
}

/// Runs op on regular arrays and on block-cyclic arrays of both layouts holding the same values,
/// and compares every array afterwards.
template <class Op>
void same_as_regular(const char* what, int m, int n, Op&& op) {
  std::vector<std::vector<double>> results;
  for (int layout = 0; layout < 4; ++layout) {
    int dims[2] = {m, n};
    int h[3];
    for (int k = 0; k < 3; ++k) {
      const char* label = k == 0 ? "A" : k == 1 ? "B" : "C";
      h[k] = layout == 0 ? NGA_Create(C_DBL, 2, dims, name(label), nullptr)
                         : make_cyclic(C_DBL, {m, n}, {3, 2}, layouts[layout - 1], label);
      ga_test::put_whole(h[k], m, n, [](int i, int j) { return static_cast<double>((i * 5 + j * 3) % 11 - 4); });
    }
    GA_Scale(h[1], std::array<double, 1>{0.5}.data());
    const double scalar = op(h[0], h[1], h[2]);
    std::vector<double> all{scalar};
    for (int k = 0; k < 3; ++k)
      for (double x : ga_test::whole(h[k], m, n)) all.push_back(x);
    results.push_back(all);
    for (int k = 0; k < 3; ++k) GA_Destroy(h[k]);
  }
  EXPECT_EQ(results[1], results[0]) << what << ": simple layout";
  EXPECT_EQ(results[2], results[0]) << what << ": proc-grid layout";
  EXPECT_EQ(results[3], results[0]) << what << ": tiled layout";
}

TEST(GaBlockCyclic, CollectiveOperationsAsOnRegularArrays) {
  double one = 1, two = 2, minus = -1;
  same_as_regular("GA_Zero, GA_Fill", 7, 5, [&](int a, int b, int) {
    GA_Zero(a);
    GA_Fill(b, &two);
    return 0.0;
  });
  same_as_regular("GA_Add, GA_Ddot", 7, 5, [&](int a, int b, int c) {
    GA_Add(&one, a, &minus, b, c);
    return GA_Ddot(a, c);
  });
  same_as_regular("GA_Copy", 9, 4, [&](int a, int, int c) {
    GA_Copy(a, c);
    return 0.0;
  });
  same_as_regular("GA_Dgemm and NGA_Matmul_patch", 6, 6, [&](int a, int b, int c) {
    GA_Dgemm('N', 'T', 6, 6, 6, 1.0, a, b, 0.0, c);
    int lo[2] = {1, 0}, hi[2] = {4, 3}, blo[2] = {0, 2}, bhi[2] = {3, 5}, clo[2] = {2, 2}, chi[2] = {5, 5};
    NGA_Matmul_patch('N', 'N', &one, &one, a, lo, hi, b, blo, bhi, c, clo, chi);
    return 0.0;
  });
  same_as_regular("GA_Transpose, GA_Symmetrize", 5, 5, [&](int a, int b, int) {
    GA_Transpose(a, b);
    GA_Symmetrize(a);
    return 0.0;
  });
  same_as_regular("patch operations", 8, 7, [&](int a, int b, int c) {
    int lo[2] = {1, 2}, hi[2] = {6, 5}, lo2[2] = {2, 1}, hi2[2] = {7, 4};
    NGA_Scale_patch(a, lo, hi, &two);
    NGA_Fill_patch(b, lo2, hi2, &minus);
    NGA_Copy_patch('N', a, lo, hi, c, lo2, hi2);
    NGA_Add_patch(&one, a, lo, hi, &two, b, lo2, hi2, c, lo, hi);
    NGA_Zero_patch(a, lo2, hi2);
    GA_Abs_value_patch(c, lo, hi);
    GA_Elem_multiply(a, b, c);
    return NGA_Ddot_patch(a, 'N', lo, hi, c, 'T', lo, hi);
  });
  same_as_regular("copies between layouts", 7, 5, [&](int a, int, int) {
    int dims[2] = {7, 5};
    const int r = NGA_Create(C_DBL, 2, dims, name("r"), nullptr);
    const int s = make_cyclic(C_DBL, {7, 5}, {2, 4}, simple);
    GA_Copy(a, r);
    GA_Copy(r, s);
    GA_Scale(s, &two);
    GA_Copy(s, a);
    const double dot = GA_Ddot(r, s);
    GA_Destroy(r);
    GA_Destroy(s);
    return dot;
  });
}

// GA's element operations (NGA_Select_elem, NGA_Gather/NGA_Scatter/NGA_Scatter_acc in their list,
// flat and 64-bit forms) act on every block-cyclic layout as on a regular array.
TEST(GaBlockCyclic, ElementOperationsAsOnRegularArrays) {
  same_as_regular("NGA_Select_elem", 7, 6, [](int a, int b, int) {
    double top = 100, bottom = -100, hi = 0, lo = 0;
    int at_top[2] = {5, 4}, at_bottom[2] = {2, 3}, ihi[2] = {-1, -1}, ilo[2] = {-1, -1}, one[1] = {1};
    if (GA_Nodeid() == 0) {
      NGA_Put(a, at_top, at_top, &top, one);
      NGA_Put(b, at_bottom, at_bottom, &bottom, one);
    }
    GA_Sync();
    NGA_Select_elem(a, const_cast<char*>("max"), &hi, ihi);
    NGA_Select_elem(b, const_cast<char*>("min"), &lo, ilo);
    EXPECT_EQ(hi, 100);
    EXPECT_EQ(ihi[0] * 10 + ihi[1], 54);
    EXPECT_EQ(lo, -100);
    EXPECT_EQ(ilo[0] * 10 + ilo[1], 23);
    int64_t i64[2] = {-1, -1};
    NGA_Select_elem64(a, const_cast<char*>("min"), &lo, i64);
    return lo * 1000 + static_cast<double>(i64[0] * 10 + i64[1]);
  });
  same_as_regular("NGA_Scatter, NGA_Scatter_acc, NGA_Gather", 7, 6, [](int a, int b, int c) {
    // Half the elements, in a checkerboard, then (3, 1) again: a scatter leaves its last value.
    std::vector<int> flat;
    std::vector<double> v;
    for (int i = 0; i < 7; ++i)
      for (int j = i % 2; j < 6; j += 2) flat.insert(flat.end(), {i, j}), v.push_back(i * 10 + j + 0.5);
    flat.insert(flat.end(), {3, 1});
    v.push_back(-77);
    const int n = static_cast<int>(v.size());
    std::vector<int*> subs;
    for (int k = 0; k < n; ++k) subs.push_back(&flat[static_cast<size_t>(2 * k)]);
    double two = 2;
    if (GA_Nodeid() == 0) NGA_Scatter(a, v.data(), subs.data(), n);
    NGA_Scatter_acc_flat(b, v.data(), flat.data(), n, &two);  // every process
    GA_Sync();
    std::vector<double> got(static_cast<size_t>(n), -1), got64(got);
    NGA_Gather_flat(a, got.data(), flat.data(), n);
    std::vector<int64_t> flat64(flat.begin(), flat.end());
    std::vector<int64_t*> subs64;
    for (int k = 0; k < n; ++k) subs64.push_back(&flat64[static_cast<size_t>(2 * k)]);
    NGA_Gather64(a, got64.data(), subs64.data(), n);
    EXPECT_EQ(got64, got);
    EXPECT_EQ(got[5], v[5]);
    EXPECT_EQ(got.back(), -77);  // (3, 1): the last value scattered to it
    GA_Sync();
    if (GA_Nodeid() == GA_Nnodes() - 1) NGA_Scatter_flat64(c, got.data(), flat64.data(), n);
    GA_Sync();
    double sum = 0;
    for (int k = 0; k < n; ++k) sum += got[static_cast<size_t>(k)] * (k + 1);
    return sum;
  });
}

// NGA_Read_inc on every layout: every process takes 5 numbers of one counter (in a cut edge
// block) and 3 of another; the numbers handed out are each taken once.
template <class T>
void read_inc_counts(int type) {
  const long np = GA_Nnodes();
  for (Layout layout : layouts) {
    const int g = make_cyclic(type, {7, 6}, {3, 2}, layout, "counter");
    GA_Zero(g);
    int edge[2] = {6, 5};
    int64_t corner[2] = {0, 0};
    long taken = 0, previous = -1;
    for (int k = 0; k < 5; ++k) {
      const long old = NGA_Read_inc(g, edge, 1);
      EXPECT_GT(old, previous) << layout_names[layout];
      previous = old;
      taken += old;
    }
    for (int k = 0; k < 3; ++k) taken += NGA_Read_inc64(g, corner, 4) / 4;
    GA_Lgop(&taken, 1, const_cast<char*>("+"));
    EXPECT_EQ(taken, 5 * np * (5 * np - 1) / 2 + 3 * np * (3 * np - 1) / 2) << layout_names[layout];
    T at_edge = 0, at_corner = 0;
    int one[1] = {1}, c[2] = {0, 0};
    NGA_Get(g, edge, edge, &at_edge, one);
    NGA_Get(g, c, c, &at_corner, one);
    EXPECT_EQ(static_cast<long>(at_edge), 5 * np) << layout_names[layout];
    EXPECT_EQ(static_cast<long>(at_corner), 12 * np) << layout_names[layout];
    GA_Destroy(g);
  }
}

TEST(GaBlockCyclic, ReadIncOnEveryLayout) {
  read_inc_counts<int>(C_INT);
  read_inc_counts<long>(C_LONG);
}

/// How many arrays `f` made (each arrays array has the next id of this process: a probe array
/// made before and one after are one id apart exactly when none was made in between).
template <class F>
int arrays_made_by(F&& f) {
  using armada::arrays::Array;
  Array before = Array::create(armada::arrays::ElemType::Int, {1});
  f();
  Array after = Array::create(armada::arrays::ElemType::Int, {1});
  const int made = after.id() - before.id() - 1;
  before.destroy();
  after.destroy();
  return made;
}

// The collectives act on a block-cyclic array in place: no regular copy is made (GA's old
// front copied each block-cyclic argument to a regular array and back).
TEST(GaBlockCyclic, CollectivesMakeNoRegularCopy) {
  const int n = 7;
  for (Layout layout : layouts) {
    const int a = make_cyclic(C_DBL, {n, n}, {2, 3}, layout, "a"), b = make_cyclic(C_DBL, {n, n}, {3, 2}, layout, "b");
    const int c = make_cyclic(C_DBL, {n, n}, {2, 3}, layout, "c"), v = make_cyclic(C_DBL, {n}, {3}, layout, "v");
    double one = 1, two = 2, half = 0.5, dot = 0, nm = 0;
    int lo[2] = {1, 2}, hi[2] = {5, 6};
    const int made = arrays_made_by([&] {
      GA_Fill(a, &two);
      GA_Zero(c);
      GA_Scale(a, &half);
      GA_Copy(a, b);
      GA_Add(&one, a, &two, b, c);  // 3
      NGA_Fill_patch(c, lo, hi, &two);
      GA_Add_constant(b, &one);  // 2
      GA_Elem_multiply(a, b, b);  // 2
      GA_Abs_value(b);
      GA_Dgemm('N', 'T', n, n, n, 1.0, a, b, 0.0, c);  // 2 n
      GA_Transpose(c, b);
      GA_Symmetrize(b);
      GA_Get_diag(b, v);
      GA_Shift_diagonal(a, &one);  // 2 on the diagonal
      GA_Scale_rows(a, v);
      GA_Norm1(a, &nm);
      dot = GA_Ddot(a, b);
    });
    EXPECT_EQ(made, 0) << layout_names[layout];
    // v = 2n; a: 2 v on the diagonal, v off it; b: 2n everywhere.
    EXPECT_DOUBLE_EQ(dot, 2.0 * n * (n * 4.0 * n + n * (n - 1.0) * 2 * n)) << layout_names[layout];
    EXPECT_DOUBLE_EQ(nm, 4.0 * n + (n - 1.0) * 2 * n) << layout_names[layout];
    for (int g : {a, b, c, v}) GA_Destroy(g);
  }
}

TEST(GaBlockCyclic, MatrixOperationsAndSolversAsOnRegularArrays) {
  double shift = 20, nm = 0, one = 1;
  same_as_regular("diagonal operations, row and column scaling, norms", 6, 6, [&](int a, int b, int) {
    const int v = make_cyclic(C_DBL, {6}, {4}, simple, "v");
    GA_Get_diag(b, v);
    GA_Add_diagonal(a, v);
    GA_Shift_diagonal(b, &shift);
    GA_Scale_rows(a, v);
    GA_Scale_cols(b, v);
    GA_Set_diagonal(b, v);
    GA_Norm1(a, &nm);
    double sum = nm;
    GA_Norm_infinity(b, &nm);
    GA_Zero_diagonal(a);
    GA_Destroy(v);
    return sum + 1000 * nm;
  });
  same_as_regular("GA_Lu_solve, GA_Solve", 6, 6, [&](int a, int b, int c) {
    GA_Shift_diagonal(a, &shift);
    GA_Copy(b, c);
    GA_Lu_solve('N', a, b);
    return static_cast<double>(GA_Solve(a, c));
  });
  same_as_regular("GA_Llt_solve, GA_Spd_invert", 6, 6, [&](int a, int b, int) {
    GA_Symmetrize(a);
    GA_Shift_diagonal(a, &shift);
    const int info = GA_Llt_solve(a, b);
    return info + 10.0 * GA_Spd_invert(a) + one;
  });
  int dims[2] = {4, 3};
  const int r = NGA_Create(C_INT, 2, dims, name("P"), nullptr);
  const int b = make_cyclic(C_INT, {4, 3}, {3, 2}, tiled, "P");
  int lo[2] = {1, 0}, hi[2] = {3, 2}, two = 2;
  GA_Fill(r, &two);
  GA_Fill(b, &two);
  EXPECT_EQ(ga_test::capture_stdout([&] { NGA_Print_patch(b, lo, hi, 1); }),
            ga_test::capture_stdout([&] { NGA_Print_patch(r, lo, hi, 1); }));
  GA_Destroy(r);
  GA_Destroy(b);
}

TEST(GaBlockCyclic, GemmAndDotsOfEveryFloatingType) {
  const int n = 7;
  for (Layout grid : layouts) {
    const int a = make_cyclic(C_DCPL, {n, n}, {2, 3}, grid), c = make_cyclic(C_DCPL, {n, n}, {2, 3}, grid);
    DoubleComplex v = {1.0, 2.0}, z1 = {1.0, 0.0}, z0 = {0.0, 0.0};
    GA_Fill(a, &v);
    GA_Zgemm('N', 'N', n, n, n, z1, a, a, z0, c);
    const DoubleComplex d = GA_Zdot(c, a);  // each c = n (1+2i)^2 = n (-3+4i); dot: sum c * a, unconjugated
    EXPECT_DOUBLE_EQ(d.real, n * n * n * (-3.0 * 1 - 4.0 * 2));
    EXPECT_DOUBLE_EQ(d.imag, n * n * n * (-3.0 * 2 + 4.0 * 1));
    GA_Destroy(a);
    GA_Destroy(c);
    const int f = make_cyclic(C_FLOAT, {n, n}, {3, 3}, grid), g = make_cyclic(C_FLOAT, {n, n}, {3, 3}, grid);
    float two = 2;
    GA_Fill(f, &two);
    GA_Sgemm('T', 'N', n, n, n, 1.0f, f, f, 0.0f, g);
    EXPECT_FLOAT_EQ(GA_Fdot(g, f), 2.0f * 4 * n * n * n);
    GA_Destroy(f);
    GA_Destroy(g);
    const int i = make_cyclic(C_INT, {n, 3}, {2, 2}, grid);
    int three = 3;
    GA_Fill(i, &three);
    EXPECT_EQ(GA_Idot(i, i), 9 * n * 3);
    GA_Destroy(i);
  }
}

// A block-cyclic array on a process group: blocks go round the group's processes, and the
// collective operations run on the group.
TEST(GaBlockCyclic, ArraysOnAProcessGroup) {
  const int np = GA_Nnodes();
  const int grp = GA_Pgroup_split(GA_Pgroup_get_world(), np >= 2 ? 2 : 1);
  const int gsize = GA_Pgroup_nnodes(grp), gme = GA_Pgroup_nodeid(grp);
  for (Layout layout : {simple, proc_grid}) {
    int dims[2] = {7, 5}, block[2] = {2, 2}, pgrid[2] = {gsize, 1};
    const int g = GA_Create_handle();
    NGA_Set_data(g, 2, dims, C_DBL);
    GA_Set_pgroup(g, grp);
    layout == simple ? NGA_Set_block_cyclic(g, block) : NGA_Set_block_cyclic_proc_grid(g, block, pgrid);
    ASSERT_EQ(GA_Allocate(g), 1);
    EXPECT_EQ(NGA_Get_pgroup(g), grp);
    double three = 3;
    GA_Fill(g, &three);
    EXPECT_EQ(GA_Ddot(g, g), 9.0 * 35);
    std::vector<double> v(35);
    std::iota(v.begin(), v.end(), 0.0);
    int lo[2] = {0, 0}, hi[2] = {6, 4}, ld[1] = {5};
    if (gme == 0) NGA_Put(g, lo, hi, v.data(), ld);
    GA_Pgroup_sync(grp);
    std::vector<double> got(35);
    NGA_Get(g, lo, hi, got.data(), ld);
    EXPECT_EQ(got, v);
    // Block 1 belongs to group process 1 % gsize in the simple layout.
    if (layout == simple && gme == 1 % gsize) {
      double* p = nullptr;
      int bld[1];
      NGA_Access_block(g, 1, &p, bld);
      EXPECT_EQ(p[0], 2.0);  // element (0, 2)
      NGA_Release_block(g, 1);
    }
    GA_Pgroup_sync(grp);
    GA_Destroy(g);
  }
  GA_Pgroup_destroy(grp);
}

TEST(GaBlockCyclic, PrintsAsARegularArray) {
  int dims[2] = {5, 4};
  const int r = NGA_Create(C_INT, 2, dims, name("P"), nullptr);
  const int b = make_cyclic(C_INT, {5, 4}, {2, 3}, simple, "P");
  for (int g : {r, b}) {
    GA_Zero(g);
    int lo[2] = {0, 0}, hi[2] = {4, 3}, ld[1] = {4}, v[20];
    std::iota(v, v + 20, 1);
    if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, v, ld);
    GA_Sync();
  }
  const std::string regular = ga_test::capture_stdout([&] { GA_Print(r); });
  const std::string cyclic = ga_test::capture_stdout([&] { GA_Print(b); });
  EXPECT_EQ(cyclic, regular);
  GA_Destroy(r);
  GA_Destroy(b);
}

}  // namespace
