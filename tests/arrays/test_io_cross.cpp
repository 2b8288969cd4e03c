// A file written by one launch, read by others: Cross.Write (4 ranks) saves every element type
// with ghosts and an irregular 3-D array to $ARMADA_IO_CROSS_DIR/cross.h5; Cross.Read (1, 2 and
// 3 ranks, each its own launch) loads them whole and in patches on its own distribution. The
// same file is checked by h5dump and h5py (tests/arrays/CMakeLists.txt, io_check_h5py.py).
#include <gtest/gtest.h>

#include <cstdlib>

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

}  // namespace
}  // namespace armada::arrays::test
