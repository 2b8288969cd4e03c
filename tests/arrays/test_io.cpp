// Parallel HDF5 I/O: save/load round trips in every element type, with ghosts, on other
// distributions, rank counts (subgroups of the launch) and patches; the attributes; checkpoint
// and restart. Values are a function of the global index (io_util.hpp), never read back from
// the code under test.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "armada/arrays/c_api.h"
#include "armada/arrays/io.hpp"
#include "io_util.hpp"

namespace armada::arrays::test {
namespace {

template <class T>
class IoTyped : public ::testing::Test {};
TYPED_TEST_SUITE(IoTyped, Types);

TYPED_TEST(IoTyped, SaveThenLoadOnAnotherDistribution) {
  using T = TypeParam;
  SharedDir dir;
  ArrayOptions o;
  o.name = "field";
  o.ghosts = {1, 2};
  auto a = GlobalArray<T>::create({13, 9}, o);
  fill_io(a);
  o.name = "small";
  o.ghosts = {};
  auto b = GlobalArray<T>::create({5}, o);
  fill_io(b, 11);
  save(dir / "f.h5", {a, b});

  // A new array, the default (balanced) distribution and the saved ghost widths.
  auto c = load_as<T>(dir / "f.h5", "field");
  EXPECT_EQ(c.name(), "field");
  EXPECT_EQ(c.dims(), Coord({13, 9}));
  EXPECT_EQ(c.ghosts(), Coord({1, 2}));
  expect_io_values(c, {13, 9}, {0, 0});
  // Ghost cells were not written: after an update they hold the neighbours' values.
  c.update_ghosts(true);
  auto v = c.access_ghosts();
  int bad = 0;
  Reference<T>::each(v.lo, v.hi, [&](const Coord& g, Index) {
    const Coord w{((g[0] % 13) + 13) % 13, ((g[1] % 9) + 9) % 9};
    if (v[g] != io_value<T>(w, {13, 9})) ++bad;
  });
  EXPECT_EQ(bad, 0) << "ghost cells after update_ghosts";

  // An existing irregular array (one rank owns most, empty blocks included).
  const int p = rma::size();
  ArrayOptions irr;
  irr.name = "irregular";
  irr.block_starts = {{0}, {0}};
  if (p == 2) irr.block_starts[0] = {0, 10};
  if (p >= 3) irr.block_starts[0] = {0, 10, 10};  // group rank 1 owns nothing
  GlobalArray<T> d = GlobalArray<T>::create({13, 9}, irr);
  load(dir / "f.h5", "field", d);
  expect_io_values(d, {13, 9}, {0, 0});
  auto e = load_as<T>(dir / "f.h5", "small");
  expect_io_values(e, {5}, {0}, 11);

  // A patch, as a new array and into an existing one.
  auto f = GlobalArray<T>(load_patch(dir / "f.h5", "field", {2, 3}, {11, 8}));
  EXPECT_EQ(f.dims(), Coord({9, 5}));
  expect_io_values(f, {13, 9}, {2, 3});
  ArrayOptions g_opts;
  g_opts.name = "patch_into";
  g_opts.grid = {1, p};
  auto g = GlobalArray<T>::create({1, 9}, g_opts);
  load_patch(dir / "f.h5", "field", {12, 0}, {13, 9}, g);
  expect_io_values(g, {13, 9}, {12, 0});

  for (Array x : {Array(a), Array(b), Array(c), Array(d), Array(e), Array(f), Array(g)}) x.destroy();
}

// Block-cyclic arrays go to the file and back through their blocks (packed in the file's order):
// saved from each layout, loaded into a regular array, another block-cyclic one and a patch.
TEST(Io, BlockCyclicArraysSaveAndLoad) {
  SharedDir dir;
  const int p = rma::size();
  for (const Coord& dims : {Coord{13, 9}, Coord{5, 7, 6}}) {
    const int n = dims.size();
    const Coord block = n == 2 ? Coord{3, 4} : Coord{2, 3, 4};
    const Coord grid = n == 2 ? Coord{p > 1 ? 2 : 1, p > 2 ? p / 2 : 1} : Coord{1, p, 1};
    const Distribution layouts[] = {Distribution::block_cyclic(dims, block, p),
                                    Distribution::block_cyclic(dims, block, grid, p),
                                    Distribution::block_cyclic(dims, block, grid, p, true)};
    for (std::size_t i = 0; i < 3; ++i) {
      SCOPED_TRACE(layouts[i].str());
      ArrayOptions o;
      o.name = "cyclic";
      o.distribution = layouts[i];
      auto a = GlobalArray<double>::create(dims, o);
      fill_io(a, 3);
      save(dir / "c.h5", {a});
      auto regular = load_as<double>(dir / "c.h5", "cyclic");
      expect_io_values(regular, dims, Coord::filled(n, 0), 3);
      o.distribution = layouts[(i + 1) % 3];
      auto other = GlobalArray<double>::create(dims, o);
      load(dir / "c.h5", "cyclic", other);
      expect_io_values(other, dims, Coord::filled(n, 0), 3);
      Coord lo = Coord::filled(n, 1), hi = dims;
      o.distribution = Distribution::block_cyclic(Patch{lo, hi}.extents(), Coord::filled(n, 2), p);
      auto part = GlobalArray<double>::create(Patch{lo, hi}.extents(), o);
      load_patch(dir / "c.h5", "cyclic", lo, hi, part);
      expect_io_values(part, dims, lo, 3);
      for (Array x : {Array(a), Array(regular), Array(other), Array(part)}) x.destroy();
    }
  }
}

TEST(Io, AttributesRecordHowTheArrayWasWritten) {
  SharedDir dir;
  const int p = rma::size();
  ArrayOptions o;
  o.name = "A";
  o.ghosts = {0, 1, 2};
  o.block_starts = {{0}, {0}, {0}};
  if (p >= 2) o.block_starts[2] = {0, 4};
  if (p >= 4) o.block_starts[1] = {0, 1};
  auto a = GlobalArray<std::complex<float>>::create({2, 3, 7}, o);
  fill_io(a);
  save(dir / "attrs.h5", {a});
  const auto infos = list(dir / "attrs.h5");
  ASSERT_EQ(infos.size(), 1u);
  const DatasetInfo& i = infos[0];
  EXPECT_EQ(i.name, "A");
  EXPECT_EQ(i.type, ElemType::ComplexFloat);
  EXPECT_EQ(i.dims, Coord({2, 3, 7}));
  EXPECT_EQ(i.ghosts, Coord({0, 1, 2}));
  EXPECT_EQ(i.group_size, p);
  EXPECT_EQ(i.block_starts, o.block_starts);
  EXPECT_FALSE(i.armada_version.empty());
  a.destroy();
}

// Written by the whole launch, read by groups of 1, 2 and 3 ranks (and all), each with its
// own distribution: the file is opened on the group's communicator only.
TEST(Io, ReadOnSmallerGroups) {
  SharedDir dir;
  const int p = rma::size();
  ArrayOptions o;
  o.name = "D";
  auto a = GlobalArray<double>::create({17, 6}, o);
  fill_io(a, 5);
  o.name = "L";
  auto b = GlobalArray<long>::create({31}, o);
  fill_io(b, 7);
  save(dir / "g.h5", {a, b});
  for (int size = 1; size <= p; ++size) {
    std::vector<int> ranks;
    for (int r = 0; r < size; ++r) ranks.push_back(p - 1 - r);  // the highest ranks, reversed
    const rma::Group group = rma::Group::create(rma::Group::world(), ranks);
    if (!group.is_member()) continue;
    ArrayOptions r;
    r.group = group;
    r.grid = {1, size};
    auto c = load_as<double>(dir / "g.h5", "D", r);
    expect_io_values(c, {17, 6}, {0, 0}, 5);
    r.grid = {};
    auto d = load_as<long>(dir / "g.h5", "L", r);
    expect_io_values(d, {31}, {0}, 7);
    EXPECT_EQ(list(dir / "g.h5", group).size(), 2u);
    c.destroy();
    d.destroy();
  }
  rma::barrier();
  // Arrays on a group are saved by that group alone.
  if (p >= 2) {
    const std::vector<int> ranks{1, 0};
    const rma::Group group = rma::Group::create(rma::Group::world(), ranks);
    if (group.is_member()) {
      ArrayOptions r;
      r.name = "on_group";
      r.group = group;
      auto c = GlobalArray<int>::create({4, 4}, r);
      fill_io(c, 3);
      save(dir / "group.h5", {c});
      auto d = load_as<int>(dir / "group.h5", "on_group", r);
      expect_io_values(d, {4, 4}, {0, 0}, 3);
      c.destroy();
      d.destroy();
    }
    rma::barrier();
  }
  a.destroy();
  b.destroy();
}

TEST(Io, SaveReplacesAFileWhole) {
  SharedDir dir;
  ArrayOptions o;
  o.name = "x";
  auto a = GlobalArray<float>::create({40}, o);
  fill_io(a, 1);
  save(dir / "r.h5", {a});
  fill_io(a, 2);
  save(dir / "r.h5", {a});
  auto b = load_as<float>(dir / "r.h5", "x");
  expect_io_values(b, {40}, {0}, 2);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"r.h5"}) << "a temporary file was left behind";
  a.destroy();
  b.destroy();
}

