// GA's C API on Armada, the rest of the supported entry points: the other creation forms,
// patch arithmetic, 64-bit nonblocking and access forms, matmul_patch, solvers, eigenvalues,
// mutexes, group gops, printing. Every result against an independent reference.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <numeric>
#include <vector>

#include "ga-mpi.h"
#include "ga.h"
#include "ga_test_util.hpp"

namespace {

using ga_test::name;
using ga_test::put_whole;
using ga_test::whole;

double fa(int i, int j) { return 1.0 + i - 0.5 * j; }
double spd(int i, int j) { return i == j ? 10.0 + i : 1.0 / (1 + i + j); }

TEST(GaCreateForms, ConfigGhostsIrregAnd64) {
  const int np = GA_Nnodes();
  int dims[2] = {8, 6}, width[2] = {1, 2};
  const int a = NGA_Create_ghosts_config(C_DBL, 2, dims, width, name("gc"), nullptr, GA_Pgroup_get_world());
  std::vector<int> map;
  for (int b = 0; b < np; ++b) map.push_back(b * 2);
  map.push_back(0);
  int block[2] = {np, 1}, idims[2] = {2 * np, 3};
  const int b = NGA_Create_irreg_config(C_INT, 2, idims, name("ic"), block, map.data(), GA_Pgroup_get_world());
  const int c = NGA_Create_ghosts_irreg(C_INT, 2, idims, width, name("gi"), block, map.data());
  int64_t d64[1] = {17}, w64[1] = {2}, blk64[1] = {1}, map64[1] = {0};
  const int e = NGA_Create_ghosts64(C_FLOAT, 1, d64, w64, name("g64"), nullptr);
  const int f = NGA_Create_irreg64(C_DCPL, 1, d64, name("i64"), blk64, map64);
  const int h = NGA_Create_config64(C_SCPL, 1, d64, name("c64"), nullptr, GA_Pgroup_get_world());
  for (int p = 0; p < np; ++p) {
    int lo[2], hi[2];
    NGA_Distribution(b, p, lo, hi);
    EXPECT_EQ(lo[0], 2 * p);
    EXPECT_EQ(hi[0], 2 * p + 1);
    NGA_Distribution(c, p, lo, hi);
    EXPECT_EQ(lo[0], 2 * p);
  }
  int type, ndim, got[2];
  NGA_Inquire(f, &type, &ndim, got);
  EXPECT_EQ(type, C_DCPL);
  EXPECT_EQ(got[0], 17);
  NGA_Inquire(h, &type, &ndim, got);
  EXPECT_EQ(type, C_SCPL);
  NGA_Inquire(e, &type, &ndim, got);
  EXPECT_EQ(type, C_FLOAT);
  float two = 2;
  GA_Fill(e, &two);
  EXPECT_EQ(GA_Fdot(e, e), 4.0f * 17);
  // The handle path with ghosts, an irregular map and a group.
  const int g = GA_Create_handle();
  GA_Set_data(g, 2, idims, C_INT);
  GA_Set_irreg_distr(g, map.data(), block);
  GA_Set_ghosts(g, width);
  GA_Set_pgroup(g, GA_Pgroup_get_world());
  NGA_Allocate(g);
  for (int p = 0; p < np; ++p) {
    int lo[2], hi[2];
    NGA_Distribution(g, p, lo, hi);
    EXPECT_EQ(lo[0], 2 * p);
  }
  int64_t d2[2] = {4, 5};
  const int k = NGA_Create_handle();
  NGA_Set_data64(k, 2, d2, C_DBL);
  GA_Allocate(k);
  EXPECT_EQ(GA_Ndim(k), 2);
  for (int x : {a, b, c, e, f, h, g, k}) GA_Destroy(x);
}

/// Whether 2-D arrays a and b give every process the same block (the reference for
/// GA_Compare_distr, found through NGA_Distribution alone).
bool same_blocks(int a, int b) {
  for (int p = 0; p < GA_Nnodes(); ++p) {
    int alo[2], ahi[2], blo[2], bhi[2];
    NGA_Distribution(a, p, alo, ahi);
    NGA_Distribution(b, p, blo, bhi);
    for (int d = 0; d < 2; ++d)
      if (alo[d] != blo[d] || ahi[d] != bhi[d]) return false;
  }
  return true;
}

/// GA's irregular map of 2-D array g's own distribution: the first index of each block per
/// dimension, and the number of blocks.
void map_of(int g, std::vector<int>& map, int block[2]) {
  std::vector<int> starts[2];
  for (int p = 0; p < GA_Nnodes(); ++p) {
    int lo[2], hi[2];
    NGA_Distribution(g, p, lo, hi);
    if (hi[0] < lo[0]) continue;
    for (int d = 0; d < 2; ++d) starts[d].push_back(lo[d]);
  }
  map.clear();
  for (int d = 0; d < 2; ++d) {
    std::sort(starts[d].begin(), starts[d].end());
    starts[d].erase(std::unique(starts[d].begin(), starts[d].end()), starts[d].end());
    block[d] = static_cast<int>(starts[d].size());
    map.insert(map.end(), starts[d].begin(), starts[d].end());
  }
}

// GA's ga_malloc/ga_free, which no GA header declares and applications declare themselves.
extern "C" void* ga_malloc(long nelem, int type, char* name);
extern "C" void ga_free(void* ptr);
TEST(GaMemory, GaMallocGivesWritableElementsOfTheType) {
  auto* d = static_cast<double*>(ga_malloc(1000, C_DBL, name("v")));
  ASSERT_NE(d, nullptr);
  for (int i = 0; i < 1000; ++i) d[i] = i;
  EXPECT_EQ(d[999], 999.0);
  ga_free(d);
  auto* i = static_cast<long*>(ga_malloc(3, MT_C_LONGINT, name("ints")));
  ASSERT_NE(i, nullptr);
  i[2] = 7;
  EXPECT_EQ(i[2], 7);
  ga_free(i);
}

// NWChem's replicated arrays: created on the mirror group, accumulated into by every process,
// merged, read. Armada's mirror group is the world and the array one ordinary copy, so the merge
// leaves the sum of every process's contribution, as GA's merge of node copies does.
TEST(GaMirror, AnArrayOnTheMirrorGroupMergesToTheSumOfEveryContribution) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  EXPECT_EQ(GA_Pgroup_get_mirror(), GA_Pgroup_get_world());
  EXPECT_EQ(NGA_Pgroup_get_mirror(), GA_Pgroup_get_world());
  int dims[1] = {10};
  const int g = NGA_Create_config(C_DBL, 1, dims, name("mirror"), nullptr, GA_Pgroup_get_mirror());
  ASSERT_NE(g, 0);
  EXPECT_EQ(GA_Is_mirrored(g), 0);
  GA_Zero(g);
  std::vector<double> mine(10, me + 1.0);
  int lo[1] = {0}, hi[1] = {9};
  double one = 1.0;
  NGA_Acc(g, lo, hi, mine.data(), nullptr, &one);
  GA_Merge_mirrored(g);
  std::vector<double> all(10);
  NGA_Get(g, lo, hi, all.data(), nullptr);
  for (double x : all) EXPECT_EQ(x, np * (np + 1) / 2.0);
  NGA_Merge_mirrored(g);  // again: changes nothing
  NGA_Get(g, lo, hi, all.data(), nullptr);
  EXPECT_EQ(all[9], np * (np + 1) / 2.0);
  GA_Destroy(g);
}

