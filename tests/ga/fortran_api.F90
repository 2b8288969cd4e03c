! GA's Fortran API on Armada (global.fh, mafdecls.fh, ga-mpi.fh), in GA's Fortran style: every
! function of the API, each result checked against a serial computation of GA's documented
! semantics on local Fortran arrays (one-based, column-major). Built twice from this source: with
! 4-byte default INTEGER (libarmada_ga_fortran) and with -fdefault-integer-8
! (libarmada_ga_fortran_i8). Exit code 0 only if every check passed on every rank.
program fortran_api
  implicit none
#include "mafdecls.fh"
#include "global.fh"
#include "ga-mpi.fh"
  integer, parameter :: m = 13, n = 9
  integer(4) :: ierr, comm_size
  integer :: comm
  integer, external :: ga_pgroup_self  ! global.fh leaves it out, as GA 5.8's does
  integer, parameter :: big_block = 2000000
  integer :: me, np, failures, g_a, g_b, g_c, type, d1, d2, i, j, p
  integer :: ilo, ihi, jlo, jhi, covered
  double precision :: a(m, n), b(m, n), got(m + 3, n), alpha, beta, val
  logical :: ok
  character(len=64) :: summary

  call check_start(failures)
  ok = ma_init(MT_DBL, big_block + 100000, big_block + 100000)
  me = ga_nodeid()
  np = ga_nnodes()
  call check(ok, 'ma_init')
  ! ga-mpi.fh's calls are subroutines giving the communicator in their first argument (GA's)
  call ga_mpi_comm(comm)
  call mpi_comm_size(int(comm, 4), comm_size, ierr)
  call check(comm_size == np .and. ierr == 0, 'ga_mpi_comm is the world of ga_nnodes processes')
  comm_size = -1
  call ga_mpi_comm_pgroup_default(comm)
  call mpi_comm_size(int(comm, 4), comm_size, ierr)
  call check(comm_size == np .and. ierr == 0, 'ga_mpi_comm_pgroup_default: the world until a default is set')
  comm_size = -1
  call ga_mpi_comm_pgroup(comm, ga_pgroup_self())
  call mpi_comm_size(int(comm, 4), comm_size, ierr)
  call check(comm_size == 1 .and. ierr == 0, 'ga_mpi_comm_pgroup of ga_pgroup_self: one process')

  do j = 1, n
    do i = 1, m
      a(i, j) = dble(100 * i + j)
      b(i, j) = dble(i - 2 * j) / 4.0d0
    end do
  end do

  ! ---- creation, inquiry, distribution -----------------------------------------------------
  ok = ga_create(MT_DBL, m, n, 'A', -1, -1, g_a)
  call check(ok, 'ga_create returns .true.')
  call ga_inquire(g_a, type, d1, d2)
  call check(type == MT_DBL .and. d1 == m .and. d2 == n, 'ga_inquire: type and dims as created')
  covered = 0
  do p = 0, np - 1
    call ga_distribution(g_a, p, ilo, ihi, jlo, jhi)
    if (ihi >= ilo .and. jhi >= jlo) then
      call check(ilo >= 1 .and. ihi <= m .and. jlo >= 1 .and. jhi <= n, 'ga_distribution inside the array')
      covered = covered + (ihi - ilo + 1) * (jhi - jlo + 1)
    end if
  end do
  call check(covered == m * n, 'ga_distribution: the blocks cover the array once')

  ! ---- zero, fill, put, get, acc (2-d) -------------------------------------------------------
  call ga_zero(g_a)
  call ga_get(g_a, 1, m, 1, n, got, m + 3)
  call check(all(got(1:m, :) == 0.0d0), 'ga_zero')
  call ga_sync()
  val = 2.5d0
  call ga_fill(g_a, val)
  call ga_get(g_a, 1, m, 1, n, got, m + 3)
  call check(all(got(1:m, :) == 2.5d0), 'ga_fill')
  call ga_sync()
  if (me == 0) call ga_put(g_a, 1, m, 1, n, a, m)
  call ga_sync()
  got = -1.0d0
  call ga_get(g_a, 2, 7, 3, 8, got, m + 3)  ! into a larger buffer: ld = m + 3
  call check(all(got(1:6, 1:6) == a(2:7, 3:8)) .and. all(got(7:, :) == -1.0d0), &
             'ga_get of patch (2:7, 3:8) with ld > extent: column-major, one-based')
  call ga_sync()
  alpha = 0.5d0
  call ga_acc(g_a, 1, m, 1, n, b, m, alpha)
  call ga_sync()
  call ga_get(g_a, 1, m, 1, n, got, m + 3)
  call check(all(got(1:m, :) == a + dble(np) * 0.5d0 * b), 'ga_acc with alpha: A + np * alpha * B')
  call ga_sync()

  call test_nd()
  call test_whole_arrays(g_a)
  call test_products()
  call test_collectives()
  ! Local access hands out 8-byte MA indices (GA_ACCESS_INDEX_TYPE) into dbl_mb/int_mb, which
  ! reach an array's memory with either INTEGER width, as in GA.
  call test_access()
  call test_nonblocking_and_counters()
  call test_ma()
  call test_lists_and_groups()

  call ga_print(g_a)
  ok = ga_destroy(g_a)
  call check(ok, 'ga_destroy returns .true.')
  write (summary, '(a, i0, a, i0, a)') ' (', np, ' ranks, INTEGER of ', bit_size(np) / 8, ' bytes)'
  call check_finish('fortran_api', failures, trim(summary))

