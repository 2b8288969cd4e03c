! A Global Arrays Fortran program on Armada: Debian's libga (built with 8-byte Fortran INTEGER,
! so this file is compiled with -fdefault-integer-8) linked with libarmada_armci. It starts MPI
! with a plain mpi_init, as GA Fortran programs do (MPI's Fortran bindings take 4-byte integers,
! hence integer(4) for their arguments).
!
! ga_igop/ga_dgop pass their operator to ARMCI as a Fortran string: no NUL, other text after it
! in memory. gfortran happens to end literals with a NUL, so the operators here are substrings
! of one string ('+' is followed by "*maxmin..."), as in code where they are not. Then a 2-d array: put, sync, get, accumulate, and a scatter whose subscripts
! repeat. The exit code is 0 only if every check passed on every rank.
program ga_fortran
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n = 12, k = 20
  integer(4) :: ierr
  integer :: me, np, failures, g_a, i, j, r, ix(3), subs(2, k)
  double precision :: dx(3), buf(n, n), got(n, n), vals(k), v(1)
  logical :: ok
  character(len=20), parameter :: ops = '+*maxminabsmaxabsmin'

  call mpi_init(ierr)
  call ga_initialize()
  ok = ma_init(MT_DBL, 100000, 100000)
  me = ga_nodeid()
  np = ga_nnodes()
  failures = 0

  ! Reductions with Fortran string operators.
  ix = (/ me + 1, me + 1, me + 1 /)
  call ga_igop(1, ix(1), 1, ops(1:1))    ! '+'
  call ga_igop(2, ix(2), 1, ops(3:5))    ! 'max'
  call ga_igop(3, ix(3), 1, ops(6:8))    ! 'min'
  call check(ix(1) == np * (np + 1) / 2 .and. ix(2) == np .and. ix(3) == 1, 'ga_igop + max min')
  dx = (/ -dble(me + 1), dble(me + 1), 2.0d0 /)
  call ga_dgop(4, dx(1), 1, ops(9:14))   ! 'absmax'
  call ga_dgop(5, dx(2), 1, ops(15:20))  ! 'absmin'
  call ga_dgop(6, dx(3), 1, ops(2:2))    ! '*'
  call check(dx(1) == dble(np) .and. dx(2) == 1.0d0 .and. dx(3) == 2.0d0**np, 'ga_dgop absmax absmin *')

  ! A distributed n x n array: rank 0 puts it whole, everyone reads it back, everyone adds 1.
  ok = ga_create(MT_DBL, n, n, 'a', -1, -1, g_a)
  call check(ok, 'ga_create')
  call ga_zero(g_a)
  do j = 1, n
    do i = 1, n
      buf(i, j) = dble(100 * i + j)
    end do
  end do
  if (me == 0) call ga_put(g_a, 1, n, 1, n, buf, n)
  call ga_sync()
  call ga_get(g_a, 1, n, 1, n, got, n)
  call check(all(got == buf), 'ga_put / ga_get')
  call ga_sync()
  got = 1.0d0
  call ga_acc(g_a, 1, n, 1, n, got, n, 1.0d0)
  call ga_sync()
  call ga_get(g_a, 1, n, 1, n, got, n)
  call check(all(got == buf + dble(np)), 'ga_acc')
  call ga_sync()

  ! Scatter with repeated subscripts: element (r, r) for r = 1..5, each k/5 times.
  do i = 1, k
    r = mod(i - 1, 5) + 1
    subs(1, i) = r
    subs(2, i) = r
    vals(i) = dble(1000 * me + i)
  end do
  call nga_scatter(g_a, vals, subs, k)
  call ga_sync()
  do r = 1, 5
    call nga_gather(g_a, v, subs(1, r), 1)
    i = nint(v(1)) - 1000 * (nint(v(1)) / 1000)
    call check(i >= 1 .and. i <= k .and. mod(i - 1, 5) + 1 == r, 'nga_scatter with repeated subscripts')
  end do
  call ga_sync()

  ok = ga_destroy(g_a)
  call ga_igop(7, failures, 1, '+')
  if (me == 0) then
    if (failures == 0) then
      print '(a, i0, a)', 'ga_fortran: ', np, ' ranks, passed'
    else
      print '(a, i0, a, i0, a)', 'ga_fortran: ', np, ' ranks, FAILED (', failures, ' failed checks)'
    end if
  end if
  call ga_terminate()
  call mpi_finalize(ierr)
  if (failures /= 0) stop 1

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(*), intent(in) :: what
    if (.not. cond) then
      failures = failures + 1
      print '(a, i0, 2a)', '[rank ', me, '] check failed: ', what
    end if
  end subroutine check

end program ga_fortran
