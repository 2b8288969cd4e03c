! The Fortran entry points GA's own test programs (testsolve.F, nbtest.F, pgtest.F, bin.F, ...) need
! beyond fortran_services: ga_wtime, ga_ndim, nonblocking put/acc and ga_nbtest, the solvers
! (ga_solve, ga_llt_solve, ga_lu_solve), process-group splits and group collectives, element-wise
! operations, irregular and ghosted creation, inquiries, process grids, strided and periodic
! patches, nga_select_elem, the other gemm types, nga_matmul_patch with op(A)'s indices; each
! checked against GA's documented semantics and serial computations on every process.
program fortran_more
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer :: failures
  call check_start(failures)
  call check_basics(failures)
  call check_nonblocking(failures)
  call check_solvers(failures)
  call check_groups(failures)
  call check_elementwise(failures)
  call check_creation(failures)
  call check_patches(failures)
  call check_products(failures)
  call check_typed(failures)
  call check_bins(failures)
  call check_access_index_type(failures)
  call check_nwchem_forms(failures)
  call check_finish('fortran_more', failures, '')
end program fortran_more

! ga_wtime, ga_ndim, ga_initialized, ga_inquire_name, ga_has_ghosts, nga_ spellings.
subroutine check_basics(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  double precision :: t0, t1, s
  integer :: g_a, g_b, g_g, i, list(64)
  character(len=12) :: label
  logical :: ok
  t0 = ga_wtime()
  s = 0
  do i = 1, 100000
    s = s + sqrt(dble(i))
  end do
  t1 = nga_wtime()
  if (.not. (t1 >= t0 .and. t1 - t0 < 60.0d0 .and. s > 0)) call check_fail(failures, 'ga_wtime')
  ok = nga_create(MT_DBL, 3, (/ 4, 5, 6 /), 'three', (/ -1, -1, -1 /), g_a)
  ok = ga_create(MT_DBL, 7, 3, 'two', -1, -1, g_b)
  if (ga_ndim(g_a) /= 3 .or. nga_ndim(g_b) /= 2 .or. ga_get_dimension(g_b) /= 2 .or. nga_get_dimension(g_a) /= 3) &
    call check_fail(failures, 'ga_ndim')
  if (.not. ga_initialized() .or. .not. nga_initialized()) call check_fail(failures, 'ga_initialized')
  call ga_inquire_name(g_a, label)
  if (label /= 'three') call check_fail(failures, 'ga_inquire_name')
  ok = nga_create_ghosts(MT_DBL, 2, (/ 6, 6 /), (/ 1, 2 /), 'ghosts', (/ -1, -1 /), g_g)
  if (ga_has_ghosts(g_b) .or. .not. nga_has_ghosts(g_g)) call check_fail(failures, 'ga_has_ghosts')
  if (nga_nodeid() /= ga_nodeid() .or. nga_nnodes() /= ga_nnodes()) call check_fail(failures, 'nga_nodeid')
  ! MA's switches return the previous value, from MA's defaults false, false, true (GA's
  ! simple_groups.F sets them); ma_initialized after ma_init
  ok = ma_init(MT_DBL, 1000, 1000)
  if (.not. ma_initialized()) call check_fail(failures, 'ma_initialized')
  if (ma_set_auto_verify(.true.) .or. .not. ma_set_auto_verify(.false.)) call check_fail(failures, 'ma_set_auto_verify')
  if (ma_set_hard_fail(.true.) .or. .not. ma_set_hard_fail(.false.)) call check_fail(failures, 'ma_set_hard_fail')
  if (.not. ma_set_error_print(.false.) .or. ma_set_error_print(.true.)) call check_fail(failures, 'ma_set_error_print')
  ! GA's list is the identity (no GA_Set_proclist permutation)
  call ga_list_nodeid(list, ga_nnodes())
  do i = 1, ga_nnodes()
    if (list(i) /= i - 1) call check_fail(failures, 'ga_list_nodeid')
  end do
  if (.not. nga_destroy(g_a)) call check_fail(failures, 'nga_destroy')
  ok = ga_destroy(g_b)
  ok = ga_destroy(g_g)
end subroutine check_basics

! ga_nbput/nga_nbput, ga_nbacc/nga_nbacc (every process adds), nga_nbget with ga_nbtest: 0 while
! the request is outstanding, 1 once it is complete, 1 for a completed one (GA 5.8's).
subroutine check_nonblocking(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: m = 9, n = 7
  integer :: g_a, me, np, i, j, h1, h2, t, polls
  double precision :: buf(m, n), got(m, n), two
  logical :: ok
  me = ga_nodeid()
  np = ga_nnodes()
  ok = ga_create(MT_DBL, m, n, 'nb', -1, -1, g_a)
  call ga_zero(g_a)
  do j = 1, n
    do i = 1, m
      buf(i, j) = 100 * i + j
    end do
  end do
  if (me == 0) then
    call ga_nbput(g_a, 2, 5, 3, 6, buf(2, 3), m, h1)
    call nga_nbput(g_a, (/ 6, 1 /), (/ 9, 2 /), buf(6, 1), (/ m /), h2)
    call ga_nbwait(h1)
    call nga_nbwait(h2)
  end if
  call ga_sync()
  got = 0
  call ga_get(g_a, 1, m, 1, n, got, m)
  do j = 1, n
    do i = 1, m
      if ((i >= 2 .and. i <= 5 .and. j >= 3 .and. j <= 6) .or. (i >= 6 .and. j <= 2)) then
        if (got(i, j) /= buf(i, j)) call check_fail(failures, 'ga_nbput/nga_nbput')
      else if (got(i, j) /= 0) then
        call check_fail(failures, 'ga_nbput wrote outside its patch')
      end if
    end do
  end do
  call ga_sync()
  ! every process adds 2 buf on (1:4, 1:3) and 1 buf on (5:9, 4:7)
  call ga_zero(g_a)
  two = 2
  call ga_nbacc(g_a, 1, 4, 1, 3, buf, m, two, h1)
  call nga_nbacc(g_a, (/ 5, 4 /), (/ 9, 7 /), buf(5, 4), (/ m /), 1.0d0, h2)
  call nga_nbwait(h2)
  call ga_nbwait(h1)
  call ga_sync()
  call ga_get(g_a, 1, m, 1, n, got, m)
  do j = 1, n
    do i = 1, m
      if (i <= 4 .and. j <= 3) then
        if (got(i, j) /= 2 * np * buf(i, j)) call check_fail(failures, 'ga_nbacc')
      else if (i >= 5 .and. j >= 4) then
        if (got(i, j) /= np * buf(i, j)) call check_fail(failures, 'nga_nbacc')
      else if (got(i, j) /= 0) then
        call check_fail(failures, 'ga_nbacc wrote outside its patch')
      end if
    end do
  end do
  ! nga_nbget, then poll ga_nbtest until it reports completion
  got = -1
  call nga_nbget(g_a, (/ 1, 1 /), (/ m, n /), got, (/ m /), h1)
  polls = 0
  t = ga_nbtest(h1)
  do while (t == 0 .and. polls < 10000000)
    polls = polls + 1
    t = nga_nbtest(h1)
  end do
  if (t /= 1) call check_fail(failures, 'ga_nbtest never reported completion')
  if (ga_nbtest(h1) /= 1) call check_fail(failures, 'ga_nbtest of a completed request')
  if (got(1, 1) /= 2 * np * buf(1, 1) .or. got(m, n) /= np * buf(m, n)) call check_fail(failures, 'nga_nbget data')
  ok = ga_destroy(g_a)
end subroutine check_nonblocking

! A X = B for Fortran matrices, B (n x 2) overwritten by X: ga_solve (Cholesky for an SPD A; LU
! for another, returning the order of the failing minor), ga_llt_solve (0 and X, or the order
! and B unchanged), ga_lu_solve('n') and ('t').
subroutine check_solvers(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: n = 6, r = 2
  double precision :: spd(n, n), gen(n, n), x(n, r), b(n, r), got(n, r)
  integer :: g_s, g_g, g_b, i, j, status
  logical :: ok
  do j = 1, n
    do i = 1, n
      spd(i, j) = 1.0d0 / (i + j)
      gen(i, j) = dble(mod(3 * i + 5 * j, 7)) - 3.0d0
    end do
    spd(j, j) = spd(j, j) + n
    gen(j, j) = gen(j, j) - 20.0d0 * (1 + mod(j, 2))  ! dominant negative diagonal: not positive definite
    x(j, 1) = j
    x(j, 2) = 1.0d0 - 0.5d0 * j
  end do
  ok = ga_create(MT_DBL, n, n, 'spd', -1, -1, g_s)
  ok = ga_create(MT_DBL, n, n, 'gen', -1, -1, g_g)
  ok = ga_create(MT_DBL, n, r, 'b', -1, -1, g_b)
  call put_whole(g_s, n, n, spd)
  call put_whole(g_g, n, n, gen)
  ! ga_solve with an SPD matrix: Cholesky, 0
  b = matmul(spd, x)
  call put_b()
  status = ga_solve(g_s, g_b)
  call expect_x('ga_solve (SPD)', status, 0)
  ! ga_solve with a matrix that is not positive definite: LU, the order of the failing minor
  b = matmul(gen, x)
  call put_b()
  status = nga_solve(g_g, g_b)
  if (status <= 0) call check_fail(failures, 'ga_solve: no failing minor reported for an indefinite matrix')
  call expect_x('ga_solve (LU)', status, status)
  ! ga_llt_solve: SPD, then indefinite (B unchanged)
  b = matmul(spd, x)
  call put_b()
  call expect_x('ga_llt_solve', ga_llt_solve(g_s, g_b), 0)
  b = matmul(gen, x)
  call put_b()
  status = nga_llt_solve(g_g, g_b)
  call ga_get(g_b, 1, n, 1, r, got, n)
  if (status <= 0 .or. any(got /= b)) call check_fail(failures, 'ga_llt_solve of an indefinite matrix')
  ! ga_lu_solve: A X = B and A' X = B
  b = matmul(gen, x)
  call put_b()
  call ga_lu_solve('n', g_g, g_b)
  call expect_x('ga_lu_solve(n)', 0, 0)
  b = matmul(transpose(gen), x)
  call put_b()
  call ga_lu_solve('T', g_g, g_b)
  call expect_x('ga_lu_solve(t)', 0, 0)
  ok = ga_destroy(g_s)
  ok = ga_destroy(g_g)
  ok = ga_destroy(g_b)
contains
  subroutine put_b()
    call ga_sync()
    if (ga_nodeid() == 0) call ga_put(g_b, 1, n, 1, r, b, n)
    call ga_sync()
  end subroutine put_b
  subroutine expect_x(what, got_status, want_status)
    character(*), intent(in) :: what
    integer, intent(in) :: got_status, want_status
    call ga_get(g_b, 1, n, 1, r, got, n)
    if (got_status /= want_status .or. maxval(abs(got - x)) > 1.0d-9) call check_fail(failures, what)
    call ga_sync()
  end subroutine expect_x
end subroutine check_solvers

! ga_pgroup_split (consecutive blocks, the first nprocs mod 2 one larger), ga_pgroup_split_irreg
! by color, ga_pgroup_absolute_id, ga_pgroup_self, ga_pgroup_duplicate, ga_pgroup_brdcst and the
! group gops, an array on a split group (ga_get_pgroup, ga_get_pgroup_size).
subroutine check_groups(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer :: ga_pgroup_self, ga_pgroup_duplicate
  external ga_pgroup_self, ga_pgroup_duplicate
  integer :: me, np, world, grp, first, size, g_a, v, iv(2), self, dup, color, irr, k
  double precision :: d(2)
  real :: s(1)
  double complex :: z(1)
  logical :: ok
  me = ga_nodeid()
  np = ga_nnodes()
  world = ga_pgroup_get_world()
  if (ga_get_pgroup_size(world) /= np) call check_fail(failures, 'ga_get_pgroup_size(world)')
  k = min(2, np)
  grp = ga_pgroup_split(world, k)
  ! GA's split: k groups of consecutive ranks, the first mod(np, k) of them one larger
  first = 0
  do v = 0, k - 1
    size = np / k
    if (v < mod(np, k)) size = size + 1
    if (me < first + size) exit
    first = first + size
  end do
  if (ga_pgroup_nnodes(grp) /= size .or. ga_pgroup_nodeid(grp) /= me - first) call check_fail(failures, 'ga_pgroup_split')
  if (ga_pgroup_absolute_id(grp, 0) /= first) call check_fail(failures, 'ga_pgroup_absolute_id')
  ! group collectives: sums of world ranks over my group, a broadcast from its last process
  iv = (/ me, 1 /)
  call ga_pgroup_igop(grp, 1, iv, 2, '+')
  if (iv(1) /= size * first + size * (size - 1) / 2 .or. iv(2) /= size) call check_fail(failures, 'ga_pgroup_igop')
  d = (/ dble(me), 0.5d0 /)
  call ga_pgroup_dgop(grp, 1, d, 2, 'max')
  if (d(1) /= first + size - 1 .or. d(2) /= 0.5d0) call check_fail(failures, 'ga_pgroup_dgop')
  s(1) = 1.5
  call ga_pgroup_sgop(grp, 1, s, 1, '+')
  z(1) = dcmplx(1.0d0, -2.0d0)
  call nga_pgroup_zgop(grp, 1, z, 1, '+')
  if (s(1) /= 1.5 * size .or. z(1) /= dcmplx(dble(size), -2.0d0 * size)) call check_fail(failures, 'ga_pgroup_sgop/zgop')
  iv(1) = me
  call ga_pgroup_gop(grp, MT_INT, iv, 1, 'min')
  if (iv(1) /= first) call check_fail(failures, 'ga_pgroup_gop')
  v = -1
  if (ga_pgroup_nodeid(grp) == size - 1) v = 77 + first
  call ga_pgroup_brdcst(grp, 1, v, storage_size(v) / 8, size - 1)
  if (v /= 77 + first) call check_fail(failures, 'ga_pgroup_brdcst')
  ! an array on the group
  ok = nga_create_config(MT_DBL, 1, (/ 10 /), 'on group', (/ -1 /), grp, g_a)
  if (ga_get_pgroup(g_a) /= grp .or. ga_get_pgroup_size(ga_get_pgroup(g_a)) /= size) &
    call check_fail(failures, 'ga_get_pgroup of an array on a split group')
  ok = ga_destroy(g_a)
  ! colors: even and odd world ranks, in world order
  color = mod(me, 2)
  irr = nga_pgroup_split_irreg(world, color)
  if (ga_pgroup_nnodes(irr) /= (np + 1 - color) / 2 .or. ga_pgroup_nodeid(irr) /= me / 2 .or. &
      ga_pgroup_absolute_id(irr, 0) /= color) call check_fail(failures, 'ga_pgroup_split_irreg')
  ! an empty list makes a group no process belongs to (GA accepts it; its ghosts.F does this at 1 process)
  if (ga_pgroup_create(iv, 0) == world) call check_fail(failures, 'ga_pgroup_create of an empty list')
  self = ga_pgroup_self()
  dup = ga_pgroup_duplicate(world)
  if (ga_pgroup_nnodes(self) /= 1 .or. ga_pgroup_nodeid(self) /= 0 .or. ga_pgroup_nnodes(dup) /= np .or. &
      ga_pgroup_nodeid(dup) /= me) call check_fail(failures, 'ga_pgroup_self/duplicate')
  if (nga_pgroup_get_world() /= world .or. nga_pgroup_nnodes(world) /= np) call check_fail(failures, 'nga_pgroup_*')
  call ga_sync()
end subroutine check_groups

! Element-wise operations on whole arrays and on patches, against the same on local copies.
subroutine check_elementwise(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: m = 8, n = 5
  double precision :: a(m, n), b(m, n), c(m, n), want(m, n), got(m, n), three
  integer :: g_a, g_b, g_c, i, j
  logical :: ok
  do j = 1, n
    do i = 1, m
      a(i, j) = dble(i) - 2.5d0 * j
      b(i, j) = 1.0d0 + mod(i * j, 4)
    end do
  end do
  ok = ga_create(MT_DBL, m, n, 'a', -1, -1, g_a)
  ok = ga_duplicate(g_a, g_b, 'b')
  ok = ga_duplicate(g_a, g_c, 'c')
  call reset()
  call ga_abs_value(g_a)
  call expect(g_a, abs(a), 'ga_abs_value')
  call reset()
  three = 3
  call ga_add_constant(g_a, three)
  call expect(g_a, a + 3, 'ga_add_constant')
  call reset()
  call ga_recip(g_b)
  call expect(g_b, 1 / b, 'ga_recip')
  call reset()
  call ga_elem_multiply(g_a, g_b, g_c)
  call expect(g_c, a * b, 'ga_elem_multiply')
  call nga_elem_divide(g_a, g_b, g_c)
  call expect(g_c, a / b, 'nga_elem_divide')
  call ga_elem_maximum(g_a, g_b, g_c)
  call expect(g_c, max(a, b), 'ga_elem_maximum')
  call ga_elem_minimum(g_a, g_b, g_c)
  call expect(g_c, min(a, b), 'ga_elem_minimum')
  ! patches: rows 2..6, columns 2..4 of each (of different places in c)
  call reset()
  call ga_abs_value_patch(g_a, (/ 2, 2 /), (/ 6, 4 /))
  want = a
  want(2:6, 2:4) = abs(a(2:6, 2:4))
  call expect(g_a, want, 'ga_abs_value_patch')
  call nga_add_constant_patch(g_a, (/ 1, 5 /), (/ 8, 5 /), three)
  want(:, 5) = want(:, 5) + 3
  call expect(g_a, want, 'nga_add_constant_patch')
  call ga_recip_patch(g_b, (/ 3, 1 /), (/ 3, 5 /))
  want = b
  want(3, :) = 1 / b(3, :)
  call expect(g_b, want, 'ga_recip_patch')
  call reset()
  call ga_elem_multiply_patch(g_a, (/ 2, 2 /), (/ 6, 4 /), g_b, (/ 2, 2 /), (/ 6, 4 /), g_c, (/ 4, 1 /), (/ 8, 3 /))
  want = c
  want(4:8, 1:3) = a(2:6, 2:4) * b(2:6, 2:4)
  call expect(g_c, want, 'ga_elem_multiply_patch')
  call nga_elem_maximum_patch(g_a, (/ 1, 1 /), (/ 8, 2 /), g_b, (/ 1, 4 /), (/ 8, 5 /), g_c, (/ 1, 4 /), (/ 8, 5 /))
  want(:, 4:5) = max(a(:, 1:2), b(:, 4:5))
  call expect(g_c, want, 'nga_elem_maximum_patch')
  ok = ga_destroy(g_a)
  ok = ga_destroy(g_b)
  ok = ga_destroy(g_c)
contains
  subroutine reset()
    call ga_sync()
    c = -7
    call put_whole(g_a, m, n, a)
    call put_whole(g_b, m, n, b)
    call put_whole(g_c, m, n, c)
    call ga_sync()
  end subroutine reset
  subroutine expect(g, w, what)
    integer, intent(in) :: g
    double precision, intent(in) :: w(m, n)
    character(*), intent(in) :: what
    call ga_get(g, 1, m, 1, n, got, m)
    if (maxval(abs(got - w)) > 1.0d-14) call check_fail(failures, what)
    call ga_sync()
  end subroutine expect
end subroutine check_elementwise

! Irregular creation (nga_create_irreg, ga_create_irreg, with ghosts and on a group), ga_set_ghosts
! before ga_allocate, the process grid and every block's coordinates, nga_locate_nnodes.
subroutine check_creation(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  logical :: nga_locate_nnodes
  external nga_locate_nnodes
  integer :: np, g_a, g_b, g_c, g_h, k, map(64), nblock(2), lo(2), hi(2), grid(2), coord(2), idx(2), nn, pr, pc
  integer :: nrow, ncol
  logical :: ok
  np = ga_nnodes()
  ! rows in nrow blocks starting at 1, 3, 4, ..., columns in ncol blocks starting at 1 (and 4):
  ! one block per process at 1, 2 and 4 processes
  nrow = max(1, np / 2)
  ncol = min(np, 2)
  nblock = (/ nrow, ncol /)
  map(1) = 1
  do k = 2, nrow
    map(k) = k + 1
  end do
  map(nrow + 1) = 1
  map(nrow + 2) = 4
  ok = nga_create_irreg(MT_DBL, 2, (/ nrow + 3, 6 /), 'irreg', map, nblock, g_a)
  if (.not. ok) call check_fail(failures, 'nga_create_irreg')
  call ga_get_proc_grid(g_a, grid)
  if (grid(1) /= nrow .or. grid(2) /= ncol) call check_fail(failures, 'ga_get_proc_grid')
  ! block b belongs to process b, counted column-major over the (Fortran) process grid
  do k = 0, nrow * ncol - 1
    call nga_distribution(g_a, k, lo, hi)
    call nga_proc_topology(g_a, k, coord)
    call ga_get_proc_index(g_a, k, idx)
    if (any(coord /= idx)) call check_fail(failures, 'ga_get_proc_index')
    if (coord(1) /= mod(k, nrow) .or. coord(2) /= k / nrow) call check_fail(failures, 'nga_proc_topology')
    if (lo(1) /= map(coord(1) + 1) .or. lo(2) /= map(nrow + 1 + coord(2))) &
      call check_fail(failures, 'nga_proc_topology against nga_distribution')
  end do
  ! the whole array and one column of it
  ok = nga_locate_nnodes(g_a, (/ 1, 1 /), (/ nrow + 3, 6 /), nn)
  if (.not. ok .or. nn /= nrow * ncol) call check_fail(failures, 'nga_locate_nnodes')
  ok = nga_locate_nnodes(g_a, (/ 1, 2 /), (/ nrow + 3, 2 /), nn)
  if (.not. ok .or. nn /= nrow) call check_fail(failures, 'nga_locate_nnodes of a column')
  call ga_proc_topology(g_a, nrow * ncol - 1, pr, pc)
  if (pr /= nrow - 1 .or. pc /= ncol - 1) call check_fail(failures, 'ga_proc_topology')
  ! ga_create_irreg (2-d form): map1 rows, map2 columns
  ok = ga_create_irreg(MT_DBL, nrow + 3, 6, 'irreg2', map, nrow, map(nrow + 1), ncol, g_b)
  if (.not. ok) call check_fail(failures, 'ga_create_irreg')
  if (.not. ga_compare_distr(g_a, g_b)) call check_fail(failures, 'ga_create_irreg distribution')
  ! ghosts and a group
  ok = nga_create_ghosts_irreg_config(MT_DBL, 2, (/ nrow + 3, 6 /), (/ 1, 1 /), 'gi', map, nblock, &
                                      ga_pgroup_get_default(), g_c)
  if (.not. ok .or. .not. ga_has_ghosts(g_c) .or. .not. ga_compare_distr(g_a, g_c)) &
    call check_fail(failures, 'nga_create_ghosts_irreg_config')
  ! ga_set_ghosts on a handle made in steps
  g_h = ga_create_handle()
  call ga_set_data(g_h, 2, (/ 5, 4 /), MT_DBL)
  call ga_set_ghosts(g_h, (/ 2, 1 /))
  if (.not. ga_allocate(g_h) .or. .not. ga_has_ghosts(g_h)) call check_fail(failures, 'ga_set_ghosts')
  ok = ga_destroy(g_a)
  ok = ga_destroy(g_b)
  ok = ga_destroy(g_c)
  ok = ga_destroy(g_h)
end subroutine check_creation

! nga_strided_get/put (every skip-th element), nga_periodic_get/put/acc (indices wrapping around
! the array), nga_select_elem, ga_zero_patch, ga_randomize.
subroutine check_patches(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: m = 9, n = 7
  double precision :: a(m, n), got(m, n), s(3, 3), p(3, 4), big, v
  integer :: g_a, i, j, sub(2)
  logical :: ok
  do j = 1, n
    do i = 1, m
      a(i, j) = 100 * i + j + 0.25d0 * mod(i * j, 3)
    end do
  end do
  ok = ga_create(MT_DBL, m, n, 'patches', -1, -1, g_a)
  if (ga_nodeid() == 0) call ga_put(g_a, 1, m, 1, n, a, m)
  call ga_sync()
  ! rows 2, 5, 8 and columns 1, 4, 7
  call nga_strided_get(g_a, (/ 2, 1 /), (/ 9, 7 /), (/ 3, 3 /), s, (/ 3 /))
  if (any(s /= a(2:8:3, 1:7:3))) call check_fail(failures, 'nga_strided_get')
  call ga_sync()
  if (ga_nodeid() == 0) call nga_strided_put(g_a, (/ 1, 2 /), (/ 5, 6 /), (/ 2, 2 /), -s, (/ 3 /))
  call ga_sync()
  call ga_get(g_a, 1, m, 1, n, got, m)
  if (any(got(1:5:2, 2:6:2) /= -s) .or. got(2, 2) /= a(2, 2) .or. got(1, 3) /= a(1, 3)) &
    call check_fail(failures, 'nga_strided_put')
  call ga_sync()
  if (ga_nodeid() == 0) call ga_put(g_a, 1, m, 1, n, a, m)
  call ga_sync()
  ! periodic: rows 0..2 are rows 9, 1, 2; columns 6..9 are 6, 7, 1, 2
  call nga_periodic_get(g_a, (/ 0, 6 /), (/ 2, 9 /), p, (/ 3 /))
  if (p(1, 1) /= a(9, 6) .or. p(2, 3) /= a(1, 1) .or. p(3, 4) /= a(2, 2) .or. p(1, 2) /= a(9, 7)) &
    call check_fail(failures, 'nga_periodic_get')
  call ga_sync()
  if (ga_nodeid() == 0) call nga_periodic_acc(g_a, (/ 0, 6 /), (/ 2, 9 /), p, (/ 3 /), 1.0d0)
  call ga_sync()
  call ga_get(g_a, 1, m, 1, n, got, m)
  if (got(9, 6) /= 2 * a(9, 6) .or. got(1, 1) /= 2 * a(1, 1) .or. got(5, 5) /= a(5, 5)) &
    call check_fail(failures, 'nga_periodic_acc')
  call ga_sync()
  if (ga_nodeid() == 0) call nga_periodic_put(g_a, (/ 0, 6 /), (/ 2, 9 /), -p, (/ 3 /))
  call ga_sync()
  call ga_get(g_a, 1, m, 1, n, got, m)
  if (got(9, 6) /= -a(9, 6) .or. got(2, 2) /= -a(2, 2)) call check_fail(failures, 'nga_periodic_put')
  call ga_sync()
  ! select: the largest element is a(9, 7), the smallest (after the puts) -a(9, 7)
  if (ga_nodeid() == 0) call ga_put(g_a, 1, m, 1, n, a, m)
  call ga_sync()
  call nga_select_elem(g_a, 'max', big, sub)
  if (big /= maxval(a) .or. any(sub /= maxloc(a))) call check_fail(failures, 'nga_select_elem max')
  call nga_select_elem(g_a, 'min', big, sub)
  if (big /= minval(a) .or. any(sub /= minloc(a))) call check_fail(failures, 'nga_select_elem min')
  call ga_zero_patch(g_a, 2, 3, 4, 7)
  call ga_get(g_a, 1, m, 1, n, got, m)
  if (any(got(2:3, 4:7) /= 0) .or. got(1, 4) /= a(1, 4) .or. got(4, 7) /= a(4, 7) .or. got(2, 3) /= a(2, 3)) &
    call check_fail(failures, 'ga_zero_patch')
  ! ga_randomize: each element in [0, v]
  v = 2.5d0
  call ga_randomize(g_a, v)
  call ga_get(g_a, 1, m, 1, n, got, m)
  if (any(got < 0 .or. got > v) .or. all(got == got(1, 1))) call check_fail(failures, 'ga_randomize')
  ok = ga_destroy(g_a)
end subroutine check_patches

! ga_sgemm and ga_zgemm (with 'c') on non-square matrices, nga_matmul_patch with op(A)'s indices
! (GA's convention: a transposed operand's indices are those of its transpose).
subroutine check_products(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: m = 4, n = 3, k = 5
  real :: sa(k, m), sb(k, n), sc(m, n)
  double complex :: za(m, k), zb(n, k), zc(m, n)
  double precision :: a(6, 8), b(6, 8), c(5, 5), want(5, 5), one, zero
  integer :: g_sa, g_sb, g_sc, g_za, g_zb, g_zc, g_a, g_b, g_c, i, j, handles(9)
  logical :: ok
  do j = 1, k
    do i = 1, m
      sa(j, i) = i - 0.5 * j
      za(i, j) = dcmplx(dble(i), dble(j - i))
    end do
    do i = 1, n
      sb(j, i) = 0.25 * i * j
      zb(i, j) = dcmplx(dble(i * j), 1.0d0)
    end do
  end do
  ok = ga_create(MT_REAL, k, m, 'sa', -1, -1, g_sa)
  ok = ga_create(MT_REAL, k, n, 'sb', -1, -1, g_sb)
  ok = ga_create(MT_REAL, m, n, 'sc', -1, -1, g_sc)
  ok = ga_create(MT_DCPL, m, k, 'za', -1, -1, g_za)
  ok = ga_create(MT_DCPL, n, k, 'zb', -1, -1, g_zb)
  ok = ga_create(MT_DCPL, m, n, 'zc', -1, -1, g_zc)
  call put_whole(g_sa, k, m, sa)
  call put_whole(g_sb, k, n, sb)
  call put_whole(g_za, m, k, za)
  call put_whole(g_zb, n, k, zb)
  call ga_sync()
  call ga_sgemm('t', 'n', m, n, k, 2.0, g_sa, g_sb, 0.0, g_sc)
  call ga_get(g_sc, 1, m, 1, n, sc, m)
  if (maxval(abs(sc - 2 * matmul(transpose(sa), sb))) > 1.0e-3) call check_fail(failures, 'ga_sgemm')
  call ga_zgemm('n', 'c', m, n, k, dcmplx(1.0d0, 0.0d0), g_za, g_zb, dcmplx(0.0d0, 0.0d0), g_zc)
  call ga_get(g_zc, 1, m, 1, n, zc, m)
  if (maxval(abs(zc - matmul(za, conjg(transpose(zb))))) > 1.0d-10) call check_fail(failures, 'ga_zgemm')
  ! C(1:2, 1:3) = A(2:5, 3:4)' B(1:4, 6:8): op(A) is rows 3..4, columns 2..5 of A'
  do j = 1, 8
    do i = 1, 6
      a(i, j) = 1.0d0 + i - 0.5d0 * j
      b(i, j) = dble(mod(i * j, 5)) - 1.0d0
    end do
  end do
  ok = ga_create(MT_DBL, 6, 8, 'a', -1, -1, g_a)
  ok = ga_create(MT_DBL, 6, 8, 'b', -1, -1, g_b)
  ok = ga_create(MT_DBL, 5, 5, 'c', -1, -1, g_c)
  call put_whole(g_a, 6, 8, a)
  call put_whole(g_b, 6, 8, b)
  call ga_zero(g_c)
  one = 1
  zero = 0
  call nga_matmul_patch('t', 'n', one, zero, g_a, (/ 3, 2 /), (/ 4, 5 /), g_b, (/ 1, 6 /), (/ 4, 8 /), &
                        g_c, (/ 1, 1 /), (/ 2, 3 /))
  want = 0
  want(1:2, 1:3) = matmul(transpose(a(2:5, 3:4)), b(1:4, 6:8))
  call ga_get(g_c, 1, 5, 1, 5, c, 5)
  if (maxval(abs(c - want)) > 1.0d-12) call check_fail(failures, 'nga_matmul_patch (t, n)')
  handles = (/ g_sa, g_sb, g_sc, g_za, g_zb, g_zc, g_a, g_b, g_c /)
  do i = 1, 9
    ok = ga_destroy(handles(i))
  end do
end subroutine check_products

! GA's typed spellings (testeig.F calls ga_dadd): the generic operation on an array of that type.
subroutine check_typed(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: m = 6, n = 5
  double precision :: a(m, n), b(m, n), got(m, n), want(m, n)
  real :: r(m, n), rgot(m, n)
  integer :: iv(m, n), igot(m, n)
  double complex :: z(m, n), zgot(m, n)
  integer :: g_a, g_b, g_c, g_r, g_i, g_z, i, j
  logical :: ok
  do j = 1, n
    do i = 1, m
      a(i, j) = i + 10 * j
      b(i, j) = 0.5d0 * i - j
    end do
  end do
  r = real(a)
  iv = int(a)
  z = dcmplx(a, b)
  ok = ga_create(MT_DBL, m, n, 'a', -1, -1, g_a)
  ok = ga_duplicate(g_a, g_b, 'b')
  ok = ga_duplicate(g_a, g_c, 'c')
  ok = ga_create(MT_REAL, m, n, 'r', -1, -1, g_r)
  ok = ga_create(MT_INT, m, n, 'i', -1, -1, g_i)
  ok = ga_create(MT_DCPL, m, n, 'z', -1, -1, g_z)
  call put_whole(g_a, m, n, a)
  call put_whole(g_b, m, n, b)
  call put_whole(g_r, m, n, r)
  call put_whole(g_i, m, n, iv)
  call put_whole(g_z, m, n, z)
  call ga_sync()
  call ga_dadd(2.0d0, g_a, -1.0d0, g_b, g_c)
  call ga_get(g_c, 1, m, 1, n, got, m)
  if (any(got /= 2 * a - b)) call check_fail(failures, 'ga_dadd')
  call ga_sync()
  call ga_dadd_patch(1.0d0, g_a, 1, 2, 1, 3, 1.0d0, g_b, 3, 4, 2, 4, g_c, 5, 6, 3, 5)
  want = 2 * a - b
  want(5:6, 3:5) = a(1:2, 1:3) + b(3:4, 2:4)
  call ga_get(g_c, 1, m, 1, n, got, m)
  if (any(got /= want)) call check_fail(failures, 'ga_dadd_patch')
  call ga_sync()
  call ga_dscal_patch(g_c, 1, 1, 1, n, 3.0d0)
  call nga_dfill_patch(g_c, (/ 2, 1 /), (/ 2, n /), -4.0d0)
  want(1, :) = 3 * want(1, :)
  want(2, :) = -4
  call ga_get(g_c, 1, m, 1, n, got, m)
  if (any(got /= want)) call check_fail(failures, 'ga_dscal_patch, nga_dfill_patch')
  call ga_sync()
  call ga_sscal(g_r, 0.5)
  call ga_get(g_r, 1, m, 1, n, rgot, m)
  if (any(rgot /= 0.5 * r)) call check_fail(failures, 'ga_sscal')
  call ga_ifill_patch(g_i, 2, 3, 2, 3, 7)
  iv(2:3, 2:3) = 7
  call ga_get(g_i, 1, m, 1, n, igot, m)
  if (any(igot /= iv)) call check_fail(failures, 'ga_ifill_patch')
  call ga_zscal_patch(g_z, 1, m, 2, 2, dcmplx(0.0d0, 1.0d0))
  z(:, 2) = z(:, 2) * dcmplx(0.0d0, 1.0d0)
  call ga_get(g_z, 1, m, 1, n, zgot, m)
  if (any(zgot /= z)) call check_fail(failures, 'ga_zscal_patch')
  call ga_sync()
  ok = ga_destroy(g_a)
  ok = ga_destroy(g_b)
  ok = ga_destroy(g_c)
  ok = ga_destroy(g_r)
  ok = ga_destroy(g_i)
  ok = ga_destroy(g_z)
end subroutine check_typed

! ga_bin_index(g_bin, g_cnt, g_off, values, subs, n, sortit) (GA's binning, Fortran only):
! values(i) goes to bin subs(i) (bins numbered from 1, subs sorted) of the 1-d INTEGER array
! g_bin, bin b starting at g_off(b) (zero-based) with room for g_cnt(b) elements; sortit sorts
! each bin, as ga_bin_sorter(g_bin, g_cnt, g_off) does. Every process p puts 100 p + 9 into bin
! 1, 100 p + 8 and 100 p + 7 into bin 2, 100 p + 6 and 100 p + 5 into bin 3.
subroutine check_bins(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer, parameter :: nb = 3, per = 5
  integer :: me, np, total, p, b, first, last, g_bin, g_cnt, g_off
  integer :: values(per), subs(per), counts(nb), offs(nb)
  integer, allocatable :: got(:), want(:)
  logical :: ok
  me = ga_nodeid()
  np = ga_nnodes()
  total = per * np
  counts = (/ np, 2 * np, 2 * np /)
  offs = (/ 0, np, 3 * np /)
  allocate(got(total), want(total))
  do p = 0, np - 1
    want(p + 1) = 100 * p + 9
    want(np + 2 * p + 1 : np + 2 * p + 2) = 100 * p + (/ 7, 8 /)
    want(3 * np + 2 * p + 1 : 3 * np + 2 * p + 2) = 100 * p + (/ 5, 6 /)
  end do
  ok = nga_create(MT_INT, 1, (/ total /), 'bins', (/ -1 /), g_bin)
  ok = nga_create(MT_INT, 1, (/ nb /), 'counts', (/ -1 /), g_cnt)
  ok = nga_create(MT_INT, 1, (/ nb /), 'offsets', (/ -1 /), g_off)
  if (me == 0) then
    call nga_put(g_cnt, (/ 1 /), (/ nb /), counts, (/ 1 /))
    call nga_put(g_off, (/ 1 /), (/ nb /), offs, (/ 1 /))
  end if
  call ga_zero(g_bin)
  subs = (/ 1, 2, 2, 3, 3 /)
  values = 100 * me + (/ 9, 8, 7, 6, 5 /)
  call ga_bin_index(g_bin, g_cnt, g_off, values, subs, per, 1)
  call nga_get(g_bin, (/ 1 /), (/ total /), got, (/ 1 /))
  if (any(got /= want)) call check_fail(failures, 'ga_bin_index with sortit')
  ! without sortit each bin holds the same elements (the processes' order is GA's choice);
  ! nga_bin_sorter then sorts them
  call ga_zero(g_bin)
  call nga_bin_index(g_bin, g_cnt, g_off, values, subs, per, 0)
  call nga_get(g_bin, (/ 1 /), (/ total /), got, (/ 1 /))
  do b = 1, nb
    first = offs(b) + 1
    last = offs(b) + counts(b)
    if (sum(got(first:last)) /= sum(want(first:last)) .or. minval(got(first:last)) /= minval(want(first:last)) &
        .or. maxval(got(first:last)) /= maxval(want(first:last))) call check_fail(failures, 'nga_bin_index')
  end do
  call ga_sync()
  call nga_bin_sorter(g_bin, g_cnt, g_off)
  call nga_get(g_bin, (/ 1 /), (/ total /), got, (/ 1 /))
  if (any(got /= want)) call check_fail(failures, 'nga_bin_sorter')
  ok = ga_destroy(g_bin)
  ok = ga_destroy(g_cnt)
  ok = ga_destroy(g_off)
end subroutine check_bins

! MA_ACCESS_INDEX_TYPE (mafdecls.fh, as GA's): the 8-byte type of the index nga_access_ghosts
! and the other access calls return into int_mb/dbl_mb, whatever the default INTEGER.
subroutine check_access_index_type(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  MA_ACCESS_INDEX_TYPE :: idx
  integer :: g_g, dims3(2), ld3(1), lo(2), hi(2)
  logical :: ok
  if (kind(idx) /= 8) call check_fail(failures, 'MA_ACCESS_INDEX_TYPE is not 8 bytes')
  ok = nga_create_ghosts(MT_INT, 2, (/ 8, 6 /), (/ 1, 1 /), 'framed', (/ -1, -1 /), g_g)
  call ga_fill(g_g, 7)
  call ga_update_ghosts(g_g)
  call nga_distribution(g_g, ga_nodeid(), lo, hi)
  if (all(hi >= lo)) then
    call nga_access_ghosts(g_g, dims3, idx, ld3)
    ! the corner of the frame, then the first element the process owns
    if (int_mb(idx) /= 7 .or. int_mb(idx + ld3(1) + 1) /= 7 .or. dims3(1) /= hi(1) - lo(1) + 3) &
      call check_fail(failures, 'nga_access_ghosts into an MA_ACCESS_INDEX_TYPE index')
  end if
  call ga_sync()
  ok = ga_destroy(g_g)
end subroutine check_access_index_type

! What NWChem relies on GA to accept (issue 47): ga_max_dim; a one-column ga_get/ga_put whose ld
! is 1 (GA reads ld only between columns); GA's 2-d calls on a 1-d array (its one column); the
! mirror group and ga_merge_mirrored.
subroutine check_nwchem_forms(failures)
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, intent(inout) :: failures
  integer :: g_m, g_v, g_r, i, np
  double precision :: col(6), v(8), w(8), one
  logical :: ok
  np = ga_nnodes()
  if (ga_max_dim /= 7) call check_fail(failures, 'ga_max_dim')
  ok = ga_create(MT_DBL, 6, 4, 'matrix', -1, -1, g_m)
  call ga_zero(g_m)
  if (ga_nodeid() == 0) then
    do i = 1, 6
      col(i) = dble(i)
    end do
    call ga_put(g_m, 1, 6, 3, 3, col, 1)  ! one column, ld = 1
  end if
  call ga_sync()
  col = 0
  call ga_get(g_m, 1, 6, 3, 3, col, 1)
  do i = 1, 6
    if (col(i) /= dble(i)) call check_fail(failures, 'ga_get of one column with ld = 1')
  end do
  ok = nga_create(MT_DBL, 1, (/ 8 /), 'vector1d', (/ -1 /), g_v)
  call ga_fill_patch(g_v, 1, 8, 1, 1, 2.5d0)  ! a 2-d call on a 1-d array
  call ga_get(g_v, 3, 6, 1, 1, v, 4)
  do i = 1, 4
    if (v(i) /= 2.5d0) call check_fail(failures, 'ga_fill_patch/ga_get on a 1-d array')
  end do
  if (ga_pgroup_get_mirror() /= ga_pgroup_get_world() .or. nga_pgroup_get_mirror() /= ga_pgroup_get_world()) &
    call check_fail(failures, 'ga_pgroup_get_mirror')
  ok = nga_create_config(MT_DBL, 1, (/ 8 /), 'mirror', (/ -1 /), ga_pgroup_get_mirror(), g_r)
  call ga_zero(g_r)
  w = dble(ga_nodeid() + 1)
  one = 1.0d0
  call nga_acc(g_r, (/ 1 /), (/ 8 /), w, (/ 1 /), one)
  call ga_merge_mirrored(g_r)
  call nga_get(g_r, (/ 1 /), (/ 8 /), v, (/ 1 /))
  do i = 1, 8
    if (v(i) /= dble(np * (np + 1) / 2)) call check_fail(failures, 'ga_merge_mirrored')
  end do
  call nga_merge_mirrored(g_r)
  call ga_msg_sync()
  ok = ga_destroy(g_r)
  ok = ga_destroy(g_v)
  ok = ga_destroy(g_m)
end subroutine check_nwchem_forms