contains

  ! The shared checks (fortran_check.F90) on this program's count.
  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(*), intent(in) :: what
    if (.not. cond) call check_fail(failures, what)
  end subroutine check

  ! nga_create, nga_inquire, nga_distribution, nga_put/get/acc, nga_scatter/gather on 3-d arrays.
  subroutine test_nd()
    integer :: dims(3), chunk(3), lo(3), hi(3), ld(2), g, t, nd, outdims(3), i1, i2, i3, q, cells
    integer :: subs(3, 4)
    double precision :: x(4, 5, 3), y(6, 5, 3), v(4)
    dims = (/ 4, 5, 3 /)
    chunk = (/ -1, -1, -1 /)
    ok = nga_create(MT_DBL, 3, dims, 'X', chunk, g)
    call check(ok, 'nga_create returns .true.')
    call nga_inquire(g, t, nd, outdims)
    call check(t == MT_DBL .and. nd == 3 .and. all(outdims == dims), 'nga_inquire')
    cells = 0
    do q = 0, np - 1
      call nga_distribution(g, q, lo, hi)
      if (all(hi >= lo)) then
        call check(all(lo >= 1) .and. all(hi <= dims), 'nga_distribution inside the array')
        cells = cells + product(hi - lo + 1)
      end if
    end do
    call check(cells == product(dims), 'nga_distribution: blocks cover the array once')
    do i3 = 1, 3
      do i2 = 1, 5
        do i1 = 1, 4
          x(i1, i2, i3) = dble(i1 + 10 * i2 + 100 * i3)
        end do
      end do
    end do
    call ga_zero(g)
    lo = (/ 1, 1, 1 /)
    hi = dims
    ld = (/ 4, 5 /)
    if (me == np - 1) call nga_put(g, lo, hi, x, ld)
    call ga_sync()
    y = 0.0d0
    lo = (/ 2, 2, 1 /)
    hi = (/ 4, 5, 3 /)
    ld = (/ 6, 5 /)
    call nga_get(g, lo, hi, y, ld)
    call check(all(y(1:3, 1:4, 1:3) == x(2:4, 2:5, 1:3)), 'nga_get of a 3-d patch, ld = (6, 5)')
    call ga_sync()
    alpha = 2.0d0
    ld = (/ 6, 5 /)
    call nga_acc(g, lo, hi, y, ld, alpha)
    call ga_sync()
    lo = (/ 1, 1, 1 /)
    hi = dims
    ld = (/ 4, 5 /)
    call nga_get(g, lo, hi, y, (/ 6, 5 /))
    x(2:4, 2:5, :) = x(2:4, 2:5, :) * (1.0d0 + 2.0d0 * np)
    call check(all(y(1:4, 1:5, 1:3) == x), 'nga_acc of a 3-d patch')
    call ga_sync()
    ! The last rank scatters four elements, everyone gathers them back and reads them whole.
    do q = 1, 4
      subs(:, q) = (/ q, mod(2 * q, 5) + 1, mod(q, 3) + 1 /)
      v(q) = dble(1000 + q)
    end do
    if (me == np - 1) call nga_scatter(g, v, subs, 4)
    call ga_sync()
    v = 0.0d0
    call nga_gather(g, v, subs, 4)
    call check(all(v == (/ 1001.0d0, 1002.0d0, 1003.0d0, 1004.0d0 /)), 'nga_scatter / nga_gather')
    call nga_get(g, (/ 1, 1, 1 /), dims, y, (/ 6, 5 /))
    do q = 1, 4
      x(subs(1, q), subs(2, q), subs(3, q)) = dble(1000 + q)
    end do
    call check(all(y(1:4, 1:5, 1:3) == x), 'nga_scatter: the subscripted elements, one-based (i, j, k)')
    call ga_sync()
    ok = ga_destroy(g)
  end subroutine test_nd

  ! ga_copy, ga_duplicate, ga_add, ga_ddot, ga_dscal, ga_scale, ga_copy_patch, nga_copy_patch,
  ! ga_add_patch, nga_add_patch, ga_symmetrize, ga_transpose.
  subroutine test_whole_arrays(g)
    integer, intent(in) :: g
    integer :: h, c, t1, t2, s, alo(2), ahi(2), blo(2), bhi(2), clo(2), chi(2)
    double precision :: ref(m, n), r(n, m), sq(6, 6), sqr(6, 6), dot, two, three
    if (me == 0) call ga_put(g, 1, m, 1, n, a, m)
    call ga_sync()
    ok = ga_duplicate(g, h, 'B')
    call check(ok, 'ga_duplicate returns .true.')
    call ga_inquire(h, t1, t2, s)
    call check(t1 == MT_DBL .and. t2 == m .and. s == n, 'ga_duplicate: same type and dims')
    call ga_copy(g, h)
    call ga_get(h, 1, m, 1, n, ref, m)
    call check(all(ref == a), 'ga_copy')
    ok = ga_duplicate(g, c, 'C')
    two = 2.0d0
    three = -3.0d0
    call ga_sync()
    if (me == 0) call ga_put(h, 1, m, 1, n, b, m)
    call ga_sync()
    call ga_add(two, g, three, h, c)
    call ga_get(c, 1, m, 1, n, ref, m)
    call check(all(ref == 2.0d0 * a - 3.0d0 * b), 'ga_add: C = 2 A - 3 B')
    dot = ga_ddot(g, h)
    call check(abs(dot - sum(a * b)) <= 1.0d-12 * sum(abs(a * b)), 'ga_ddot against the local sum')
    call ga_sync()
    call ga_dscal(c, 0.5d0)
    call ga_get(c, 1, m, 1, n, ref, m)
    call check(all(ref == a - 1.5d0 * b), 'ga_dscal')
    call ga_sync()
    three = 4.0d0
    call ga_scale(c, three)
    call ga_get(c, 1, m, 1, n, ref, m)
    call check(all(ref == 4.0d0 * a - 6.0d0 * b), 'ga_scale')
    call ga_sync()
    ! copy_patch: C(1:4, 2:6) = A(3:6, 4:8); then transposed into an n x m array.
    call ga_zero(c)
    call ga_copy_patch('n', g, 3, 6, 4, 8, c, 1, 4, 2, 6)
    call ga_get(c, 1, m, 1, n, ref, m)
    call check(all(ref(1:4, 2:6) == a(3:6, 4:8)) .and. all(ref(5:, :) == 0.0d0) .and. all(ref(:, 1) == 0.0d0) &
               .and. all(ref(:, 7:) == 0.0d0), 'ga_copy_patch (n)')
    ok = ga_create(MT_DBL, n, m, 'T', -1, -1, t1)
    call ga_zero(t1)
    alo = (/ 2, 3 /)
    ahi = (/ 7, 5 /)
    blo = (/ 1, 4 /)
    bhi = (/ 3, 9 /)
    call nga_copy_patch('t', g, alo, ahi, t1, blo, bhi)
    call ga_get(t1, 1, n, 1, m, r, n)
    call check(all(r(1:3, 4:9) == transpose(a(2:7, 3:5))), 'nga_copy_patch (t)')
    call ga_sync()
    call ga_transpose(g, t1)
    call ga_get(t1, 1, n, 1, m, r, n)
    call check(all(r == transpose(a)), 'ga_transpose of a 13 x 9 array')
    call ga_sync()
    ! add_patch: C(2:5, 1:3) = 2 A(1:4, 2:4) + 1 B(5:8, 5:7)
    call ga_zero(c)
    two = 2.0d0
    three = 1.0d0
    call ga_add_patch(two, g, 1, 4, 2, 4, three, h, 5, 8, 5, 7, c, 2, 5, 1, 3)
    call ga_get(c, 1, m, 1, n, ref, m)
    call check(all(ref(2:5, 1:3) == 2.0d0 * a(1:4, 2:4) + b(5:8, 5:7)) .and. ref(1, 1) == 0.0d0, 'ga_add_patch')
    call ga_sync()
    alo = (/ 1, 1 /)
    ahi = (/ 3, 2 /)
    blo = (/ 4, 4 /)
    bhi = (/ 6, 5 /)
    clo = (/ 11, 8 /)
    chi = (/ 13, 9 /)
    call nga_add_patch(two, g, alo, ahi, three, h, blo, bhi, c, clo, chi)
    call ga_get(c, 1, m, 1, n, ref, m)
    call check(all(ref(11:13, 8:9) == 2.0d0 * a(1:3, 1:2) + b(4:6, 4:5)), 'nga_add_patch')
    call ga_sync()
    ! symmetrize a 6 x 6 matrix
    ok = ga_create(MT_DBL, 6, 6, 'S', -1, -1, s)
    sq = a(1:6, 1:6) + 7.0d0 * b(1:6, 1:6)
    if (me == 0) call ga_put(s, 1, 6, 1, 6, sq, 6)
    call ga_sync()
    call ga_symmetrize(s)
    call ga_get(s, 1, 6, 1, 6, sqr, 6)
    call check(all(abs(sqr - 0.5d0 * (sq + transpose(sq))) <= 1.0d-12 * maxval(abs(sq))), 'ga_symmetrize')
    call ga_sync()
    ok = ga_destroy(s)
    ok = ga_destroy(t1)
    ok = ga_destroy(c)
    ok = ga_destroy(h)
  end subroutine test_whole_arrays

  ! ga_dgemm with every combination of n and t on a non-square product, ga_matmul_patch.
  subroutine test_products()
    integer, parameter :: pm = 7, pn = 5, pk = 6
    integer :: ga, gat, gb, gbt, gc, ta, tb
    double precision :: x(pm, pk), y(pk, pn), c0(pm, pn), c(pm, pn), ref(pm, pn), big(pm + 2, pn + 3)
    character(1) :: flags(2) = (/ 'n', 't' /)
    double precision :: one, zero, half
    do j = 1, pk
      do i = 1, pm
        x(i, j) = dble(i) - 0.5d0 * dble(j)
      end do
    end do
    do j = 1, pn
      do i = 1, pk
        y(i, j) = dble(2 * i + j) / 3.0d0
      end do
    end do
    do j = 1, pn
      do i = 1, pm
        c0(i, j) = dble(i * j)
      end do
    end do
    ok = ga_create(MT_DBL, pm, pk, 'X', -1, -1, ga)
    ok = ga_create(MT_DBL, pk, pm, 'Xt', -1, -1, gat)
    ok = ga_create(MT_DBL, pk, pn, 'Y', -1, -1, gb)
    ok = ga_create(MT_DBL, pn, pk, 'Yt', -1, -1, gbt)
    ok = ga_create(MT_DBL, pm, pn, 'Z', -1, -1, gc)
    call put_whole(ga, pm, pk, x)
    call put_whole(gat, pk, pm, transpose(x))
    call put_whole(gb, pk, pn, y)
    call put_whole(gbt, pn, pk, transpose(y))
    call ga_sync()
    ref = 2.0d0 * matmul(x, y) + 0.5d0 * c0
    do ta = 1, 2
      do tb = 1, 2
        call ga_sync()
        if (me == 0) call ga_put(gc, 1, pm, 1, pn, c0, pm)
        call ga_sync()
        if (ta == 1 .and. tb == 1) call ga_dgemm(flags(ta), flags(tb), pm, pn, pk, 2.0d0, ga, gb, 0.5d0, gc)
        if (ta == 1 .and. tb == 2) call ga_dgemm(flags(ta), flags(tb), pm, pn, pk, 2.0d0, ga, gbt, 0.5d0, gc)
        if (ta == 2 .and. tb == 1) call ga_dgemm(flags(ta), flags(tb), pm, pn, pk, 2.0d0, gat, gb, 0.5d0, gc)
        if (ta == 2 .and. tb == 2) call ga_dgemm(flags(ta), flags(tb), pm, pn, pk, 2.0d0, gat, gbt, 0.5d0, gc)
        call ga_get(gc, 1, pm, 1, pn, c, pm)
        call check(all(abs(c - ref) <= 1.0d-12 * maxval(abs(ref))), 'ga_dgemm ' // flags(ta) // flags(tb))
      end do
    end do
    ! matmul_patch: Z(2:4, 1:3) = X(3:5, 2:5) Y(1:4, 3:5) ; then with transposed A: Xt(2:5, 3:5)^T,
    ! whose patch GA names as op(A)'s, (3:5, 2:5) (GA's matmul.c: m = aihi - ailo + 1 whatever transa).
    call ga_sync()
    call ga_zero(gc)
    one = 1.0d0
    zero = 0.0d0
    call ga_matmul_patch('n', 'n', one, zero, ga, 3, 5, 2, 5, gb, 1, 4, 3, 5, gc, 2, 4, 1, 3)
    call ga_get(gc, 1, pm, 1, pn, c, pm)
    call check(all(abs(c(2:4, 1:3) - matmul(x(3:5, 2:5), y(1:4, 3:5))) <= 1.0d-12 * 100) .and. c(1, 1) == 0.0d0, &
               'ga_matmul_patch (n, n)')
    call ga_sync()
    half = 0.5d0
    call ga_matmul_patch('t', 'n', one, half, gat, 3, 5, 2, 5, gb, 1, 4, 3, 5, gc, 2, 4, 1, 3)
    big = 0.0d0
    call ga_get(gc, 1, pm, 1, pn, big, pm + 2)
    ! op(A)(3:5, 2:5) = Xt(2:5, 3:5)^T = X(3:5, 2:5): the same product again, plus half the previous one.
    call check(all(abs(big(2:4, 1:3) - 1.5d0 * matmul(x(3:5, 2:5), y(1:4, 3:5))) <= 1.0d-12 * 100) &
               .and. all(big(pm + 1:, :) == 0.0d0), 'ga_matmul_patch (t, n) with beta, ld > extent')
    call ga_sync()
    call test_diag_std()
    call test_diag_generalized()
    ok = ga_destroy(gc)
    ok = ga_destroy(gbt)
    ok = ga_destroy(gb)
    ok = ga_destroy(gat)
    ok = ga_destroy(ga)
  end subroutine test_products

  ! ga_diag_std: S v_k = w_k v_k for the columns v_k of V, w ascending, V orthonormal.
  subroutine test_diag_std()
    integer, parameter :: ns = 7
    integer :: gs, gv, k
    double precision :: sm(ns, ns), vm(ns, ns), w(ns), err
    do j = 1, ns
      do i = 1, ns
        sm(i, j) = 1.0d0 / dble(i + j - 1) + merge(dble(i), 0.0d0, i == j)
      end do
    end do
    ok = ga_create(MT_DBL, ns, ns, 'S', -1, -1, gs) .and. ga_create(MT_DBL, ns, ns, 'V', -1, -1, gv)
    if (me == 0) call ga_put(gs, 1, ns, 1, ns, sm, ns)
    call ga_sync()
    call ga_diag_std(gs, gv, w)
    call ga_get(gv, 1, ns, 1, ns, vm, ns)
    err = 0.0d0
    do k = 1, ns
      err = max(err, maxval(abs(matmul(sm, vm(:, k)) - w(k) * vm(:, k))))
    end do
    call check(err < 1.0d-10, 'ga_diag_std: S v = w v for every column v of V')
    call check(all(w(2:) >= w(:ns - 1)), 'ga_diag_std: eigenvalues ascending')
    call check(maxval(abs(matmul(transpose(vm), vm) - reshape((/ (merge(1.0d0, 0.0d0, mod(k, ns + 1) == 0), &
               k = 0, ns * ns - 1) /), (/ ns, ns /)))) < 1.0d-10, 'ga_diag_std: V orthonormal')
    call ga_sync()
    ok = ga_destroy(gv) .and. ga_destroy(gs)
  end subroutine test_diag_std

  ! ga_diag, ga_diag_seq, ga_diag_reuse: H v_k = w_k S v_k for the columns v_k of V, V^T S V = I;
  ! ga_diag_std_seq as ga_diag_std; ga_spd_invert: S S^-1 = I, and an indefinite matrix reported.
  subroutine test_diag_generalized()
    integer, parameter :: ns = 6
    integer :: gs, gh, gv, k
    double precision :: sm(ns, ns), hm(ns, ns), vm(ns, ns), w(ns), w2(ns), err, ident(ns, ns)
    ident = 0.0d0
    do j = 1, ns
      ident(j, j) = 1.0d0
      do i = 1, ns
        sm(i, j) = 1.0d0 / dble(i + j - 1) + merge(dble(i), 0.0d0, i == j)
        hm(i, j) = cos(dble(i + 2 * j)) + cos(dble(j + 2 * i))
      end do
    end do
    ok = ga_create(MT_DBL, ns, ns, 'S', -1, -1, gs) .and. ga_create(MT_DBL, ns, ns, 'H', -1, -1, gh)
    ok = ok .and. ga_create(MT_DBL, ns, ns, 'V', -1, -1, gv)
    if (me == 0) call ga_put(gs, 1, ns, 1, ns, sm, ns)
    if (me == 0) call ga_put(gh, 1, ns, 1, ns, hm, ns)
    call ga_sync()
    call ga_diag(gh, gs, gv, w)
    call ga_get(gv, 1, ns, 1, ns, vm, ns)
    err = 0.0d0
    do k = 1, ns
      err = max(err, maxval(abs(matmul(hm, vm(:, k)) - w(k) * matmul(sm, vm(:, k)))))
    end do
    call check(err < 1.0d-10, 'ga_diag: H v = w S v for every column v of V')
    call check(maxval(abs(matmul(transpose(vm), matmul(sm, vm)) - ident)) < 1.0d-10, 'ga_diag: V^T S V = I')
    call ga_diag_seq(gh, gs, gv, w2)
    call check(maxval(abs(w2 - w)) < 1.0d-10, 'ga_diag_seq: the eigenvalues of ga_diag')
    call ga_diag_reuse(0, gh, gs, gv, w2)
    call ga_dscal(gh, 3.0d0)
    call ga_diag_reuse(1, gh, gs, gv, w2)
    call check(maxval(abs(w2 - 3.0d0 * w)) < 1.0d-10, 'ga_diag_reuse: 3 H with the kept S')
    call ga_diag_reuse(-1, gh, gs, gv, w2)
    call ga_diag_std(gs, gv, w)
    call ga_diag_std_seq(gs, gv, w2)
    call check(maxval(abs(w2 - w)) < 1.0d-12, 'ga_diag_std_seq: the eigenvalues of ga_diag_std')
    call check(ga_spd_invert(gs) == 0, 'ga_spd_invert of S returns 0')
    call ga_get(gs, 1, ns, 1, ns, vm, ns)
    call check(maxval(abs(matmul(sm, vm) - ident)) < 1.0d-10, 'ga_spd_invert: S S^-1 = I')
    call ga_dscal(gs, -1.0d0)
    call check(ga_spd_invert(gs) == 1, 'ga_spd_invert of -S^-1: the leading minor of order 1')
    call ga_sync()
    ok = ga_destroy(gv) .and. ga_destroy(gh) .and. ga_destroy(gs)
  end subroutine test_diag_generalized

  ! ga_dgop, ga_igop (several elements per call), ga_brdcst.
  subroutine test_collectives()
    integer :: iv(4), bytes, r, expect(4)
    double precision :: dv(4)
    iv = (/ me + 1, -(me + 1), 2 * me, 7 /)
    call ga_igop(1, iv, 4, '+')
    expect = (/ np * (np + 1) / 2, -np * (np + 1) / 2, np * (np - 1), 7 * np /)
    call check(all(iv == expect), 'ga_igop + on 4 INTEGERs')
    iv = (/ me, -me, 3, me * me /)
    call ga_igop(2, iv, 4, 'max')
    call check(all(iv == (/ np - 1, 0, 3, (np - 1)**2 /)), 'ga_igop max on 4 INTEGERs')
    iv = (/ me, -me, 3, me * me /)
    call ga_igop(3, iv, 4, 'min')
    call check(all(iv == (/ 0, 1 - np, 3, 0 /)), 'ga_igop min on 4 INTEGERs')
    dv = (/ dble(me) - 1.5d0, 0.5d0, -dble(me + 2), dble(me) / 4.0d0 /)
    call ga_dgop(4, dv, 4, 'absmax')
    call check(dv(1) == max(1.5d0, dble(np) - 2.5d0) .and. dv(2) == 0.5d0 .and. dv(3) == dble(np + 1) &
               .and. dv(4) == dble(np - 1) / 4.0d0, 'ga_dgop absmax on 4 doubles')
    dv = (/ dble(me) - 1.5d0, 0.5d0, -dble(me + 2), dble(me + 1) / 4.0d0 /)
    call ga_dgop(5, dv, 4, 'absmin')
    call check(dv(1) == merge(0.5d0, 1.5d0, np > 1) .and. dv(2) == 0.5d0 .and. dv(3) == 2.0d0 &
               .and. dv(4) == 0.25d0, 'ga_dgop absmin on 4 doubles')
    dv = (/ 2.0d0, -1.0d0, dble(me + 1), 0.5d0 /)
    call ga_dgop(6, dv, 4, '*')
    expect(1) = 1
    do r = 1, np
      expect(1) = expect(1) * r
    end do
    call check(dv(1) == 2.0d0**np .and. dv(2) == (-1.0d0)**np .and. dv(3) == dble(expect(1)) &
               .and. dv(4) == 0.5d0**np, 'ga_dgop * on 4 doubles')
    iv(1:3) = (/ 10 * me, 20 * me, 30 * me /)
    bytes = 3 * (bit_size(iv(1)) / 8)
    call ga_brdcst(8, iv, bytes, np - 1)
    call check(all(iv(1:3) == (/ 10, 20, 30 /) * (np - 1)), 'ga_brdcst of 3 INTEGERs from the last rank')
    dv = dble(me)
    call ga_brdcst(9, dv, 24, 0)
    call check(all(dv(1:3) == 0.0d0) .and. dv(4) == dble(me), 'ga_brdcst of 3 doubles (24 bytes) from rank 0')
  end subroutine test_collectives

  ! ga_access, ga_release, ga_release_update, nga_access, nga_release, nga_release_update through
  ! dbl_mb and int_mb.
  subroutine test_access()
    GA_ACCESS_INDEX_TYPE :: idx  ! as GA programs declare it (global.fh)
    integer :: g, gi, ld, il, ih, jl, jh, lo(2), hi(2), lds(1), total
    double precision :: whole(m, n)
    integer :: iwhole(m, n)
    ok = ga_create(MT_DBL, m, n, 'access', -1, -1, g)
    call ga_zero(g)
    call ga_distribution(g, me, il, ih, jl, jh)
    if (ih >= il .and. jh >= jl) then
      call ga_access(g, il, ih, jl, jh, idx, ld)
      call check(ld >= ih - il + 1, 'ga_access: ld covers the block')
      do j = jl, jh
        do i = il, ih
          dbl_mb(idx + (i - il) + (j - jl) * ld) = a(i, j)
        end do
      end do
      call ga_release_update(g, il, ih, jl, jh)
    end if
    call ga_sync()
    call ga_get(g, 1, m, 1, n, whole, m)
    call check(all(whole == a), 'ga_access + ga_release_update: every block written in place')
    call ga_sync()
    ! Read back one element of the block through nga_access.
    if (ih >= il .and. jh >= jl) then
      lo = (/ ih, jl /)
      hi = (/ ih, jh /)
      call nga_access(g, lo, hi, idx, lds)
      call check(dbl_mb(idx) == a(ih, jl), 'nga_access: first element of the patch')
      if (jh > jl) call check(dbl_mb(idx + lds(1)) == a(ih, jl + 1), 'nga_access: ld to the next column')
      call nga_release(g, lo, hi)
      call ga_access(g, il, ih, jl, jh, idx, ld)
      call ga_release(g, il, ih, jl, jh)
    end if
    call ga_sync()
    ok = ga_destroy(g)
    ! An INTEGER array through int_mb.
    ok = ga_create(MT_INT, m, n, 'iaccess', -1, -1, gi)
    call ga_zero(gi)
    call ga_distribution(gi, me, il, ih, jl, jh)
    if (ih >= il .and. jh >= jl) then
      lo = (/ il, jl /)
      hi = (/ ih, jh /)
      call nga_access(gi, lo, hi, idx, lds)
      do j = jl, jh
        do i = il, ih
          int_mb(idx + (i - il) + (j - jl) * lds(1)) = 1000 * i + j
        end do
      end do
      call nga_release_update(gi, lo, hi)
    end if
    call ga_sync()
    call ga_get(gi, 1, m, 1, n, iwhole, m)
    total = 0
    do j = 1, n
      do i = 1, m
        if (iwhole(i, j) /= 1000 * i + j) total = total + 1
      end do
    end do
    call check(total == 0, 'nga_access + nga_release_update on an MT_INT array (int_mb)')
    call ga_sync()
    ok = ga_destroy(gi)
  end subroutine test_access

  ! ga_nbget, nga_nbget, ga_nbwait, nga_nbwait, nga_read_inc.
  subroutine test_nonblocking_and_counters()
    integer :: g, counter, h1, h2, lo(2), hi(2), ld(1), sub(1), k, old, sum_old, nall
    integer, parameter :: per_rank = 5
    double precision :: p1(4, 3), p2(3, 2)
    ok = ga_create(MT_DBL, m, n, 'nb', -1, -1, g)
    if (me == 0) call ga_put(g, 1, m, 1, n, a, m)
    call ga_sync()
    call ga_nbget(g, 5, 8, 2, 4, p1, 4, h1)
    lo = (/ 11, 8 /)
    hi = (/ 13, 9 /)
    ld = (/ 3 /)
    call nga_nbget(g, lo, hi, p2, ld, h2)
    call nga_nbwait(h2)
    call ga_nbwait(h1)
    call check(all(p1 == a(5:8, 2:4)) .and. all(p2 == a(11:13, 8:9)), 'ga_nbget / nga_nbget + waits')
    call ga_sync()
    ok = ga_destroy(g)
    ok = nga_create(MT_INT, 1, (/ 3 /), 'counter', (/ -1 /), counter)
    call ga_zero(counter)
    sub = (/ 2 /)
    sum_old = 0
    do k = 1, per_rank
      old = nga_read_inc(counter, sub, 1)
      sum_old = sum_old + old
    end do
    call ga_igop(10, sum_old, 1, '+')
    nall = np * per_rank
    call check(sum_old == nall * (nall - 1) / 2, 'nga_read_inc: every old value 0 .. N-1 returned once')
    call ga_sync()
    old = nga_read_inc(counter, (/ 3 /), 7)
    call ga_sync()
    old = nga_read_inc(counter, (/ 3 /), 0)
    call check(old == 7 * np, 'nga_read_inc with inc = 7 on another element')
    call ga_sync()
    ok = ga_destroy(counter)
  end subroutine test_nonblocking_and_counters

  ! MA: ma_push_get, ma_pop_stack, ma_alloc_get, ma_free_heap, ma_sizeof, dbl_mb / int_mb.
  subroutine test_ma()
    integer :: h1, i1, h2, i2, h3, i3, k
    ok = ma_push_get(MT_DBL, 100, 'first', h1, i1)
    call check(ok, 'ma_push_get')
    ok = ma_push_get(MT_INT, 50, 'second', h2, i2)
    call check(ok, 'ma_push_get of MT_INT')
    ok = ma_alloc_get(MT_DBL, 30, 'heap', h3, i3)
    call check(ok, 'ma_alloc_get')
    do k = 0, 99
      dbl_mb(i1 + k) = dble(k) * 1.5d0
    end do
    do k = 0, 29
      dbl_mb(i3 + k) = -dble(k)
    end do
    do k = 0, 49
      int_mb(i2 + k) = 3 * k
    end do
    ok = .true.
    do k = 0, 99
      ok = ok .and. dbl_mb(i1 + k) == dble(k) * 1.5d0
    end do
    do k = 0, 29
      ok = ok .and. dbl_mb(i3 + k) == -dble(k)
    end do
    do k = 0, 49
      ok = ok .and. int_mb(i2 + k) == 3 * k
    end do
    call check(ok, 'MA blocks through dbl_mb / int_mb do not overlap')
    call check(ma_sizeof(MT_DBL, 3, MT_BYTE) == 24, 'ma_sizeof(MT_DBL, 3, MT_BYTE) = 24')
    call check(ma_pop_stack(h2), 'ma_pop_stack (newest)')
    call check(ma_pop_stack(h1), 'ma_pop_stack')
    call check(ma_free_heap(h3), 'ma_free_heap')
    call test_ma_large_blocks()
  end subroutine test_ma

  ! Blocks of 16 MB on the stack and the heap, reached through dbl_mb / int_mb with this build's
  ! INTEGER: with 4 bytes they once failed ("does not fit a 4-byte INTEGER") because each block
  ! was its own malloc, terabytes from the common blocks; MA's one segment lies next to them.
  ! A block beyond ma_init's sizes is refused with .false., as GA's MA does.
  subroutine test_ma_large_blocks()
    integer :: hs, is, hh, ih, hx, ix, k
    call check(ma_push_get(MT_DBL, big_block, 'big stack', hs, is), 'ma_push_get of 16 MB')
    call check(ma_alloc_get(MT_INT, big_block, 'big heap', hh, ih), 'ma_alloc_get of 2M INTEGERs')
    do k = 0, big_block - 1
      dbl_mb(is + k) = dble(k)
      int_mb(ih + k) = k
    end do
    ok = .true.
    do k = 0, big_block - 1, 997
      ok = ok .and. dbl_mb(is + k) == dble(k) .and. int_mb(ih + k) == k
    end do
    call check(ok, 'large MA blocks through dbl_mb / int_mb')
    call check(.not. ma_push_get(MT_DBL, 4 * big_block, 'too big', hx, ix), &
               'ma_push_get beyond ma_init''s sizes returns .false.')
    call check(ma_free_heap(hh) .and. ma_pop_stack(hs), 'large MA blocks freed')
  end subroutine test_ma_large_blocks

  ! ga_scatter, ga_gather, ga_scatter_acc (2-d, lists i and j), nga_scatter_acc, ga_valid_handle,
  ! process groups: ga_pgroup_create/nodeid/nnodes/sync/destroy, nga_create_config,
  ! ga_pgroup_set_default/get_default/get_world.
  subroutine test_lists_and_groups()
    integer, parameter :: nv = 6
    integer :: g, iv(nv), jv(nv), subs(2, nv), k, p, members(64), count, gg, world
    double precision :: v(nv), got(nv), whole(m, n), expect(m, n), alpha, buf(4, 3)
    ok = ga_create(MT_DBL, m, n, 'lists', -1, -1, g)
    call check(ga_valid_handle(g) .and. .not. ga_valid_handle(g + 9999), 'ga_valid_handle')
    call ga_zero(g)
    do k = 1, nv
      iv(k) = mod(3 * k, m) + 1
      jv(k) = mod(5 * k, n) + 1
      v(k) = dble(10 * k)
    end do
    if (me == np - 1) call ga_scatter(g, v, iv, jv, nv)
    call ga_sync()
    got = 0.0d0
    call ga_gather(g, got, iv, jv, nv)
    call check(all(got == v), 'ga_scatter / ga_gather with lists i, j')
    call ga_get(g, 1, m, 1, n, whole, m)
    expect = 0.0d0
    do k = 1, nv
      expect(iv(k), jv(k)) = v(k)
    end do
    call check(all(whole == expect), 'ga_scatter: element (i(k), j(k)) of the Fortran matrix')
    call ga_sync()
    ! Every rank adds alpha v(k) at (i(k), j(k)), and again through nga_scatter_acc with the
    ! subscripts as columns, one subscript repeated.
    alpha = 0.5d0
    call ga_scatter_acc(g, v, iv, jv, nv, alpha)
    do k = 1, nv
      subs(:, k) = (/ iv(k), jv(k) /)
    end do
    subs(:, nv) = subs(:, 1)
    call nga_scatter_acc(g, v, subs, nv, alpha)
    call ga_sync()
    do k = 1, nv
      expect(iv(k), jv(k)) = expect(iv(k), jv(k)) + np * 0.5d0 * v(k)
      expect(subs(1, k), subs(2, k)) = expect(subs(1, k), subs(2, k)) + np * 0.5d0 * v(k)
    end do
    call ga_get(g, 1, m, 1, n, whole, m)
    call check(all(whole == expect), 'ga_scatter_acc and nga_scatter_acc (a repeated subscript adds twice)')
    call ga_sync()
    ok = ga_destroy(g)
    call check(.not. ga_valid_handle(g), 'ga_valid_handle after ga_destroy')

    ! The group of the even ranks.
    count = 0
    do p = 0, np - 1, 2
      count = count + 1
      members(count) = p
    end do
    world = ga_pgroup_get_world()
    call check(ga_pgroup_get_default() == world, 'ga_pgroup_get_default is the world at first')
    gg = ga_pgroup_create(members, count)
    if (mod(me, 2) == 0) then
      call check(ga_pgroup_nnodes(gg) == count .and. ga_pgroup_nodeid(gg) == me / 2, &
                 'ga_pgroup_nnodes / ga_pgroup_nodeid of the even ranks')
      ok = nga_create_config(MT_DBL, 2, (/ 4, 3 /), 'on group', (/ -1, -1 /), gg, g)
      call check(ok, 'nga_create_config')
      call ga_zero(g)
      buf = dble(me + 1)
      call ga_acc(g, 1, 4, 1, 3, buf, 4, 1.0d0)
      call ga_pgroup_sync(gg)
      call ga_get(g, 1, 4, 1, 3, buf, 4)
      call check(all(buf == dble(count * count)), 'ga_acc on an array of the group: sum of member ranks + 1')
      call ga_pgroup_sync(gg)
      ok = ga_destroy(g)
      call ga_pgroup_set_default(gg)
      call check(ga_nnodes() == count .and. ga_nodeid() == me / 2 .and. ga_pgroup_get_default() == gg, &
                 'ga_pgroup_set_default: ga_nnodes and ga_nodeid in the group')
      call ga_sync()
      call ga_pgroup_set_default(world)
    end if
    call ga_sync()
    call check(ga_pgroup_destroy(gg), 'ga_pgroup_destroy')
  end subroutine test_lists_and_groups

end program fortran_api
