// HDF5 handles, errors, element types and attributes for arrays' I/O.
#include "io/hdf5.hpp"

#include <array>

#include "armada/rma/error.hpp"
#include "internal.hpp"

namespace armada::arrays::io {

herr_t Hid::close() {
  if (id_ < 0) return 0;
  herr_t status = -1;
  switch (H5Iget_type(id_)) {
    case H5I_FILE: status = H5Fclose(id_); break;
    case H5I_GROUP: status = H5Gclose(id_); break;
    case H5I_DATASET: status = H5Dclose(id_); break;
    case H5I_DATASPACE: status = H5Sclose(id_); break;
    case H5I_DATATYPE: status = H5Tclose(id_); break;
    case H5I_ATTR: status = H5Aclose(id_); break;
    case H5I_GENPROP_LST: status = H5Pclose(id_); break;
    default: status = H5Idec_ref(id_); break;
  }
  id_ = H5I_INVALID_HID;
  return status;
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}
QuietErrors::~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

namespace {
herr_t collect_message(unsigned, const H5E_error2_t* e, void* out) {
  auto& messages = *static_cast<std::vector<std::string>*>(out);
  if (e->desc && *e->desc) messages.emplace_back(e->desc);
  return 0;
}
}  // namespace

std::string error_stack_text() {
  std::vector<std::string> messages;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_message, &messages);
  H5Eclear2(H5E_DEFAULT);
  // The deepest entries say what actually went wrong ("truncated file: eof = ..."); the
  // outermost only repeat the API call.
  std::string text;
  const std::size_t first = messages.size() > 2 ? messages.size() - 2 : 0;
  for (std::size_t i = first; i < messages.size(); ++i) text += (text.empty() ? "" : "; ") + messages[i];
  return text;
}

void fail_hdf5(const char* op, const std::string& what) {
  const std::string reason = error_stack_text();
  throw rma::SystemError(op, rma::error_message(op, what + " failed" +
                                 (reason.empty() ? std::string() : " (HDF5: " + reason + ")")));
}

Hid checked(hid_t id, const char* op, const std::string& what) {
  if (id < 0) fail_hdf5(op, what);
  return Hid(id);
}

void check(herr_t status, const char* op, const std::string& what) {
  if (status < 0) fail_hdf5(op, what);
}

// ---- element types -------------------------------------------------------------------------------
namespace {
Hid complex_type(hid_t part, std::size_t part_size) {
  Hid t(H5Tcreate(H5T_COMPOUND, 2 * part_size));
  H5Tinsert(t, "r", 0, part);
  H5Tinsert(t, "i", part_size, part);
  return t;
}
}  // namespace

Hid memory_type(ElemType type) {
  switch (type) {
    case ElemType::Int: return Hid(H5Tcopy(H5T_NATIVE_INT));
    case ElemType::Long: return Hid(H5Tcopy(H5T_NATIVE_LONG));
    case ElemType::Float: return Hid(H5Tcopy(H5T_NATIVE_FLOAT));
    case ElemType::Double: return Hid(H5Tcopy(H5T_NATIVE_DOUBLE));
    case ElemType::ComplexFloat: return complex_type(H5T_NATIVE_FLOAT, sizeof(float));
    case ElemType::ComplexDouble: return complex_type(H5T_NATIVE_DOUBLE, sizeof(double));
  }
  throw rma::InvalidArgument("arrays::io", "type", std::to_string(static_cast<int>(type)), "not an element type",
                             rma::ErrorKind::type);
}

bool element_type_of(hid_t file_type, ElemType& out) {
  const std::size_t size = H5Tget_size(file_type);
  switch (H5Tget_class(file_type)) {
    case H5T_INTEGER:  // int holds every value of a signed 4-byte or any 2-byte integer
      out = size < 4 || (size == 4 && H5Tget_sign(file_type) == H5T_SGN_2) ? ElemType::Int : ElemType::Long;
      return size <= 8;
    case H5T_FLOAT:
      out = size <= 4 ? ElemType::Float : ElemType::Double;
      return size <= 8;
    case H5T_COMPOUND: {
      if (H5Tget_nmembers(file_type) != 2) return false;
      std::array<std::string, 2> names;
      std::size_t part = 0;
      for (unsigned m = 0; m < 2; ++m) {
        if (H5Tget_member_class(file_type, m) != H5T_FLOAT) return false;
        char* n = H5Tget_member_name(file_type, m);
        names[m] = n ? n : "";
        H5free_memory(n);
        Hid member(H5Tget_member_type(file_type, m));
        part = std::max(part, H5Tget_size(member));
      }
      if (names[0] != "r" || names[1] != "i" || part > 8) return false;
      out = part <= 4 ? ElemType::ComplexFloat : ElemType::ComplexDouble;
      return true;
    }
    default:
      return false;
  }
}

