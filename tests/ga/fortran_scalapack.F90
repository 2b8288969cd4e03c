! GA's ScaLAPACK wrappers that NWChem calls (ga_pdsyev, _x, _d, _r, ga_evp_real, ga_pdsygv,
! ga_pzheevd, ga_pzheevr, ga_cholesky, ga_llt_i), ga_lu_solve_seq and ga_symmetrize of a stack of
! matrices, each checked on every process against a serial computation: matrices built as
! Q D Q' with a Householder Q (the eigenvalues D known), A V = V L with V'V = I, U'U = A for the
! Cholesky factor, A * inverse = I, the solution of a linear system. With a command-line argument
! it makes one bad call instead (the error cases; ctest expects the job to fail with the message).
program fortran_scalapack
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer :: failures
  character(len=16) :: which
  call check_start(failures)
  call get_command_argument(1, which)
  if (which /= '') call bad_call(which)
  call check_symmetric(failures)
  ! NWChem's DFT frees GA's BLACS grids after an SCF (slexit, slexit2) and solves again in the
  ! next task: the wrappers keep working after the exits and a new SLinit.
  call slexit()
  call slexit2()
  call slexit3()
  call slexit4()
  call slinit()
  call check_symmetric(failures)
  call check_generalized(failures)
  call check_hermitian(failures)
  call check_cholesky(failures)
  call check_lu_solve_seq(failures)
  call check_symmetrize_stack(failures)
  call check_finish('fortran_scalapack', failures, '')
end program fortran_scalapack

subroutine bad_call(which)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  character(*), intent(in) :: which
  integer :: g_a, g_b, info
  integer :: ga_cholesky, ga_llt_i
  external ga_cholesky, ga_llt_i
  double precision :: evals(6)
  logical :: ok
  info = 0
  ok = ga_create(MT_DBL, 6, 6, 'A', -1, -1, g_a)
  ok = ga_create(MT_DBL, 6, 4, 'B', -1, -1, g_b)
  call ga_zero(g_a)
  if (which == 'uplo') info = ga_cholesky('x', g_a)
  if (which == 'llti') info = ga_llt_i('U', g_a, 3)
  if (which == 'square') call ga_pdsyev(g_b, g_a, evals, 0)
  if (which == 'nb') call ga_pdsyevd(g_a, g_a, evals, -2)
  if (which == 'trans') call ga_lu_solve_seq('c', g_a, g_b)
  if (which == 'stack') then
    ok = nga_create(MT_DBL, 3, (/ 2, 4, 5 /), 'stack', (/ -1, -1, -1 /), g_b)
    call ga_symmetrize(g_b)
  end if
  call ga_error('fortran_scalapack: the bad call returned', info)
end subroutine bad_call

