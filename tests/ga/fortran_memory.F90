! GA's memory limit and diagnostics from Fortran: ga_initialize_ltd, ga_memory_limited and
! ga_memory_avail, ga_inquire_memory, a creation over the limit returning .false. on every
! process, ga_set_memory_limit, ga_verify_handle, ga_check_handle, the debug flag,
! ga_mask_sync, ga_print_stats, ga_deallocate and ga_allocate (memory refunded, the handle and
! its distribution kept), ga_compare_distr, ga_is_mirrored, ga_set_irreg_flag, and the nga_
! spellings.
program fortran_memory
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: limit = 1000
  integer(4) :: ierr
  integer :: failures, me, g_big, g_small, ilo, ihi, jlo, jhi, mine
  integer :: g_dup, g_wide, klo, khi, llo, lhi
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
  ! ga_deallocate frees the memory and keeps the handle: ga_allocate makes the array again, with
  ! the same distribution and new (zero) contents.
  call ga_fill(g_small, 2.5d0)
  if (.not. ga_deallocate(g_small)) call check_fail(failures, 'ga_deallocate')
  if (ga_inquire_memory() /= 0) call check_fail(failures, 'ga_inquire_memory after ga_deallocate')
  if (ga_memory_avail() /= limit + mine) call check_fail(failures, 'ga_memory_avail after ga_deallocate')
  if (ga_verify_handle(g_small)) call check_fail(failures, 'ga_verify_handle after ga_deallocate')
  if (ga_is_mirrored(g_small) /= 0) call check_fail(failures, 'ga_is_mirrored of a deallocated handle')
  if (nga_deallocate(g_small)) call check_fail(failures, 'nga_deallocate with nothing allocated')
  if (.not. nga_allocate(g_small)) call check_fail(failures, 'nga_allocate after ga_deallocate')
  if (ga_inquire_memory() /= mine) call check_fail(failures, 'ga_inquire_memory after nga_allocate')
  call ga_distribution(g_small, me, klo, khi, llo, lhi)
  if (klo /= ilo .or. khi /= ihi .or. llo /= jlo .or. lhi /= jhi) &
    call check_fail(failures, 'ga_distribution after ga_deallocate and nga_allocate')
  if (ga_ddot(g_small, g_small) /= 0d0) call check_fail(failures, 'contents after nga_allocate')
  if (.not. nga_deallocate(g_small)) call check_fail(failures, 'nga_deallocate')
  if (.not. ga_allocate(g_small)) call check_fail(failures, 'ga_allocate')
  call ga_fill(g_small, 2d0)
  if (ga_ddot(g_small, g_small) /= 64d0) call check_fail(failures, 'ga_ddot after ga_allocate')
  ! Distributions: a duplicate's is the same, a 4 x 5 array's is not; nothing is mirrored.
  if (.not. ga_duplicate(g_small, g_dup, 'dup')) call check_fail(failures, 'ga_duplicate')
  if (.not. ga_create(MT_DBL, 4, 5, 'wide', -1, -1, g_wide)) call check_fail(failures, 'ga_create wide')
  if (.not. ga_compare_distr(g_small, g_dup)) call check_fail(failures, 'ga_compare_distr of a duplicate')
  if (nga_compare_distr(g_small, g_wide)) call check_fail(failures, 'nga_compare_distr of 4 x 4 and 4 x 5')
  if (nga_is_mirrored(g_wide) /= 0) call check_fail(failures, 'nga_is_mirrored')
  call ga_set_irreg_flag(g_small, .true.)
  call nga_set_irreg_flag(g_small, .false.)
  if (ga_ddot(g_small, g_small) /= 64d0) call check_fail(failures, 'ga_ddot after ga_set_irreg_flag')
  if (.not. ga_destroy(g_dup)) call check_fail(failures, 'ga_destroy dup')
  if (.not. ga_destroy(g_wide)) call check_fail(failures, 'ga_destroy wide')
  if (.not. ga_destroy(g_small)) call check_fail(failures, 'ga_destroy')
  if (ga_inquire_memory() /= 0) call check_fail(failures, 'ga_inquire_memory after ga_destroy')
  call check_finish('fortran_memory', failures, '')
end program fortran_memory
