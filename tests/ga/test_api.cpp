// GA's C API on Armada, function by function, against GA's documented semantics: every result
// is checked against a value computed here independently (a formula, or a serial loop).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "base/error_codes.hpp"  // ga/src: the exit code of each error kind
#include "ga-mpi.h"
#include "ga.h"
#include "ga_test_util.hpp"
#include "macdecls.h"

namespace {

using ga_test::name;
using ga_test::whole;

double f2(int i, int j) { return i * 100.0 + j; }

// A GA call's error ends the job (GA_Error style) with the exit code of its kind: the linalg
// C API's code (so a bad argument ends it with 1, as before).
TEST(GaErrors, EachErrorKindHasItsAbortCode) {
  namespace rma = armada::rma;
  for (std::size_t i = 0; i < rma::error_kind_count; ++i) {
    const auto kind = static_cast<rma::ErrorKind>(i);
    EXPECT_EQ(armada::ga::abort_codes[kind], armada::linalg::capi::error_codes[kind]) << rma::to_string(kind);
    EXPECT_NE(armada::ga::abort_codes[kind], 0) << "an error never ends the job with 0";
  }
  EXPECT_EQ(armada::ga::abort_codes[rma::ErrorKind::argument], 1);
  EXPECT_EQ(armada::ga::abort_codes[rma::ErrorKind::not_positive_definite], ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE);
}

/// A 2-D double array filled with f2, synced.
int filled_2d(int m, int n, char* label = name("a")) {
  int dims[2] = {m, n};
  const int g = NGA_Create(C_DBL, 2, dims, label, nullptr);
  ga_test::put_whole(g, m, n, f2);
  return g;
}

TEST(GaRuntime, NodeidNnodesMatchMpi) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(GA_Nodeid(), rank);
  EXPECT_EQ(GA_Nnodes(), size);
  EXPECT_EQ(GA_Initialized(), 1);
  int cr, cs;
  MPI_Comm_rank(GA_MPI_Comm(), &cr);
  MPI_Comm_size(GA_MPI_Comm(), &cs);
  EXPECT_EQ(cr, rank);
  EXPECT_EQ(cs, size);
  int procs = 0;
  for (int node = 0; node < GA_Cluster_nnodes(); ++node) procs += GA_Cluster_nprocs(node);
  EXPECT_EQ(procs, size);
  EXPECT_EQ(GA_Cluster_procid(GA_Cluster_nodeid(), 0) <= rank, true);
}

TEST(GaCreate, RegularDistributionCoversTheArrayOnce) {
  int dims[2] = {13, 7}, chunk[2] = {-1, -1};
  const int g = NGA_Create(C_DBL, 2, dims, name("reg"), chunk);
  ga_test::expect_shape(g, C_DBL, {13, 7});
  EXPECT_STREQ(GA_Inquire_name(g), "reg");
  std::vector<int> owner(13 * 7, -1);
  for (int p = 0; p < GA_Nnodes(); ++p) {
    int lo[2], hi[2];
    NGA_Distribution(g, p, lo, hi);
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j) {
        EXPECT_EQ(owner[i * 7 + j], -1) << "element owned twice";
        owner[i * 7 + j] = p;
      }
  }
  for (int i = 0; i < 13; ++i)
    for (int j = 0; j < 7; ++j) {
      int sub[2] = {i, j};
      EXPECT_EQ(owner[i * 7 + j], NGA_Locate(g, sub));
    }
  GA_Destroy(g);
  EXPECT_EQ(GA_Valid_handle(g), 0);
}

TEST(GaCreate, IrregularMapIsHonoured) {
  const int np = GA_Nnodes();
  // Rows split at 0, 3, 5 ... (np blocks), one block of columns.
  std::vector<int> map;
  for (int b = 0; b < np; ++b) map.push_back(b * 3);
  map.push_back(0);
  int dims[2] = {3 * np + 2, 4}, block[2] = {np, 1};
  const int g = NGA_Create_irreg(C_INT, 2, dims, name("irr"), block, map.data());
  for (int p = 0; p < np; ++p) {
    int lo[2], hi[2];
    NGA_Distribution(g, p, lo, hi);
    EXPECT_EQ(lo[0], p * 3);
    EXPECT_EQ(hi[0], p == np - 1 ? dims[0] - 1 : p * 3 + 2);
    EXPECT_EQ(lo[1], 0);
    EXPECT_EQ(hi[1], 3);
  }
  GA_Destroy(g);
}