TEST(GaDistribution, CompareDistrAgainstTheBlocksOfEveryProcess) {
  const int np = GA_Nnodes();
  int dims[2] = {10, 8}, other[2] = {10, 9}, width[2] = {1, 2};
  const int a = NGA_Create(C_DBL, 2, dims, name("a"), nullptr);
  const int ints = NGA_Create(C_INT, 2, dims, name("ints"), nullptr);
  const int dup = GA_Duplicate(a, name("dup"));
  const int ghosts = NGA_Create_ghosts(C_DBL, 2, dims, width, name("ghosts"), nullptr);
  const int wider = NGA_Create(C_DBL, 2, other, name("wider"), nullptr);
  int flat_dims[1] = {80};
  const int flat = NGA_Create(C_DBL, 1, flat_dims, name("flat"), nullptr);
  // The same blocks through an irregular map, and everything on process 0.
  std::vector<int> map;
  int block[2];
  map_of(a, map, block);
  const int irreg = NGA_Create_irreg(C_DBL, 2, dims, name("irreg"), block, map.data());
  int one_block[2] = {1, 1}, origin[2] = {0, 0};
  const int lumped = NGA_Create_irreg(C_DBL, 2, dims, name("lumped"), one_block, origin);
  // GA compares dims and block boundaries only: not types, ghost widths or how it was made.
  for (int b : {a, ints, dup, ghosts, irreg}) {
    EXPECT_TRUE(same_blocks(a, b));
    EXPECT_EQ(GA_Compare_distr(a, b), 0) << b;
    EXPECT_EQ(NGA_Compare_distr(b, a), 0) << b;
  }
  EXPECT_EQ(GA_Compare_distr(a, wider), 1);
  EXPECT_EQ(NGA_Compare_distr(wider, a), 1);
  EXPECT_EQ(GA_Compare_distr(a, flat), 1);
  EXPECT_EQ(GA_Compare_distr(a, lumped), same_blocks(a, lumped) ? 0 : 1);
  if (np > 1) {
    EXPECT_EQ(GA_Compare_distr(lumped, a), 1);
  }
  // No array here is mirrored; planned handles are answered too.
  const int planned = GA_Create_handle();
  for (int g : {a, irreg, lumped, planned}) {
    EXPECT_EQ(GA_Is_mirrored(g), 0);
    EXPECT_EQ(NGA_Is_mirrored(g), 0);
  }
  GA_Destroy(planned);
  for (int g : {a, ints, dup, ghosts, wider, flat, irreg, lumped}) GA_Destroy(g);
}

TEST(GaDistribution, IrregFlagChangesNeitherTheDistributionNorProducts) {
  // GA uses the flag to pick its dgemm algorithm only: off on a planned irregular handle, on for
  // an allocated regular array; the map still decides the blocks, and products are exact.
  const int np = GA_Nnodes();
  const int starts[4] = {0, 1, 3, 6};
  std::vector<int> map(starts, starts + np);
  map.push_back(0);
  int dims[2] = {8, 8}, block[2] = {np, 1};
  const int a = NGA_Create_irreg(C_DBL, 2, dims, name("irregular"), block, map.data());
  const int b = GA_Create_handle();
  GA_Set_data(b, 2, dims, C_DBL);
  GA_Set_irreg_distr(b, map.data(), block);
  GA_Set_irreg_flag(b, 0);
  ASSERT_EQ(GA_Allocate(b), 1);
  EXPECT_EQ(GA_Compare_distr(a, b), 0);
  EXPECT_TRUE(same_blocks(a, b));
  const int c = NGA_Create(C_DBL, 2, dims, name("regular"), nullptr);
  NGA_Set_irreg_flag(c, 1);
  GA_Set_irreg_flag(a, 1);
  put_whole(a, 8, 8, fa);
  put_whole(b, 8, 8, spd);
  GA_Dgemm('N', 'N', 8, 8, 8, 1.0, a, b, 0.0, c);
  const std::vector<double> C = whole(c, 8, 8);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      double ref = 0;
      for (int l = 0; l < 8; ++l) ref += fa(i, l) * spd(l, j);
      EXPECT_NEAR(C[i * 8 + j], ref, 1e-12) << i << "," << j;
    }
  for (int g : {a, b, c}) GA_Destroy(g);
}

TEST(GaPatchArithmetic, ZeroFillScaleAddPatches) {
  int dims[2] = {7, 9};
  const int a = NGA_Create(C_DBL, 2, dims, name("a"), nullptr);
  const int b = GA_Duplicate(a, name("b"));
  const int c = GA_Duplicate(a, name("c"));
  put_whole(a, 7, 9, fa);
  double one = 1;
  GA_Fill(b, &one);
  int lo[2] = {1, 2}, hi[2] = {4, 6};
  double three = 3, half = 0.5;
  NGA_Fill_patch(b, lo, hi, &three);
  NGA_Scale_patch(a, lo, hi, &half);
  int zlo[2] = {6, 0}, zhi[2] = {6, 8};
  NGA_Zero_patch(a, zlo, zhi);
  GA_Zero(c);
  // c[0:3, 0:4] = 2 a[1:4, 2:6] - b[1:4, 2:6]
  int clo[2] = {0, 0}, chi[2] = {3, 4};
  double alpha = 2, beta = -1;
  NGA_Add_patch(&alpha, a, lo, hi, &beta, b, lo, hi, c, clo, chi);
  auto in = [&](int i, int j) { return i >= 1 && i <= 4 && j >= 2 && j <= 6; };
  auto av = [&](int i, int j) { return i == 6 ? 0.0 : in(i, j) ? fa(i, j) / 2 : fa(i, j); };
  const std::vector<double> A = whole(a, 7, 9), B = whole(b, 7, 9), C = whole(c, 7, 9);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 9; ++j) {
      EXPECT_EQ(A[i * 9 + j], av(i, j));
      EXPECT_EQ(B[i * 9 + j], in(i, j) ? 3.0 : 1.0);
      const bool cin = i <= 3 && j <= 4;
      EXPECT_EQ(C[i * 9 + j], cin ? 2 * av(i + 1, j + 2) - 3.0 : 0.0);
    }
  NGA_Zero(c);
  NGA_Fill(b, &one);
  EXPECT_EQ(GA_Ddot(b, b), 63.0);
  EXPECT_EQ(GA_Ddot(c, c), 0.0);
  for (int x : {c, b, a}) NGA_Destroy(x);
}

TEST(GaPatch64, NonblockingAccessReadIncScatterAcc) {
  int64_t dims[2] = {6, 4};
  const int g = NGA_Create64(C_LONG, 2, dims, name("l"), nullptr);
  GA_Zero(g);
  const int np = GA_Nnodes();
  std::vector<long> ones(24, 1), back(24);
  int64_t lo[2] = {0, 0}, hi[2] = {5, 3}, ld[1] = {4};
  ga_nbhdl_t h;
  long alpha = 3;
  NGA_NbAcc64(g, lo, hi, ones.data(), ld, &alpha, &h);
  NGA_NbWait(&h);
  GA_Sync();
  NGA_NbGet64(g, lo, hi, back.data(), ld, &h);
  // GA 5.8: 0 while outstanding, 1 once complete (Debian's GA 5.8.2 agrees)
  for (long polls = 0; NGA_NbTest(&h) == 0 && polls < 100000000; ++polls) {
  }
  EXPECT_EQ(NGA_NbTest(&h), 1);  // a completed request stays complete
  NGA_NbWait(&h);                // and waiting on it returns at once
  for (long v : back) EXPECT_EQ(v, 3L * np);
  GA_Sync();
  if (GA_Nodeid() == 0) {
    std::vector<long> seq(24);
    std::iota(seq.begin(), seq.end(), 0L);
    NGA_NbPut64(g, lo, hi, seq.data(), ld, &h);
    NGA_NbWait(&h);
  }
  GA_Sync();
  int64_t sub[2] = {2, 3};
  const long old = NGA_Read_inc64(g, sub, 5);  // every rank adds 5 to element 11
  EXPECT_GE(old, 11);
  GA_Sync();
  int64_t mlo[2], mhi[2];
  NGA_Distribution64(g, GA_Nodeid(), mlo, mhi);
  if (mhi[0] >= mlo[0]) {
    long* p;
    int64_t mld[1];
    NGA_Access64(g, mlo, mhi, &p, mld);
    for (int64_t i = mlo[0]; i <= mhi[0]; ++i)
      for (int64_t j = mlo[1]; j <= mhi[1]; ++j) {
        const long expect = i * 4 + j + (i == 2 && j == 3 ? 5L * np : 0);
        EXPECT_EQ(p[(i - mlo[0]) * mld[0] + (j - mlo[1])], expect);
        p[(i - mlo[0]) * mld[0] + (j - mlo[1])] *= 2;
      }
    NGA_Release_update64(g, mlo, mhi);
    NGA_Access64(g, mlo, mlo, &p, mld);
    NGA_Release64(g, mlo, mlo);
  }
  GA_Sync();
  // Scatter-accumulate, flat, with a repeated subscript: both hits count.
  int subs[6] = {0, 0, 5, 3, 0, 0};
  long add[3] = {1, 2, 4}, one = 1;
  NGA_Scatter_acc_flat(g, add, subs, 3, &one);
  GA_Sync();
  long got[2];
  int q[4] = {0, 0, 5, 3};
  NGA_Gather_flat(g, got, q, 2);
  EXPECT_EQ(got[0], 0 + 5L * np);
  EXPECT_EQ(got[1], 2 * 23 + 2L * np);
  GA_Sync();
  GA_Destroy(g);
}

