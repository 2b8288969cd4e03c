! GA's memory limit and diagnostics from Fortran: ga_initialize_ltd, ga_memory_limited and
! ga_memory_avail, ga_inquire_memory, a creation over the limit returning .false. on every
! process, ga_set_memory_limit, ga_verify_handle, ga_check_handle, the debug flag,
! ga_mask_sync, ga_print_stats, and the nga_ spellings.
program fortran_memory
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: limit = 1000
  integer(4) :: ierr
  integer :: failures, me, g_big, g_small, ilo, ihi, jlo, jhi, mine
  logical :: ok

  call mpi_init(ierr)
  call ga_initialize_ltd(limit)
  me = ga_nodeid()
  failures = 0
  if (.not. ga_memory_limited()) call check_fail(failures, 'ga_memory_limited after ga_initialize_ltd')
  if (.not. nga_memory_limited()) call check_fail(failures, 'nga_memory_limited')
  if (ga_uses_ma() .or. nga_uses_ma()) call check_fail(failures, 'ga_uses_ma')
  if (ga_memory_avail() /= limit) call check_fail(failures, 'ga_memory_avail before any array')
  if (ga_inquire_memory() /= 0) call check_fail(failures, 'ga_inquire_memory before any array')

  ! 100 x 100 doubles: at least 20000 bytes on some process, over the limit: .false. everywhere.
  ok = ga_create(MT_DBL, 100, 100, 'big', -1, -1, g_big)
  if (ok) call check_fail(failures, 'ga_create over the limit returned .true.')
  ok = ga_create(MT_DBL, 4, 4, 'small', -1, -1, g_small)
  if (.not. ok) call check_fail(failures, 'ga_create under the limit returned .false.')
  call ga_distribution(g_small, me, ilo, ihi, jlo, jhi)
  mine = 0
  if (ihi >= ilo .and. jhi >= jlo) mine = 8 * (ihi - ilo + 1) * (jhi - jlo + 1)
  if (ga_memory_avail() /= limit - mine) call check_fail(failures, 'ga_memory_avail after ga_create')
  if (nga_memory_avail() /= limit - mine) call check_fail(failures, 'nga_memory_avail')
  if (ga_inquire_memory() /= mine) call check_fail(failures, 'ga_inquire_memory after ga_create')
  if (nga_inquire_memory() /= mine) call check_fail(failures, 'nga_inquire_memory')

  if (.not. ga_verify_handle(g_small)) call check_fail(failures, 'ga_verify_handle of a live array')
  if (nga_verify_handle(g_small + 777)) call check_fail(failures, 'nga_verify_handle of no array')
  call ga_check_handle(g_small, 'the small array')
  call ga_set_debug(.true.)
  if (.not. ga_get_debug()) call check_fail(failures, 'ga_get_debug after .true.')
  call nga_set_debug(.false.)
  if (nga_get_debug()) call check_fail(failures, 'nga_get_debug after .false.')
  call ga_mask_sync(0, 0)
  call ga_zero(g_small)
  call nga_mask_sync(1, 1)
  call ga_print_stats()

  call ga_set_memory_limit(-1)
  if (ga_memory_limited()) call check_fail(failures, 'ga_memory_limited after a negative limit')
  if (ga_memory_avail() /= -1) call check_fail(failures, 'ga_memory_avail without a limit')
  call nga_set_memory_limit(limit + mine)
  if (ga_memory_avail() /= limit) call check_fail(failures, 'ga_memory_avail after nga_set_memory_limit')
  if (.not. ga_destroy(g_small)) call check_fail(failures, 'ga_destroy')
  if (ga_inquire_memory() /= 0) call check_fail(failures, 'ga_inquire_memory after ga_destroy')
  call check_finish('fortran_memory', failures, '')
end program fortran_memory
