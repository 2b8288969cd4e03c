! GA's block-cyclic arrays from Fortran (ga_set_block_cyclic, ga_set_block_cyclic_proc_grid,
! ga_set_tiled_proc_grid):
! the block queries in Fortran's view (block b of a 7 x 6 array of 3 x 2 blocks is rows
! mod(b,3)*3+1.., columns (b/3)*2+1..: blocks counted first dimension fastest, from 0), patch
! put/get/acc against local arrays, local access of the process's own blocks through dbl_mb, and
! collective operations against the same on a regular array; the three layouts.
program fortran_block_cyclic
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer :: failures
  character(len=16) :: which
  call check_start(failures)
  which = ''
  if (command_argument_count() > 0) call get_command_argument(1, which)
  if (which /= '') call bad_use(which)  ! an error row: the job must end in GA_Error
  call check_layout(failures, 0)  ! simple
  call check_layout(failures, 1)  ! proc grid
  call check_layout(failures, 2)  ! tiled
  call check_finish('fortran_block_cyclic', failures, '')
end program fortran_block_cyclic

integer function make_cyclic(type, layout)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(in) :: type, layout
  integer :: dims(2), block(2), pgrid(2), np
  logical :: ok
  np = ga_nnodes()
  dims = (/ 7, 6 /)
  block = (/ 3, 2 /)
  pgrid = (/ np, 1 /)
  if (mod(np, 2) == 0) pgrid = (/ 2, np / 2 /)
  make_cyclic = ga_create_handle()
  call ga_set_data(make_cyclic, 2, dims, type)
  call ga_set_array_name(make_cyclic, 'cyclic')
  if (layout == 1) then
    call nga_set_block_cyclic_proc_grid(make_cyclic, block, pgrid)
  else if (layout == 2) then
    call ga_set_tiled_proc_grid(make_cyclic, block, pgrid)
  else
    call ga_set_block_cyclic(make_cyclic, block)
  end if
  ok = ga_allocate(make_cyclic)
end function make_cyclic