// The operands of the matmul-patch tests: A (6 x 8) holding fa, C (5 x 5) zero; destroyed after.
struct MatmulPatchOperands {
  int da[2] = {6, 8}, dc[2] = {5, 5};
  const int a = NGA_Create(C_DBL, 2, da, name("A"), nullptr);
  const int c = NGA_Create(C_DBL, 2, dc, name("C"), nullptr);
  MatmulPatchOperands() {
    put_whole(a, 6, 8, fa);
    GA_Zero(c);
  }
  ~MatmulPatchOperands() {
    GA_Destroy(c);
    GA_Destroy(a);
  }
  /// Every element of C against ref(i, j); returns C.
  template <class Ref>
  std::vector<double> expect_c(Ref&& ref) const {
    std::vector<double> got = whole(c, 5, 5);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) EXPECT_NEAR(got[i * 5 + j], ref(i, j), 1e-12) << i << "," << j;
    return got;
  }
};

TEST(GaLinalg, MatmulPatchAgainstLoops) {
  const MatmulPatchOperands m;
  const int a = m.a, c = m.c;
  // C[1:3, 0:3] = 2 A[0:2, 1:4] * A[2:5, 4:7]' (3x4 times (4x4)') + 0 C; B's patch indices are
  // op(B)'s, as GA's: rows 4..7, columns 2..5 of A[2:5, 4:7]'.
  int alo[2] = {0, 1}, ahi[2] = {2, 4}, blo[2] = {4, 2}, bhi[2] = {7, 5}, clo[2] = {1, 0}, chi[2] = {3, 3};
  double alpha = 2, beta = 0;
  NGA_Matmul_patch('N', 'T', &alpha, &beta, a, alo, ahi, a, blo, bhi, c, clo, chi);
  const std::vector<double> C = m.expect_c([](int i, int j) {
    double ref = 0;
    if (i >= 1 && i <= 3 && j <= 3)
      for (int l = 0; l < 4; ++l) ref += 2 * fa(i - 1, 1 + l) * fa(2 + j, 4 + l);
    return ref;
  });
  // The 2-D form adds beta = 1 times what is there. GA 5.8's GA_Matmul_patch is the Fortran view's
  // product (its i ranges over the C view's columns: C^T = op(A^T) op(B^T), Debian's GA 5.8.2
  // agrees), so the same product is written with the operands, flags and ranges exchanged.
  beta = 1;
  GA_Matmul_patch('T', 'N', &alpha, &beta, a, 2, 5, 4, 7, a, 1, 4, 0, 2, c, 0, 3, 1, 3);
  std::vector<double> C2 = whole(c, 5, 5);
  for (int i = 0; i < 25; ++i) EXPECT_NEAR(C2[i], 2 * C[i], 1e-12);
  int64_t alo64[2] = {0, 1}, ahi64[2] = {2, 4}, blo64[2] = {4, 2}, bhi64[2] = {7, 5}, clo64[2] = {1, 0},
          chi64[2] = {3, 3};
  NGA_Matmul_patch64('N', 'T', &alpha, &beta, a, alo64, ahi64, a, blo64, bhi64, c, clo64, chi64);
  std::vector<double> C3 = whole(c, 5, 5);
  for (int i = 0; i < 25; ++i) EXPECT_NEAR(C3[i], 3 * C[i], 1e-12);
  GA_Matmul_patch64('T', 'N', &alpha, &beta, a, 2, 5, 4, 7, a, 1, 4, 0, 2, c, 0, 3, 1, 3);
  std::vector<double> C4 = whole(c, 5, 5);
  for (int i = 0; i < 25; ++i) EXPECT_NEAR(C4[i], 4 * C[i], 1e-12);
}

// GA's patch indices are op(A)'s and op(B)'s (GA 5.8's matmul.c): a transposed operand whose
// patch is not square has indices that are not its data's. C[0:1, 0:2] = A[1:4, 2:3]^T A[0:3, 5:7]
// (2x4 times 4x3): op(A) is rows 2..3, columns 1..4 of A^T.
TEST(GaLinalg, MatmulPatchTakesTheIndicesOfOpA) {
  const MatmulPatchOperands m;
  int alo[2] = {2, 1}, ahi[2] = {3, 4}, blo[2] = {0, 5}, bhi[2] = {3, 7}, clo[2] = {0, 0}, chi[2] = {1, 2};
  double alpha = 1, beta = 0;
  NGA_Matmul_patch('T', 'N', &alpha, &beta, m.a, alo, ahi, m.a, blo, bhi, m.c, clo, chi);
  m.expect_c([](int i, int j) {
    double ref = 0;
    if (i < 2 && j < 3)
      for (int l = 0; l < 4; ++l) ref += fa(1 + l, 2 + i) * fa(l, 5 + j);
    return ref;
  });
}

