! GA's Fortran ghost-cell entry points: nga_create_ghosts, nga_update_ghost_dir (every side of
! both dimensions, with and without corners), ga_/nga_set_ghost_corner_flag with
! ga_/nga_update_ghosts, nga_update_ghosts_nb + nga_nbwait with local work in between,
! nga_nbget_ghost_dir for every mask, nga_access_ghosts, nga_access_ghost_element and the release
! forms. Every cell of every process's block and ghost frame is checked through dbl_mb (with an
! 8-byte GA_ACCESS_INDEX_TYPE index, whatever the INTEGER width) against the value its owner
! holds, wrapped around the edges (GA's updates are periodic).
program fortran_ghosts
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: m = 10, n = 7
  double precision, parameter :: sentinel = -777.0d0
  integer :: me, failures, i, j, g, d, s, c, nb, dims(2), width(2), lo(2), hi(2), mask(2)
  GA_ACCESS_INDEX_TYPE :: idx
  integer :: ld(1), gdims(2)
  double precision :: a(m, n), back(m, n)
  logical :: ok

  call check_start(failures)
  me = ga_nodeid()
  do j = 1, n
    do i = 1, m
      a(i, j) = 100 * i + j
    end do
  end do
  dims = (/ m, n /)
  width = (/ 2, 1 /)
  ok = nga_create_ghosts(MT_DBL, 2, dims, width, 'ghosts', (/ -1, -1 /), g)
  if (.not. ok) call ga_error('fortran_ghosts: nga_create_ghosts failed', 1)
  if (me == 0) call nga_put(g, (/ 1, 1 /), (/ m, n /), a, m)
  call ga_sync()
  call nga_distribution(g, me, lo, hi)

  ! One side of one dimension at a time.
  do c = 0, 1
    do d = 1, 2
      do s = -1, 1, 2
        call reset()
        ok = nga_update_ghost_dir(g, d, s, c == 1)
        if (.not. ok) call check_fail(failures, 'nga_update_ghost_dir returned .false.')
        call check_frame(2, d, s, c == 1, mask, 'nga_update_ghost_dir')
      end do
    end do
  end do
  ! The corner flag decides what the whole update fills.
  call reset()
  call ga_set_ghost_corner_flag(g, .false.)
  call ga_update_ghosts(g)
  call check_frame(1, 0, 0, .false., mask, 'ga_set_ghost_corner_flag(.false.) + ga_update_ghosts')
  call reset()
  call nga_set_ghost_corner_flag(g, .true.)
  call nga_update_ghosts(g)
  call check_frame(0, 0, 0, .true., mask, 'nga_set_ghost_corner_flag(.true.) + nga_update_ghosts')
  ! GA's other implementations of the whole update and the calls ghosts.F makes around them.
  do i = 1, 7
    call reset()
    call ga_ghost_barrier()
    if (i == 4) ok = ga_set_update4_info(g)
    select case (i)
    case (1)
      call ga_update1_ghosts(g)
    case (2)
      ok = ga_update2_ghosts(g)
    case (3)
      ok = nga_update3_ghosts(g)
    case (4)
      ok = ga_update4_ghosts(g)
    case (5)
      ok = ga_set_update5_info(g) .and. ga_update5_ghosts(g)
    case (6)
      ok = ga_update6_ghosts(g)
    case default
      ok = ga_update7_ghosts(g)
    end select
    call ga_ghost_barrier()
    if (.not. ok) call check_fail(failures, 'ga_update<k>_ghosts returned .false.')
    call check_frame(0, 0, 0, .true., mask, 'ga_update<k>_ghosts')
  end do
  ! Nonblocking, with local work on other data in between.
  call reset()
  call nga_update_ghosts_nb(g, nb)
  back = 2 * a
  call nga_nbwait(nb)
  call check_frame(0, 0, 0, .true., mask, 'nga_update_ghosts_nb + nga_nbwait')
  call ga_sync()
  ! One region at a time (not collective).
  do i = -1, 1
    do j = -1, 1
      mask = (/ i, j /)
      call reset()
      call nga_nbget_ghost_dir(g, mask, nb)
      call nga_nbwait(nb)
      call check_frame(3, 0, 0, .true., mask, 'nga_nbget_ghost_dir')
    end do
  end do
  call ga_sync()
  call test_element()
  ! Nothing above changed the array's values.
  call ga_sync()
  back = 0
  call nga_get(g, (/ 1, 1 /), (/ m, n /), back, m)
  if (any(back /= a)) call check_fail(failures, 'the array changed')
  ok = ga_destroy(g)
  call check_finish('fortran_ghosts', failures, '')

contains

  ! Sets this process's ghost frame to the sentinel (through dbl_mb).
  subroutine reset()
    integer :: li, lj
    if (hi(1) < lo(1)) return
    call nga_access_ghosts(g, gdims, idx, ld)
    if (gdims(1) /= hi(1) - lo(1) + 1 + 2 * width(1) .or. gdims(2) /= hi(2) - lo(2) + 1 + 2 * width(2)) &
      call check_fail(failures, 'nga_access_ghosts: dims')
    if (ld(1) /= gdims(1)) call check_fail(failures, 'nga_access_ghosts: ld')
    do lj = 1, gdims(2)
      do li = 1, gdims(1)
        if (side(li, 1) /= 0 .or. side(lj, 2) /= 0) dbl_mb(idx + (li - 1) + (lj - 1) * ld(1)) = sentinel
      end do
    end do
    call nga_release_update_ghosts(g)
  end subroutine reset

  ! -1 below the block, 0 inside, 1 above, for local (ghosted, one-based) index l in dimension k.
  integer function side(l, k)
    integer, intent(in) :: l, k
    side = 0
    if (l <= width(k)) side = -1
    if (l > hi(k) - lo(k) + 1 + width(k)) side = 1
  end function side

  ! The owner's value of local index (li, lj), wrapped into the array.
  double precision function owner(li, lj)
    integer, intent(in) :: li, lj
    integer :: gi, gj
    gi = modulo(lo(1) - width(1) + li - 2, m) + 1
    gj = modulo(lo(2) - width(2) + lj - 2, n) + 1
    owner = a(gi, gj)
  end function owner

  ! Checks every cell: the block and the filled cells hold their owner's
  ! value, the rest of the frame the sentinel. mode 0: every cell filled; 1: faces only; 2: the
  ! side dir of dimension dim (with corners when corners); 3: the region mask.
  subroutine check_frame(mode, dim, dir, corners, msk, what)
    integer, intent(in) :: mode, dim, dir, msk(2)
    logical, intent(in) :: corners
    character(*), intent(in) :: what
    integer :: li, lj, sd(2), bad
    logical :: filled
    double precision :: want
    if (hi(1) < lo(1)) return
    call nga_access_ghosts(g, gdims, idx, ld)
    bad = 0
    do lj = 1, gdims(2)
      do li = 1, gdims(1)
        sd = (/ side(li, 1), side(lj, 2) /)
        select case (mode)
        case (0)
          filled = .true.
        case (1)
          filled = count(sd /= 0) == 1
        case (2)
          filled = sd(dim) == dir .and. (corners .or. count(sd /= 0) == 1)
        case default
          filled = all(sd == msk)
        end select
        want = sentinel
        if (filled .or. all(sd == 0)) want = owner(li, lj)
        if (dbl_mb(idx + (li - 1) + (lj - 1) * ld(1)) /= want) bad = bad + 1
      end do
    end do
    call nga_release_ghosts(g)
    if (bad /= 0) call check_fail(failures, what)
  end subroutine check_frame

  ! nga_access_ghost_element for every cell of the frame: its index against nga_access_ghosts',
  ! its value, and a store through it (nga_release_update_ghost_element) seen by nga_get.
  subroutine test_element()
    GA_ACCESS_INDEX_TYPE :: eidx
    integer :: li, lj, eld(1), sub(2), bad
    double precision :: x(1)
    if (hi(1) >= lo(1)) then
      call nga_update_ghosts(g)
      call nga_access_ghosts(g, gdims, idx, ld)
      call nga_release_ghosts(g)
      bad = 0
      do lj = 1, gdims(2)
        do li = 1, gdims(1)
          sub = (/ li, lj /)
          call nga_access_ghost_element(g, eidx, sub, eld)
          if (eidx /= idx + (li - 1) + (lj - 1) * ld(1) .or. eld(1) /= ld(1)) bad = bad + 1
          if (dbl_mb(eidx) /= owner(li, lj)) bad = bad + 1
          call nga_release_ghost_element(g, sub)
        end do
      end do
      if (bad /= 0) call check_fail(failures, 'nga_access_ghost_element: index, ld or value')
      sub = width + 1  ! the block's first element
      call nga_access_ghost_element(g, eidx, sub, eld)
      dbl_mb(eidx) = -1.5d0
      call nga_release_update_ghost_element(g, sub)
    end if
    call ga_sync()
    if (hi(1) >= lo(1)) then
      call nga_get(g, lo, lo, x, 1)
      if (x(1) /= -1.5d0) call check_fail(failures, 'nga_release_update_ghost_element: the store')
      call nga_put(g, lo, lo, a(lo(1), lo(2)), 1)
    end if
  end subroutine test_element

end program fortran_ghosts