TEST(GaCreate, HandlePathEqualsNgaCreate) {
  int dims[3] = {5, 6, 4}, chunk[3] = {5, -1, -1};
  const int g = GA_Create_handle();
  NGA_Set_data(g, 3, dims, C_LONG);
  GA_Set_chunk(g, chunk);
  GA_Set_array_name(g, name("planned"));
  EXPECT_EQ(GA_Allocate(g), 1);
  ga_test::expect_shape(g, C_LONG, {5, 6, 4});
  EXPECT_STREQ(GA_Inquire_name(g), "planned");
  // chunk[0] = 5: dimension 0 is never split.
  for (int p = 0; p < GA_Nnodes(); ++p) {
    int lo[3], hi[3];
    NGA_Distribution(g, p, lo, hi);
    if (hi[0] >= lo[0]) {
      EXPECT_EQ(lo[0], 0);
      EXPECT_EQ(hi[0], 4);
    }
  }
  long v = 3;
  GA_Fill(g, &v);
  EXPECT_EQ(GA_Ldot(g, g), 9L * 5 * 6 * 4);
  GA_Destroy(g);
}

TEST(GaCreate, DuplicateHasTheShapeNotTheData) {
  const int a = filled_2d(9, 5);
  const int b = GA_Duplicate(a, name("dup"));
  EXPECT_NE(a, b);
  ga_test::expect_shape(b, C_DBL, {9, 5});
  for (int p = 0; p < GA_Nnodes(); ++p) {
    int la[2], ha[2], lb[2], hb[2];
    NGA_Distribution(a, p, la, ha);
    NGA_Distribution(b, p, lb, hb);
    EXPECT_EQ(std::vector<int>(la, la + 2), std::vector<int>(lb, lb + 2));
    EXPECT_EQ(std::vector<int>(ha, ha + 2), std::vector<int>(hb, hb + 2));
  }
  GA_Copy(a, b);
  EXPECT_EQ(whole(b, 9, 5), whole(a, 9, 5));
  GA_Destroy(b);
  GA_Destroy(a);
}

TEST(GaPatch, PutGetAccWithLeadingDimension) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int dims[2] = {11, 9};
  const int g = NGA_Create(C_DBL, 2, dims, name("p"), nullptr);
  GA_Zero(g);
  // A padded buffer (ld 12 > 5 columns): rank 0 puts rows 2..7, columns 3..7.
  std::vector<double> buf(6 * 12, -1);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j) buf[i * 12 + j] = f2(i + 2, j + 3);
  int lo[2] = {2, 3}, hi[2] = {7, 7}, ld[1] = {12};
  if (me == 0) NGA_Put(g, lo, hi, buf.data(), ld);
  GA_Sync();
  double alpha = 0.5;
  std::vector<double> ones(6 * 12, 2.0);
  NGA_Acc(g, lo, hi, ones.data(), ld, &alpha);  // every rank adds 0.5 * 2
  GA_Sync();
  const std::vector<double> all = whole(g, 11, 9);
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 9; ++j) {
      const bool in = i >= 2 && i <= 7 && j >= 3 && j <= 7;
      EXPECT_EQ(all[i * 9 + j], in ? f2(i, j) + np : 0.0) << i << "," << j;
    }
  // A get into a padded buffer leaves the padding alone.
  std::vector<double> back(6 * 12, -7);
  NGA_Get(g, lo, hi, back.data(), ld);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 12; ++j) EXPECT_EQ(back[i * 12 + j], j < 5 ? f2(i + 2, j + 3) + np : -7.0);
  GA_Sync();
  GA_Destroy(g);
}

// ld[d] is the buffer's extent in dimension d + 1 and only enters the strides of dimensions
// 0 .. d: a patch that is one element thick in all of them never uses it, whatever its value
// (GA never checks ld; GA's testc.c accumulates a whole row with ld {1}, ntestc.c gets a line
// of a 4-D array with an ld smaller than the line).
TEST(GaPatch, LeadingDimensionOfSingleIndexDimensionsIsNotUsed) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int dims[2] = {7, 10};
  const int g = NGA_Create(C_DBL, 2, dims, name("row"), nullptr);
  GA_Zero(g);
  std::vector<double> row(10);
  for (int j = 0; j < 10; ++j) row[j] = f2(3, j);
  int lo[2] = {3, 0}, hi[2] = {3, 9}, one[1] = {1};
  if (me == 0) NGA_Put(g, lo, hi, row.data(), one);
  GA_Sync();
  double alpha = 1.0;
  NGA_Acc(g, lo, hi, row.data(), one, &alpha);  // every rank adds the row once more
  GA_Sync();
  std::vector<double> back(10, -1);
  NGA_Get(g, lo, hi, back.data(), one);
  for (int j = 0; j < 10; ++j) EXPECT_EQ(back[j], f2(3, j) * (1 + np)) << j;
  const std::vector<double> all = whole(g, 7, 10);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 10; ++j) EXPECT_EQ(all[i * 10 + j], i == 3 ? f2(3, j) * (1 + np) : 0.0) << i << "," << j;
  GA_Sync();
  GA_Destroy(g);

  // 4-D: a line along the last dimension, ld {5, 1, 6} (ld[2] = 6 < the line's 8 elements).
  int dims4[4] = {2, 3, 4, 8};
  const int g4 = NGA_Create(C_INT, 4, dims4, name("line"), nullptr);
  GA_Zero(g4);
  int lo4[4] = {1, 2, 3, 0}, hi4[4] = {1, 2, 3, 7}, ld4[3] = {5, 1, 6};
  std::vector<int> line(8), got(8, -1);
  std::iota(line.begin(), line.end(), 40);
  if (me == 0) NGA_Put(g4, lo4, hi4, line.data(), ld4);
  GA_Sync();
  NGA_Get(g4, lo4, hi4, got.data(), ld4);
  EXPECT_EQ(got, line);
  GA_Sync();
  GA_Destroy(g4);
}

