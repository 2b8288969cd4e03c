! A Global Arrays program in GA's own Fortran style, built against Armada's global.fh with
! armada-ga-config (no GA library):
!   mpifort $(armada-ga-config --i8 --fflags) ga_fortran.F90 -o ga_fortran $(armada-ga-config --i8 --flibs)
! (without --i8 for 4-byte INTEGER). Each rank fills its own block of A in place (ga_access and
! dbl_mb), ga_symmetrize removes the antisymmetric part, leaving A = I + ones ones', whose largest
! eigenvalue is n + 1 (eigenvector: ones). Power iteration with ga_dgemm and ga_ddot finds it.
! Exits nonzero if the eigenvalue is wrong.
!   mpiexec -n 4 ./ga_fortran
program ga_fortran
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n = 50
  integer(4) :: ierr
  GA_ACCESS_INDEX_TYPE :: index  ! 8 bytes whatever the INTEGER width, as in GA
  integer :: me, g_a, g_x, g_y, ilo, ihi, jlo, jhi, ld, i, j, iter
  double precision :: lambda, norm, x(n)
  logical :: ok

  call mpi_init(ierr)
  call ga_initialize()
  me = ga_nodeid()
  ok = ga_create(MT_DBL, n, n, 'A', -1, -1, g_a)
  ok = ok .and. ga_create(MT_DBL, n, 1, 'x', -1, -1, g_x) .and. ga_duplicate(g_x, g_y, 'y')
  if (.not. ok) call ga_error('ga_fortran: cannot create the arrays', 1)

  ! My block of A: A(i, j) = 1 + delta(i, j) + (i - j) / 10 (antisymmetric part), in place
  ! (ga_access: an index into dbl_mb).
  call ga_distribution(g_a, me, ilo, ihi, jlo, jhi)
  if (ihi >= ilo .and. jhi >= jlo) then
    call ga_access(g_a, ilo, ihi, jlo, jhi, index, ld)
    do j = jlo, jhi
      do i = ilo, ihi
        dbl_mb(index + (i - ilo) + (j - jlo) * ld) = element(i, j)
      end do
    end do
    call ga_release_update(g_a, ilo, ihi, jlo, jhi)
  end if
  call ga_sync()
  call ga_symmetrize(g_a)

  ! Power iteration: y = A x, lambda = x'y / x'x, x = y / |y|.
  do i = 1, n
    x(i) = dble(i)
  end do
  if (me == 0) call ga_put(g_x, 1, n, 1, 1, x, n)
  call ga_sync()
  do iter = 1, 30
    call ga_dgemm('n', 'n', n, 1, n, 1.0d0, g_a, g_x, 0.0d0, g_y)
    lambda = ga_ddot(g_x, g_y) / ga_ddot(g_x, g_x)
    norm = sqrt(ga_ddot(g_y, g_y))
    call ga_copy(g_y, g_x)
    call ga_dscal(g_x, 1.0d0 / norm)
  end do
  call ga_get(g_x, 1, n, 1, 1, x, n)

  if (me == 0) print '(a, f12.8, a, i0, a)', 'ga_fortran: largest eigenvalue ', lambda, ' (expected ', n + 1, ')'
  ok = abs(lambda - dble(n + 1)) < 1.0d-9 .and. maxval(x) - minval(x) < 1.0d-9
  if (me == 0 .and. ok) print '(a)', 'ga_fortran: eigenvalue and eigenvector passed'
  ok = ga_destroy(g_y) .and. ga_destroy(g_x) .and. ga_destroy(g_a) .and. ok
  call ga_terminate()
  call mpi_finalize(ierr)
  if (.not. ok) stop 1

contains

  double precision function element(i, j)
    integer, intent(in) :: i, j
    element = 1.0d0 + merge(1.0d0, 0.0d0, i == j) + dble(i - j) / 10.0d0
  end function element

end program ga_fortran