// GA's NGA_Matmul_patch takes arrays of any dimension whose patches are 2-D: at most two extents
// above 1 (the first is the rows, the second the columns); a patch with one such extent is a row
// or a column, whichever the other patches' shapes agree with (GA's mulmatpatchc.c multiplies
// 2-D patches of 4-D arrays this way). Every element of C against a serial product; C outside
// the patch unchanged.
TEST(GaLinalg, MatmulPatchOfNDimensionalArrays) {
  const int n = 5;
  int dims[4] = {n, n, n, n};
  const int a = NGA_Create(C_DBL, 4, dims, name("A4"), nullptr);
  const int b = GA_Duplicate(a, name("B4"));
  const int c = GA_Duplicate(a, name("C4"));
  auto val = [](const int* s) { return 1.0 + s[0] - 0.5 * s[1] + 0.25 * s[2] - 0.125 * s[3]; };
  auto all = [&](int g) {
    std::vector<double> v(n * n * n * n);
    int lo[4] = {0, 0, 0, 0}, hi[4] = {n - 1, n - 1, n - 1, n - 1}, ld[3] = {n, n, n};
    NGA_Get(g, lo, hi, v.data(), ld);
    return v;
  };
  auto at = [&](const std::vector<double>& v, const int* s) { return v[((s[0] * n + s[1]) * n + s[2]) * n + s[3]]; };
  if (GA_Nodeid() == 0) {
    std::vector<double> v(n * n * n * n);
    int s[4];
    for (s[0] = 0; s[0] < n; ++s[0])
      for (s[1] = 0; s[1] < n; ++s[1])
        for (s[2] = 0; s[2] < n; ++s[2])
          for (s[3] = 0; s[3] < n; ++s[3]) v[((s[0] * n + s[1]) * n + s[2]) * n + s[3]] = val(s);
    int lo[4] = {0, 0, 0, 0}, hi[4] = {n - 1, n - 1, n - 1, n - 1}, ld[3] = {n, n, n};
    NGA_Put(a, lo, hi, v.data(), ld);
    NGA_Put(b, lo, hi, v.data(), ld);
    NGA_Put(c, lo, hi, v.data(), ld);
  }
  GA_Sync();
  // Rows of op(A) in dimension 1, k in dimension 3 (GA's patch indices are op(A)'s: with 'T' the
  // data of A has these two ranges exchanged); B: k in dimension 0, columns in dimension 2; C:
  // rows in dimension 2, columns in dimension 3.  (m, k, n) = (3, 4, 2), then a row of A (m = 1:
  // A's only long dimension is k) and a column of C, with beta = 0.5 and op(A) = A'.
  struct Case {
    int m, k, n;
    char ta;
    double beta;
  };
  for (const Case& cs : {Case{3, 4, 2, 'N', 0.0}, Case{1, 4, 2, 'N', 0.5}, Case{3, 2, 1, 'T', 0.5}}) {
    int alo[4] = {1, 0, 2, 1}, ahi[4] = {1, 0, 2, 1}, blo[4] = {0, 3, 1, 4}, bhi[4] = {0, 3, 1, 4};
    int clo[4] = {4, 2, 0, 1}, chi[4] = {4, 2, 0, 1};
    ahi[1] += cs.m - 1;
    ahi[3] += cs.k - 1;
    // Where op(A)(i, l) is stored: 'N' at (alo[1] + i, alo[3] + l) in dimensions 1, 3; 'T' with
    // the ranges exchanged, at (alo[3] + l, alo[1] + i).
    const int arow = cs.ta == 'N' ? 1 : 3, acol = cs.ta == 'N' ? 3 : 1;
    bhi[0] += cs.k - 1;
    bhi[2] += cs.n - 1;
    chi[2] += cs.m - 1;
    chi[3] += cs.n - 1;
    const std::vector<double> before = all(c);
    double alpha = 2;
    double beta = cs.beta;
    NGA_Matmul_patch(cs.ta, 'N', &alpha, &beta, a, alo, ahi, b, blo, bhi, c, clo, chi);
    const std::vector<double> after = all(c);
    int s[4];
    for (s[0] = 0; s[0] < n; ++s[0])
      for (s[1] = 0; s[1] < n; ++s[1])
        for (s[2] = 0; s[2] < n; ++s[2])
          for (s[3] = 0; s[3] < n; ++s[3]) {
            bool in = true;
            for (int d = 0; d < 4; ++d) in = in && s[d] >= clo[d] && s[d] <= chi[d];
            double want = at(before, s);
            if (in) {
              const int i = s[2] - clo[2], j = s[3] - clo[3];
              double sum = 0;
              for (int l = 0; l < cs.k; ++l) {
                int sa[4] = {alo[0], alo[1], alo[2], alo[3]}, sb[4] = {blo[0], blo[1], blo[2], blo[3]};
                sa[arow] = alo[1] + i;
                sa[acol] = alo[3] + l;
                sb[0] += l;
                sb[2] += j;
                sum += val(sa) * val(sb);
              }
              want = alpha * sum + beta * want;
            }
            EXPECT_NEAR(at(after, s), want, 1e-12) << "m " << cs.m << " k " << cs.k << " n " << cs.n << " at "
                                                    << s[0] << "," << s[1] << "," << s[2] << "," << s[3];
          }
    GA_Sync();
  }
  GA_Destroy(c);
  GA_Destroy(b);
  GA_Destroy(a);
}

TEST(GaLinalg, SolversAndEigenvalues) {
  const int n = 6;
  int dims[2] = {n, n}, bd[2] = {n, 2};
  const int a = NGA_Create(C_DBL, 2, dims, name("A"), nullptr);
  const int b = NGA_Create(C_DBL, 2, bd, name("B"), nullptr);
  put_whole(a, n, n, spd);
  // B = A X for X(i, r) = i + 1 + r: the solution must come back.
  auto x = [](int i, int r) { return i + 1.0 + r; };
  auto rhs = [&]() {
    GA_Sync();  // every process has read B before it is overwritten
    if (GA_Nodeid() == 0) {
      std::vector<double> v(n * 2);
      for (int i = 0; i < n; ++i)
        for (int r = 0; r < 2; ++r) {
          double s = 0;
          for (int k = 0; k < n; ++k) s += spd(i, k) * x(k, r);
          v[i * 2 + r] = s;
        }
      int lo[2] = {0, 0}, hi[2] = {n - 1, 1}, ld[1] = {2};
      NGA_Put(b, lo, hi, v.data(), ld);
    }
    GA_Sync();
  };
  auto check = [&](const char* what) {
    const std::vector<double> X = whole(b, n, 2);
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < 2; ++r) EXPECT_NEAR(X[i * 2 + r], x(i, r), 1e-10) << what;
  };
  rhs();
  EXPECT_EQ(GA_Llt_solve(a, b), 0);
  check("llt");
  rhs();
  GA_Lu_solve('N', a, b);
  check("lu");
  rhs();
  EXPECT_EQ(GA_Solve(a, b), 0);
  check("solve");
  // Eigenvalues of A against their definition: A v = lambda v for each column v of V.
  const int v = GA_Duplicate(a, name("V"));
  std::vector<double> w(n);
  GA_Diag_std(a, v, w.data());
  const std::vector<double> V = whole(v, n, n);
  for (int e = 0; e < n; ++e) {
    if (e > 0) {
      EXPECT_LE(w[e - 1], w[e]);
    }
    for (int i = 0; i < n; ++i) {
      double av = 0;
      for (int k = 0; k < n; ++k) av += spd(i, k) * V[k * n + e];
      EXPECT_NEAR(av, w[e] * V[i * n + e], 1e-10);
    }
  }
  // Not positive definite: -A. GA_Llt_solve reports the minor (1) and leaves B alone.
  double minus = -1;
  GA_Scale(a, &minus);
  rhs();
  const std::vector<double> before = whole(b, n, 2);
  EXPECT_EQ(GA_Llt_solve(a, b), 1);
  EXPECT_EQ(whole(b, n, 2), before);
  EXPECT_EQ(GA_Solve(a, b), 1);  // fell back to LU: X = -x
  const std::vector<double> X = whole(b, n, 2);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(X[i * 2], -x(i, 0), 1e-10);
  for (int g : {v, b, a}) GA_Destroy(g);
}

TEST(GaMutexes, LockedReadModifyWrite) {
  const int np = GA_Nnodes(), rounds = 20;
  int one[1] = {1};
  const int g = NGA_Create(C_INT, 1, one, name("counter"), nullptr);
  GA_Zero(g);
  ASSERT_EQ(GA_Create_mutexes(np + 1), 1);
  int lo[1] = {0}, hi[1] = {0};
  for (int r = 0; r < rounds; ++r) {
    NGA_Lock(np);  // the last mutex, on the last process
    int v;
    NGA_Get(g, lo, hi, &v, nullptr);
    ++v;
    NGA_Put(g, lo, hi, &v, nullptr);
    NGA_Unlock(np);
  }
  GA_Sync();
  int v;
  NGA_Get(g, lo, hi, &v, nullptr);
  EXPECT_EQ(v, rounds * np);
  GA_Sync();
  EXPECT_EQ(GA_Destroy_mutexes(), 1);
  GA_Destroy(g);
}