// The inode of `file` (0 if it does not exist): rewritten in place it stays, replaced it changes.
ino_t inode_of(const std::string& file) {
  struct stat st{};
  return ::stat(file.c_str(), &st) == 0 ? st.st_ino : 0;
}

TEST(Io, SaveInPlaceRewritesAFileHoldingTheSameDatasets) {
  SharedDir dir;
  const std::string file = dir / "p.h5";
  ArrayOptions o;
  o.name = "x";
  o.ghosts = {1, 0};
  auto x = GlobalArray<double>::create({30, 7}, o);
  o.name = "k";
  o.ghosts = {};
  auto k = GlobalArray<int>::create({5}, o);
  fill_io(x, 1);
  fill_io(k, 2);
  save(file, {x, k}, SaveMode::in_place);  // no file yet: written as a new one
  const ino_t first = rma::rank() == 0 ? inode_of(file) : 0;
  // Another distribution of the same dims and types: the data and the attributes are rewritten.
  ArrayOptions other;
  other.name = "x";
  other.block_starts = {rma::size() > 1 ? std::vector<Index>{0, 4} : std::vector<Index>{0}, {0}};
  auto x2 = GlobalArray<double>::create({30, 7}, other);
  fill_io(x2, 5);
  fill_io(k, 6);
  save(file, {x2, k}, SaveMode::in_place);
  if (rma::rank() == 0) {
    EXPECT_NE(first, 0u);
    EXPECT_EQ(inode_of(file), first) << "the file was replaced, not rewritten in place";
    EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"p.h5"});
  }
  const auto infos = list(file);
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos[1].name, "x");
  EXPECT_EQ(infos[1].ghosts, Coord({0, 0})) << "the attributes of the earlier save stayed";
  EXPECT_EQ(infos[1].block_starts, other.block_starts);
  auto back = load_as<double>(file, "x");
  expect_io_values(back, {30, 7}, {0, 0}, 5);
  auto kb = load_as<int>(file, "k");
  expect_io_values(kb, {5}, {0}, 6);
  // The C API's form.
  fill_io(k, 8);
  const int handles[] = {x2.id(), k.id()};
  EXPECT_EQ(armada_ga_save_in_place(file.c_str(), 2, handles), ARMADA_GA_OK) << armada_ga_error_message();
  load(file, "k", kb);
  expect_io_values(kb, {5}, {0}, 8);
  if (rma::rank() == 0) {
    EXPECT_EQ(inode_of(file), first);
  }
  rma::barrier();
  for (Array a : std::initializer_list<Array>{x, k, x2, back, kb}) a.destroy();
}

