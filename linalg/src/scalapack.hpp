// BLACS and ScaLAPACK entry points (Debian's libscalapack-<mpi>, which carries BLACS), and typed
// front ends over the s/d/c/z variants. Fortran routines take every argument by pointer and the
// hidden lengths of character arguments last (gfortran's convention).
#pragma once

#include <mpi.h>

#include <complex>
#include <cstddef>

extern "C" {
void Cblacs_pinfo(int* mypnum, int* nprocs);
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc,
               const int* icsrc, const int* context, const int* lld, int* info);

#define ARMADA_SCALAPACK_LU(p, T)                                                                         \
  void p##getrf_(const int* m, const int* n, T* a, const int* ia, const int* ja, const int* desca, int* ipiv, \
                 int* info);                                                                             \
  void p##getrs_(const char* trans, const int* n, const int* nrhs, const T* a, const int* ia, const int* ja,  \
                 const int* desca, const int* ipiv, T* b, const int* ib, const int* jb, const int* descb,   \
                 int* info, std::size_t);                                                                \
  void p##getri_(const int* n, T* a, const int* ia, const int* ja, const int* desca, const int* ipiv,       \
                 T* work, const int* lwork, int* iwork, const int* liwork, int* info);                   \
  void p##potrf_(const char* uplo, const int* n, T* a, const int* ia, const int* ja, const int* desca,      \
                 int* info, std::size_t);                                                                \
  void p##potrs_(const char* uplo, const int* n, const int* nrhs, const T* a, const int* ia, const int* ja,  \
                 const int* desca, T* b, const int* ib, const int* jb, const int* descb, int* info, std::size_t); \
  void p##potri_(const char* uplo, const int* n, T* a, const int* ia, const int* ja, const int* desca,      \
                 int* info, std::size_t);
ARMADA_SCALAPACK_LU(ps, float)
ARMADA_SCALAPACK_LU(pd, double)
ARMADA_SCALAPACK_LU(pc, std::complex<float>)
ARMADA_SCALAPACK_LU(pz, std::complex<double>)
#undef ARMADA_SCALAPACK_LU

// PBLAS: C = beta C + alpha op(A), op the transpose (real) or the conjugate transpose (complex).
#define ARMADA_PBLAS_TRAN(name, T)                                                                        \
  void name(const int* m, const int* n, const T* alpha, const T* a, const int* ia, const int* ja,           \
            const int* desca, const T* beta, T* c, const int* ic, const int* jc, const int* descc);
ARMADA_PBLAS_TRAN(pstran_, float)
ARMADA_PBLAS_TRAN(pdtran_, double)
ARMADA_PBLAS_TRAN(pctranc_, std::complex<float>)
ARMADA_PBLAS_TRAN(pztranc_, std::complex<double>)
#undef ARMADA_PBLAS_TRAN

void pssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* ia, const int* ja,
              const int* desca, float* w, float* z, const int* iz, const int* jz, const int* descz, float* work,
              const int* lwork, int* iwork, const int* liwork, int* info, std::size_t, std::size_t);
void pdsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, double* w, double* z, const int* iz, const int* jz, const int* descz, double* work,
              const int* lwork, int* iwork, const int* liwork, int* info, std::size_t, std::size_t);
void pcheevd_(const char* jobz, const char* uplo, const int* n, std::complex<float>* a, const int* ia,
              const int* ja, const int* desca, float* w, std::complex<float>* z, const int* iz, const int* jz,
              const int* descz, std::complex<float>* work, const int* lwork, float* rwork, const int* lrwork,
              int* iwork, const int* liwork, int* info, std::size_t, std::size_t);
void pzheevd_(const char* jobz, const char* uplo, const int* n, std::complex<double>* a, const int* ia,
              const int* ja, const int* desca, double* w, std::complex<double>* z, const int* iz, const int* jz,
              const int* descz, std::complex<double>* work, const int* lwork, double* rwork, const int* lrwork,
              int* iwork, const int* liwork, int* info, std::size_t, std::size_t);
}

namespace armada::linalg::detail {

/// The s/d/c/z routine for element type T.
template <class T>
struct Scalapack;

#define ARMADA_SCALAPACK_TRAITS(p, T, tranc_name)                                                      \
  template <>                                                                                          \
  struct Scalapack<T> {                                                                                \
    static constexpr auto getrf = p##getrf_;                                                           \
    static constexpr auto getrs = p##getrs_;                                                           \
    static constexpr auto getri = p##getri_;                                                           \
    static constexpr auto potrf = p##potrf_;                                                           \
    static constexpr auto potrs = p##potrs_;                                                           \
    static constexpr auto potri = p##potri_;                                                           \
    static constexpr auto tranc = tranc_name; /* conjugate transpose (plain for real T) */             \
  };
ARMADA_SCALAPACK_TRAITS(ps, float, pstran_)
ARMADA_SCALAPACK_TRAITS(pd, double, pdtran_)
ARMADA_SCALAPACK_TRAITS(pc, std::complex<float>, pctranc_)
ARMADA_SCALAPACK_TRAITS(pz, std::complex<double>, pztranc_)
#undef ARMADA_SCALAPACK_TRAITS

}  // namespace armada::linalg::detail