TEST(GaPatch, SixtyFourBitForms) {
  int64_t dims[2] = {10, 6};
  const int g = NGA_Create64(C_DBL, 2, dims, name("p64"), nullptr);
  GA_Zero(g);
  int type, ndim;
  int64_t got[2];
  NGA_Inquire64(g, &type, &ndim, got);
  EXPECT_EQ(got[0], 10);
  int64_t lo[2] = {1, 1}, hi[2] = {8, 4}, ld[1] = {4};
  std::vector<double> v(8 * 4);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) v[i * 4 + j] = f2(i + 1, j + 1);
  if (GA_Nodeid() == 0) NGA_Put64(g, lo, hi, v.data(), ld);
  GA_Sync();
  double one = 1;
  NGA_Acc64(g, lo, hi, v.data(), ld, &one);
  GA_Sync();
  std::vector<double> back(8 * 4);
  NGA_Get64(g, lo, hi, back.data(), ld);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(back[i], v[i] * (1 + GA_Nnodes()));
  int64_t plo[2], phi[2];
  int64_t total = 0;
  for (int p = 0; p < GA_Nnodes(); ++p) {
    NGA_Distribution64(g, p, plo, phi);
    if (phi[0] >= plo[0]) total += (phi[0] - plo[0] + 1) * (phi[1] - plo[1] + 1);
  }
  EXPECT_EQ(total, 60);
  GA_Sync();
  GA_Destroy(g);
}

TEST(GaPatch, StridedAndNonblocking) {
  int dims[2] = {12, 10};
  const int g = NGA_Create(C_INT, 2, dims, name("s"), nullptr);
  GA_Zero(g);
  // Every 3rd row, every 2nd column of [1, 10] x [0, 9]: rows 1,4,7,10; columns 0,2,4,6,8.
  int lo[2] = {1, 0}, hi[2] = {10, 9}, skip[2] = {3, 2}, ld[1] = {5};
  std::vector<int> v(4 * 5);
  for (int i = 0; i < 20; ++i) v[i] = i + 1;
  if (GA_Nodeid() == 0) NGA_Strided_put(g, lo, hi, skip, v.data(), ld);
  GA_Sync();
  int alpha = 2;
  NGA_Strided_acc(g, lo, hi, skip, v.data(), ld, &alpha);
  GA_Sync();
  std::vector<int> all(120);
  int alo[2] = {0, 0}, ahi[2] = {11, 9}, ald[1] = {10};
  ga_nbhdl_t h;
  NGA_NbGet(g, alo, ahi, all.data(), ald, &h);
  NGA_NbWait(&h);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 10; ++j) {
      const bool hit = i >= 1 && (i - 1) % 3 == 0 && j % 2 == 0;
      const int expect = hit ? ((i - 1) / 3 * 5 + j / 2 + 1) * (1 + 2 * GA_Nnodes()) : 0;
      EXPECT_EQ(all[i * 10 + j], expect) << i << "," << j;
    }
  std::vector<int> sub(20);
  NGA_Strided_get(g, lo, hi, skip, sub.data(), ld);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(sub[i], v[i] * (1 + 2 * GA_Nnodes()));
  GA_Sync();
  // Nonblocking put of one row per rank, and nonblocking acc of ones everywhere.
  const int me = GA_Nodeid(), np = GA_Nnodes();
  std::vector<int> row(10), ones(120, 1);
  std::vector<ga_nbhdl_t> hs;
  for (int i = me; i < 12; i += np) {
    for (int j = 0; j < 10; ++j) row[j] = i * 10 + j;
    int rlo[2] = {i, 0}, rhi[2] = {i, 9};
    ga_nbhdl_t hp;
    NGA_NbPut(g, rlo, rhi, row.data(), ald, &hp);
    NGA_NbWait(&hp);  // row is reused
  }
  GA_Sync();
  int one = 1;
  NGA_NbAcc(g, alo, ahi, ones.data(), ald, &one, &h);
  NGA_NbWait(&h);
  NGA_NbWait(&h);  // a completed handle returns at once
  GA_Sync();
  NGA_Get(g, alo, ahi, all.data(), ald);
  for (int i = 0; i < 120; ++i) EXPECT_EQ(all[i], i + np);
  GA_Sync();
  GA_Destroy(g);
}