subroutine check_layout(failures, layout)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, intent(in) :: layout
  logical :: grid
  integer, external :: make_cyclic
  integer :: g_a, g_r, b, i, j, me, np, nb(2), bd(2), lo(2), hi(2), ld(1), plo(2), phi(2), len, owner
  integer :: pgrid(2), total
  integer*8 :: index
  double precision :: a(7, 6), got(7, 6), two
  grid = layout /= 0
  me = ga_nodeid()
  np = ga_nnodes()
  pgrid = (/ np, 1 /)
  if (mod(np, 2) == 0) pgrid = (/ 2, np / 2 /)
  g_a = make_cyclic(MT_F_DBL, layout)
  if (ga_total_blocks(g_a) /= 9) call check_fail(failures, 'ga_total_blocks')
  if (ga_uses_proc_grid(g_a) .neqv. grid) call check_fail(failures, 'ga_uses_proc_grid')
  call nga_get_block_info(g_a, nb, bd)
  if (any(nb /= (/ 3, 3 /)) .or. any(bd /= (/ 3, 2 /))) call check_fail(failures, 'nga_get_block_info')
  do b = 0, 8
    call nga_distribution(g_a, b, lo, hi)
    if (lo(1) /= mod(b, 3) * 3 + 1 .or. hi(1) /= min(7, lo(1) + 2)) call check_fail(failures, 'block rows')
    if (lo(2) /= (b / 3) * 2 + 1 .or. hi(2) /= lo(2) + 1) call check_fail(failures, 'block columns')
  end do
  plo = (/ 2, 2 /)
  phi = (/ 5, 5 /)
  if (nga_locate_num_blocks(g_a, plo, phi) /= 6) call check_fail(failures, 'nga_locate_num_blocks')
  ! Put from process 0, accumulate from every process, read back.
  do j = 1, 6
    do i = 1, 7
      a(i, j) = i + 100 * j
    end do
  end do
  lo = (/ 1, 1 /)
  hi = (/ 7, 6 /)
  ld(1) = 7
  call ga_zero(g_a)
  if (me == 0) call nga_put(g_a, lo, hi, a, ld)
  call ga_sync()
  two = 2
  call nga_acc(g_a, plo, phi, a(2, 2), ld, two)
  call ga_sync()
  do j = 2, 5
    do i = 2, 5
      a(i, j) = a(i, j) * (1 + 2 * np)
    end do
  end do
  got = 0
  call nga_get(g_a, lo, hi, got, ld)
  if (any(got /= a)) call check_fail(failures, 'put, acc and get')
  ! Local access of this process's blocks (index and ld in Fortran's view).
  total = 0
  do b = 0, 8
    owner = mod(b, np)
    if (grid) owner = mod(mod(b, 3), pgrid(1)) + pgrid(1) * mod(b / 3, pgrid(2))  ! column-major grid
    if (owner /= me) cycle
    call nga_distribution(g_a, b, lo, hi)
    call nga_access_block(g_a, b, index, ld)
    do j = lo(2), hi(2)
      do i = lo(1), hi(1)
        if (dbl_mb(index + (i - lo(1)) + (j - lo(2)) * ld(1)) /= a(i, j)) call check_fail(failures, 'access_block')
        total = total + 1
      end do
    end do
    call nga_release_block(g_a, b)
    if (grid) then
      nb = (/ mod(b, 3), b / 3 /)
      call nga_access_block_grid(g_a, nb, index, ld)
      if (dbl_mb(index) /= a(lo(1), lo(2))) call check_fail(failures, 'access_block_grid')
      call nga_release_block_grid(g_a, nb)
    end if
  end do
  call ga_igop(1, total, 1, '+')
  if (total /= 42) call check_fail(failures, 'every element in one block')
  if (layout == 1) then
    call nga_access_block_segment(g_a, me, index, len)
    call nga_release_block_segment(g_a, me)
    call ga_igop(1, len, 1, '+')
    if (len /= 42) call check_fail(failures, 'segments hold the array')
  end if
  ! Collective operations against a regular array.
  lo = (/ 1, 1 /)
  hi = (/ 7, 6 /)
  ld(1) = 7
  g_r = ga_create_handle()
  call ga_set_data(g_r, 2, hi, MT_F_DBL)
  if (.not. ga_allocate(g_r)) call check_fail(failures, 'regular array')
  call ga_copy(g_a, g_r)
  call ga_scale(g_a, two)
  call ga_add(1d0, g_a, -1d0, g_r, g_r)
  if (ga_ddot(g_r, g_r) /= sum(a * a)) call check_fail(failures, 'ga_copy, ga_scale, ga_add, ga_ddot')
  call nga_get(g_r, lo, hi, got, ld)
  if (any(got /= a)) call check_fail(failures, 'ga_add into a regular array')
  if (.not. ga_destroy(g_r)) call check_fail(failures, 'ga_destroy')
  if (.not. ga_destroy(g_a)) call check_fail(failures, 'ga_destroy')
end subroutine check_layout

! The error rows: a block extent of 0 from Fortran, and a block-cyclic array given to an
! operation that does not take one; each must end the job before returning.
subroutine bad_use(which)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  character(*), intent(in) :: which
  integer, external :: make_cyclic
  integer :: g_a, dims(2), block(2), sub(2), old
  dims = (/ 7, 6 /)
  block = (/ 3, 0 /)
  sub = (/ 1, 1 /)
  if (which == 'zero_block') then
    g_a = ga_create_handle()
    call ga_set_data(g_a, 2, dims, MT_F_DBL)
    call ga_set_block_cyclic(g_a, block)
  else if (which == 'read_inc') then
    g_a = make_cyclic(MT_F_DBL, 1)  ! a block-cyclic counter must be an integer array too
    old = nga_read_inc(g_a, sub, 1)
  end if
  print *, 'fortran_block_cyclic: case ', which, ' returned'
  stop 3
end subroutine bad_use
