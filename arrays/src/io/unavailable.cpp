// Built without parallel HDF5: the I/O API exists and says so (cmake/ArmadaDependencies.cmake).
#include "armada/arrays/io.hpp"
#include "armada/rma/error.hpp"

namespace armada::arrays {

namespace {
[[noreturn]] void unavailable(const char* op) {
  throw rma::Unsupported(op, std::string(op) + ": Armada was built without parallel HDF5 (Debian: libhdf5-openmpi-dev "
                                                "or libhdf5-mpich-dev, then reconfigure)");
}
}  // namespace

bool io_available() noexcept { return false; }
void save(const std::string&, std::span<const Array>, SaveMode) { unavailable("arrays::save"); }
std::vector<DatasetInfo> list(const std::string&, const rma::Group&) { unavailable("arrays::list"); }
Array load(const std::string&, const std::string&, const ArrayOptions&) { unavailable("arrays::load"); }
void load(const std::string&, const std::string&, Array&) { unavailable("arrays::load"); }
Array load_patch(const std::string&, const std::string&, const Coord&, const Coord&, const ArrayOptions&) {
  unavailable("arrays::load_patch");
}
void load_patch(const std::string&, const std::string&, const Coord&, const Coord&, Array&) {
  unavailable("arrays::load_patch");
}
void checkpoint(const std::string&, long, std::span<const Array>, int) { unavailable("arrays::checkpoint"); }
std::optional<long> restart(const std::string&, std::span<Array>) { unavailable("arrays::restart"); }
std::optional<long> latest_checkpoint(const std::string&, const rma::Group&) { unavailable("arrays::latest_checkpoint"); }

}  // namespace armada::arrays
