! Bad arguments to GA's Fortran API end the job GA_Error's way, with a message naming the Fortran
! function, the argument as the program named it and its value (one-based, Fortran order). The
! case is the first command-line argument; ctest expects the job to fail with the message.
program fortran_errors
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer(4) :: ierr
  integer :: g_a, h, idx, ilo, ihi, jlo, jhi
  double precision :: buf(10, 10)
  character(len=16) :: which
  logical :: ok

  call mpi_init(ierr)
  call ga_initialize()
  call get_command_argument(1, which)
  ok = ga_create(MT_DBL, 10, 8, 'A', -1, -1, g_a)
  select case (trim(which))
  case ('patch')   ! ihi past the array's 10 rows
    call ga_get(g_a, 1, 11, 1, 8, buf, 10)
  case ('ndpatch') ! lo(2) = 0: Fortran indices start at 1
    call nga_put(g_a, (/ 1, 0 /), (/ 3, 2 /), buf, (/ 10 /))
  case ('handle')
    call nga_get(12345, (/ 1, 1 /), (/ 2, 2 /), buf, (/ 10 /))
  case ('ld')      ! the buffer's ld below the patch's 6 rows
    call ga_put(g_a, 2, 7, 1, 3, buf, 5)
  case ('type')
    ok = ga_create(4242, 5, 5, 'B', -1, -1, h)
  case ('dgemm')
    call ga_dgemm('x', 'n', 10, 8, 8, 1.0d0, g_a, g_a, 0.0d0, g_a)
  case ('ma')      ! an MA handle that was never given out, found by the C API under ma_pop_stack
    ok = ma_push_get(MT_DBL, 10, 'x', h, idx)
    ok = ma_pop_stack(h + 77)
  case ('access')  ! with 4-byte INTEGER the MA index of an array's memory does not fit
    call ga_distribution(g_a, ga_nodeid(), ilo, ihi, jlo, jhi)
    call ga_access(g_a, ilo, ihi, jlo, jhi, idx, h)
  case ('user')
    call ga_error('the program gave up', 42)
  case default
    print *, 'fortran_errors: unknown case ', trim(which)
  end select
  ! Only reached when no error was raised: the test then fails (it expects the abort).
  print *, 'fortran_errors: no error for case ', trim(which)
  call ga_terminate()
  call mpi_finalize(ierr)
end program fortran_errors