TEST(GaGroups, GroupGopsCommsAndFence) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  std::vector<int> all(np);
  std::iota(all.begin(), all.end(), 0);
  std::reverse(all.begin(), all.end());
  const int grp = NGA_Pgroup_create(all.data(), np);  // the world, in reverse order
  EXPECT_EQ(GA_Pgroup_nodeid(grp), np - 1 - me);
  float f = 1.5f;
  GA_Pgroup_fgop(grp, &f, 1, name("+"));
  EXPECT_EQ(f, 1.5f * np);
  long l = me;
  GA_Pgroup_lgop(grp, &l, 1, name("max"));
  EXPECT_EQ(l, np - 1);
  int r;
  MPI_Comm_rank(GA_MPI_Comm_pgroup(grp), &r);
  EXPECT_EQ(r, np - 1 - me);
  NGA_Pgroup_set_default(grp);
  EXPECT_EQ(NGA_Pgroup_get_default(), grp);
  EXPECT_EQ(NGA_Nodeid(), np - 1 - me);
  MPI_Comm_rank(GA_MPI_Comm_pgroup_default(), &r);
  EXPECT_EQ(r, np - 1 - me);
  double d = 1;
  NGA_Dgop(&d, 1, name("+"));
  EXPECT_EQ(d, np);
  NGA_Pgroup_set_default(GA_Pgroup_get_world());
  EXPECT_EQ(NGA_Nnodes(), np);
  GA_Fence();
  GA_Init_fence();
  NGA_Sync();
  EXPECT_EQ(GA_Pgroup_destroy(grp), 1);
}

TEST(GaPrint, PrintsTheArray) {
  int dims[2] = {2, 3};
  const int g = NGA_Create(C_INT, 2, dims, name("shown"), nullptr);
  int seven = 7;
  GA_Fill(g, &seven);
  const std::string text = ga_test::capture_stdout([&] {
    GA_Print(g);
    GA_Print_distribution(g);
    GA_Summarize(0);
  });
  if (GA_Nodeid() == 0) {
    EXPECT_NE(text.find("shown"), std::string::npos) << text;
    EXPECT_NE(text.find('7'), std::string::npos) << text;
    EXPECT_NE(text.find("process 0 owns"), std::string::npos) << text;
    EXPECT_NE(text.find("shown"), text.rfind("shown")) << text;  // GA_Summarize names it again
  } else {
    EXPECT_EQ(text, "");
  }
  EXPECT_EQ(GA_Uses_ma(), 0);
  EXPECT_EQ(GA_Memory_limited(), 0);
  size_t mine = 0;
  int lo[2], hi[2];
  NGA_Distribution(g, GA_Nodeid(), lo, hi);
  if (hi[0] >= lo[0]) mine = sizeof(int) * (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
  EXPECT_GE(GA_Inquire_memory(), mine);
  GA_Destroy(g);
}

// The element-wise tests' operands: a (5 x 7) holding ea, b holding eb, c zero; destroyed after.
double ea(int i, int j) { return (i - 2.0) * (j + 1.0) - 0.5; }  // never 0
double eb(int i, int j) { return 1.0 + i + j; }
struct ElementwiseOperands {
  int dims[2] = {5, 7};
  const int a = NGA_Create(C_DBL, 2, dims, name("a"), nullptr);
  const int b = GA_Duplicate(a, name("b"));
  const int c = GA_Duplicate(a, name("c"));
  ElementwiseOperands() {
    put_whole(a, 5, 7, ea);
    put_whole(b, 5, 7, eb);
    GA_Zero(c);
  }
  ~ElementwiseOperands() {
    GA_Destroy(c);
    GA_Destroy(b);
    GA_Destroy(a);
  }
};

// NGA_Periodic_get, _acc and _put (or their 64-bit forms, index type I) on the 3 x 3 window at
// (-1, 5) of the 5 x 7 array g holding f: it wraps to rows 4, 0, 1 and columns 5, 6, 0.
template <class I>
void expect_periodic_window(int g, double (*f)(int, int), void (*get)(int, I*, I*, void*, I*),
                            void (*acc)(int, I*, I*, void*, I*, void*), void (*put)(int, I*, I*, void*, I*)) {
  double win[9];
  I wlo[2] = {-1, 5}, whi[2] = {1, 7}, wld[1] = {3};
  get(g, wlo, whi, win, wld);
  const int rows[3] = {4, 0, 1}, cols[3] = {5, 6, 0};
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) EXPECT_EQ(win[x * 3 + y], f(rows[x], cols[y]));
  GA_Sync();
  double ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, alpha = 2;
  acc(g, wlo, whi, ones, wld, &alpha);
  GA_Sync();
  get(g, wlo, whi, win, wld);
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) EXPECT_EQ(win[x * 3 + y], f(rows[x], cols[y]) + 2.0 * GA_Nnodes());
  GA_Sync();
  if (GA_Nodeid() == 0) put(g, wlo, whi, ones, wld);
  GA_Sync();
  const std::vector<double> all = whole(g, 5, 7);
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) EXPECT_EQ(all[rows[x] * 7 + cols[y]], 1.0);
  EXPECT_EQ(all[2 * 7 + 2], f(2, 2));  // outside the window
}

// The 64-bit spellings of the patch operations, each against the formula.
TEST(GaElementwise, Patch64) {
  const ElementwiseOperands ops;
  const int a = ops.a, b = ops.b, c = ops.c;
  // Quadrant q of c (2 x 3 at rows 2 (q / 2), columns 3 (q % 2)) = a[3:4, 4:6] op_q b[0:1, 0:2].
  int64_t alo[2] = {3, 4}, ahi[2] = {4, 6}, blo[2] = {0, 0}, bhi[2] = {1, 2};
  int64_t clo[4][2], chi[4][2];
  for (int q = 0; q < 4; ++q) {
    clo[q][0] = 2 * (q / 2);
    clo[q][1] = 3 * (q % 2);
    chi[q][0] = clo[q][0] + 1;
    chi[q][1] = clo[q][1] + 2;
  }
  GA_Elem_multiply_patch64(a, alo, ahi, b, blo, bhi, c, clo[0], chi[0]);
  GA_Elem_divide_patch64(a, alo, ahi, b, blo, bhi, c, clo[1], chi[1]);
  GA_Elem_maximum_patch64(a, alo, ahi, b, blo, bhi, c, clo[2], chi[2]);
  GA_Elem_minimum_patch64(a, alo, ahi, b, blo, bhi, c, clo[3], chi[3]);
  const std::vector<double> C = whole(c, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      if (i >= 4 || j >= 6) {
        EXPECT_EQ(C[i * 7 + j], 0.0) << i << "," << j;
        continue;
      }
      const int q = 2 * (i / 2) + j / 3, x = i % 2, y = j % 3;
      const double u = ea(x + 3, y + 4), v = eb(x, y);
      const double want = q == 0 ? u * v : q == 1 ? u / v : q == 2 ? std::max(u, v) : std::min(u, v);
      EXPECT_DOUBLE_EQ(C[i * 7 + j], want) << i << "," << j;
    }
  // a[1:3, 2:5] = |a| - 10, then row 0 of a = 1 / a.
  int64_t ulo[2] = {1, 2}, uhi[2] = {3, 5}, rlo[2] = {0, 0}, rhi[2] = {0, 6};
  GA_Abs_value_patch64(a, ulo, uhi);
  double minus = -10;
  GA_Add_constant_patch64(a, ulo, uhi, &minus);
  GA_Recip_patch64(a, rlo, rhi);
  const std::vector<double> A = whole(a, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      const bool in = i >= 1 && i <= 3 && j >= 2 && j <= 5;
      EXPECT_DOUBLE_EQ(A[i * 7 + j], in ? std::fabs(ea(i, j)) - 10 : i == 0 ? 1 / ea(i, j) : ea(i, j));
    }
  expect_periodic_window(b, eb, NGA_Periodic_get64, NGA_Periodic_acc64, NGA_Periodic_put64);
}