TEST(Io, SaveInPlaceReplacesAFileThatDoesNotSuit) {
  SharedDir dir;
  const std::string file = dir / "q.h5";
  ArrayOptions o;
  o.name = "x";
  auto x = GlobalArray<float>::create({12, 3}, o);
  o.name = "y";
  auto y = GlobalArray<float>::create({4}, o);
  fill_io(x, 1);
  fill_io(y, 2);
  save(file, {x, y});
  auto replaced = [&](const std::vector<Array>& arrays, const char* why) {
    const ino_t before = rma::rank() == 0 ? inode_of(file) : 0;
    save(file, std::span<const Array>(arrays), SaveMode::in_place);
    if (rma::rank() == 0) {
      EXPECT_NE(inode_of(file), before) << why;
    }
    rma::barrier();
  };
  replaced({x}, "a dataset fewer");
  o.name = "x";
  auto wider = GlobalArray<float>::create({12, 4}, o);
  fill_io(wider, 3);
  replaced({wider}, "other dims");
  auto as_double = GlobalArray<double>::create({12, 4}, o);
  fill_io(as_double, 4);
  replaced({as_double}, "another type");
  if (rma::rank() == 0) std::ofstream(file) << "not HDF5";
  rma::barrier();
  replaced({as_double}, "not an HDF5 file");
  auto back = load_as<double>(file, "x");
  expect_io_values(back, {12, 4}, {0, 0}, 4);
  EXPECT_EQ(list(file).size(), 1u);
  for (Array a : std::initializer_list<Array>{x, y, wider, as_double, back}) a.destroy();
}

