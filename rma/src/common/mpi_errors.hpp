// MPI calls whose failure depends on user input (a window of a user-chosen size) must report,
// not abort: they run with MPI_ERRORS_RETURN on their communicator and a failure becomes a
// SystemError carrying MPI's error text.
#pragma once

#include <mpi.h>

#include <string>

namespace armada::rma::detail {

/// Sets MPI_ERRORS_RETURN on `comm` for its lifetime, then restores the previous handler.
class ErrorsReturn {
 public:
  explicit ErrorsReturn(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_get_errhandler(comm_, &previous_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  }
  ~ErrorsReturn() {
    MPI_Comm_set_errhandler(comm_, previous_);
    MPI_Errhandler_free(&previous_);
  }
  ErrorsReturn(const ErrorsReturn&) = delete;
  ErrorsReturn& operator=(const ErrorsReturn&) = delete;

 private:
  MPI_Comm comm_;
  MPI_Errhandler previous_ = MPI_ERRHANDLER_NULL;
};

/// Throws SystemError "op: what: <MPI's text for code>" unless code == MPI_SUCCESS.
void check_mpi(const char* op, const std::string& what, int code);

}  // namespace armada::rma::detail