std::string describe_type(hid_t file_type) {
  const std::string bits = std::to_string(8 * H5Tget_size(file_type)) + "-bit ";
  switch (H5Tget_class(file_type)) {
    case H5T_INTEGER: return bits + "integer";
    case H5T_FLOAT: return bits + "float";
    case H5T_STRING: return "string";
    case H5T_COMPOUND: {
      std::string s = "compound {";
      for (int m = 0; m < H5Tget_nmembers(file_type); ++m) {
        char* n = H5Tget_member_name(file_type, static_cast<unsigned>(m));
        s += (m ? ", " : "") + std::string(n ? n : "?");
        H5free_memory(n);
      }
      return s + "}";
    }
    default: return "HDF5 type class " + std::to_string(static_cast<int>(H5Tget_class(file_type)));
  }
}

// ---- property lists ------------------------------------------------------------------------------
Hid file_access(MPI_Comm comm, const char* op, bool create) {
  Hid fapl = checked(H5Pcreate(H5P_FILE_ACCESS), op, "creating a file access property list");
  if (comm != MPI_COMM_NULL) {
    check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), op, "selecting the MPI-IO driver");
    check(H5Pset_all_coll_metadata_ops(fapl, true), op, "selecting collective metadata reads");
    check(H5Pset_coll_metadata_write(fapl, true), op, "selecting collective metadata writes");
  }
  if (create) check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST), op, "selecting the file format");
  return fapl;
}

Hid collective_transfer(const char* op) {
  Hid dxpl = checked(H5Pcreate(H5P_DATASET_XFER), op, "creating a transfer property list");
  check(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), op, "selecting collective transfers");
  return dxpl;
}

// ---- attributes ----------------------------------------------------------------------------------
void write_string_attribute(hid_t object, const char* name, const std::string& value, const char* op) {
  const std::string what = std::string("writing attribute '") + name + "'";
  Hid type = checked(H5Tcopy(H5T_C_S1), op, what);
  check(H5Tset_size(type, std::max<std::size_t>(1, value.size())), op, what);
  Hid space = checked(H5Screate(H5S_SCALAR), op, what);
  Hid attr = checked(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), op, what);
  const std::string padded = value.empty() ? std::string(1, '\0') : value;
  check(H5Awrite(attr, type, padded.data()), op, what);
}

void write_index_attribute(hid_t object, const char* name, const std::vector<Index>& values, const char* op) {
  const std::string what = std::string("writing attribute '") + name + "'";
  const hsize_t n = std::max<hsize_t>(1, values.size());
  Hid space = checked(H5Screate_simple(1, &n, nullptr), op, what);
  Hid attr = checked(H5Acreate2(object, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT), op, what);
  std::vector<std::int64_t> v(values.begin(), values.end());
  v.resize(n, 0);
  check(H5Awrite(attr, H5T_NATIVE_INT64, v.data()), op, what);
}

bool has_attribute(hid_t object, const char* name) { return H5Aexists(object, name) > 0; }

std::string read_string_attribute(hid_t object, const char* name, const char* op) {
  const std::string what = std::string("reading attribute '") + name + "'";
  Hid attr = checked(H5Aopen(object, name, H5P_DEFAULT), op, what);
  Hid type = checked(H5Aget_type(attr), op, what);
  if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) > 0)
    throw rma::SystemError(op, std::string(op) + ": attribute '" + name + "' is not a fixed-length string");
  std::string value(H5Tget_size(type), '\0');
  check(H5Aread(attr, type, value.data()), op, what);
  value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
  return value;
}

std::vector<Index> read_index_attribute(hid_t object, const char* name, const char* op) {
  const std::string what = std::string("reading attribute '") + name + "'";
  Hid attr = checked(H5Aopen(object, name, H5P_DEFAULT), op, what);
  Hid space = checked(H5Aget_space(attr), op, what);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0 || n > 4096) fail_hdf5(op, what + " (size " + std::to_string(n) + ")");
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  check(H5Aread(attr, H5T_NATIVE_INT64, v.data()), op, what);
  return {v.begin(), v.end()};
}

}  // namespace armada::arrays::io