TEST(GaAccess, ReleaseUpdateIsSeenByEveryone) {
  int dims[2] = {8, 6};
  const int g = NGA_Create(C_DBL, 2, dims, name("acc"), nullptr);
  GA_Zero(g);
  int lo[2], hi[2];
  NGA_Distribution(g, GA_Nodeid(), lo, hi);
  if (hi[0] >= lo[0]) {
    double* p = nullptr;
    int ld[1];
    NGA_Access(g, lo, hi, &p, ld);
    ASSERT_NE(p, nullptr);
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j) p[(i - lo[0]) * ld[0] + (j - lo[1])] = f2(i, j);
    NGA_Release_update(g, lo, hi);
  }
  GA_Sync();
  const std::vector<double> all = whole(g, 8, 6);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_EQ(all[i * 6 + j], f2(i, j));
  // An interior element through NGA_Access of a one-element patch.
  if (hi[0] >= lo[0]) {
    double* p = nullptr;
    int ld[1];
    NGA_Access(g, hi, hi, &p, ld);
    EXPECT_EQ(*p, f2(hi[0], hi[1]));
    NGA_Release(g, hi, hi);
  }
  GA_Sync();
  GA_Destroy(g);
}

// GA's NGA_Release and NGA_Release_update do nothing, so a GA program may release one access
// twice (GA's gatscat.c does, and reads the block after) or release with no access: the job goes
// on and the block is unchanged.
TEST(GaAccess, ReleaseWithoutAnOutstandingAccessDoesNothing) {
  int dims[2] = {6, 5};
  const int g = filled_2d(6, 5, name("rel"));
  int lo[2], hi[2];
  NGA_Distribution(g, GA_Nodeid(), lo, hi);
  if (hi[0] >= lo[0]) {
    NGA_Release(g, lo, hi);  // no access yet
    double* p = nullptr;
    int ld[1];
    NGA_Access(g, lo, hi, &p, ld);
    NGA_Release(g, lo, hi);
    NGA_Release(g, lo, hi);         // a second release of the same access
    NGA_Release_update(g, lo, hi);  // and an update one
    EXPECT_EQ(p[0], f2(lo[0], lo[1]));
    double* q = nullptr;
    NGA_Access(g, lo, hi, &q, ld);  // access works again, and pairs as before
    EXPECT_EQ(q, p);
    NGA_Release(g, lo, hi);
  }
  GA_Sync();
  const std::vector<double> all = whole(g, dims[0], dims[1]);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(all[i * 5 + j], f2(i, j));
  GA_Destroy(g);
}

TEST(GaGhosts, UpdateGhostsWrapsAround) {
  const int n = 10;
  int dims[2] = {n, n}, width[2] = {1, 1};
  const int g = NGA_Create_ghosts(C_DBL, 2, dims, width, name("gh"), nullptr);
  int lo[2], hi[2];
  NGA_Distribution(g, GA_Nodeid(), lo, hi);
  if (hi[0] >= lo[0]) {
    double* p;
    int ld[1];
    NGA_Access(g, lo, hi, &p, ld);
    for (int i = lo[0]; i <= hi[0]; ++i)
      for (int j = lo[1]; j <= hi[1]; ++j) p[(i - lo[0]) * ld[0] + (j - lo[1])] = f2(i, j);
    NGA_Release_update(g, lo, hi);
  }
  GA_Update_ghosts(g);
  if (hi[0] >= lo[0]) {
    double* p;
    int gd[2], ld[1];
    NGA_Access_ghosts(g, gd, &p, ld);
    EXPECT_EQ(gd[0], hi[0] - lo[0] + 3);
    EXPECT_EQ(gd[1], hi[1] - lo[1] + 3);
    for (int a = 0; a < gd[0]; ++a)
      for (int b = 0; b < gd[1]; ++b) {
        const int i = (lo[0] - 1 + a + n) % n, j = (lo[1] - 1 + b + n) % n;
        EXPECT_EQ(p[a * ld[0] + b], f2(i, j)) << a << "," << b;
      }
    NGA_Release_ghosts(g);
  }
  GA_Sync();
  GA_Destroy(g);
}

