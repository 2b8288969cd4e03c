! Module armada's linear algebra in the Fortran view, against Fortran's own matmul, transpose
! and residuals: rectangular operands (a transposed view would not even have matching shapes),
! patches, solves with several right-hand sides, eigenpairs, inverse, and the error paths.
program test_fortran_linalg
  use armada
  use checks
  implicit none
  real(8), parameter :: tol = 1d-10

  call armada_init()
  me = armada_rank()
  nproc = armada_size()
  if (command_argument_count() == 0) then
    call test_gemm()
    call test_matmul_patch()
    call test_transpose_symmetrize()
    call test_solves()
  end if
  if (command_argument_count() > 0) then  ! "eigen": the eigensolver alone (see CMakeLists.txt)
    call test_eigen()
  else
    call test_inverse()
    call test_complex_hermitian()
    call test_errors()
  end if
  call finish_test('test_fortran_linalg')

contains

  ! A distributed copy of matrix x (rank 0 puts it).
  integer function matrix(x, type) result(g)
    real(8), intent(in) :: x(:, :)
    integer, intent(in), optional :: type
    integer :: t
    t = ARMADA_REAL8
    if (present(type)) t = type
    call armada_create(t, shape(x), g)
    if (me == 0) then
      if (t == ARMADA_REAL8) then
        call armada_put(g, [1, 1], shape(x), x)
      else
        call armada_put(g, [1, 1], shape(x), cmplx(x, 2 * x, 8))
      end if
    end if
    call armada_sync()
  end function

  function fetch(g, m, n) result(x)
    integer, intent(in) :: g, m, n
    real(8) :: x(m, n)
    call armada_get(g, [1, 1], [m, n], x)
  end function

  function sample(m, n, seed) result(x)
    integer, intent(in) :: m, n, seed
    real(8) :: x(m, n)
    integer :: i, j
    do j = 1, n
      do i = 1, m
        x(i, j) = modulo(seed * i + 3 * j * j + i * j, 11) - 5.0d0 + 0.25d0 * i
      end do
    end do
  end function

  subroutine test_gemm()
    real(8) :: a(4, 3), b(3, 5), c0(4, 5), at(3, 4)
    complex(8) :: z(4, 5), za(4, 3), zb(3, 5)
    integer :: ga, gb, gc, gat, za_, zb_, zc
    a = sample(4, 3, 7)
    b = sample(3, 5, 5)
    c0 = sample(4, 5, 3)
    at = transpose(a)
    ga = matrix(a)
    gb = matrix(b)
    gc = matrix(c0)
    gat = matrix(at)
    call armada_gemm('N', 'N', 2.0d0, ga, gb, 0.5d0, gc)
    call check(maxval(abs(fetch(gc, 4, 5) - (2 * matmul(a, b) + 0.5d0 * c0))) < tol, 'gemm N N: C = 2 A B + C/2')
    call armada_gemm('T', 'N', 1.0d0, gat, gb, 0.0d0, gc)
    call check(maxval(abs(fetch(gc, 4, 5) - matmul(a, b))) < tol, 'gemm T N on the stored transpose')
    ! complex: A = a + 2ia, B = b + 2ib; op 'C' on the stored conjugate transpose.
    za = cmplx(a, 2 * a, 8)
    zb = cmplx(b, 2 * b, 8)
    za_ = matrix(at, ARMADA_COMPLEX8)  ! holds transpose(a) + 2i transpose(a)
    zb_ = matrix(b, ARMADA_COMPLEX8)
    call armada_create(ARMADA_COMPLEX8, [4, 5], zc)
    call armada_gemm('C', 'N', (1.0d0, 0.0d0), za_, zb_, (0.0d0, 0.0d0), zc)
    call armada_get(zc, [1, 1], [4, 5], z)
    call check(maxval(abs(z - matmul(conjg(za), zb))) < tol, 'complex gemm C N')
    call armada_sync()
    call armada_destroy(ga)
    call armada_destroy(gb)
    call armada_destroy(gc)
    call armada_destroy(gat)
    call armada_destroy(za_)
    call armada_destroy(zb_)
    call armada_destroy(zc)
  end subroutine

  subroutine test_matmul_patch()
    real(8) :: a(6, 6), b(4, 7), c(5, 6), want(5, 6)
    integer :: ga, gb, gc
    a = sample(6, 6, 2)
    b = sample(4, 7, 9)
    c = 0
    ga = matrix(a)
    gb = matrix(b)
    gc = matrix(c)
    ! C(2:5, 1:5) = A(2:5, 1:3) B(2:4, 3:7)
    call armada_matmul_patch('N', 'N', 1.0d0, ga, [2, 1], [5, 3], gb, [2, 3], [4, 7], 0.0d0, gc, [2, 1], [5, 5])
    want = 0
    want(2:5, 1:5) = matmul(a(2:5, 1:3), b(2:4, 3:7))
    call check(maxval(abs(fetch(gc, 5, 6) - want)) < tol, 'matmul_patch: the C patch and nothing else')
    ! C(1:3, 1:4) = transpose(A(1:4, 4:6)) B(1:4, 1:4)
    call armada_matmul_patch('T', 'N', 1.0d0, ga, [1, 4], [4, 6], gb, [1, 1], [4, 4], 1.0d0, gc, [1, 1], [3, 4])
    want(1:3, 1:4) = want(1:3, 1:4) + matmul(transpose(a(1:4, 4:6)), b(1:4, 1:4))
    call check(maxval(abs(fetch(gc, 5, 6) - want)) < tol, 'matmul_patch with T')
    call armada_sync()
    call armada_destroy(ga)
    call armada_destroy(gb)
    call armada_destroy(gc)
  end subroutine

  subroutine test_transpose_symmetrize()
    real(8) :: a(4, 3), s(4, 4)
    integer :: ga, gt, gs
    a = sample(4, 3, 4)
    ga = matrix(a)
    call armada_create(ARMADA_REAL8, [3, 4], gt)
    call armada_transpose(ga, gt)
    call check(all(fetch(gt, 3, 4) == transpose(a)), 'transpose')
    s = sample(4, 4, 8)
    gs = matrix(s)
    call armada_symmetrize(gs)
    call check(maxval(abs(fetch(gs, 4, 4) - (s + transpose(s)) / 2)) < tol, 'symmetrize')
    call armada_sync()
    call armada_destroy(ga)
    call armada_destroy(gt)
    call armada_destroy(gs)
  end subroutine

  ! A X = B with a nonsymmetric A (LU, both trans) and a symmetric positive definite one.
  subroutine test_solves()
    real(8) :: a(5, 5), x(5, 3), spd(5, 5)
    integer :: ga, gb, gspd, i
    a = sample(5, 5, 6)
    do i = 1, 5
      a(i, i) = a(i, i) + 20
    end do
    x = sample(5, 3, 1)
    ga = matrix(a)
    gb = matrix(matmul(a, x))
    call armada_lu_solve('N', ga, gb)
    call check(maxval(abs(fetch(gb, 5, 3) - x)) < tol, 'lu_solve N: X of A X = B')
    call armada_destroy(gb)
    gb = matrix(matmul(transpose(a), x))
    call armada_lu_solve('T', ga, gb)
    call check(maxval(abs(fetch(gb, 5, 3) - x)) < tol, 'lu_solve T: X of transpose(A) X = B')
    call armada_destroy(gb)
    spd = matmul(transpose(a), a)
    gspd = matrix(spd)
    gb = matrix(matmul(spd, x))
    call armada_cholesky_solve(gspd, gb)
    call check(maxval(abs(fetch(gb, 5, 3) - x)) < 1d-8, 'cholesky_solve')
    call check(all(fetch(ga, 5, 5) == a), 'solves leave A unchanged')
    call armada_sync()
    call armada_destroy(ga)
    call armada_destroy(gb)
    call armada_destroy(gspd)
  end subroutine

  ! Complex: Cholesky and eigenpairs of a Hermitian positive definite H, LU with 'C' (the C view
  ! holds conj(H): the module solves in conjugates and conjugates eigenvectors back).
  subroutine test_complex_hermitian()
    complex(8) :: z(5, 5), h(5, 5), x(5, 3), got(5, 3), v(5, 5)
    real(8) :: w(5)
    integer :: gz, gh, gb, gv, i, k
    z = cmplx(sample(5, 5, 6), sample(5, 5, 2), 8)
    do i = 1, 5
      z(i, i) = z(i, i) + 20
    end do
    h = matmul(conjg(transpose(z)), z)
    x = cmplx(sample(5, 3, 1), sample(5, 3, 4), 8)
    gz = zmatrix(z)
    gh = zmatrix(h)
    gb = zmatrix(matmul(conjg(transpose(z)), x))
    call armada_lu_solve('C', gz, gb)
    call armada_get(gb, [1, 1], [5, 3], got)
    call check(maxval(abs(got - x)) < tol, "complex lu_solve C: X of A**H X = B")
    call armada_destroy(gb)
    gb = zmatrix(matmul(h, x))
    call armada_cholesky_solve(gh, gb)
    call armada_get(gb, [1, 1], [5, 3], got)
    call check(maxval(abs(got - x)) < 1d-8, 'complex cholesky_solve: X of H X = B')
    call armada_create(ARMADA_COMPLEX8, [5, 5], gv)
    call armada_eigen_symmetric(gh, gv, w)
    call armada_get(gv, [1, 1], [5, 5], v)
    call check(all(w(1:4) <= w(2:5)), 'complex eigenvalues ascending')
    do k = 1, 5
      call check(maxval(abs(matmul(h, v(:, k)) - w(k) * v(:, k))) < 1d-8 * maxval(abs(h)) .and. &
                 abs(norm2(abs(v(:, k))) - 1) < 1d-8, 'complex eigenpair: column k of V')
    end do
    call armada_sync()
    call armada_destroy(gz)
    call armada_destroy(gh)
    call armada_destroy(gb)
    call armada_destroy(gv)
  end subroutine

  integer function zmatrix(x) result(g)
    complex(8), intent(in) :: x(:, :)
    call armada_create(ARMADA_COMPLEX8, shape(x), g)
    if (me == 0) call armada_put(g, [1, 1], shape(x), x)
    call armada_sync()
  end function

  subroutine test_eigen()
    real(8) :: s(4, 4), v(4, 4), w(4)
    integer :: gs, gv, k
    s = sample(4, 4, 3)
    s = s + transpose(s)
    gs = matrix(s)
    call armada_duplicate(gs, gv)
    call armada_eigen_symmetric(gs, gv, w)
    v = fetch(gv, 4, 4)
    call check(all(w(1:3) <= w(2:4)), 'eigenvalues ascending')
    do k = 1, 4
      call check(maxval(abs(matmul(s, v(:, k)) - w(k) * v(:, k))) < 1d-8 .and. abs(norm2(v(:, k)) - 1) < 1d-8, &
                 'eigenpair: column k of V')
    end do
    call armada_sync()
    call armada_destroy(gs)
    call armada_destroy(gv)
  end subroutine

  subroutine test_inverse()
    real(8) :: s(4, 4), inv(4, 4), eye(4, 4)
    integer :: gs, ginv, k
    s = sample(4, 4, 3)
    s = s + transpose(s)
    gs = matrix(s)
    call armada_duplicate(gs, ginv)
    call armada_inverse(gs, ginv)
    inv = fetch(ginv, 4, 4)
    eye = 0
    do k = 1, 4
      eye(k, k) = 1
    end do
    call check(maxval(abs(matmul(s, inv) - eye)) < 1d-8, 'inverse: S inv = I')
    ! The Cholesky inverse of the positive definite S S^T + 4 I, in place.
    s = matmul(s, transpose(s)) + 4 * eye
    call armada_sync()
    call armada_destroy(gs)
    gs = matrix(s)
    call armada_cholesky_inverse(gs, gs)
    inv = fetch(gs, 4, 4)
    call check(maxval(abs(matmul(s, inv) - eye)) < 1d-8, 'cholesky_inverse: S inv = I')
    call armada_sync()
    call armada_destroy(gs)
    call armada_destroy(ginv)
  end subroutine

  subroutine test_errors()
    real(8) :: a(3, 3)
    integer :: ga, gb, gz, st
    character(len=400) :: msg
    a = 1  ! singular
    ga = matrix(a)
    gb = matrix(a)
    call armada_lu_solve('N', ga, gb, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_SINGULAR, 'lu_solve on a singular matrix: ' // trim(msg))
    call check(index(msg, '(in armada_lu_solve)') > 0 .and. index(msg, 'armada_la_') == 0, &
               'the message names the procedure called: ' // trim(msg))
    ! A generated forwarder (module armada_forwarders) too.
    call armada_inverse(ga, gb, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_SINGULAR .and. index(msg, '(in armada_inverse)') > 0 .and. &
               index(msg, 'armada_la_') == 0, 'inverse of a singular matrix: ' // trim(msg))
    call armada_gemm('X', 'N', 1.0d0, ga, gb, 0.0d0, gb, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, "'X'") > 0, 'gemm with transa = X: ' // trim(msg))
    call armada_gemm('N', 'N', 1.0, ga, gb, 0.0d0, gb, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_TYPE, 'gemm with a real(4) alpha for real(8) arrays: ' // trim(msg))
    gz = matrix(a, ARMADA_COMPLEX8)
    call armada_cholesky_solve(gz, gz, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_NOT_POSITIVE_DEFINITE, 'complex cholesky, minor 2 not positive: ' // trim(msg))
    call armada_sync()
    call armada_destroy(ga)
    call armada_destroy(gb)
    call armada_destroy(gz)
  end subroutine

end program test_fortran_linalg
