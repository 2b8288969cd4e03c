// A value the library caches on an MPI communicator (MPI's attribute caching): made at the
// first lookup, deleted by `drop` when the communicator is freed. One keyval per attribute kind.
#pragma once

#include <mpi.h>

namespace armada::rma::detail {

template <class T>
class CommAttribute {
 public:
  /// `drop(comm, keyval, value, extra)` releases a T* made by get_or_make (MPI calls it when
  /// the communicator is freed).
  explicit CommAttribute(MPI_Comm_delete_attr_function* drop) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, drop, &keyval_, nullptr);
  }
  /// `comm`'s value, or `make()` (a new T*) stored on it the first time.
  template <class Make>
  T& get_or_make(MPI_Comm comm, Make&& make) const {
    void* value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(comm, keyval_, &value, &found);
    if (found) return *static_cast<T*>(value);
    T* made = make();
    MPI_Comm_set_attr(comm, keyval_, made);
    return *made;
  }

 private:
  int keyval_ = MPI_KEYVAL_INVALID;
};

}  // namespace armada::rma::detail