TEST(GaElementwise, UnaryBinarySelectPeriodicLocate) {
  const ElementwiseOperands ops;
  const int a = ops.a, b = ops.b, c = ops.c;
  GA_Elem_multiply(a, b, c);
  std::vector<double> C = whole(c, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) EXPECT_DOUBLE_EQ(C[i * 7 + j], ea(i, j) * eb(i, j));
  GA_Elem_divide(a, b, c);
  C = whole(c, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) EXPECT_DOUBLE_EQ(C[i * 7 + j], ea(i, j) / eb(i, j));
  GA_Elem_maximum(a, b, c);
  C = whole(c, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) EXPECT_EQ(C[i * 7 + j], std::max(ea(i, j), eb(i, j)));
  GA_Elem_minimum(a, b, c);
  C = whole(c, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) EXPECT_EQ(C[i * 7 + j], std::min(ea(i, j), eb(i, j)));
  // Patches: c[0:1, 0:2] = a[3:4, 4:6] .* b[0:1, 0:2], the rest of c kept.
  int alo[2] = {3, 4}, ahi[2] = {4, 6}, blo[2] = {0, 0}, bhi[2] = {1, 2};
  GA_Elem_multiply_patch(a, alo, ahi, b, blo, bhi, c, blo, bhi);
  GA_Elem_divide_patch(a, alo, ahi, b, blo, bhi, a, alo, ahi);  // in place on a's patch
  GA_Elem_maximum_patch(b, blo, bhi, b, blo, bhi, b, blo, bhi);
  GA_Elem_minimum_patch(b, blo, bhi, b, blo, bhi, b, blo, bhi);
  const std::vector<double> C2 = whole(c, 5, 7), A2 = whole(a, 5, 7), B2 = whole(b, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      const bool cin = i <= 1 && j <= 2, ain = i >= 3 && j >= 4;
      EXPECT_DOUBLE_EQ(C2[i * 7 + j], cin ? ea(i + 3, j + 4) * eb(i, j) : std::min(ea(i, j), eb(i, j)));
      EXPECT_DOUBLE_EQ(A2[i * 7 + j], ain ? ea(i, j) / eb(i - 3, j - 4) : ea(i, j));
      EXPECT_EQ(B2[i * 7 + j], eb(i, j));
    }
  put_whole(a, 5, 7, ea);
  GA_Abs_value(a);
  double two = 2;
  GA_Add_constant(a, &two);
  GA_Recip_patch(a, blo, bhi);
  int plo[2] = {2, 3}, phi[2] = {2, 3};
  GA_Abs_value_patch(b, plo, phi);
  double minus = -10;
  GA_Add_constant_patch(b, plo, phi, &minus);
  const std::vector<double> A3 = whole(a, 5, 7), B3 = whole(b, 5, 7);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      const double v = std::fabs(ea(i, j)) + 2;
      EXPECT_DOUBLE_EQ(A3[i * 7 + j], i <= 1 && j <= 2 ? 1 / v : v);
      EXPECT_EQ(B3[i * 7 + j], eb(i, j) - (i == 2 && j == 3 ? 10 : 0));
    }
  GA_Recip(b);
  EXPECT_DOUBLE_EQ(whole(b, 5, 7)[0], 1.0);
  // Select: the largest and smallest of ea, with their subscripts.
  put_whole(a, 5, 7, ea);
  double v;
  int at[2];
  NGA_Select_elem(a, name("max"), &v, at);
  EXPECT_EQ(v, ea(4, 6));
  EXPECT_EQ(at[0], 4);
  EXPECT_EQ(at[1], 6);
  NGA_Select_elem(a, name("min"), &v, at);
  EXPECT_EQ(v, ea(0, 6));
  EXPECT_EQ(at[0], 0);
  expect_periodic_window(a, ea, NGA_Periodic_get, NGA_Periodic_acc, NGA_Periodic_put);
  // Locate_region: the owners' parts tile the patch, each owner named once.
  int rlo[2] = {1, 1}, rhi[2] = {4, 5};
  std::vector<int> map(4 * GA_Nnodes()), procs(GA_Nnodes());
  const int owners = NGA_Locate_region(a, rlo, rhi, map.data(), procs.data());
  int covered = 0;
  for (int k = 0; k < owners; ++k) {
    int lo[2], hi[2];
    NGA_Distribution(a, procs[k], lo, hi);
    for (int d = 0; d < 2; ++d) {
      EXPECT_EQ(map[k * 4 + d], std::max(lo[d], rlo[d]));
      EXPECT_EQ(map[k * 4 + 2 + d], std::min(hi[d], rhi[d]));
    }
    covered += (map[k * 4 + 2] - map[k * 4] + 1) * (map[k * 4 + 3] - map[k * 4 + 1] + 1);
  }
  EXPECT_EQ(covered, 4 * 5);
  EXPECT_EQ(GA_Has_ghosts(a), 0);
  EXPECT_EQ(NGA_Get_dimension(a), 2);
  EXPECT_EQ(GA_Get_dimension(a), 2);
  const double t0 = GA_Wtime();
  EXPECT_GE(NGA_Wtime(), t0);
}