// GA reduces with ARMCI's operators, so its integer gops take ARMCI's bitwise and logical names
// too: NWChem's SCF calls ga_igop(..., 'or') on every run.
TEST(GaCollective, IntegerGopsTakeArmcisBitwiseAndLogicalNames) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int bits[3] = {1 << me, 1 << me, ~0};
  GA_Igop(bits, 1, name("or"));
  GA_Igop(bits + 1, 1, name("xor"));
  GA_Igop(bits + 2, 1, name("and"));
  EXPECT_EQ(bits[0], (1 << np) - 1);
  EXPECT_EQ(bits[1], (1 << np) - 1);
  EXPECT_EQ(bits[2], ~0);
  long logical[2] = {me == 0 ? 5 : 0, 7};
  GA_Lgop(logical, 1, name("||"));
  GA_Lgop(logical + 1, 1, name("&&"));
  EXPECT_EQ(logical[0], 1);  // 0 or 1, also on one process
  EXPECT_EQ(logical[1], 1);
  int flag = me == np - 1;
  GA_Gop(C_INT, &flag, 1, name("or"));
  EXPECT_EQ(flag, 1);
}

TEST(GaCollective, GopAndBroadcast) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  double d[3] = {double(me), -double(me) - 1, 1.5};
  GA_Dgop(d, 3, name("+"));
  EXPECT_EQ(d[0], np * (np - 1) / 2.0);
  EXPECT_EQ(d[1], -(np * (np + 1) / 2.0));
  EXPECT_EQ(d[2], 1.5 * np);
  int i[2] = {me, me};
  GA_Igop(i, 1, name("max"));
  GA_Igop(i + 1, 1, name("min"));
  EXPECT_EQ(i[0], np - 1);
  EXPECT_EQ(i[1], 0);
  long l = me + 1;
  GA_Lgop(&l, 1, name("*"));
  long fact = 1;
  for (int r = 1; r <= np; ++r) fact *= r;
  EXPECT_EQ(l, fact);
  float f = me == np - 1 ? -9.f : 1.f;
  GA_Fgop(&f, 1, name("absmax"));
  EXPECT_EQ(f, 9.f);  // the largest |x|, as its absolute value
  char text[16] = {0};
  if (me == np - 1) std::strcpy(text, "from the last");
  GA_Brdcst(text, sizeof text, np - 1);
  EXPECT_STREQ(text, "from the last");
}

TEST(GaCollective, FillScaleAddDot) {
  const int a = filled_2d(7, 8);
  const int b = GA_Duplicate(a, name("b"));
  const int c = GA_Duplicate(a, name("c"));
  double two = 2;
  GA_Fill(b, &two);
  double alpha = 3, beta = -1;
  GA_Add(&alpha, a, &beta, b, c);  // c = 3a - 2
  double ref_ab = 0, ref_cc = 0;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 8; ++j) {
      ref_ab += f2(i, j) * 2;
      ref_cc += (3 * f2(i, j) - 2) * (3 * f2(i, j) - 2);
    }
  EXPECT_DOUBLE_EQ(GA_Ddot(a, b), ref_ab);
  EXPECT_DOUBLE_EQ(GA_Ddot(c, c), ref_cc);
  double half = 0.5;
  GA_Scale(c, &half);
  const std::vector<double> cv = whole(c, 7, 8);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_DOUBLE_EQ(cv[i * 8 + j], (3 * f2(i, j) - 2) / 2);
  // Patches: rows 1..3, columns 2..6 of a against rows 4..6, columns 0..4 of a.
  int alo[2] = {1, 2}, ahi[2] = {3, 6}, blo[2] = {4, 0}, bhi[2] = {6, 4};
  double ref = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) ref += f2(1 + i, 2 + j) * f2(4 + i, j);
  EXPECT_DOUBLE_EQ(NGA_Ddot_patch(a, 'N', alo, ahi, a, 'N', blo, bhi), ref);
  // Transposed: A rows 0..2, columns 0..4 (3x5) against B'(5x3 patch rows 2..6, columns 1..3).
  int tlo[2] = {0, 0}, thi[2] = {2, 4}, ulo[2] = {2, 1}, uhi[2] = {6, 3};
  double tref = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) tref += f2(i, j) * f2(2 + j, 1 + i);
  EXPECT_DOUBLE_EQ(NGA_Ddot_patch(a, 'N', tlo, thi, a, 'T', ulo, uhi), tref);
  GA_Zero(b);
  NGA_Copy_patch('N', a, alo, ahi, b, blo, bhi);
  const std::vector<double> bv = whole(b, 7, 8);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 8; ++j) {
      const bool in = i >= 4 && i <= 6 && j <= 4;
      EXPECT_EQ(bv[i * 8 + j], in ? f2(i - 3, j + 2) : 0.0);
    }
  GA_Destroy(c);
  GA_Destroy(b);
  GA_Destroy(a);
}

