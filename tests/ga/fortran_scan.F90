! GA's sparse-data operations and TAO helpers in GA's Fortran spellings (one-based, inclusive):
! ga_patch_enum, ga_scan_copy, ga_scan_add (inclusive and exclusive), ga_pack and ga_unpack on
! GA's documented examples (INTEGER vectors, the mask blocked differently from the data), then
! ga_median and ga_median_patch of double precision matrices, ga_step_max(_patch) and
! ga_step_bound_info(_patch) of double precision vectors, each against a serial computation.
program fortran_scan
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n = 17, m = 6, k = 5, nv = 9
  integer :: me, failures, i, j, g_src, g_dst, g_mask, g_a, g_b, g_c, g_m, g_x, g_v, g_l, g_u
  integer :: src(n), dst(n), mask(n), want(n), icount, one, seven, two
  double precision :: a(m, k), b(m, k), c(m, k), med(m, k), got(m, k)
  double precision :: x(nv), v(nv), xl(nv), xu(nv), step, expect, bmin, wmin, bmax, t
  logical :: ok

  call check_start(failures)
  me = ga_nodeid()
  call sparse_data()
  call medians()
  call steps()
  call check_finish('fortran_scan', failures, '')

contains

  ! GA's documented examples of the sparse-data operations, on INTEGER vectors
  subroutine sparse_data()
    ok = nga_create(MT_F_INT, 1, (/ n /), 'src', (/ -1 /), g_src)
    ok = ok .and. nga_create(MT_F_INT, 1, (/ n /), 'dst', (/ -1 /), g_dst)
    ok = ok .and. nga_create(MT_F_INT, 1, (/ n /), 'mask', (/ 7 /), g_mask)
    if (.not. ok) call ga_error('fortran_scan: creation failed', 1)

    ! ga_scan_copy: GA's example
    mask = (/ 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0 /)
    src = (/ 5, 8, 7, 3, 2, 6, 9, 7, 3, 4, 8, 2, 3, 6, 9, 10, 7 /)
    call put_ints(g_mask, mask)
    call put_ints(g_src, src)
    call ga_scan_copy(g_src, g_dst, g_mask, 1, n)
    call expect_ints(g_dst, (/ 5, 5, 5, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8, 9, 10, 10 /), 'ga_scan_copy')
    ! ga_patch_enum(g_a, 1, n, 1, 1), then ga_scan_add inclusive and exclusive: GA's examples
    one = 1
    call ga_patch_enum(g_src, 1, n, one, one)
    mask = (/ 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0 /)
    call put_ints(g_mask, mask)
    call ga_scan_add(g_src, g_dst, g_mask, 1, n, 0)
    call expect_ints(g_dst, (/ 1, 3, 6, 10, 15, 21, 7, 15, 9, 19, 30, 12, 25, 39, 15, 16, 33 /), 'ga_scan_add')
    call ga_scan_add(g_src, g_dst, g_mask, 1, n, 1)
    call expect_ints(g_dst, (/ 0, 1, 3, 6, 10, 15, 0, 7, 0, 9, 19, 0, 12, 25, 0, 0, 16 /), 'ga_scan_add excl')
    ! a range inside: elements 3 .. 12 (segments start at 7, 9 and 12; 3 .. 6, before the first
    ! set bit, belong to none and keep their values, as GA's)
    call ga_fill(g_dst, -one)
    call ga_scan_add(g_src, g_dst, g_mask, 3, 12, 0)
    want = -1
    want(7:12) = (/ 7, 15, 9, 19, 30, 12 /)
    call expect_ints(g_dst, want, 'ga_scan_add 3 .. 12')
    ! ga_unpack: GA's example; ga_pack back
    mask = (/ 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0 /)
    call put_ints(g_mask, mask)
    src = 0
    src(1:5) = (/ 1, 6, 8, 11, 15 /)
    call put_ints(g_src, src)
    call ga_zero(g_dst)
    icount = -1
    call ga_unpack(g_src, g_dst, g_mask, 1, n, icount)
    if (icount /= 5) call check_fail(failures, 'ga_unpack icount')
    call expect_ints(g_dst, (/ 1, 0, 0, 0, 0, 6, 0, 8, 0, 0, 11, 0, 0, 0, 15, 0, 0 /), 'ga_unpack')
    call ga_zero(g_src)
    icount = -1
    call ga_pack(g_dst, g_src, g_mask, 1, n, icount)
    if (icount /= 5) call check_fail(failures, 'ga_pack icount')
    call expect_ints(g_src, src, 'ga_pack')
    ! ga_patch_enum(g_a, 5, n, 7, 2) after a zero: GA's example
    call ga_zero(g_dst)
    seven = 7
    two = 2
    call ga_patch_enum(g_dst, 5, n, seven, two)
    want = 0
    do i = 5, n
      want(i) = 7 + 2 * (i - 5)
    end do
    call expect_ints(g_dst, want, 'ga_patch_enum 5 .. n')

    ok = ga_destroy(g_mask) .and. ga_destroy(g_dst) .and. ga_destroy(g_src)
  end subroutine sparse_data

  ! ga_median and ga_median_patch of double precision matrices
  subroutine medians()
    do j = 1, k
      do i = 1, m
        a(i, j) = dble(mod(3 * i + 5 * j, 7))
        b(i, j) = dble(mod(2 * i + j, 5))
        c(i, j) = dble(mod(i + 4 * j, 6)) - 1
        med(i, j) = max(min(a(i, j), b(i, j)), min(max(a(i, j), b(i, j)), c(i, j)))
      end do
    end do
    ok = ga_create(MT_DBL, m, k, 'a', -1, -1, g_a) .and. ga_create(MT_DBL, m, k, 'b', m, -1, g_b)
    ok = ok .and. ga_create(MT_DBL, m, k, 'c', -1, -1, g_c) .and. ga_create(MT_DBL, m, k, 'm', -1, k, g_m)
    if (.not. ok) call ga_error('fortran_scan: creation failed', 2)
    call put_whole(g_a, m, k, a)
    call put_whole(g_b, m, k, b)
    call put_whole(g_c, m, k, c)
    call ga_sync()
    call ga_median(g_a, g_b, g_c, g_m)
    call ga_get(g_m, 1, m, 1, k, got, m)
    if (any(got /= med)) call check_fail(failures, 'ga_median')
    ! m(2:4, 3:5) = median(a(1:3, 1:3), b(4:6, 2:4), c(3:5, 3:5)); the rest zero
    call ga_zero(g_m)
    call ga_median_patch(g_a, (/ 1, 1 /), (/ 3, 3 /), g_b, (/ 4, 2 /), (/ 6, 4 /), g_c, (/ 3, 3 /), (/ 5, 5 /), &
                         g_m, (/ 2, 3 /), (/ 4, 5 /))
    med = 0
    do j = 3, 5
      do i = 2, 4
        med(i, j) = max(min(a(i - 1, j - 2), b(i + 2, j - 1)), min(max(a(i - 1, j - 2), b(i + 2, j - 1)), c(i + 1, j)))
      end do
    end do
    call ga_get(g_m, 1, m, 1, k, got, m)
    if (any(got /= med)) call check_fail(failures, 'ga_median_patch')

    ok = ga_destroy(g_m) .and. ga_destroy(g_c) .and. ga_destroy(g_b) .and. ga_destroy(g_a)
  end subroutine medians

  ! ga_step_max and ga_step_bound_info (and patches) of double precision vectors
  subroutine steps()
    do i = 1, nv
      x(i) = 4.0d0 + mod(i, 3)
      v(i) = dble(mod(5 * i, 7) - 3)
      xl(i) = x(i) - 1.0d0 - 0.5d0 * i
      xu(i) = x(i) + 2.0d0 + 0.25d0 * i
    end do
    ok = nga_create(MT_DBL, 1, (/ nv /), 'x', (/ -1 /), g_x) .and. nga_create(MT_DBL, 1, (/ nv /), 'v', (/ 4 /), g_v)
    ok = ok .and. nga_create(MT_DBL, 1, (/ nv /), 'xl', (/ -1 /), g_l) .and. nga_create(MT_DBL, 1, (/ nv /), 'xu', (/ 2 /), g_u)
    if (.not. ok) call ga_error('fortran_scan: creation failed', 3)
    if (me == 0) then
      call nga_put(g_x, (/ 1 /), (/ nv /), x, (/ 1 /))
      call nga_put(g_v, (/ 1 /), (/ nv /), v, (/ 1 /))
      call nga_put(g_l, (/ 1 /), (/ nv /), xl, (/ 1 /))
      call nga_put(g_u, (/ 1 /), (/ nv /), xu, (/ 1 /))
    end if
    call ga_sync()
    expect = 1.0d307
    do i = 1, nv
      if (v(i) < 0) expect = min(expect, x(i) / (-v(i)))
    end do
    call ga_step_max(g_x, g_v, step)
    if (step /= expect) call check_fail(failures, 'ga_step_max')
    expect = 1.0d307
    do i = 2, 6
      if (v(i + 2) < 0) expect = min(expect, x(i) / (-v(i + 2)))
    end do
    call ga_step_max_patch(g_x, (/ 2 /), (/ 6 /), g_v, (/ 4 /), (/ 8 /), step)
    if (step /= expect) call check_fail(failures, 'ga_step_max_patch')
    bmin = 1.0d307
    bmax = -1.0d307
    do i = 1, nv
      t = 1.0d307
      if (v(i) > 0) t = (xu(i) - x(i)) / v(i)
      if (v(i) < 0) t = (x(i) - xl(i)) / (-v(i))
      bmin = min(bmin, t)
      bmax = max(bmax, t)
    end do
    call ga_step_bound_info(g_x, g_v, g_l, g_u, expect, wmin, t)
    if (expect /= bmin .or. wmin /= bmin .or. t /= bmax) call check_fail(failures, 'ga_step_bound_info')
    ! patches 2 .. 4 of x, xl, xu against v(5 .. 7)
    bmin = 1.0d307
    bmax = -1.0d307
    do i = 2, 4
      t = 1.0d307
      if (v(i + 3) > 0) t = (xu(i) - x(i)) / v(i + 3)
      if (v(i + 3) < 0) t = (x(i) - xl(i)) / (-v(i + 3))
      bmin = min(bmin, t)
      bmax = max(bmax, t)
    end do
    call ga_step_bound_info_patch(g_x, (/ 2 /), (/ 4 /), g_v, (/ 5 /), (/ 7 /), g_l, (/ 2 /), (/ 4 /), &
                                  g_u, (/ 2 /), (/ 4 /), expect, wmin, t)
    if (expect /= bmin .or. wmin /= bmin .or. t /= bmax) call check_fail(failures, 'ga_step_bound_info_patch')
    if (bmin <= 0 .or. bmax >= 1.0d300) call check_fail(failures, 'the bound patch is not trivial')

    ok = ga_destroy(g_u) .and. ga_destroy(g_l) .and. ga_destroy(g_v) .and. ga_destroy(g_x)
  end subroutine steps

  subroutine put_ints(g, values)
    integer, intent(in) :: g, values(n)
    call ga_sync()
    if (me == 0) call nga_put(g, (/ 1 /), (/ n /), values, (/ 1 /))
    call ga_sync()
  end subroutine put_ints

  subroutine expect_ints(g, values, what)
    integer, intent(in) :: g, values(n)
    character(*), intent(in) :: what
    integer :: have(n)
    call nga_get(g, (/ 1 /), (/ n /), have, (/ 1 /))
    if (any(have /= values)) call check_fail(failures, what)
  end subroutine expect_ints

end program fortran_scan
