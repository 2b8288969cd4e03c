! Patch arithmetic in GA's Fortran style (the C program tests/ga/patch_arith.c, plus the matrix
! operations): copies (plain and transposed), linear combinations, scaling, fills and zeroes of
! patches, dot products of patches, and on a whole matrix the diagonal, row and column scaling
! and the norms, in Fortran's view (rows are Fortran's first index). Every process keeps serial
! copies of the arrays, applies the same operations, and the whole arrays must equal them.
program fortran_patches
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: m = 13, n = 11, p = 9
  integer :: me, failures, i, j, g_a, g_b, g_c, g_r, g_s, g_v
  double precision :: a(m, n), b(m, n), c(p, m), r(m), s(n), v(n), dot, dot_t, nm, expect
  logical :: ok

  call check_start(failures)
  me = ga_nodeid()
  do j = 1, n
    do i = 1, m
      a(i, j) = 1.0d0 + i - 0.25d0 * j
      b(i, j) = dble(mod(i * 7 + j * 3, 5)) - 2.0d0
    end do
  end do
  c = 0
  ok = ga_create(MT_DBL, m, n, 'A', -1, -1, g_a) .and. ga_create(MT_DBL, m, n, 'B', m, -1, g_b)
  ok = ok .and. ga_create(MT_DBL, p, m, 'C', -1, -1, g_c)
  ok = ok .and. nga_create(MT_DBL, 1, (/ m /), 'r', (/ -1 /), g_r)
  ok = ok .and. nga_create(MT_DBL, 1, (/ n /), 's', (/ -1 /), g_s)
  ok = ok .and. nga_create(MT_DBL, 1, (/ n /), 'diagonal', (/ -1 /), g_v)
  if (.not. ok) call ga_error('fortran_patches: creation failed', 1)
  call put_whole(g_a, m, n, a)
  call put_whole(g_b, m, n, b)
  call ga_zero(g_c)
  call ga_sync()

  ! C(2:6, 3:9) = A(4:10, 5:9)^T
  call ga_copy_patch('t', g_a, 4, 10, 5, 9, g_c, 2, 6, 3, 9)
  c(2:6, 3:9) = transpose(a(4:10, 5:9))
  call check(g_c, c, p, m, 'ga_copy_patch t (C)')
  ! B(1:4, 6:11) = 2 A(9:12, 1:6) - 0.5 B(5:8, 3:8)
  call nga_add_patch(2.0d0, g_a, (/ 9, 1 /), (/ 12, 6 /), -0.5d0, g_b, (/ 5, 3 /), (/ 8, 8 /), &
                     g_b, (/ 1, 6 /), (/ 4, 11 /))
  b(1:4, 6:11) = 2.0d0 * a(9:12, 1:6) - 0.5d0 * b(5:8, 3:8)
  call check(g_b, b, m, n, 'nga_add_patch (B)')
  ! Scale, fill and zero patches of A; add two patches into a third.
  call ga_scale_patch(g_a, 3, 11, 2, 4, 3.0d0)
  a(3:11, 2:4) = 3.0d0 * a(3:11, 2:4)
  call nga_fill_patch(g_a, (/ 1, 10 /), (/ m, 11 /), 7.0d0)
  a(:, 10:11) = 7.0d0
  call nga_zero_patch(g_a, (/ 6, 6 /), (/ 7, 8 /))
  a(6:7, 6:8) = 0
  call ga_fill_patch(g_c, 7, 9, 1, 2, -1.5d0)
  c(7:9, 1:2) = -1.5d0
  call nga_scale_patch(g_c, (/ 1, 10 /), (/ p, 13 /), 0.5d0)
  c(:, 10:13) = 0.5d0 * c(:, 10:13)
  call ga_add_patch(1.0d0, g_a, 1, 3, 1, 3, 1.0d0, g_b, 11, 13, 9, 11, g_c, 1, 3, 1, 3)
  c(1:3, 1:3) = a(1:3, 1:3) + b(11:13, 9:11)
  call check(g_a, a, m, n, 'ga_scale_patch, nga_fill_patch, nga_zero_patch (A)')
  call check(g_c, c, p, m, 'ga_fill_patch, nga_scale_patch, ga_add_patch (C)')
  ! Dot products of patches: A(3:8, 2:5) . B(7:12, 4:7), and A(3:8, 2:5) . C(2:5, 3:8)^T.
  dot = sum(a(3:8, 2:5) * b(7:12, 4:7))
  dot_t = sum(a(3:8, 2:5) * transpose(c(2:5, 3:8)))
  if (abs(ga_ddot_patch(g_a, 'n', 3, 8, 2, 5, g_b, 'n', 7, 12, 4, 7) - dot) > 1.0d-12 * (1 + abs(dot))) &
      call check_fail(failures, 'ga_ddot_patch')
  if (abs(nga_ddot_patch(g_a, 'n', (/ 3, 2 /), (/ 8, 5 /), g_c, 't', (/ 2, 3 /), (/ 5, 8 /)) - dot_t) > &
      1.0d-12 * (1 + abs(dot_t))) call check_fail(failures, 'nga_ddot_patch t')
  if (abs(dot) < 1 .or. abs(dot_t) < 1) call check_fail(failures, 'the dot products are not trivial')

  ! The whole matrix B: rows scaled by r(i), columns by s(j), its diagonal set, added to, zeroed.
  do i = 1, m
    r(i) = i
  end do
  do j = 1, n
    s(j) = 0.5d0 * j
    v(j) = 100 + j
  end do
  if (me == 0) then
    call nga_put(g_r, (/ 1 /), (/ m /), r, (/ 1 /))
    call nga_put(g_s, (/ 1 /), (/ n /), s, (/ 1 /))
    call nga_put(g_v, (/ 1 /), (/ n /), v, (/ 1 /))
  end if
  call ga_sync()
  call ga_scale_rows(g_b, g_r)
  call ga_scale_cols(g_b, g_s)
  do j = 1, n
    b(:, j) = b(:, j) * r * s(j)
  end do
  call check(g_b, b, m, n, 'ga_scale_rows, ga_scale_cols (B)')
  call ga_norm1(g_b, nm)
  if (abs(nm - maxval(sum(abs(b), dim=1))) > 1.0d-12 * nm) call check_fail(failures, 'ga_norm1: the largest column sum')
  call ga_norm_infinity(g_b, nm)
  if (abs(nm - maxval(sum(abs(b), dim=2))) > 1.0d-12 * nm) call check_fail(failures, 'ga_norm_infinity: the largest row sum')
  call ga_norm1(g_s, nm)
  expect = sum(abs(s))
  if (abs(nm - expect) > 1.0d-12 * expect) call check_fail(failures, 'ga_norm1 of a vector')
  call ga_set_diagonal(g_b, g_v)
  call ga_add_diagonal(g_b, g_v)
  do i = 1, n
    b(i, i) = 2 * v(i)
  end do
  call check(g_b, b, m, n, 'ga_set_diagonal, ga_add_diagonal (B)')
  call ga_zero_diagonal(g_b)
  do i = 1, n
    b(i, i) = 0
  end do
  call check(g_b, b, m, n, 'ga_zero_diagonal (B)')

  ok = ga_destroy(g_v) .and. ga_destroy(g_s) .and. ga_destroy(g_r) .and. ga_destroy(g_c)
  ok = ok .and. ga_destroy(g_b) .and. ga_destroy(g_a)
  call check_finish('fortran_patches', failures, '')

contains

  ! The whole array g (rows x cols) equals the serial copy `want` exactly.
  subroutine check(g, want, rows, cols, what)
    integer, intent(in) :: g, rows, cols
    double precision, intent(in) :: want(rows, cols)
    character(*), intent(in) :: what
    double precision :: got(rows, cols)
    call ga_get(g, 1, rows, 1, cols, got, rows)
    if (any(got /= want)) call check_fail(failures, what)
  end subroutine check

end program fortran_patches
