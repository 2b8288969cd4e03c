// The HDF5 side of arrays' I/O: owned handles, HDF5 errors as Armada errors, the element type
// table, attributes, and the file access settings every Armada file is opened with.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "armada/arrays/types.hpp"
#include "armada/rma/group.hpp"

namespace armada::arrays::io {

/// An owned HDF5 identifier, closed with the matching H5*close on destruction.
class Hid {
 public:
  Hid() = default;
  explicit Hid(hid_t id) : id_(id) {}
  Hid(Hid&& o) noexcept : id_(o.id_) { o.id_ = H5I_INVALID_HID; }
  Hid& operator=(Hid&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = o.id_;
      o.id_ = H5I_INVALID_HID;
    }
    return *this;
  }
  ~Hid() { reset(); }
  hid_t get() const noexcept { return id_; }
  operator hid_t() const noexcept { return id_; }
  /// Closes now and returns HDF5's status (a file's close flushes: its failure matters).
  herr_t close();

 private:
  void reset() noexcept { (void)close(); }
  hid_t id_ = H5I_INVALID_HID;
};

/// Turns HDF5's automatic error printing off for its lifetime (restores the previous handler).
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

/// The innermost messages of HDF5's current error stack ("" if empty), then clears it.
std::string error_stack_text();
/// Throws rma::SystemError naming `op`, what was being done and HDF5's own reason.
[[noreturn]] void fail_hdf5(const char* op, const std::string& what);
/// `id` as an owned handle, or fail_hdf5 if it is negative.
Hid checked(hid_t id, const char* op, const std::string& what);
/// Fails unless `status` >= 0.
void check(herr_t status, const char* op, const std::string& what);

/// The HDF5 memory type of an element type (complex: compound {r, i}, as h5py writes it).
Hid memory_type(ElemType type);
/// The element type a file's datatype maps to: integers whose values int holds (signed up to 4
/// bytes, unsigned up to 2) → int, other integers → long (unsigned 8-byte values above LONG_MAX
/// clamp);
/// floats of up to 4 bytes → float, wider → double; compounds of two floating members named r
/// and i → complex<float> or complex<double>. False for anything else.
bool element_type_of(hid_t file_type, ElemType& out);
/// "32-bit integer", "compound {a, b}", ...: for messages.
std::string describe_type(hid_t file_type);

/// Access settings of every Armada file: MPI-IO on `comm` (or the default POSIX driver for
/// comm == MPI_COMM_NULL, a single process), collective metadata, and the 1.8 file format
/// as the earliest (checksummed superblock and object headers, so corruption is detected).
/// `create`: the format bounds apply to files we create (reading takes any format).
Hid file_access(MPI_Comm comm, const char* op, bool create);
/// Collective raw-data transfers.
Hid collective_transfer(const char* op);

// ---- attributes (every member of a collective open writes the same values) ------------------------
void write_string_attribute(hid_t object, const char* name, const std::string& value, const char* op);
void write_index_attribute(hid_t object, const char* name, const std::vector<Index>& values, const char* op);
bool has_attribute(hid_t object, const char* name);
std::string read_string_attribute(hid_t object, const char* name, const char* op);
std::vector<Index> read_index_attribute(hid_t object, const char* name, const char* op);

}  // namespace armada::arrays::io
