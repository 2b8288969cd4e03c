// A file written by one launch, read by others: Cross.Write (4 ranks) saves every element type
// with ghosts and an irregular 3-D array to $ARMADA_IO_CROSS_DIR/cross.h5; Cross.Read (1, 2 and
// 3 ranks, each its own launch) loads them whole and in patches on its own distribution. The
// same file is checked by h5dump and h5py (tests/arrays/CMakeLists.txt, io_check_h5py.py).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "armada/arrays/io.hpp"
#include "io_util.hpp"

namespace armada::arrays::test {
namespace {

const Coord kDims{23, 7};
const Coord kCube{5, 6, 9};

std::string cross_file() {
  const char* dir = std::getenv("ARMADA_IO_CROSS_DIR");
  if (!dir || !*dir) {
    ADD_FAILURE() << "ARMADA_IO_CROSS_DIR is not set (the ctest rows set it)";
    return "cross.h5";
  }
  return std::string(dir) + "/cross.h5";
}

std::string cross_dir() { return cross_file().substr(0, cross_file().size() - std::string("/cross.h5").size()); }

// Dataset names are the ones io_check_h5py.py expects.
template <class T>
std::string name_of() {
  if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, long>) return "long";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::complex<float>>) return "cfloat";
  else return "cdouble";
}

template <class... T>
std::vector<Array> make_all(long salt) {
  std::vector<Array> arrays;
  (
      [&] {
        ArrayOptions o;
        o.name = name_of<T>();
        o.ghosts = {2, 1};
        auto a = GlobalArray<T>::create(kDims, o);
        fill_io(a, salt);
        arrays.push_back(a);
      }(),
      ...);
  return arrays;
}

template <class... T>
void read_all(const std::string& file) {
  const int p = rma::size();
  (
      [&] {
        auto a = load_as<T>(file, name_of<T>());
        EXPECT_EQ(a.ghosts(), Coord({2, 1})) << name_of<T>();
        expect_io_values(a, kDims, {0, 0});
        // A patch into an existing array on a 1 x p grid.
        ArrayOptions o;
        o.name = name_of<T>() + "_patch";
        o.grid = {1, std::min(p, 5)};
        auto b = GlobalArray<T>::create({10, 5}, o);
        load_patch(file, name_of<T>(), {13, 1}, {23, 6}, b);
        expect_io_values(b, kDims, {13, 1});
        a.destroy();
        b.destroy();
      }(),
      ...);
}

TEST(Cross, Write) {
  auto arrays = make_all<int, long, float, double, std::complex<float>, std::complex<double>>(0);
  ArrayOptions o;
  o.name = "cube";
  o.block_starts = {{0, 2}, {0}, {0, 4}};  // 4 blocks of unequal sizes
  if (rma::size() < 4) o.block_starts = {{0}, {0}, {0}};
  auto cube = GlobalArray<double>::create(kCube, o);
  fill_io(cube, 1000);
  arrays.push_back(cube);
  save(cross_file(), arrays);
  for (Array& a : arrays) a.destroy();
}

TEST(Cross, Read) {
  const std::string file = cross_file();
  EXPECT_EQ(list(file).size(), 7u);
  read_all<int, long, float, double, std::complex<float>, std::complex<double>>(file);
  auto cube = load_as<double>(file, "cube");
  expect_io_values(cube, kCube, {0, 0, 0}, 1000);
  cube.destroy();
}

// A file h5py wrote (io_write_h5py.py): HDF5 types Armada has no exact match for load as the
// element type they map to (docs/io.md), values converted by HDF5.
template <class T>
void expect_foreign(const std::string& file, const std::string& name, bool is_unsigned) {
  const Coord dims{11, 6};
  auto a = load_as<T>(file, name);
  const std::vector<T> got = a.get({0, 0}, dims);
  int bad = 0;
  for (long k = 0; k < 66; ++k) {
    long x = k % 100 - 50 + (is_unsigned ? 50 : 0);
    T want = value<T>(x);
    if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
      want = T(static_cast<typename T::value_type>(x), static_cast<typename T::value_type>(x % 5 - 2));
    if (got[static_cast<std::size_t>(k)] != want) ++bad;
  }
  EXPECT_EQ(bad, 0) << "dataset '" << name << "' loaded as " << to_string(type_of<T>());
  a.destroy();
}

TEST(Cross, ReadForeign) {
  const std::string file = cross_dir() + "/foreign.h5";
  expect_foreign<int>(file, "int8", false);
  expect_foreign<int>(file, "int16", false);
  expect_foreign<int>(file, "uint16", true);
  expect_foreign<long>(file, "uint32", true);  // int cannot hold every uint32
  expect_foreign<long>(file, "int64", false);
  expect_foreign<float>(file, "float16", false);
  expect_foreign<float>(file, "float32", false);
  expect_foreign<double>(file, "float64", false);
  expect_foreign<std::complex<float>>(file, "complex64", false);
  expect_foreign<std::complex<double>>(file, "complex128", false);
  auto cube = load_as<double>(file, "cube");
  EXPECT_EQ(cube.dims(), Coord({3, 4, 5}));
  const std::vector<double> v = cube.get({0, 0, 0}, {3, 4, 5});
  int bad = 0;
  for (long k = 0; k < 60; ++k) bad += v[static_cast<std::size_t>(k)] != static_cast<double>(k % 100 - 50);
  EXPECT_EQ(bad, 0) << "cube";
  cube.destroy();
  expect_error<rma::InvalidArgument>([&] { (void)load(file, "text"); },
                                     {"arrays::load", "'text'", "holds string", "none of int, long"});
  const auto infos = list(file);
  EXPECT_EQ(infos.size(), 11u) << "every dataset but the strings";
  for (const auto& i : infos)
    if (i.name == "int16") EXPECT_TRUE(i.armada_version.empty()) << "h5py wrote no Armada attributes";
}

// The killed-writer test (io_killed_writer.sh): checkpoints of a large array, step after step,
// until the script kills every rank (SIGKILL) while one is being written.
const Coord kBig{4096, 1024};  // 32 MiB of doubles per checkpoint


TEST(Cross, CheckpointUntilKilled) {
  std::ofstream(cross_dir() + "/pid." + std::to_string(rma::rank())) << getpid() << "\n";
  ArrayOptions o;
  o.name = "state";
  auto a = GlobalArray<double>::create(kBig, o);
  o.name = "step";
  auto s = GlobalArray<long>::create({1}, o);
  for (long step = 1; step <= 200; ++step) {
    fill_io(a, step);
    if (s.owned().elements() > 0) s.access()[{0}] = step;
    checkpoint(cross_dir() + "/ck", step, {a, s}, 2);
  }
  ADD_FAILURE() << "200 checkpoints written and nobody killed the writer";
  a.destroy();
  s.destroy();
}

TEST(Cross, RestartAfterKill) {
  ArrayOptions o;
  o.name = "state";
  auto a = GlobalArray<double>::create(kBig, o);
  o.name = "step";
  auto s = GlobalArray<long>::create({1}, o);
  const auto step = restart(cross_dir() + "/ck", {a, s});
  ASSERT_TRUE(step.has_value()) << "no complete checkpoint survived";
  EXPECT_GE(*step, 1);
  EXPECT_EQ(s.at({0}), *step) << "the arrays of one checkpoint come from one step";
  expect_io_values(a, kBig, {0, 0}, *step);
  if (rma::rank() == 0) std::printf("restarted from step %ld\n", *step);
  a.destroy();
  s.destroy();
}

}  // namespace
}  // namespace armada::arrays::test