TEST(Io, CheckpointAndRestart) {
  SharedDir dir;
  const std::string prefix = dir / "run";
  ArrayOptions o;
  o.name = "u";
  o.ghosts = {1};
  auto u = GlobalArray<double>::create({50}, o);
  o.name = "n";
  o.ghosts = {};
  auto n = GlobalArray<int>::create({3, 4}, o);
  EXPECT_FALSE(latest_checkpoint(prefix).has_value());
  EXPECT_FALSE(restart(prefix, {u, n}).has_value());
  for (long step = 1; step <= 3; ++step) {
    fill_io(u, step);
    fill_io(n, 10 * step);
    checkpoint(prefix, step * 10, {u, n}, 2);
  }
  // keep = 2: steps 20 and 30 remain.
  if (rma::rank() == 0) {
    EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"run.20.h5", "run.30.h5"}));
  }
  // A writer killed while writing step 40 leaves only its temporary file: restart ignores it.
  if (rma::rank() == 0) std::ofstream(prefix + ".40.h5.armada-tmp.k1lLed40") << "half a checkpoint";
  rma::barrier();
  fill_io(u, 99);
  fill_io(n, 99);
  const auto step = restart(prefix, {u, n});
  ASSERT_TRUE(step.has_value());
  EXPECT_EQ(*step, 30);
  expect_io_values(u, {50}, {0}, 3);
  expect_io_values(n, {3, 4}, {0, 0}, 30);
  EXPECT_EQ(latest_checkpoint(prefix).value_or(-1), 30);
  // A lower step written now (another run on the same prefix) stays, and removes nothing above it.
  checkpoint(prefix, 5, {u, n}, 1);
  if (rma::rank() == 0) {
    EXPECT_EQ(files_in(dir.path()),
              (std::vector<std::string>{"run.20.h5", "run.30.h5", "run.40.h5.armada-tmp.k1lLed40", "run.5.h5"}));
  }
  rma::barrier();
  // Restarting into arrays of another rank count's distribution works the same (here: grid).
  ArrayOptions other;
  other.name = "u";
  other.block_starts = {rma::size() > 1 ? std::vector<Index>{0, 7} : std::vector<Index>{0}};
  auto u2 = GlobalArray<double>::create({50}, other);
  std::vector<Array> set{u2};
  EXPECT_EQ(restart(prefix, set).value_or(-1), 30);
  expect_io_values(u2, {50}, {0}, 3);
  // The next checkpoint of step 40 removes the killed writer's leftover (its own, unlocked).
  checkpoint(prefix, 40, {u, n}, 1);
  if (rma::rank() == 0) {
    EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"run.40.h5"}));
  }
  rma::barrier();
  u.destroy();
  n.destroy();
  u2.destroy();
}

// The C API's forms (the Fortran module's test covers the Fortran view).
TEST(Io, CApi) {
  SharedDir dir;
  int flag = 0;
  EXPECT_EQ(armada_ga_io_available(&flag), ARMADA_GA_OK);
  EXPECT_EQ(flag, 1);
  ArrayOptions o;
  o.name = "c";
  auto a = GlobalArray<long>::create({9, 4}, o);
  fill_io(a, 4);
  const int handles[] = {a.id()};
  const std::string file = dir / "c.h5";
  EXPECT_EQ(armada_ga_save(file.c_str(), 1, handles), ARMADA_GA_OK) << armada_ga_error_message();
  int b = 0;
  EXPECT_EQ(armada_ga_load(file.c_str(), "c", ARMADA_GA_GROUP_WORLD, &b), ARMADA_GA_OK) << armada_ga_error_message();
  expect_io_values(GlobalArray<long>(find_array(b, "test")), {9, 4}, {0, 0}, 4);
  o.name = "p";
  auto p = GlobalArray<long>::create({2, 3}, o);
  const int64_t lo[] = {6, 1}, hi[] = {8, 4};
  EXPECT_EQ(armada_ga_load_patch(file.c_str(), "c", lo, hi, p.id()), ARMADA_GA_OK) << armada_ga_error_message();
  expect_io_values(p, {9, 4}, {6, 1}, 4);
  EXPECT_EQ(armada_ga_load_into(file.c_str(), "missing", p.id()), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_load(dir.path().c_str(), "c", ARMADA_GA_GROUP_WORLD, &b), ARMADA_GA_ERR_SYSTEM);
  const std::string prefix = dir / "cck";
  long step = 0;
  EXPECT_EQ(armada_ga_checkpoint(prefix.c_str(), 7, 1, handles, 2), ARMADA_GA_OK) << armada_ga_error_message();
  fill_io(a, 0);
  EXPECT_EQ(armada_ga_restart(prefix.c_str(), 1, handles, &step), ARMADA_GA_OK) << armada_ga_error_message();
  EXPECT_EQ(step, 7);
  expect_io_values(a, {9, 4}, {0, 0}, 4);
  // A bad second handle on one rank only: every rank gets an error, none waits in the save.
  const int mixed[] = {a.id(), rma::rank() == rma::size() - 1 ? 99999 : p.id()};
  EXPECT_NE(armada_ga_save((dir / "mixed.h5").c_str(), 2, mixed), ARMADA_GA_OK);
  EXPECT_NE(std::string(armada_ga_error_message()).find("99999"), std::string::npos) << armada_ga_error_message();
  find_array(b, "test").destroy();
  p.destroy();
  a.destroy();
}

}  // namespace
}  // namespace armada::arrays::test