TEST(Ga64, SixtyFourBitFormsMatchTheIntForms) {
  const int np = GA_Nnodes(), me = GA_Nodeid();
  std::vector<int64_t> map;
  for (int b = 0; b < np; ++b) map.push_back(2 * b);
  map.push_back(0);
  int64_t dims[2] = {2 * np, 5}, block[2] = {np, 1}, width[2] = {1, 1};
  const int w = NGA_Pgroup_get_world();
  const int a = NGA_Create_ghosts_irreg_config64(C_DBL, 2, dims, width, name("a"), block, map.data(), w);
  const int b = NGA_Create_irreg_config64(C_DBL, 2, dims, name("b"), block, map.data(), w);
  const int c = NGA_Create_ghosts_irreg64(C_DBL, 2, dims, width, name("c"), block, map.data());
  const int d = NGA_Create_ghosts_config64(C_DBL, 2, dims, width, name("d"), nullptr, w);
  std::vector<int> map32(map.begin(), map.end());
  int dims32[2] = {2 * np, 5}, block32[2] = {np, 1}, width32[2] = {1, 1};
  const int e = NGA_Create_ghosts_irreg_config(C_DBL, 2, dims32, width32, name("e"), block32, map32.data(), w);
  const int h = GA_Create_handle();
  GA_Set_data64(h, 2, dims, C_DBL);
  GA_Set_chunk64(h, nullptr);
  GA_Set_ghosts64(h, width);
  GA_Set_irreg_distr64(h, map.data(), block);
  GA_Allocate(h);
  const int k = GA_Create_handle();
  NGA_Set_data64(k, 2, dims, C_DBL);
  NGA_Set_ghosts64(k, width);
  NGA_Set_irreg_distr64(k, map.data(), block);
  GA_Allocate(k);
  for (int g : {a, b, c, e, h, k})
    for (int p = 0; p < np; ++p) {
      int64_t sub[2] = {2 * p + 1, 4};
      EXPECT_EQ(NGA_Locate64(g, sub), p);
    }
  EXPECT_EQ(NGA_Ndim(d), 2);
  EXPECT_EQ(NGA_Valid_handle(d), 1);
  EXPECT_STREQ(NGA_Inquire_name(d), "d");
  // Patch arithmetic in 64-bit form: b = 2, a[lo..hi] = 3, c = 2a + 5b on the patch.
  double two = 2, three = 3, half = 0.5, one = 1, five = 5;
  int64_t lo[2] = {0, 1}, hi[2] = {2 * np - 1, 3};
  GA_Zero(a);
  NGA_Fill_patch64(b, lo, hi, &two);
  NGA_Fill_patch64(a, lo, hi, &three);
  NGA_Scale_patch64(a, lo, hi, &half);  // 1.5
  NGA_Zero_patch64(c, lo, hi);
  NGA_Add_patch64(&two, a, lo, hi, &five, b, lo, hi, c, lo, hi);  // 3 + 10 = 13
  const double patch_elems = 2.0 * np * 3;
  EXPECT_DOUBLE_EQ(NGA_Ddot_patch64(c, 'N', lo, hi, b, 'N', lo, hi), 13 * 2 * patch_elems);
  NGA_Copy_patch64('N', c, lo, hi, d, lo, hi);
  EXPECT_DOUBLE_EQ(NGA_Ddot_patch64(d, 'N', lo, hi, d, 'N', lo, hi), 169 * patch_elems);
  // Strided and element lists, 64-bit.
  GA_Zero(e);
  int64_t slo[2] = {0, 0}, shi[2] = {2 * np - 1, 4}, skip[2] = {2, 2}, sld[1] = {3};
  std::vector<double> sv(static_cast<size_t>(np) * 3, 1.0), back(static_cast<size_t>(np) * 3);
  if (me == 0) NGA_Strided_put64(e, slo, shi, skip, sv.data(), sld);
  GA_Sync();
  NGA_Strided_acc64(e, slo, shi, skip, sv.data(), sld, &one);
  GA_Sync();
  NGA_Strided_get64(e, slo, shi, skip, back.data(), sld);
  for (double x : back) EXPECT_EQ(x, 1.0 + np);
  int64_t s0[2] = {0, 0}, s1[2] = {2 * np - 1, 4}, s2[2] = {1, 1};
  int64_t* ptrs[3] = {s0, s1, s2};
  double vals[3] = {7, 8, 9}, got[3];
  GA_Sync();
  if (me == 0) NGA_Scatter64(e, vals, ptrs, 3);
  GA_Sync();
  NGA_Gather64(e, got, ptrs, 3);
  EXPECT_EQ(got[0], 7);
  EXPECT_EQ(got[1], 8);
  EXPECT_EQ(got[2], 9);
  GA_Sync();
  NGA_Scatter_acc64(e, vals, ptrs, 3, &one);
  int64_t flat[6] = {0, 0, 2 * np - 1, 4, 1, 1};
  NGA_Scatter_acc_flat64(e, vals, flat, 3, &one);
  GA_Sync();
  NGA_Gather_flat64(e, got, flat, 3);
  for (int t = 0; t < 3; ++t) EXPECT_EQ(got[t], vals[t] * (1 + 2 * np));
  GA_Sync();
  if (me == 0) NGA_Scatter_flat64(e, vals, flat, 1);
  GA_Sync();
  NGA_Gather_flat64(e, got, flat, 1);
  EXPECT_EQ(got[0], 7);
  int64_t gd[2], gld[1];
  double* p;
  NGA_Access_ghosts64(e, gd, &p, gld);
  EXPECT_EQ(gd[0], 4);  // two rows and a ghost row on each side
  EXPECT_EQ(gd[1], 7);
  EXPECT_EQ(gld[0], 7);
  NGA_Release_ghosts(e);
  GA_Sync();
  for (int g : {k, h, e, d, c, b, a}) GA_Destroy(g);
}

TEST(GaAliases, NgaGroupAndRuntimeSpellings) {
  const int np = NGA_Nnodes(), me = NGA_Nodeid();
  EXPECT_EQ(NGA_Initialized(), 1);
  const int halves = NGA_Pgroup_split(NGA_Pgroup_get_world(), np > 1 ? 2 : 1);
  const int size = NGA_Pgroup_nnodes(halves);
  const int expect_size = np == 1 ? 1 : (me < (np + 1) / 2 ? (np + 1) / 2 : np / 2);
  EXPECT_EQ(size, expect_size);
  EXPECT_EQ(NGA_Pgroup_nodeid(halves), me < (np + 1) / 2 ? me : me - (np + 1) / 2);
  EXPECT_EQ(GA_Get_pgroup_size(halves), expect_size);
  EXPECT_EQ(NGA_Get_pgroup_size(halves), expect_size);
  EXPECT_EQ(GA_Get_pgroup_size(NGA_Pgroup_get_world()), np);
  {
    int dims[1] = {2 * expect_size};
    const int on_half = NGA_Create_config(C_DBL, 1, dims, name("on half"), nullptr, halves);
    EXPECT_EQ(GA_Get_pgroup(on_half), halves);
    EXPECT_EQ(GA_Get_pgroup(on_half), NGA_Get_pgroup(on_half));
    GA_Destroy(on_half);
  }
  double d = 1;
  float f = 2;
  int i = 3;
  long l = 4;
  NGA_Pgroup_dgop(halves, &d, 1, name("+"));
  NGA_Pgroup_fgop(halves, &f, 1, name("+"));
  NGA_Pgroup_igop(halves, &i, 1, name("+"));
  NGA_Pgroup_lgop(halves, &l, 1, name("+"));
  EXPECT_EQ(d, size);
  EXPECT_EQ(f, 2.f * size);
  EXPECT_EQ(i, 3 * size);
  EXPECT_EQ(l, 4L * size);
  NGA_Pgroup_sync(halves);
  NGA_Fence();
  NGA_Init_fence();
  EXPECT_EQ(NGA_Uses_ma(), 0);
  EXPECT_EQ(NGA_Memory_limited(), 0);
  EXPECT_EQ(NGA_Inquire_memory(), GA_Inquire_memory());
  EXPECT_EQ(NGA_Pgroup_destroy(halves), 1);
}

TEST(GaAliases, NgaSpellingsDoTheSame) {
  int dims[1] = {2 * GA_Nnodes()}, width[1] = {1};
  const int g = NGA_Create_handle();
  NGA_Set_data(g, 1, dims, C_INT);
  NGA_Set_ghosts(g, width);
  NGA_Set_chunk(g, nullptr);
  NGA_Set_array_name(g, name("alias"));
  NGA_Set_pgroup(g, GA_Pgroup_get_world());
  NGA_Allocate(g);
  EXPECT_STREQ(GA_Inquire_name(g), "alias");
  const int h = NGA_Duplicate(g, name("alias2"));
  int five = 5;
  NGA_Fill(h, &five);
  NGA_Update_ghosts(h);
  int lo[1], hi[1];
  NGA_Distribution(h, GA_Nodeid(), lo, hi);
  int* p;
  int gd[1], ld[1];
  EXPECT_EQ(NGA_Has_ghosts(h), 1);
  NGA_Access_ghosts(h, gd, &p, ld);
  EXPECT_EQ(gd[0], hi[0] - lo[0] + 3);
  for (int i = 0; i < gd[0]; ++i) EXPECT_EQ(p[i], 5);  // periodic: every ghost is some element
  NGA_Release_ghosts(h);
  int s = 2;
  NGA_Igop(&s, 1, name("*"));
  EXPECT_EQ(s, 1 << GA_Nnodes());
  ASSERT_EQ(GA_Create_mutexes(1), 1);
  EXPECT_EQ(NGA_Destroy_mutexes(), 1);
  NGA_Destroy(h);
  NGA_Destroy(g);
}


// The symmetric matrix H(i, j) = cos(i + 2 j) + cos(j + 2 i) for GA_Diag's H v = lambda S v.
double sym(int i, int j) { return std::cos(i + 2.0 * j) + std::cos(j + 2.0 * i); }