TEST(GaLinalg, DgemmAgainstSerialLoops) {
  const int m = 9, n = 7, k = 5;
  int da[2] = {k, m}, db[2] = {k, n}, dc[2] = {m + 2, n + 1};  // A stored transposed; C larger
  const int a = NGA_Create(C_DBL, 2, da, name("A"), nullptr);
  const int b = NGA_Create(C_DBL, 2, db, name("B"), nullptr);
  const int c = NGA_Create(C_DBL, 2, dc, name("C"), nullptr);
  auto va = [](int i, int j) { return std::sin(i + 2.0 * j); };
  auto vb = [](int i, int j) { return std::cos(3.0 * i - j); };
  if (GA_Nodeid() == 0) {
    std::vector<double> x(k * m), y(k * n);
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < m; ++j) x[i * m + j] = va(i, j);
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < n; ++j) y[i * n + j] = vb(i, j);
    int lo[2] = {0, 0}, ha[2] = {k - 1, m - 1}, hb[2] = {k - 1, n - 1}, la[1] = {m}, lb[1] = {n};
    NGA_Put(a, lo, ha, x.data(), la);
    NGA_Put(b, lo, hb, y.data(), lb);
  }
  double one = 1;
  GA_Fill(c, &one);
  // C(0:m, 0:n) = 2 A' B + 0.5 C; the rest of C untouched.
  GA_Dgemm('T', 'N', m, n, k, 2.0, a, b, 0.5, c);
  std::vector<double> cv(static_cast<size_t>(dc[0]) * dc[1]);
  int lo[2] = {0, 0}, hi[2] = {dc[0] - 1, dc[1] - 1}, ld[1] = {dc[1]};
  NGA_Get(c, lo, hi, cv.data(), ld);
  for (int i = 0; i < dc[0]; ++i)
    for (int j = 0; j < dc[1]; ++j) {
      double ref = 1;
      if (i < m && j < n) {
        double s = 0;
        for (int l = 0; l < k; ++l) s += va(l, i) * vb(l, j);
        ref = 2 * s + 0.5;
      }
      EXPECT_NEAR(cv[i * dc[1] + j], ref, 1e-12) << i << "," << j;
    }
  GA_Dgemm64('T', 'N', m, n, k, 1.0, a, b, 0.0, c);
  NGA_Get(c, lo, hi, cv.data(), ld);
  double s = 0;
  for (int l = 0; l < k; ++l) s += va(l, 3) * vb(l, 2);
  EXPECT_NEAR(cv[3 * dc[1] + 2], s, 1e-12);
  GA_Destroy(c);
  GA_Destroy(b);
  GA_Destroy(a);
}

TEST(GaLinalg, TransposeAndSymmetrize) {
  const int a = filled_2d(6, 6);
  const int t = GA_Duplicate(a, name("t"));
  GA_Transpose(a, t);
  const std::vector<double> tv = whole(t, 6, 6);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_EQ(tv[i * 6 + j], f2(j, i));
  GA_Symmetrize(a);
  const std::vector<double> sv = whole(a, 6, 6);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_DOUBLE_EQ(sv[i * 6 + j], (f2(i, j) + f2(j, i)) / 2);
  GA_Destroy(t);
  GA_Destroy(a);
}

