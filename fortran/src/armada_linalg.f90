! Linear algebra on 2-D arrays from Fortran (module armada re-exports it): the linalg C API
! (armada/linalg/c_api.h) seen through GA's Fortran view.
!
! The linalg C API works on the C view, where a Fortran matrix A(m, n) is the row-major n x m
! matrix Ac = transpose(A). So the Fortran operation becomes its transpose: C = op(A) op(B) is
! Cc = op(Bc) op(Ac) (the same op letters, operands swapped); patches are converted by the arrays
! C API (armada_gaf_to_c_patch), never here. Solves need B as stored: a temporary C-view copy of
! transpose(B) is made, solved and copied back. A Hermitian A is conj(A) in the C view, so
! complex Cholesky and LU with 'C' solve in conjugates (armada_la_conjugate on the copy of B
! before and after) and complex eigenvectors are conjugated back.
module armada_linalg
  use, intrinsic :: iso_c_binding
  use armada_c
  use armada_support
  implicit none
  private
  public :: armada_gemm, armada_matmul_patch, armada_lu_solve, armada_cholesky_solve, armada_eigen_symmetric

contains

  ! 'N', 'T' or 'C' (either case) as ARMADA_LA_*.
  integer(c_int) function op_of(op, arg, trans, out) result(code)
    character(len=*), intent(in) :: op, arg
    character(len=*), intent(in) :: trans
    integer(c_int), intent(out) :: out
    code = ARMADA_GA_OK
    select case (trans)
    case ('N', 'n')
      out = ARMADA_LA_NOTRANS
    case ('T', 't')
      out = ARMADA_LA_TRANS
    case ('C', 'c')
      out = ARMADA_LA_CONJTRANS
    case default
      out = -1
      code = reject(op, "argument '" // arg // "' = '" // trans // "': 'N', 'T' or 'C'")
    end select
  end function

  logical function is_complex(etype)
    integer(c_int), intent(in) :: etype
    is_complex = etype == ARMADA_GA_SCOMPLEX .or. etype == ARMADA_GA_DCOMPLEX
  end function

  ! C = alpha op(A) op(B) + beta C on whole 2-D arrays (GA_Dgemm / GA_Zgemm: transa, transb
  ! 'N', 'T', 'C'). alpha and beta are of the arrays' type. Collective.
  subroutine armada_gemm(transa, transb, alpha, a, b, beta, c, stat, errmsg)
    character(len=*), intent(in) :: transa, transb
    type(*), dimension(..), intent(in) :: alpha, beta
    integer, intent(in) :: a, b, c
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_gemm'
    type(c_ptr) :: x, y
    integer(c_int) :: code, opa, opb
    code = op_of(op, 'transa', transa, opa)
    if (code == ARMADA_GA_OK) code = op_of(op, 'transb', transb, opb)
    if (code == ARMADA_GA_OK) code = scalar_of(op, a, alpha, 'alpha', x)
    if (code == ARMADA_GA_OK) code = scalar_of(op, a, beta, 'beta', y)
    if (code == ARMADA_GA_OK) code = la(armada_la_gemm(opb, opa, x, b, a, y, c))
    call finish(code, stat, errmsg, 'armada_gemm')
  end subroutine

  ! The same on patches [alo, ahi] of A, [blo, bhi] of B, [clo, chi] of C, op applied to the
  ! patches as stored (GA_Matmul_patch).
  subroutine armada_matmul_patch(transa, transb, alpha, a, alo, ahi, b, blo, bhi, beta, c, clo, chi, stat, errmsg)
    character(len=*), intent(in) :: transa, transb
    type(*), dimension(..), intent(in) :: alpha, beta
    integer, intent(in) :: a, alo(:), ahi(:), b, blo(:), bhi(:), c, clo(:), chi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_matmul_patch'
    type(patch_t) :: pa, pb, pc
    integer(c_int64_t) :: calo(2), cahi(2), cblo(2), cbhi(2), cclo(2), cchi(2)
    type(c_ptr) :: x, y
    integer(c_int) :: code, opa, opb
    code = op_of(op, 'transa', transa, opa)
    if (code == ARMADA_GA_OK) code = op_of(op, 'transb', transb, opb)
    if (code == ARMADA_GA_OK) code = patch_of(op, a, alo, ahi, pa)
    if (code == ARMADA_GA_OK) code = patch_of(op, b, blo, bhi, pb)
    if (code == ARMADA_GA_OK) code = patch_of(op, c, clo, chi, pc)
    if (code == ARMADA_GA_OK .and. pa%ndim /= 2) code = reject(op, "argument 'a' is not a 2-D array")
    if (code == ARMADA_GA_OK .and. pb%ndim /= 2) code = reject(op, "argument 'b' is not a 2-D array")
    if (code == ARMADA_GA_OK .and. pc%ndim /= 2) code = reject(op, "argument 'c' is not a 2-D array")
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_to_c_patch(2, pa%lo, pa%hi, calo, cahi))
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_to_c_patch(2, pb%lo, pb%hi, cblo, cbhi))
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_to_c_patch(2, pc%lo, pc%hi, cclo, cchi))
    if (code == ARMADA_GA_OK) code = scalar_of(op, a, alpha, 'alpha', x)
    if (code == ARMADA_GA_OK) code = scalar_of(op, a, beta, 'beta', y)
    if (code == ARMADA_GA_OK) &
      code = la(armada_la_matmul_patch(opb, opa, x, b, cblo, cbhi, a, calo, cahi, y, c, cclo, cchi))
    call finish(code, stat, errmsg, 'armada_matmul_patch')
  end subroutine

  ! Generated, as they only call the linalg C API (module armada_forwarders, re-exported by
  ! module armada):
  ! armada_transpose(a, b): b = transpose(a) (GA_Transpose); armada_symmetrize(a):
  ! a = (a + transpose(a)) / 2 (GA_Symmetrize). Both read the same in either view.
  ! armada_inverse(a, inv): inv = A**-1 (inv may be a); the inverse of transpose(A) is
  ! transpose(A**-1), so the C view computes the same thing.
  ! armada_cholesky_inverse(a, inv): inv = A**-1 for a symmetric positive definite A (inv may be
  ! a), by Cholesky, reading the C view's lower triangle, which is the Fortran matrix's upper one:
  ! give the whole symmetric A. Not positive definite: stat = ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE,
  ! inv unchanged.

  ! Solves op(A) X = B by LU (GA_Lu_solve: trans 'N', 'T', 'C'); B(n, nrhs) is overwritten by X.
  ! A is not changed.
  subroutine armada_lu_solve(trans, a, b, stat, errmsg)
    character(len=*), intent(in) :: trans
    integer, intent(in) :: a, b
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_lu_solve'
    integer(c_int) :: code, t, opc, etype, ndim
    code = op_of(op, 'trans', trans, t)
    if (code == ARMADA_GA_OK) code = array_info(a, etype, ndim)
    ! op(A) X = B in Fortran is opc(Ac) Xc = Bc with Ac = transpose(A): 'N' -> 'T', 'T' -> 'N';
    ! 'C' on a complex A is conj(Ac) X = B, solved as Ac conj(X) = conj(B).
    opc = ARMADA_LA_TRANS
    if (t /= ARMADA_LA_NOTRANS) opc = ARMADA_LA_NOTRANS
    if (code == ARMADA_GA_OK) code = solve_on_transpose(op, 'lu', opc, a, b, &
                                                        t == ARMADA_LA_CONJTRANS .and. is_complex(etype))
    call finish(code, stat, errmsg, 'armada_lu_solve')
  end subroutine

  ! Solves A X = B for a symmetric (Hermitian) positive definite A (GA_Llt_solve); B(n, nrhs) is
  ! overwritten by X. Reads A's upper triangle (the C view's lower one): the C view holds
  ! transpose(A) = conj(A), so a complex system is solved as conj(A) conj(X) = conj(B).
  subroutine armada_cholesky_solve(a, b, stat, errmsg)
    integer, intent(in) :: a, b
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_cholesky_solve'
    integer(c_int) :: code, etype, ndim
    code = array_info(a, etype, ndim)
    if (code == ARMADA_GA_OK) code = solve_on_transpose(op, 'cholesky', ARMADA_LA_NOTRANS, a, b, is_complex(etype))
    call finish(code, stat, errmsg, 'armada_cholesky_solve')
  end subroutine

  ! The C-view solve on Y = transpose(B) as a C-view n x nrhs array, then B = transpose(Y); in
  ! conjugates (Y = conj(Y) before and after the solve) when conjugated.
  integer(c_int) function solve_on_transpose(op, method, opc, a, b, conjugated) result(code)
    character(len=*), intent(in) :: op, method
    integer(c_int), intent(in) :: opc
    integer, intent(in) :: a, b
    logical, intent(in) :: conjugated
    integer(c_int) :: etype, ndim, group, y, undo
    integer(c_int64_t) :: dims(ARMADA_GA_MAX_DIM)
    code = ga(armada_gaf_inquire(b, etype, ndim, dims))
    if (code == ARMADA_GA_OK .and. ndim /= 2) code = reject(op, "argument 'b' must be a 2-D array B(n, nrhs)")
    if (code == ARMADA_GA_OK) code = ga(armada_ga_group(b, group))
    if (code /= ARMADA_GA_OK) return
    ! B(n, nrhs) is the C view's nrhs x n; Y, created as the Fortran view's (nrhs, n), is the C
    ! view's n x nrhs right-hand side.
    code = ga(armada_gaf_create_full(etype, 2, [dims(2), dims(1)], cstr('armada_solve_rhs'), group=group, handle=y))
    if (code /= ARMADA_GA_OK) return
    code = la(armada_la_transpose(b, y))
    if (code == ARMADA_GA_OK .and. conjugated) code = la(armada_la_conjugate(y))
    if (code == ARMADA_GA_OK) then
      if (method == 'lu') then
        code = la(armada_la_lu_solve(opc, a, y))
      else
        code = la(armada_la_cholesky_solve(a, y))
      end if
    end if
    if (code == ARMADA_GA_OK .and. conjugated) code = la(armada_la_conjugate(y))
    if (code == ARMADA_GA_OK) code = la(armada_la_transpose(y, b))
    undo = armada_ga_destroy(y)
    if (code == ARMADA_GA_OK .and. undo /= ARMADA_GA_OK) code = ga(undo)
  end function

  ! Eigenvalues (ascending, every rank) and eigenvectors (columns of v) of the symmetric
  ! (Hermitian) A (GA_Diag_std). values: n elements of A's real type (real(4) for real(4) and
  ! complex(4) arrays, else real(8)). Reads A's upper triangle: the C view holds
  ! transpose(A) = conj(A), whose eigenvectors are A's conjugated (conjugated back here).
  subroutine armada_eigen_symmetric(a, v, values, stat, errmsg)
    integer, intent(in) :: a, v
    type(*), dimension(..), contiguous, intent(inout) :: values
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_eigen_symmetric'
    integer(c_int) :: code, etype, ndim, vc, undo, real_type
    integer(c_int64_t) :: dims(ARMADA_GA_MAX_DIM)
    type(c_ptr) :: w
    code = ga(armada_gaf_inquire(a, etype, ndim, dims))
    real_type = etype
    if (etype == ARMADA_GA_SCOMPLEX) real_type = ARMADA_GA_FLOAT
    if (etype == ARMADA_GA_DCOMPLEX) real_type = ARMADA_GA_DOUBLE
    if (code == ARMADA_GA_OK) code = buffer_of(op, real_type, values, dims(1), 'values', w)
    if (code == ARMADA_GA_OK) then
      ! The C view's eigenvectors are its columns, which are rows in the Fortran view: transpose.
      code = ga(armada_ga_duplicate(v, cstr('armada_eigenvectors'), vc))
      if (code == ARMADA_GA_OK) then
        code = la(armada_la_eigen_symmetric(a, vc, w))
        if (code == ARMADA_GA_OK .and. is_complex(etype)) code = la(armada_la_conjugate(vc))
        if (code == ARMADA_GA_OK) code = la(armada_la_transpose(vc, v))
        undo = armada_ga_destroy(vc)
        if (code == ARMADA_GA_OK .and. undo /= ARMADA_GA_OK) code = ga(undo)
      end if
    end if
    call finish(code, stat, errmsg, 'armada_eigen_symmetric')
  end subroutine

end module armada_linalg
