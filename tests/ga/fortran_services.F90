! GA's Fortran entry points for the cluster, GA's version, arrays created in steps (irregular
! distributions), mutexes and fences, ga_gop on every type, dot products of every type (whole
! arrays and patches, with a transpose), owners of patches (ga_locate_region, nga_locate_region,
! ga_locate), ga_read_inc, and copies between patches of different shapes and ndim, each checked
! against what GA's documentation says and serial copies on every process.
program fortran_services
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: m = 9, n = 7
  integer :: me, np, failures, i, j, k, node, total, major, minor, patch
  integer :: g_a, g_b, g_i, g_r, g_s, g_z, g_c, g_v, g_1
  integer :: map(64), nblock(2), lo(2), hi(2), owner, nb, rmap(4, 64), procs(64), bmap(5, 64), count, v
  integer :: ia(m, n), ib(m, n), isum(5)
  double precision :: a(m, n), b(m, n), dsum(5), d1(m * n)
  real :: ra(m, n), rb(m, n), rsum(5), rdot
  complex :: ca(m, n), cb(m, n), csum(5), cdot
  double complex :: za(m, n), zb(m, n), zsum(5), zdot
  logical :: ok

  call check_start(failures)
  me = ga_nodeid()
  np = ga_nnodes()

  ! ---- cluster and version
  total = 0
  do node = 0, ga_cluster_nnodes() - 1
    total = total + ga_cluster_nprocs(node)
    if (ga_cluster_proc_nodeid(ga_cluster_procid(node, 0)) /= node) call check_fail(failures, 'ga_cluster_procid')
  end do
  if (total /= np) call check_fail(failures, 'ga_cluster_nprocs over the nodes')
  ! A negative node is the caller's (ARMCI's armci_domain_nprocs, which GA's test.F relies on).
  if (ga_cluster_nprocs(-1) /= ga_cluster_nprocs(ga_cluster_nodeid())) call check_fail(failures, 'ga_cluster_nprocs(-1)')
  call ga_version(major, minor, patch)
  if (major /= 5 .or. minor /= 8) call check_fail(failures, 'ga_version')

  ! ---- an array created in steps with an irregular distribution: rows in blocks starting at
  ! 1, 3, 4, ... (one block per process), all columns in one block.
  g_i = ga_create_handle()
  call ga_set_data(g_i, 2, (/ np + 3, n /), MT_INT)
  call ga_set_array_name(g_i, 'irregular')
  nblock(1) = np
  nblock(2) = 1
  map(1) = 1
  do k = 2, np
    map(k) = k + 2
  end do
  map(np + 1) = 1
  call ga_set_irreg_distr(g_i, map, nblock)
  if (.not. ga_allocate(g_i)) call ga_error('fortran_services: ga_allocate failed', 0)
  do k = 0, np - 1
    call nga_distribution(g_i, k, lo, hi)
    j = np + 3
    if (k < np - 1) j = map(k + 2) - 1
    if (lo(1) /= map(k + 1) .or. hi(1) /= j .or. lo(2) /= 1 .or. hi(2) /= n) &
      call check_fail(failures, 'ga_set_irreg_distr: distribution')
  end do
  ! owners of the whole array: one block per process, in process order
  ok = nga_locate_region(g_i, (/ 1, 1 /), (/ np + 3, n /), rmap, procs, nb)
  if (.not. ok .or. nb /= np) call check_fail(failures, 'nga_locate_region: block count')
  do k = 1, nb
    call nga_distribution(g_i, procs(k), lo, hi)
    if (rmap(1, k) /= lo(1) .or. rmap(2, k) /= lo(2) .or. rmap(3, k) /= hi(1) .or. rmap(4, k) /= hi(2)) &
      call check_fail(failures, 'nga_locate_region: blocks')
  end do
  ok = ga_locate(g_i, np + 3, 2, owner)
  if (.not. ok .or. owner /= np - 1) call check_fail(failures, 'ga_locate')

  ! ---- ga_read_inc on element (2, 3) of g_i: each process adds 1 + its rank, once
  call ga_zero(g_i)
  v = ga_read_inc(g_i, 2, 3, 1 + me)
  call ga_sync()
  call ga_get(g_i, 2, 2, 3, 3, k, 1)
  if (k /= np * (np + 1) / 2 .or. v < 0 .or. v > k) call check_fail(failures, 'ga_read_inc')

  ! ---- a counter in g_i(1, 1) under mutex 0, made visible by ga_fence before the unlock
  call ga_zero(g_i)
  if (.not. ga_create_mutexes(1)) call check_fail(failures, 'ga_create_mutexes')
  do i = 1, 3
    call ga_lock(0)
    call ga_get(g_i, 1, 1, 1, 1, k, 1)
    k = k + 1
    call ga_init_fence()
    call ga_put(g_i, 1, 1, 1, 1, k, 1)
    call ga_fence()
    call ga_unlock(0)
  end do
  call ga_sync()
  call ga_get(g_i, 1, 1, 1, 1, k, 1)
  if (k /= 3 * np) call check_fail(failures, 'ga_lock/ga_fence counter')
  if (.not. ga_destroy_mutexes()) call check_fail(failures, 'ga_destroy_mutexes')

  ! ---- ga_gop on every type, and the typed spellings
  do i = 1, 5
    isum(i) = i + me
    dsum(i) = 0.5d0 * i + me
    rsum(i) = 0.25 * i + me
    csum(i) = cmplx(real(i), real(-me))
    zsum(i) = dcmplx(dble(me), dble(i))
  end do
  call ga_gop(MT_INT, isum, 5, '+')
  call ga_gop(MT_DBL, dsum, 5, '+')
  call ga_gop(MT_REAL, rsum, 5, 'max')
  call ga_cgop(1, csum, 5, '+')
  call ga_gop(MT_DCPL, zsum, 5, '+')
  do i = 1, 5
    if (isum(i) /= np * i + np * (np - 1) / 2) call check_fail(failures, 'ga_gop MT_INT')
    if (abs(dsum(i) - (0.5d0 * i * np + np * (np - 1) / 2)) > 1.0d-12) call check_fail(failures, 'ga_gop MT_DBL')
    if (rsum(i) /= 0.25 * i + (np - 1)) call check_fail(failures, 'ga_gop MT_REAL max')
    if (csum(i) /= cmplx(real(np * i), real(-np * (np - 1) / 2))) call check_fail(failures, 'ga_cgop')
    if (zsum(i) /= dcmplx(dble(np * (np - 1) / 2), dble(np * i))) call check_fail(failures, 'ga_gop MT_DCPL')
  end do

  ! ---- dot products of every type: whole arrays, patches, a transposed patch
  do j = 1, n
    do i = 1, m
      ia(i, j) = mod(3 * i + j, 7) - 3
      ib(i, j) = mod(i + 5 * j, 4) - 1
      ra(i, j) = 0.5 * ia(i, j)
      rb(i, j) = 0.25 * ib(i, j)
      ca(i, j) = cmplx(real(ia(i, j)), real(ib(i, j)))
      cb(i, j) = cmplx(real(ib(i, j)), 1.0)
      za(i, j) = dcmplx(dble(ia(i, j)), -1.0d0)
      zb(i, j) = dcmplx(dble(j), dble(ib(i, j)))
    end do
  end do
  ok = ga_create(MT_INT, m, n, 'ia', -1, -1, g_a) .and. ga_create(MT_INT, m, n, 'ib', m, -1, g_b)
  ok = ok .and. ga_create(MT_REAL, m, n, 'ra', -1, -1, g_r) .and. ga_create(MT_REAL, m, n, 'rb', -1, 2, g_s)
  ok = ok .and. ga_create(MT_SCPL, m, n, 'ca', -1, -1, g_c) .and. ga_create(MT_SCPL, m, n, 'cb', 3, -1, g_v)
  ok = ok .and. ga_create(MT_DCPL, m, n, 'za', -1, -1, g_z) .and. ga_create(MT_DCPL, m, n, 'zb', -1, 3, g_1)
  if (.not. ok) call ga_error('fortran_services: creation failed', 1)
  call put_whole(g_a, m, n, ia)
  call put_whole(g_b, m, n, ib)
  call put_whole(g_r, m, n, ra)
  call put_whole(g_s, m, n, rb)
  call put_whole(g_c, m, n, ca)
  call put_whole(g_v, m, n, cb)
  call put_whole(g_z, m, n, za)
  call put_whole(g_1, m, n, zb)
  call ga_sync()
  if (ga_idot(g_a, g_b) /= sum(ia * ib)) call check_fail(failures, 'ga_idot')
  rdot = ga_sdot(g_r, g_s)
  if (abs(rdot - sum(ra * rb)) > 1.0e-4 * max(1.0, abs(rdot))) call check_fail(failures, 'ga_sdot')
  cdot = ga_cdot(g_c, g_v)
  if (abs(cdot - sum(ca * cb)) > 1.0e-4 * max(1.0, abs(cdot))) call check_fail(failures, 'ga_cdot')
  zdot = ga_zdot(g_z, g_1)
  if (abs(zdot - sum(za * zb)) > 1.0d-12 * max(1.0d0, abs(zdot))) call check_fail(failures, 'ga_zdot')
  ! patches: A(2:6, 3:5) . B(4:8, 1:3); then A(2:4, 1:5) . B(3:7, 5:7)^T
  if (nga_idot_patch(g_a, 'n', (/ 2, 3 /), (/ 6, 5 /), g_b, 'n', (/ 4, 1 /), (/ 8, 3 /)) &
      /= sum(ia(2:6, 3:5) * ib(4:8, 1:3))) call check_fail(failures, 'nga_idot_patch')
  rdot = ga_sdot_patch(g_r, 'n', 2, 6, 3, 5, g_s, 'n', 4, 8, 1, 3)
  if (abs(rdot - sum(ra(2:6, 3:5) * rb(4:8, 1:3))) > 1.0e-4 * max(1.0, abs(rdot))) &
    call check_fail(failures, 'ga_sdot_patch')
  zdot = ga_zdot_patch(g_z, 'n', 2, 4, 1, 5, g_1, 't', 3, 7, 5, 7)
  if (abs(zdot - sum(za(2:4, 1:5) * transpose(zb(3:7, 5:7)))) > 1.0d-12 * max(1.0d0, abs(zdot))) &
    call check_fail(failures, 'ga_zdot_patch transposed')
  cdot = nga_cdot_patch(g_c, 'n', (/ 1, 1 /), (/ m, 2 /), g_v, 'n', (/ 1, 6 /), (/ m, 7 /))
  if (abs(cdot - sum(ca(:, 1:2) * cb(:, 6:7))) > 1.0e-4 * max(1.0, abs(cdot))) call check_fail(failures, 'nga_cdot_patch')

  ! ---- owners of a 2-d patch: the blocks cover it once, each inside its owner's block
  ok = ga_locate_region(g_b, 2, m - 1, 2, n, bmap, nb)
  count = 0
  do k = 1, nb
    call ga_distribution(g_b, bmap(5, k), lo(1), hi(1), lo(2), hi(2))
    if (bmap(1, k) < max(lo(1), 2) .or. bmap(2, k) > min(hi(1), m - 1) .or. bmap(3, k) < max(lo(2), 2) &
        .or. bmap(4, k) > hi(2)) call check_fail(failures, 'ga_locate_region: block outside its owner')
    count = count + (bmap(2, k) - bmap(1, k) + 1) * (bmap(4, k) - bmap(3, k) + 1)
  end do
  if (.not. ok .or. count /= (m - 2) * (n - 1)) call check_fail(failures, 'ga_locate_region: coverage')

  ! ---- copies between patches of different shapes (GA: as many elements, in storage order)
  ! A(1:4, 2:7) (24 elements) into B(3:8, 4:7): B's column-major order takes A's.
  call ga_zero(g_b)
  call ga_copy_patch('n', g_a, 1, 4, 2, 7, g_b, 3, 8, 4, 7)
  call ga_get(g_b, 1, m, 1, n, ib, m)
  ok = all(ib(:, 1:3) == 0) .and. all(ib(1:2, :) == 0) .and. all(ib(9:m, :) == 0)
  ok = ok .and. all(reshape(ib(3:8, 4:7), (/ 24 /)) == reshape(ia(1:4, 2:7), (/ 24 /)))
  if (.not. ok) call check_fail(failures, 'ga_copy_patch between shapes')
  ! the whole of A into a 1-d array, and back from its second half into A(:, 5:7) reshaped
  ok = ga_destroy(g_s)
  ok = nga_create(MT_DBL, 1, (/ m * n /), 'd1', (/ -1 /), g_s)
  if (.not. ok) call ga_error('fortran_services: creation failed', 2)
  do j = 1, n
    do i = 1, m
      a(i, j) = i + 100 * j
    end do
  end do
  ok = ga_destroy(g_r)
  ok = ga_create(MT_DBL, m, n, 'a', -1, -1, g_r)
  if (me == 0) call ga_put(g_r, 1, m, 1, n, a, m)
  call ga_sync()
  call nga_copy_patch('n', g_r, (/ 1, 1 /), (/ m, n /), g_s, (/ 1 /), (/ m * n /))
  call nga_get(g_s, (/ 1 /), (/ m * n /), d1, (/ 1 /))
  if (any(d1 /= reshape(a, (/ m * n /)))) call check_fail(failures, 'nga_copy_patch 2-d into 1-d')
  call nga_copy_patch('n', g_s, (/ 1 /), (/ 3 * m /), g_r, (/ 1, 5 /), (/ m, 7 /))
  call ga_get(g_r, 1, m, 1, n, b, m)
  if (any(b(:, 1:4) /= a(:, 1:4)) .or. any(b(:, 5:7) /= a(:, 1:3))) call check_fail(failures, 'nga_copy_patch 1-d into 2-d')

  ok = ga_destroy(g_a)
  ok = ga_destroy(g_b)
  ok = ga_destroy(g_r)
  ok = ga_destroy(g_s)
  ok = ga_destroy(g_c)
  ok = ga_destroy(g_v)
  ok = ga_destroy(g_z)
  ok = ga_destroy(g_1)
  ok = ga_destroy(g_i)
  call check_finish('fortran_services', failures, '')
end program fortran_services
