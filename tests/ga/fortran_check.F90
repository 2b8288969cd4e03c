! What the GA-style Fortran test programs share (linked into each): the start of a program (MPI
! and GA started, no failed check yet); a failed check, counted and reported by the rank that
! found it; the end of a program: every rank learns the total,
! rank 0 prints "<name>: passed<summary>" or the number of failed checks, GA and MPI stop, and
! the exit status is 1 if any check failed on any rank; and a whole 2-D array written by rank 0.
subroutine check_start(failures)
  implicit none
  integer, intent(out) :: failures
  integer(4) :: ierr
  call mpi_init(ierr)
  call ga_initialize()
  failures = 0
end subroutine check_start

subroutine check_fail(failures, what)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  character(*), intent(in) :: what
  failures = failures + 1
  if (failures < 20) print *, 'rank', ga_nodeid(), ': check failed: ', what
end subroutine check_fail

subroutine check_finish(name, failures, summary)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  character(*), intent(in) :: name, summary
  integer, intent(inout) :: failures
  integer(4) :: ierr
  call ga_igop(2, failures, 1, '+')
  if (ga_nodeid() == 0) then
    if (failures == 0) print '(a, a, a)', name, ': passed', summary
    if (failures /= 0) print '(a, a, i0, a)', name, ': ', failures, ' check(s) failed'
  end if
  call ga_terminate()
  call mpi_finalize(ierr)
  if (failures /= 0) stop 1
end subroutine check_finish

! Rank 0 writes buf (rows x cols, column-major, of g's element type) into the whole of 2-D array
! g; the caller syncs once its arrays are written. buf is declared double precision only to be
! passed on: GA's Fortran API takes buffers of any type (-fallow-argument-mismatch).
subroutine put_whole(g, rows, cols, buf)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(in) :: g, rows, cols
  double precision, intent(in) :: buf(*)
  if (ga_nodeid() == 0) call ga_put(g, 1, rows, 1, cols, buf, rows)
end subroutine put_whole