TEST(GaElements, ReadIncScatterGather) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int one[1] = {1};
  const int counter = NGA_Create(C_LONG, 1, one, name("counter"), nullptr);
  GA_Zero(counter);
  int zero[1] = {0};
  std::vector<long> got;
  for (int t = 0; t < 25; ++t) got.push_back(NGA_Read_inc(counter, zero, 2));
  GA_Sync();
  // Every rank's values are distinct multiples of 2, and all of them together are 0 .. 2(25 np - 1).
  std::vector<long> all(static_cast<size_t>(25 * np));
  MPI_Allgather(got.data(), 25, MPI_LONG, all.data(), 25, MPI_LONG, MPI_COMM_WORLD);
  std::sort(all.begin(), all.end());
  for (int i = 0; i < 25 * np; ++i) EXPECT_EQ(all[i], 2L * i);
  GA_Destroy(counter);

  int dims[2] = {6, 5};
  const int g = NGA_Create(C_DBL, 2, dims, name("sg"), nullptr);
  GA_Zero(g);
  // Each rank scatters to the elements (i, j) with (i * 5 + j) % np == me.
  std::vector<std::vector<int>> subs;
  std::vector<double> vals;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j)
      if ((i * 5 + j) % np == me) {
        subs.push_back({i, j});
        vals.push_back(f2(i, j));
      }
  std::vector<int*> ptrs;
  for (auto& s : subs) ptrs.push_back(s.data());
  NGA_Scatter(g, vals.data(), ptrs.data(), static_cast<int>(ptrs.size()));
  GA_Sync();
  const std::vector<double> grid = whole(g, 6, 5);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(grid[i * 5 + j], f2(i, j));
  // Gather the anti-diagonal-ish list, in reverse order.
  std::vector<std::vector<int>> q = {{5, 4}, {0, 0}, {3, 1}, {2, 2}};
  std::vector<int*> qp;
  for (auto& s : q) qp.push_back(s.data());
  double out[4];
  NGA_Gather(g, out, qp.data(), 4);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(out[t], f2(q[t][0], q[t][1]));
  GA_Sync();
  GA_Destroy(g);
}

TEST(GaGroups, ArraysAndGopOnAGroup) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  // The first half (at least one rank).
  const int half = (np + 1) / 2;
  std::vector<int> list(half);
  std::iota(list.begin(), list.end(), 0);
  const int grp = GA_Pgroup_create(list.data(), half);
  EXPECT_EQ(GA_Pgroup_get_default(), GA_Pgroup_get_world());
  if (me < half) {
    EXPECT_EQ(GA_Pgroup_nodeid(grp), me);
    EXPECT_EQ(GA_Pgroup_nnodes(grp), half);
    GA_Pgroup_set_default(grp);
    EXPECT_EQ(GA_Nnodes(), half);
    EXPECT_EQ(GA_Pgroup_get_default(), grp);
    int dims[1] = {10};
    const int g = NGA_Create(C_INT, 1, dims, name("on-group"), nullptr);
    EXPECT_EQ(NGA_Get_pgroup(g), grp);
    GA_Zero(g);
    int lo[1] = {0}, hi[1] = {9}, ones[10];
    for (int& o : ones) o = 1;
    int alpha = me + 1;
    NGA_Acc(g, lo, hi, ones, nullptr, &alpha);
    GA_Sync();  // the default group's sync
    int back[10];
    NGA_Get(g, lo, hi, back, nullptr);
    for (int x : back) EXPECT_EQ(x, half * (half + 1) / 2);
    int s = 1;
    GA_Igop(&s, 1, name("+"));  // over the default group
    EXPECT_EQ(s, half);
    GA_Destroy(g);
    GA_Pgroup_set_default(GA_Pgroup_get_world());
  } else {
    EXPECT_EQ(GA_Pgroup_nodeid(grp), -1);
  }
  GA_Sync();
  GA_Pgroup_destroy(grp);
}

TEST(GaMa, StackAndHeapBlocks) {
  EXPECT_EQ(MA_init(MT_C_DBL, 1000, 1000), MA_TRUE);
  Integer h1, h2, h3;
  MA_AccessIndex i1, i3;
  ASSERT_EQ(MA_push_get(MT_C_DBL, 100, "s1", &h1, &i1), MA_TRUE);
  ASSERT_EQ(MA_push_stack(MT_C_INT, 10, "s2", &h2), MA_TRUE);
  ASSERT_EQ(MA_alloc_get(MT_F_DBL, 50, "h", &h3, &i3), MA_TRUE);
  double* p1;
  ASSERT_EQ(MA_get_pointer(h1, &p1), MA_TRUE);
  EXPECT_EQ(p1, &ma_cb_dbl[i1]);  // MA's index names the block through the type's base array
  for (int i = 0; i < 100; ++i) ma_cb_dbl[i1 + i] = i;
  double* p3;
  MA_get_pointer(h3, &p3);
  for (int i = 0; i < 50; ++i) p3[i] = -i;
  EXPECT_EQ(std::accumulate(p1, p1 + 100, 0.0), 4950.0);
  EXPECT_EQ(ma_cb_dbl[i3 + 49], -49.0);
  EXPECT_EQ(MA_sizeof(MT_C_DBL, 3, MT_C_INT), 6);
  EXPECT_EQ(MA_sizeof(MT_C_INT, 3, MT_C_DBL), 2);
  EXPECT_EQ(MA_pop_stack(h2), MA_TRUE);
  EXPECT_EQ(MA_pop_stack(h1), MA_TRUE);
  EXPECT_EQ(MA_free_heap(h3), MA_TRUE);
}