! The n x n matrix Q D Q' with Q = I - 2 u u'/(u'u), D = diag(d): symmetric, eigenvalues d.
subroutine known_symmetric(n, d, a)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: d(n)
  double precision, intent(out) :: a(n, n)
  double precision :: u(n), q(n, n)
  integer :: i, j
  do i = 1, n
    u(i) = 1.0d0 + 0.3d0 * i - 0.05d0 * i * i
  end do
  do j = 1, n
    do i = 1, n
      q(i, j) = -2.0d0 * u(i) * u(j) / dot_product(u, u)
    end do
    q(j, j) = q(j, j) + 1.0d0
  end do
  do j = 1, n
    do i = 1, n
      a(i, j) = sum(q(i, :) * d * q(j, :))
    end do
  end do
end subroutine known_symmetric

! ga_pdsyev, ga_pdsyevx, ga_pdsyevd (all pairs), ga_pdsyevr and ga_evp_real (mout = 0: all, and
! mout = 3: the 3 lowest, the other columns zero, mout unchanged), ga_pdsyevd with g_v = g_a.
subroutine check_symmetric(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: n = 7
  double precision :: a(n, n), v(n, n), d(n), evals(n)
  integer :: g_a, g_v, k, mout
  logical :: ok
  d = (/ -2.0d0, 0.5d0, 1.0d0, 3.0d0, 4.5d0, 7.0d0, 11.0d0 /)
  call known_symmetric(n, d, a)
  ok = ga_create(MT_DBL, n, n, 'A', -1, -1, g_a)
  ok = ga_create(MT_DBL, n, n, 'V', -1, -1, g_v)
  if (ga_nodeid() == 0) call ga_put(g_a, 1, n, 1, n, a, n)
  call ga_sync()
  do k = 1, 7
    evals = 99.0d0
    call ga_zero(g_v)
    mout = 0
    if (k == 6 .or. k == 7) mout = 3
    select case (k)
    case (1)
      call ga_pdsyev(g_a, g_v, evals, 0)
    case (2)
      call ga_pdsyevx(g_a, g_v, evals, 16)
    case (3)
      call ga_pdsyevd(g_a, g_v, evals, 0)
    case (4)
      call ga_pdsyevr(g_a, g_v, evals, 0, mout)
    case (5)
      call ga_evp_real(g_a, g_v, evals, 0, mout)
    case (6)
      call ga_pdsyevr(g_a, g_v, evals, 0, mout)
    case (7)
      call ga_evp_real(g_a, g_v, evals, 4, mout)
    end select
    call ga_get(g_v, 1, n, 1, n, v, n)
    if ((k == 4 .or. k == 5) .and. mout /= n) call check_fail(failures, 'ga_pdsyevr: mout 0 not set to n')
    if (k >= 6) then
      if (mout /= 3) call check_fail(failures, 'ga_pdsyevr: mout 3 changed')
      call expect_pairs(k, 3)
      if (any(evals(4:) /= 99.0d0)) call check_fail(failures, 'ga_pdsyevr: eigenvalues past mout written')
      if (any(v(:, 4:) /= 0.0d0)) call check_fail(failures, 'ga_pdsyevr: eigenvectors past mout not zero')
    else
      call expect_pairs(k, n)
    end if
  end do
  ! the eigenvectors into A itself, as GA allows
  call ga_copy(g_a, g_v)
  call ga_pdsyevd(g_v, g_v, evals, 0)
  call ga_get(g_v, 1, n, 1, n, v, n)
  call expect_pairs(8, n)
  ok = ga_destroy(g_a)
  ok = ga_destroy(g_v)
contains
  subroutine expect_pairs(case, m)
    integer, intent(in) :: case, m
    character(len=40) :: what
    write (what, '(a, i0)') 'symmetric eigenpairs, case ', case
    if (maxval(abs(evals(1:m) - d(1:m))) > 1.0d-10) call check_fail(failures, trim(what) // ': eigenvalues')
    if (maxval(abs(matmul(a, v(:, 1:m)) - v(:, 1:m) * spread(evals(1:m), 1, n))) > 1.0d-10) &
      call check_fail(failures, trim(what) // ': A V /= V L')
    if (maxval(abs(matmul(transpose(v(:, 1:m)), v(:, 1:m)) - identity(m))) > 1.0d-10) &
      call check_fail(failures, trim(what) // ': V''V /= I')
  end subroutine expect_pairs
  function identity(m) result(e)
    integer, intent(in) :: m
    double precision :: e(m, m)
    integer :: i
    e = 0.0d0
    do i = 1, m
      e(i, i) = 1.0d0
    end do
  end function identity
end subroutine check_symmetric

! ga_pdsygv: A V = B V L with V'B V = I, B positive definite (NWChem passes a fifth argument).
subroutine check_generalized(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: n = 6
  double precision :: a(n, n), b(n, n), v(n, n), evals(n), e(n, n)
  integer :: g_a, g_b, g_v, i, j
  logical :: ok
  do j = 1, n
    do i = 1, n
      a(i, j) = 1.0d0 / (i + j) + mod(i * j, 3)
      b(i, j) = 0.1d0 / (1 + abs(i - j))
    end do
    b(j, j) = b(j, j) + j
  end do
  a = a + transpose(a)
  ok = ga_create(MT_DBL, n, n, 'A', -1, -1, g_a)
  ok = ga_create(MT_DBL, n, n, 'B', -1, -1, g_b)
  ok = ga_create(MT_DBL, n, n, 'V', -1, -1, g_v)
  call put_whole(g_a, n, n, a)
  call put_whole(g_b, n, n, b)
  call ga_sync()
  call ga_pdsygv(g_a, g_b, g_v, evals, 0)
  call ga_get(g_v, 1, n, 1, n, v, n)
  e = 0.0d0
  do i = 1, n
    e(i, i) = 1.0d0
    if (i > 1) then
      if (evals(i) < evals(i - 1)) call check_fail(failures, 'ga_pdsygv: eigenvalues not ascending')
    end if
  end do
  if (maxval(abs(matmul(a, v) - matmul(b, v) * spread(evals, 1, n))) > 1.0d-9) &
    call check_fail(failures, 'ga_pdsygv: A V /= B V L')
  if (maxval(abs(matmul(transpose(v), matmul(b, v)) - e)) > 1.0d-10) call check_fail(failures, 'ga_pdsygv: V''B V /= I')
  ok = ga_destroy(g_a)
  ok = ga_destroy(g_b)
  ok = ga_destroy(g_v)
end subroutine check_generalized

! ga_pzheevd, ga_pzheevr (mout 0 and 2): H = g_a(1) + i g_a(2) = U D U* with a complex
! Householder U; H V = V L, V*V = I, V = g_v(1) + i g_v(2).
subroutine check_hermitian(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: n = 5
  double complex :: u(n), q(n, n), h(n, n), v(n, n)
  double precision :: d(n), evals(n), re(n, n), im(n, n)
  integer :: g_a(2), g_v(2), i, j, k, m, mout
  logical :: ok
  d = (/ -1.5d0, 0.25d0, 2.0d0, 2.5d0, 6.0d0 /)
  do i = 1, n
    u(i) = dcmplx(1.0d0 + 0.2d0 * i, 0.7d0 - 0.3d0 * i)
  end do
  do j = 1, n
    do i = 1, n
      q(i, j) = -2.0d0 * u(i) * conjg(u(j)) / dble(dot_product(u, u))
    end do
    q(j, j) = q(j, j) + 1.0d0
  end do
  do j = 1, n
    do i = 1, n
      h(i, j) = sum(q(i, :) * d * conjg(q(j, :)))
    end do
  end do
  re = dble(h)
  im = aimag(h)
  do k = 1, 2
    ok = ga_create(MT_DBL, n, n, 'H', -1, -1, g_a(k))
    ok = ga_create(MT_DBL, n, n, 'V', -1, -1, g_v(k))
  end do
  call put_whole(g_a(1), n, n, re)
  call put_whole(g_a(2), n, n, im)
  call ga_sync()
  do k = 1, 3
    evals = 99.0d0
    m = n
    if (k == 1) call ga_pzheevd(g_a, g_v, evals, 0)
    if (k == 2) then
      mout = 0
      call ga_pzheevr(g_a, g_v, evals, 0, mout)
      if (mout /= n) call check_fail(failures, 'ga_pzheevr: mout 0 not set to n')
    end if
    if (k == 3) then
      mout = 2
      m = 2
      call ga_pzheevr(g_a, g_v, evals, 0, mout)
      if (any(evals(3:) /= 99.0d0)) call check_fail(failures, 'ga_pzheevr: eigenvalues past mout written')
    end if
    call ga_get(g_v(1), 1, n, 1, n, re, n)
    call ga_get(g_v(2), 1, n, 1, n, im, n)
    v = dcmplx(re, im)
    if (maxval(abs(evals(1:m) - d(1:m))) > 1.0d-10) call check_fail(failures, 'ga_pzheev: eigenvalues')
    if (maxval(abs(matmul(h, v(:, 1:m)) - v(:, 1:m) * spread(evals(1:m), 1, n))) > 1.0d-10) &
      call check_fail(failures, 'ga_pzheev: H V /= V L')
    do j = 1, m
      do i = 1, m
        if (abs(dot_product(v(:, i), v(:, j)) - merge(1.0d0, 0.0d0, i == j)) > 1.0d-10) &
          call check_fail(failures, 'ga_pzheev: V*V /= I')
      end do
    end do
    if (m < n) then
      if (any(v(:, m + 1:) /= (0.0d0, 0.0d0))) call check_fail(failures, 'ga_pzheevr: eigenvectors past mout not zero')
    end if
  end do
  do k = 1, 2
    ok = ga_destroy(g_a(k))
    ok = ga_destroy(g_v(k))
  end do
end subroutine check_hermitian

! ga_cholesky ('U': U'U = A, 'L': L L' = A, the other triangle zero; a matrix whose leading minor
! of order 2 is not positive definite: 2, the matrix unchanged), ga_llt_i from each factor (the
! whole inverse: A X = I; a zero diagonal of the factor at 3: 3, unchanged).
subroutine check_cholesky(failures)
  use iso_c_binding, only: c_char
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: n = 6
  integer :: ga_cholesky, ga_llt_i
  external ga_cholesky, ga_llt_i
  ! NWChem's three-argument call (its hidden CHARACTER length comes fourth) under another name:
  ! gfortran refuses two argument counts for one external procedure in one file
  interface
    function ga_cholesky_nwchem(uplo, g_a, hsize) bind(C, name='ga_cholesky_')
      import :: c_char
      character(kind=c_char), intent(in) :: uplo
      integer, intent(in) :: g_a, hsize
      integer :: ga_cholesky_nwchem
    end function ga_cholesky_nwchem
  end interface
  double precision :: a(n, n), f(n, n), e(n, n), bad(n, n)
  integer :: g_a, i, j, info
  character :: uplo
  logical :: ok
  e = 0.0d0
  do j = 1, n
    do i = 1, n
      a(i, j) = 1.0d0 / (i + j)
    end do
    a(j, j) = a(j, j) + 2.0d0
    e(j, j) = 1.0d0
  end do
  ok = ga_create(MT_DBL, n, n, 'A', -1, -1, g_a)
  do i = 1, 2
    uplo = merge('U', 'L', i == 1)
    call put(a)
    info = ga_cholesky(uplo, g_a)
    call ga_get(g_a, 1, n, 1, n, f, n)
    if (info /= 0) call check_fail(failures, 'ga_cholesky: info of a positive definite matrix')
    if (uplo == 'U') then
      if (maxval(abs(matmul(transpose(f), f) - a)) > 1.0d-12) call check_fail(failures, 'ga_cholesky(U): U''U /= A')
      do j = 1, n
        if (any(f(j + 1:, j) /= 0.0d0)) call check_fail(failures, 'ga_cholesky(U): lower triangle not zero')
      end do
    else
      if (maxval(abs(matmul(f, transpose(f)) - a)) > 1.0d-12) call check_fail(failures, 'ga_cholesky(L): L L'' /= A')
      do j = 1, n
        if (any(f(1:j - 1, j) /= 0.0d0)) call check_fail(failures, 'ga_cholesky(L): upper triangle not zero')
      end do
    end if
    ! the other triangle is not read: garbage there changes nothing
    if (uplo == 'U') call ga_fill_patch(g_a, n, n, 1, 1, 5.0d0)
    if (uplo == 'L') call ga_fill_patch(g_a, 1, 1, n, n, 5.0d0)
    info = ga_llt_i(uplo, g_a, -1)
    call ga_get(g_a, 1, n, 1, n, f, n)
    if (info /= 0) call check_fail(failures, 'ga_llt_i: info of a factor')
    if (maxval(abs(matmul(a, f) - e)) > 1.0d-10) call check_fail(failures, 'ga_llt_i: A X /= I')
    if (any(f /= transpose(f))) call check_fail(failures, 'ga_llt_i: the inverse is not symmetric')
  end do
  ! NWChem's call with a third argument (GA's ga_cholesky has two): the same factor
  call put(a)
  info = ga_cholesky_nwchem('U', g_a, -1)
  call ga_get(g_a, 1, n, 1, n, f, n)
  if (info /= 0 .or. maxval(abs(matmul(transpose(f), f) - a)) > 1.0d-12) &
    call check_fail(failures, 'ga_cholesky with a third argument')
  ! not positive definite at order 2
  bad = a
  bad(2, 2) = -1.0d0
  call put(bad)
  info = ga_cholesky('U', g_a)
  call ga_get(g_a, 1, n, 1, n, f, n)
  if (info /= 2) call check_fail(failures, 'ga_cholesky: info of a matrix not positive definite at order 2')
  if (any(f /= bad)) call check_fail(failures, 'ga_cholesky: a failed factorization changed the matrix')
  ! a factor with a zero at (3, 3)
  bad = 0.0d0
  do j = 1, n
    bad(1:j, j) = 1.0d0
  end do
  bad(3, 3) = 0.0d0
  call put(bad)
  info = ga_llt_i('U', g_a, -1)
  call ga_get(g_a, 1, n, 1, n, f, n)
  if (info /= 3) call check_fail(failures, 'ga_llt_i: info of a factor with a zero diagonal at 3')
  if (any(f /= bad)) call check_fail(failures, 'ga_llt_i: a failed inverse changed the matrix')
  ok = ga_destroy(g_a)
contains
  subroutine put(m)
    double precision, intent(in) :: m(n, n)
    call ga_sync()
    if (ga_nodeid() == 0) call ga_put(g_a, 1, n, 1, n, m, n)
    call ga_sync()
  end subroutine put
end subroutine check_cholesky

! ga_lu_solve_seq: A X = B ('n') and A' X = B ('T'), B overwritten by X.
subroutine check_lu_solve_seq(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: n = 6, r = 3
  double precision :: a(n, n), x(n, r), b(n, r), got(n, r)
  integer :: g_a, g_b, i, j, k
  logical :: ok
  do j = 1, n
    do i = 1, n
      a(i, j) = dble(mod(3 * i + 5 * j, 7)) - 3.0d0
    end do
    a(j, j) = a(j, j) - 10.0d0
  end do
  do j = 1, r
    do i = 1, n
      x(i, j) = i - 2.0d0 * j
    end do
  end do
  ok = ga_create(MT_DBL, n, n, 'A', -1, -1, g_a)
  ok = ga_create(MT_DBL, n, r, 'B', -1, -1, g_b)
  if (ga_nodeid() == 0) call ga_put(g_a, 1, n, 1, n, a, n)
  do k = 1, 2
    if (k == 1) b = matmul(a, x)
    if (k == 2) b = matmul(transpose(a), x)
    call ga_sync()
    if (ga_nodeid() == 0) call ga_put(g_b, 1, n, 1, r, b, n)
    call ga_sync()
    call ga_lu_solve_seq(merge('n', 'T', k == 1), g_a, g_b)
    call ga_get(g_b, 1, n, 1, r, got, n)
    if (maxval(abs(got - x)) > 1.0d-10) call check_fail(failures, 'ga_lu_solve_seq: X')
  end do
  ok = ga_destroy(g_a)
  ok = ga_destroy(g_b)
end subroutine check_lu_solve_seq

! ga_symmetrize of a 3-d array a(k, i, j): every matrix of the last two dimensions,
! a(k, i, j) = (a(k, i, j) + a(k, j, i)) / 2.
subroutine check_symmetrize_stack(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: s = 3, n = 5
  double precision :: a(s, n, n), got(s, n, n)
  integer :: g_a, i, j, k
  logical :: ok
  do j = 1, n
    do i = 1, n
      do k = 1, s
        a(k, i, j) = 10.0d0 * i - j + 0.5d0 * k * j
      end do
    end do
  end do
  ok = nga_create(MT_DBL, 3, (/ s, n, n /), 'stack', (/ -1, -1, -1 /), g_a)
  if (ga_nodeid() == 0) call nga_put(g_a, (/ 1, 1, 1 /), (/ s, n, n /), a, (/ s, n /))
  call ga_sync()
  call ga_symmetrize(g_a)
  call nga_get(g_a, (/ 1, 1, 1 /), (/ s, n, n /), got, (/ s, n /))
  do j = 1, n
    do i = 1, n
      do k = 1, s
        if (got(k, i, j) /= (a(k, i, j) + a(k, j, i)) / 2) call check_fail(failures, 'ga_symmetrize of a 3-d stack')
      end do
    end do
  end do
  ok = ga_destroy(g_a)
end subroutine check_symmetrize_stack