// GA_Spd_invert against A A^-1 = I (and its report on an indefinite matrix); GA_Diag, _seq and
// _reuse against H V = S V Lambda with V^T S V = I; GA_Diag_std_seq against GA_Diag_std.
TEST(GaLinalg, SpdInvertGeneralizedEigenAndSeqForms) {
  const int n = 7;
  int dims[2] = {n, n};
  auto make = [&](const char* label, double (*f)(int, int)) {
    const int g = NGA_Create(C_DBL, 2, dims, name(label), nullptr);
    put_whole(g, n, n, f);
    return g;
  };
  const int s = make("S", spd), h = make("H", sym), v = make("V", sym), inv = make("S^-1", spd);
  EXPECT_EQ(GA_Spd_invert(inv), 0);
  const std::vector<double> I = whole(inv, n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double p = 0;
      for (int k = 0; k < n; ++k) p += spd(i, k) * I[k * n + j];
      EXPECT_NEAR(p, i == j ? 1.0 : 0.0, 1e-12) << i << ", " << j;
    }
  const int bad = make("H, indefinite", sym);
  const std::vector<double> H = whole(bad, n, n);
  EXPECT_GT(GA_Spd_invert(bad), 0);
  EXPECT_EQ(whole(bad, n, n), H);  // unchanged

  auto check_generalized = [&](const std::vector<double>& w, double (*hf)(int, int), const char* what) {
    const std::vector<double> V = whole(v, n, n);
    for (int e = 0; e < n; ++e) {
      if (e > 0) {
        EXPECT_LE(w[e - 1], w[e]) << what;
      }
      for (int i = 0; i < n; ++i) {
        double hv = 0, sv = 0;
        for (int k = 0; k < n; ++k) {
          hv += hf(i, k) * V[k * n + e];
          sv += spd(i, k) * V[k * n + e];
        }
        EXPECT_NEAR(hv, w[e] * sv, 1e-10) << what << ": column " << e;
      }
      for (int f = 0; f < n; ++f) {  // V^T S V = I
        double vsv = 0;
        for (int i = 0; i < n; ++i)
          for (int k = 0; k < n; ++k) vsv += V[i * n + e] * spd(i, k) * V[k * n + f];
        EXPECT_NEAR(vsv, e == f ? 1.0 : 0.0, 1e-10) << what << ": " << e << ", " << f;
      }
    }
  };
  std::vector<double> w(n), w_seq(n), w_reuse(n);
  GA_Diag(h, s, v, w.data());
  check_generalized(w, sym, "GA_Diag");
  GA_Diag_seq(h, s, v, w_seq.data());
  check_generalized(w_seq, sym, "GA_Diag_seq");
  GA_Diag_reuse(0, h, s, v, w_reuse.data());
  check_generalized(w_reuse, sym, "GA_Diag_reuse(0)");
  // Reusing S's factor for another H: H2 = 2 H has twice the eigenvalues.
  double two = 2;
  GA_Scale(h, &two);
  GA_Diag_reuse(1, h, s, v, w_reuse.data());
  for (int e = 0; e < n; ++e) EXPECT_NEAR(w_reuse[e], 2 * w[e], 1e-10);
  const std::vector<double> before = whole(v, n, n);
  GA_Diag_reuse(-1, h, s, v, nullptr);  // frees only: V untouched
  EXPECT_EQ(whole(v, n, n), before);
  // GA_Diag_std_seq is GA_Diag_std.
  std::vector<double> ws(n), ws_seq(n);
  GA_Diag_std(s, v, ws.data());
  GA_Diag_std_seq(s, v, ws_seq.data());
  for (int e = 0; e < n; ++e) EXPECT_NEAR(ws[e], ws_seq[e], 1e-12);
  for (int g : {s, h, v, inv, bad}) GA_Destroy(g);
}

// GA computes complex abs, reciprocal and division by Smith's scaling, and GA's own test programs
// (elempatch) compare those results exactly: the same bits here, for parts of either size order.
TEST(GaElementwise, ComplexAbsRecipDivideAreSmithsFormulas) {
  const int n = 64;
  int dims[1] = {n};
  const int a = NGA_Create(C_DCPL, 1, dims, name("a"), nullptr), b = NGA_Create(C_DCPL, 1, dims, name("b"), nullptr);
  const int c = NGA_Create(C_DCPL, 1, dims, name("c"), nullptr);
  std::vector<DoubleComplex> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[static_cast<size_t>(i)] = DoubleComplex{0.37 * (i + 1) - 7.1, 1.3 / (i + 2.0)};
    y[static_cast<size_t>(i)] = i % 2 ? DoubleComplex{0.9 + 0.11 * i, -0.3 * i} : DoubleComplex{-2.3 / (i + 1.0), 0.7 + 0.05 * i};
  }
  int lo[1] = {0}, hi[1] = {n - 1};
  if (GA_Nodeid() == 0) {
    NGA_Put(a, lo, hi, x.data(), nullptr);
    NGA_Put(b, lo, hi, y.data(), nullptr);
  }
  GA_Sync();
  auto divide = [](DoubleComplex p, DoubleComplex q) {
    if (std::fabs(q.real) >= std::fabs(q.imag)) {
      const double t = q.imag / q.real, s = 1.0 / (q.real * (1.0 + t * t));
      return DoubleComplex{(p.real + p.imag * t) * s, (p.imag - p.real * t) * s};
    }
    const double t = q.real / q.imag, s = 1.0 / (q.imag * (1.0 + t * t));
    return DoubleComplex{(p.real * t + p.imag) * s, (p.imag * t - p.real) * s};
  };
  auto check = [&](int g, auto want, const char* what) {
    std::vector<DoubleComplex> got(n);
    NGA_Get(g, lo, hi, got.data(), nullptr);
    for (int i = 0; i < n; ++i) {
      const DoubleComplex w = want(i);
      EXPECT_EQ(got[static_cast<size_t>(i)].real, w.real) << what << " " << i;
      EXPECT_EQ(got[static_cast<size_t>(i)].imag, w.imag) << what << " " << i;
    }
  };
  GA_Elem_divide(a, b, c);
  check(c, [&](int i) { return divide(x[static_cast<size_t>(i)], y[static_cast<size_t>(i)]); }, "divide");
  GA_Recip(b);
  check(b, [&](int i) { return divide(DoubleComplex{1, 0}, y[static_cast<size_t>(i)]); }, "recip");
  GA_Abs_value(a);
  check(a, [&](int i) {
    const double re = x[static_cast<size_t>(i)].real, im = x[static_cast<size_t>(i)].imag;
    if (std::fabs(re) >= std::fabs(im)) return DoubleComplex{std::fabs(re) * std::sqrt(1.0 + (im / re) * (im / re)), 0};
    return DoubleComplex{std::fabs(im) * std::sqrt(1.0 + (re / im) * (re / im)), 0};
  }, "abs");
  for (int g : {a, b, c}) GA_Destroy(g);
}

// GA's "read_cache" property, which Debian's GA 5.8.2 accepts as it does "read_only": a promise
// to only read the array until GA_Unset_property. Reads while it is set see what was put
// before; once it is unset the array takes writes again, and reads see them.
TEST(GaProperties, ReadCacheIsAcceptedAndReadsStayCurrent) {
  const int m = 7, n = 5;
  int dims[2] = {m, n};
  const int g = NGA_Create(C_DBL, 2, dims, name("cached"), nullptr);
  put_whole(g, m, n, fa);
  NGA_Set_property(g, name("read_cache"));
  const std::vector<double> seen = whole(g, m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(seen[i * n + j], fa(i, j)) << "(" << i << ", " << j << ")";
  NGA_Unset_property(g);
  put_whole(g, m, n, spd);
  GA_Set_property(g, name("read_cache"));
  const std::vector<double> after = whole(g, m, n);
  GA_Unset_property(g);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(after[i * n + j], spd(i, j)) << "(" << i << ", " << j << ")";
  GA_Destroy(g);
}

}  // namespace