// MA_init fixes the room: the stack and the heap share one segment of MA_init's size; a block
// that does not fit is refused with MA_FALSE (GA's MA), and freed room is found again.
TEST(GaMa, BlocksShareTheSizeMaInitGave) {
  ASSERT_EQ(MA_init(MT_C_DBL, 1000, 1000), MA_TRUE);
  Integer s, h1, h2, h3, refused;
  MA_AccessIndex is, i1, i2, i3, unused;
  ASSERT_EQ(MA_push_get(MT_C_DBL, 1500, "stack", &s, &is), MA_TRUE);
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 200, "h1", &h1, &i1), MA_TRUE);
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 200, "h2", &h2, &i2), MA_TRUE);
  MA_set_error_print(MA_FALSE);  // the refusals below are expected
  EXPECT_EQ(MA_alloc_get(MT_C_DBL, 20000, "too big", &refused, &unused), MA_FALSE);
  EXPECT_EQ(MA_push_get(MT_C_DBL, 20000, "too big", &refused, &unused), MA_FALSE);
  MA_set_error_print(MA_TRUE);
  ASSERT_EQ(MA_free_heap(h1), MA_TRUE);
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 150, "h3", &h3, &i3), MA_TRUE);  // first fit: h1's room
  EXPECT_EQ(i3, i1);
  for (MA_AccessIndex k = 0; k < 1500; ++k) ma_cb_dbl[is + k] = 1.0;
  for (MA_AccessIndex k = 0; k < 150; ++k) ma_cb_dbl[i3 + k] = 2.0;
  for (MA_AccessIndex k = 0; k < 200; ++k) ma_cb_dbl[i2 + k] = 3.0;
  EXPECT_EQ(std::accumulate(&ma_cb_dbl[is], &ma_cb_dbl[is] + 1500, 0.0), 1500.0);  // nothing overlaps
  // An empty heap block still has a place of its own: the next block does not share it.
  Integer e1, e2;
  MA_AccessIndex ie1, ie2;
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 0, "empty", &e1, &ie1), MA_TRUE);
  ASSERT_EQ(MA_alloc_get(MT_C_DBL, 4, "after empty", &e2, &ie2), MA_TRUE);
  EXPECT_NE(ie1, i3);  // h3 is live: an empty block once took its start (and its entry)
  EXPECT_NE(ie1, ie2);
  EXPECT_EQ(MA_free_heap(e1), MA_TRUE);
  EXPECT_EQ(MA_free_heap(e2), MA_TRUE);
  EXPECT_EQ(MA_free_heap(h2), MA_TRUE);
  EXPECT_EQ(MA_free_heap(h3), MA_TRUE);
  EXPECT_EQ(MA_pop_stack(s), MA_TRUE);
  // With every block freed, a new MA_init may resize.
  EXPECT_EQ(MA_init(MT_C_DBL, 10, 10), MA_TRUE);
  MA_set_error_print(MA_FALSE);
  EXPECT_EQ(MA_push_get(MT_C_DBL, 20000, "now too big", &refused, &unused), MA_FALSE);
  MA_set_error_print(MA_TRUE);
}

// MA's debugging switches (GA's simple_groups_commc.c sets all three after MA_init): each
// returns the previous value, starting from MA's defaults, and MA keeps working.
TEST(GaMa, DebuggingSwitchesReturnThePreviousValue) {
  ASSERT_EQ(MA_init(MT_C_DBL, 100, 100), MA_TRUE);
  EXPECT_EQ(MA_set_auto_verify(1), MA_FALSE);
  EXPECT_EQ(MA_set_auto_verify(0), MA_TRUE);
  EXPECT_EQ(MA_set_hard_fail(1), MA_FALSE);
  EXPECT_EQ(MA_set_hard_fail(7), MA_TRUE);  // any nonzero value is true
  EXPECT_EQ(MA_set_hard_fail(0), MA_TRUE);
  EXPECT_EQ(MA_set_error_print(0), MA_TRUE);
  EXPECT_EQ(MA_set_error_print(1), MA_FALSE);
  Integer h;
  MA_AccessIndex i;
  ASSERT_EQ(MA_push_get(MT_C_INT, 4, "after switches", &h, &i), MA_TRUE);
  ma_cb_int[i + 3] = 42;
  int* p;
  ASSERT_EQ(MA_get_pointer(h, &p), MA_TRUE);
  EXPECT_EQ(p[3], 42);
  EXPECT_EQ(MA_pop_stack(h), MA_TRUE);
}

}  // namespace
