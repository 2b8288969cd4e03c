! Module armada against expected values, element by element, at any rank count: every buffer
! rank (1 to 7) and element type, the C view of the same arrays (c_view.c), nonblocking
! completion, strided, periodic and element-list operations, read_inc, local access without a
! copy, ghosts, creation variants and inquiry, collective array operations, mutexes, collectives
! on Fortran arrays, and error paths through stat/errmsg.
program test_fortran_arrays
  use armada
  use checks
  use, intrinsic :: iso_c_binding, only: c_int, c_loc, c_associated, c_ptr
  implicit none
  interface
    integer(c_int) function c_view_mismatches(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
  end interface

  call armada_init()
  me = armada_rank()
  nproc = armada_size()

  call test_runtime()
  call test_buffer_ranks()
  call test_element_types()
  call test_nonblocking()
  call test_strided()
  call test_periodic()
  call test_element_lists()
  call test_read_inc()
  call test_local_access()
  call test_ghosts()
  call test_creation()
  call test_collective_ops()
  call test_mutexes()
  call test_fortran_collectives()
  call test_errors()

  call finish_test('test_fortran_arrays')

contains

  ! Values value_of(idx) of the patch [lo, hi], column-major.
  function patch_values(lo, hi) result(v)
    integer, intent(in) :: lo(:), hi(:)
    real(8), allocatable :: v(:)
    integer :: idx(size(lo)), k, d
    allocate (v(product(hi - lo + 1)))
    idx = lo
    do k = 1, size(v)
      v(k) = value_of(idx)
      do d = 1, size(lo)
        idx(d) = idx(d) + 1
        if (idx(d) <= hi(d)) exit
        idx(d) = lo(d)
      end do
    end do
  end function

  subroutine test_runtime()
    integer :: nodes, k, total, node
    logical :: found
    call check(armada_initialized(), 'armada_initialized after armada_init')
    call check(me >= 0 .and. me < nproc, 'rank within 0 .. size-1')
    nodes = armada_node_count()
    call check(nodes >= 1 .and. nodes <= nproc, 'node count')
    total = 0
    do k = 0, nodes - 1
      total = total + armada_node_size(k)
    end do
    call check(total == nproc, 'node sizes add up to the size')
    node = armada_node_of(me)
    found = .false.
    do k = 0, armada_node_size(node) - 1
      found = found .or. armada_node_rank(node, k) == me
    end do
    call check(found, 'this rank is among its node''s ranks')
    call armada_sync()
    call armada_fence_all()
    call armada_fence(mod(me + 1, nproc))
  end subroutine

  ! Arrays of rank 1 to 7 filled from buffers of the same rank (rank 0 puts everything), read
  ! back as sub-patches by every rank, and read by C through the C view.
  subroutine test_buffer_ranks()
    integer, parameter :: shapes(7, 7) = reshape([ &
      10, 0, 0, 0, 0, 0, 0, &
      6, 5, 0, 0, 0, 0, 0, &
      4, 3, 5, 0, 0, 0, 0, &
      3, 2, 4, 3, 0, 0, 0, &
      2, 3, 2, 3, 2, 0, 0, &
      2, 2, 3, 2, 2, 2, 0, &
      2, 2, 2, 3, 2, 2, 2], [7, 7])
    real(8), allocatable :: full(:), sub(:), flat(:)
    real(8), allocatable :: b1(:), b2(:, :), b3(:, :, :), b4(:, :, :, :), b5(:, :, :, :, :), &
                            b6(:, :, :, :, :, :), b7(:, :, :, :, :, :, :)
    integer :: r, g, k, n(7), lo(7), hi(7), m(7)
    character(len=40) :: what
    do r = 1, 7
      n = shapes(:, r)
      write (what, '(a,i0)') 'rank-', r
      call armada_create(ARMADA_REAL8, n(1:r), g, name='sweep')
      full = patch_values([(1, k = 1, r)], n(1:r))
      if (me == 0) then
        select case (r)
        case (1)
          b1 = reshape(full, n(1:1))
          call armada_put(g, [1], n(1:1), b1)
        case (2)
          b2 = reshape(full, n(1:2))
          call armada_put(g, [1, 1], n(1:2), b2)
        case (3)
          b3 = reshape(full, n(1:3))
          call armada_put(g, [1, 1, 1], n(1:3), b3)
        case (4)
          b4 = reshape(full, n(1:4))
          call armada_put(g, [1, 1, 1, 1], n(1:4), b4)
        case (5)
          b5 = reshape(full, n(1:5))
          call armada_put(g, [1, 1, 1, 1, 1], n(1:5), b5)
        case (6)
          b6 = reshape(full, n(1:6))
          call armada_put(g, [1, 1, 1, 1, 1, 1], n(1:6), b6)
        case (7)
          b7 = reshape(full, n(1:7))
          call armada_put(g, [1, 1, 1, 1, 1, 1, 1], n(1:7), b7)
        end select
      end if
      if (allocated(b1)) deallocate (b1)  ! rank 0's put buffer
      if (allocated(b2)) deallocate (b2)
      if (allocated(b3)) deallocate (b3)
      if (allocated(b4)) deallocate (b4)
      if (allocated(b5)) deallocate (b5)
      if (allocated(b6)) deallocate (b6)
      if (allocated(b7)) deallocate (b7)
      call armada_sync()
      call check(c_view_mismatches(g) == 0, trim(what) // ': C finds (i1..in) at [in-1]..[i1-1]')
      ! A sub-patch into a buffer of the array's rank.
      lo(1:r) = 2
      hi(1:r) = n(1:r)
      lo(1) = 1 + mod(me, 2)
      m(1:r) = hi(1:r) - lo(1:r) + 1
      sub = patch_values(lo(1:r), hi(1:r))
      select case (r)
      case (1)
        allocate (b1(m(1)))
        call armada_get(g, lo(1:1), hi(1:1), b1)
        flat = pack(b1, .true.)
        deallocate (b1)
      case (2)
        allocate (b2(m(1), m(2)))
        call armada_get(g, lo(1:2), hi(1:2), b2)
        flat = pack(b2, .true.)
        deallocate (b2)
      case (3)
        allocate (b3(m(1), m(2), m(3)))
        call armada_get(g, lo(1:3), hi(1:3), b3)
        flat = pack(b3, .true.)
        deallocate (b3)
      case (4)
        allocate (b4(m(1), m(2), m(3), m(4)))
        call armada_get(g, lo(1:4), hi(1:4), b4)
        flat = pack(b4, .true.)
        deallocate (b4)
      case (5)
        allocate (b5(m(1), m(2), m(3), m(4), m(5)))
        call armada_get(g, lo(1:5), hi(1:5), b5)
        flat = pack(b5, .true.)
        deallocate (b5)
      case (6)
        allocate (b6(m(1), m(2), m(3), m(4), m(5), m(6)))
        call armada_get(g, lo(1:6), hi(1:6), b6)
        flat = pack(b6, .true.)
        deallocate (b6)
      case (7)
        allocate (b7(m(1), m(2), m(3), m(4), m(5), m(6), m(7)))
        call armada_get(g, lo(1:7), hi(1:7), b7)
        flat = pack(b7, .true.)
        deallocate (b7)
      end select
      call check(size(flat) == size(sub), trim(what) // ' get: element count')
      if (size(flat) == size(sub)) call check(all(flat == sub), trim(what) // ' get: values')
      ! Any contiguous buffer carries any patch: a rank-1 buffer for the same sub-patch.
      deallocate (flat)
      allocate (flat(size(sub)))
      flat = -1
      call armada_get(g, lo(1:r), hi(1:r), flat)
      call check(all(flat == sub), trim(what) // ' get into a rank-1 buffer')
      call armada_sync()
      call armada_destroy(g)
    end do
    ! A buffer with leading dimensions (GA's ld): a 4 x 3 patch inside a 6 x 3 buffer.
    call armada_create(ARMADA_REAL8, [5, 4], g)
    call armada_zero(g)
    if (me == nproc - 1) then
      allocate (b2(6, 3))
      b2 = -7
      b2(1:4, 1:3) = reshape(patch_values([2, 2], [5, 4]), [4, 3])
      call armada_put(g, [2, 2], [5, 4], b2, ld=[6])
      deallocate (b2)
    end if
    call armada_sync()
    allocate (b2(5, 4))
    call armada_get(g, [1, 1], [5, 4], b2)
    call check(all(b2(2:5, 2:4) == reshape(patch_values([2, 2], [5, 4]), [4, 3])) .and. &
               all(b2(1, :) == 0) .and. all(b2(:, 1) == 0), 'put with ld: the patch and nothing else')
    call armada_sync()
    call armada_destroy(g)
  end subroutine

  ! Every element type through put, get and acc (alpha of the array's type) on a 5 x 4 array.
  subroutine test_element_types()
    real(8) :: e(5, 4), want(5, 4)
    integer(4) :: i4(5, 4)
    integer(8) :: i8(5, 4)
    real(4) :: r4(5, 4)
    real(8) :: r8(5, 4)
    complex(4) :: c4(5, 4)
    complex(8) :: c8(5, 4)
    integer :: g, t
    e = reshape(patch_values([1, 1], [5, 4]), [5, 4])
    want = e
    want(2:3, 2:4) = e(2:3, 2:4) + 2 * nproc * e(2:3, 2:4)
    do t = ARMADA_INT4, ARMADA_COMPLEX8
      call armada_create(t, [5, 4], g)
      select case (t)
      case (ARMADA_INT4)
        call put_acc_get(g, int(e, 4), int(e(2:3, 2:4), 4), 2_4, i4)
        call check(all(i4 == int(want, 4)), 'integer(4) put/acc/get')
      case (ARMADA_INT8)
        call put_acc_get(g, int(e, 8), int(e(2:3, 2:4), 8), 2_8, i8)
        call check(all(i8 == int(want, 8)), 'integer(8) put/acc/get')
      case (ARMADA_REAL4)
        call put_acc_get(g, real(e, 4), real(e(2:3, 2:4), 4), 2.0, r4)
        call check(all(r4 == real(want, 4)), 'real(4) put/acc/get')
      case (ARMADA_REAL8)
        call put_acc_get(g, e, e(2:3, 2:4), 2.0d0, r8)
        call check(all(r8 == want), 'real(8) put/acc/get')
      case (ARMADA_COMPLEX4)
        ! alpha = 2i: (x - ix) * 2i = 2x + 2ix, so each acc adds 2e (1 + i).
        call put_acc_get(g, cmplx(e, -e, 4), cmplx(e(2:3, 2:4), -e(2:3, 2:4), 4), (0.0, 2.0), c4)
        call check(all(real(c4) == real(want, 4)) .and. all(aimag(c4) == real(-e + (want - e), 4)), &
                   'complex(4) put/acc/get')
      case (ARMADA_COMPLEX8)
        call put_acc_get(g, cmplx(e, -e, 8), cmplx(e(2:3, 2:4), -e(2:3, 2:4), 8), (0.0d0, 2.0d0), c8)
        call check(all(real(c8) == want) .and. all(aimag(c8) == -e + (want - e)), 'complex(8) put/acc/get')
      end select
      call armada_sync()
      call armada_destroy(g)
    end do
  end subroutine

  ! test_element_types' round on the 5 x 4 array g: rank 0 puts `whole`, every rank adds
  ! alpha * `part` to [2:3, 2:4], and `got` is the array then. Buffers and alpha of g's type.
  subroutine put_acc_get(g, whole, part, alpha, got)
    integer, intent(in) :: g
    type(*), dimension(..), contiguous, intent(in) :: whole, part, alpha
    type(*), dimension(..), contiguous, intent(inout) :: got
    if (me == 0) call armada_put(g, [1, 1], [5, 4], whole)
    call armada_sync()
    call armada_acc(g, [2, 2], [3, 4], part, alpha)
    call armada_sync()
    call armada_get(g, [1, 1], [5, 4], got)
  end subroutine

  ! Each rank puts its slice to the next rank's block without blocking, then reads another
  ! rank's slice with nbget and polls it with nbtest.
  subroutine test_nonblocking()
    integer, parameter :: w = 8
    real(8), asynchronous :: mine(w), theirs(w), added(w)
    integer :: g, req, req2, next, prev, i, polls
    next = mod(me + 1, nproc)
    prev = mod(me - 1 + nproc, nproc)
    call armada_create(ARMADA_REAL8, [w * nproc], g)
    call armada_zero(g)
    mine = [(1000.0d0 * me + i, i = 1, w)]
    call armada_nbput(g, [next * w + 1], [next * w + w], mine, req)
    call armada_nbwait(req)
    added = 1
    call armada_nbacc(g, [next * w + 1], [next * w + w], added, 0.5d0, req2)
    call armada_nbwait(req2)
    call armada_sync()
    call armada_nbget(g, [me * w + 1], [me * w + w], theirs, req)
    polls = 0
    do while (.not. armada_nbtest(req))
      polls = polls + 1
    end do
    call armada_nbwait(req)
    call check(all(theirs == [(1000.0d0 * prev + i + 0.5d0, i = 1, w)]), 'nbput + nbacc + nbget: the previous rank''s slice')
    call armada_sync()
    call armada_destroy(g)
  end subroutine

  ! Every second row and every third column of a patch (skip), put, accumulated and read back.
  subroutine test_strided()
    real(8) :: a(8, 7), src(4, 3), back(4, 3), want(8, 7)
    integer :: g
    call armada_create(ARMADA_REAL8, [8, 7], g)
    call armada_zero(g)
    src = reshape(patch_values([1, 1], [4, 3]), [4, 3])
    if (me == 0) call armada_strided_put(g, [1, 1], [7, 7], [2, 3], src)
    call armada_sync()
    call armada_strided_acc(g, [1, 1], [7, 7], [2, 3], src, 1.0d0)
    call armada_sync()
    want = 0
    want(1:7:2, 1:7:3) = src * (1 + nproc)
    call armada_get(g, [1, 1], [8, 7], a)
    call check(all(a == want), 'strided put + acc: exactly the selected elements')
    call armada_strided_get(g, [1, 1], [7, 7], [2, 3], back)
    call check(all(back == src * (1 + nproc)), 'strided get')
    call armada_sync()
    call armada_destroy(g)
  end subroutine

  ! A patch that runs past the edges wraps around.
  subroutine test_periodic()
    real(8) :: e(5, 4), got(3, 3), want(3, 3), all_(5, 4)
    integer :: g, i, j
    integer :: rows(3) = [4, 5, 1], cols(3) = [3, 4, 1]
    call armada_create(ARMADA_REAL8, [5, 4], g)
    e = reshape(patch_values([1, 1], [5, 4]), [5, 4])
    if (me == 0) call armada_put(g, [1, 1], [5, 4], e)
    call armada_sync()
    call armada_periodic_get(g, [4, 3], [6, 5], got)
    do j = 1, 3
      do i = 1, 3
        want(i, j) = e(rows(i), cols(j))
      end do
    end do
    call check(all(got == want), 'periodic get wraps past both edges')
    call armada_sync()
    if (me == 0) call armada_periodic_put(g, [5, 4], [6, 5], reshape([1d0, 2d0, 3d0, 4d0], [2, 2]))
    call armada_sync()
    call armada_periodic_acc(g, [5, 4], [6, 5], reshape([1d0, 1d0, 1d0, 1d0], [2, 2]), 1d0)
    call armada_sync()
    call armada_get(g, [1, 1], [5, 4], all_)
    call check(all_(5, 4) == 1 + nproc .and. all_(1, 4) == 2 + nproc .and. all_(5, 1) == 3 + nproc .and. &
               all_(1, 1) == 4 + nproc .and. all_(2, 2) == e(2, 2), 'periodic put + acc land on the wrapped elements')
    call armada_sync()
    call armada_destroy(g)
  end subroutine

  subroutine test_element_lists()
    integer :: g, k
    integer :: subs(2, 4) = reshape([1, 1, 6, 5, 3, 2, 2, 4], [2, 4])
    integer :: twice(2, 3) = reshape([3, 2, 3, 2, 6, 1], [2, 3])
    real(8) :: vals(4), got(4), a(6, 5)
    call armada_create(ARMADA_REAL8, [6, 5], g)
    call armada_zero(g)
    vals = [(value_of(subs(:, k)), k = 1, 4)]
    if (me == nproc - 1) call armada_scatter(g, subs, vals)
    call armada_sync()
    call armada_gather(g, subs, got)
    call check(all(got == vals), 'scatter then gather')
    call armada_sync()
    call armada_scatter_acc(g, twice, [1d0, 1d0, 1d0], 2d0)
    call armada_sync()
    call armada_get(g, [1, 1], [6, 5], a)
    call check(a(3, 2) == value_of([3, 2]) + 4 * nproc .and. a(6, 1) == 2 * nproc .and. a(1, 1) == 11 .and. &
               a(6, 5) == 56 .and. a(2, 4) == 42 .and. count(a /= 0) == 5, &
               'scatter_acc: a repeated element accumulates once per occurrence')
    call armada_sync()
    call armada_destroy(g)
  end subroutine

  ! read_inc as GA's task counter, on integer(8) and integer(4) elements.
  subroutine test_read_inc()
    integer, parameter :: k = 20
    integer :: g, g4, i
    integer(8) :: old, last, total(1)
    integer(4) :: final4(2)
    logical :: increasing
    call armada_create(ARMADA_INT8, [3], g)
    call armada_create(ARMADA_INT4, [2, 2], g4)
    call armada_zero(g)
    call armada_zero(g4)
    last = -1
    increasing = .true.
    do i = 1, k
      old = armada_read_inc(g, [2])
      increasing = increasing .and. old > last
      last = old
      old = armada_read_inc(g4, [2, 1], inc=3)
    end do
    call check(increasing, 'read_inc: this rank''s old values increase')
    call armada_sync()
    call armada_get(g, [2], [2], total)
    call check(total(1) == k * nproc, 'read_inc: every increment counted')
    call armada_get(g4, [1, 1], [2, 1], final4)
    call check(final4(2) == 3 * k * nproc .and. final4(1) == 0, 'read_inc on integer(4), inc = 3')
    call armada_sync()
    call armada_destroy(g)
    call armada_destroy(g4)
  end subroutine

  ! The local block as a pointer into the array's memory, with global bounds.
  subroutine test_local_access()
    real(8), pointer :: p(:, :)
    real(4), pointer :: wrong(:, :)
    real(8), pointer :: flat(:)
    real(8) :: a(7, 6), one(1, 1)
    integer :: g, lo(2), hi(2), i, j, st
    type(c_ptr) :: first
    character(len=300) :: msg
    call armada_create(ARMADA_REAL8, [7, 6], g)
    call armada_zero(g)
    call armada_distribution(g, me, lo, hi)
    call armada_access(g, p)
    if (all(hi >= lo)) then
      call check(associated(p), 'access: a pointer to the owned block')
      call check(all(lbound(p) == lo) .and. all(ubound(p) == hi), 'access: bounds are the global indices')
      do j = lo(2), hi(2)
        do i = lo(1), hi(1)
          p(i, j) = value_of([i, j])
        end do
      end do
    else
      call check(.not. associated(p), 'access: no block, no pointer')
    end if
    call armada_release(g, update=.true.)
    call armada_sync()
    call armada_get(g, [1, 1], [7, 6], a)
    call check(all(a == reshape(patch_values([1, 1], [7, 6]), [7, 6])), 'access: stores through the pointer are the array')
    call check(c_view_mismatches(g) == 0, 'access: C finds the stores where Fortran made them')
    ! No copy: a put into this rank's block shows through the pointer taken before.
    call armada_sync()  ! every rank has read the array above
    if (all(hi >= lo)) then
      first = c_loc(p(lo(1), lo(2)))
      one = -5
      call armada_put(g, lo, lo, one)
      call armada_fence_all()
      call check(p(lo(1), lo(2)) == -5, 'access: the pointer sees a later put (no copy)')
      call armada_access(g, p)
      call check(c_associated(first, c_loc(p(lo(1), lo(2)))), 'access: the same memory every time')
      call armada_release(g)
    end if
    ! Wrong pointer type or rank: errors, nothing associated.
    call armada_access(g, wrong, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_TYPE .and. index(msg, 'real(4)') > 0 .and. .not. associated(wrong), &
               'access with a real(4) pointer to a real(8) array: ARMADA_ERR_TYPE')
    call armada_access(g, flat, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. .not. associated(flat), 'access with a rank-1 pointer to a 2-D array')
    call armada_sync()
    call armada_destroy(g)
  end subroutine

  ! Ghost cells hold the neighbours' values after update_ghosts (periodic: wrapped).
  subroutine test_ghosts()
    real(8), pointer :: p(:, :)
    integer :: g, lo(2), hi(2), w(2), i, j, n(2) = [6, 8]
    logical :: ok, periodic
    integer :: pass
    call armada_create(ARMADA_REAL8, n, g, ghosts=[1, 2])
    call armada_ghost_width(g, w)
    call check(all(w == [1, 2]), 'ghost widths')
    if (me == 0) call armada_put(g, [1, 1], n, reshape(patch_values([1, 1], n), n))
    call armada_sync()
    call armada_distribution(g, me, lo, hi)
    do pass = 1, 2
      periodic = pass == 2
      call armada_update_ghosts(g, periodic=periodic)
      call armada_access(g, p, ghosts=.true.)
      if (all(hi >= lo)) then
        ok = all(lbound(p) == lo - w) .and. all(ubound(p) == hi + w)
        do j = lo(2) - w(2), hi(2) + w(2)
          do i = lo(1) - w(1), hi(1) + w(1)
            if (i >= 1 .and. i <= n(1) .and. j >= 1 .and. j <= n(2)) then
              ok = ok .and. p(i, j) == value_of([i, j])
            else if (periodic) then
              ok = ok .and. p(i, j) == value_of([modulo(i - 1, n(1)) + 1, modulo(j - 1, n(2)) + 1])
            end if
          end do
        end do
        if (periodic) then
          call check(ok, 'periodic update_ghosts: every ghost cell holds its wrapped neighbour')
        else
          call check(ok, 'update_ghosts: ghost bounds and interior neighbours')
        end if
      end if
      call armada_release(g)
    end do
    call armada_sync()
    call armada_destroy(g)
  end subroutine

  subroutine test_creation()
    integer :: g, d, grp, grid(2), lo(2), hi(2), dims(3), t, nd, count, owner
    integer :: ranks(4), los(2, 4), his(2, 4), members(4), k, half
    integer :: nblock(2), map(3)
    character(len=:), allocatable :: name
    ! A chosen process grid: nproc x 1 blocks.
    call armada_create(ARMADA_REAL8, [8, 3], g, name='gridded', grid=[nproc, 1])
    call armada_grid(g, grid)
    call check(all(grid == [nproc, 1]), 'create with grid: the grid')
    call armada_distribution(g, me, lo, hi)
    call check(lo(2) == 1 .and. hi(2) == 3, 'create with grid: every block spans all columns')
    name = armada_name(g)
    call check(name == 'gridded', 'name')
    call armada_inquire(g, type=t, ndim=nd, dims=dims)
    call check(t == ARMADA_REAL8 .and. nd == 2 .and. all(dims(1:2) == [8, 3]), 'inquire')
    owner = armada_locate(g, [8, 2])
    call armada_distribution(g, owner, lo, hi)
    call check(lo(1) <= 8 .and. hi(1) >= 8, 'locate: the owner''s block holds the element')
    call armada_locate_region(g, [1, 1], [8, 3], count, ranks, los, his)
    call check(count == min(nproc, 8), 'locate_region: every owner of the whole array')
    call check(all(los(2, 1:min(count, 4)) == 1) .and. all(his(2, 1:min(count, 4)) == 3), 'locate_region: blocks')
    call armada_duplicate(g, d, name='copy')
    call check(armada_valid(d) .and. armada_name(d) == 'copy', 'duplicate')
    call armada_destroy(d)
    call check(.not. armada_valid(d), 'destroy: the handle is no longer valid')
    call armada_destroy(g)
    ! Chunk: blocks of at least 4 columns.
    call armada_create(ARMADA_INT4, [4, 8], g, chunk=[-1, 4])
    call armada_distribution(g, me, lo, hi)
    call check(any(hi < lo) .or. hi(2) - lo(2) + 1 >= 4 .or. hi(2) == 8, 'create with chunk')
    call armada_destroy(g)
    ! Irregular blocks: rows split at 1 and 3 (two blocks), columns one block (on 1 rank: the
    ! map still names the blocks, all on rank 0 is not possible, so only with >= 2 ranks).
    if (nproc >= 2) then
      nblock = [2, 1]
      map = [1, 3, 1]
      call armada_create(ARMADA_REAL8, [5, 4], g, nblock=nblock, map=map)
      call armada_distribution(g, armada_locate(g, [1, 1]), lo, hi)
      call check(all(lo == [1, 1]) .and. all(hi == [2, 4]), 'irregular: first block rows 1-2')
      call armada_distribution(g, armada_locate(g, [5, 4]), lo, hi)
      call check(all(lo == [3, 1]) .and. all(hi == [5, 4]), 'irregular: second block rows 3-5')
      call armada_destroy(g)
    end if
    ! On a group: the first half of the ranks (at least one).
    half = max(1, nproc / 2)
    members(1:half) = [(k, k = 0, half - 1)]
    call armada_group_create(members(1:half), grp)
    call check(armada_group_size(grp) == half, 'group size')
    if (me < half) then
      call check(armada_group_rank(grp) == me, 'group rank')
      call check(armada_group_world_rank(grp, half - 1) == half - 1, 'group world rank')
      call armada_create(ARMADA_REAL8, [4, 4], g, group=grp)
      call armada_fill(g, 3.0d0)
      call check(armada_norm_infinity(g) == 12, 'array on a group: fill and norm among the members')
      call check(armada_group(g) == grp, 'the array''s group')
      call armada_group_sync(grp)
      call armada_destroy(g)
    else
      call check(armada_group_rank(grp) == -1, 'not a member: group rank -1')
    end if
    call armada_sync()
    call armada_group_destroy(grp)
  end subroutine

  subroutine test_collective_ops()
    integer :: a, b, c, idx(2), tr
    real(8) :: x(4, 3), y(4, 3), z(4, 3), s, v, t(3, 4)
    x = reshape(patch_values([1, 1], [4, 3]), [4, 3])
    call armada_create(ARMADA_REAL8, [4, 3], a)
    call armada_duplicate(a, b)
    call armada_duplicate(a, c)
    if (me == 0) call armada_put(a, [1, 1], [4, 3], x)
    call armada_fill(b, 2.0d0)
    call armada_sync()
    call armada_copy(a, c)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z == x), 'copy')
    call armada_scale(c, -1.0d0)
    call armada_abs(c)
    call armada_add_constant(c, 1.0d0)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z == x + 1), 'scale, abs, add_constant')
    call armada_reciprocal(c)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(abs(z - 1 / (x + 1)) < 1d-15), 'reciprocal')
    call armada_add(2.0d0, a, -1.0d0, b, c)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z == 2 * x - 2), 'add: c = 2a - b')
    call armada_elem_multiply(a, b, c)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z == 2 * x), 'elem_multiply')
    call armada_elem_divide(a, b, c)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z == x / 2), 'elem_divide')
    call armada_fill(b, 22.0d0)
    call armada_elem_max(a, b, c)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z == max(x, 22.0d0)), 'elem_max')
    call armada_elem_min(a, b, c)
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z == min(x, 22.0d0)), 'elem_min')
    call armada_dot(a, a, s)
    call check(s == sum(x * x), 'dot')
    call armada_dot(a, b, s, alo=[2, 2], ahi=[3, 3], blo=[1, 1], bhi=[2, 2])
    call check(s == 22 * sum(x(2:3, 2:3)), 'dot on patches')
    call check(armada_norm1(a) == maxval(sum(abs(x), dim=1)), 'norm1: the largest column sum')
    call check(armada_norm_infinity(a) == maxval(sum(abs(x), dim=2)), 'norm_infinity: the largest row sum')
    call armada_select_elem(a, 'max', v, idx)
    call check(v == maxval(x) .and. all(idx == maxloc(x)), 'select_elem max: value and Fortran index')
    call armada_select_elem(a, 'min', v, idx, lo=[2, 2], hi=[4, 3])
    call check(v == x(2, 2) .and. all(idx == [2, 2]), 'select_elem min on a patch')
    call armada_zero(c)
    call armada_fill(c, 5.0d0, lo=[2, 1], hi=[3, 2])
    call armada_scale(c, 2.0d0, lo=[3, 1], hi=[3, 3])
    call armada_get(c, [1, 1], [4, 3], z)
    y = 0
    y(2:3, 1:2) = 5
    y(3, :) = 2 * y(3, :)
    call check(all(z == y), 'fill and scale on patches')
    call armada_zero(c, lo=[1, 1], hi=[4, 3])
    call armada_copy_patch(a, [1, 2], [2, 3], c, [3, 1], [4, 2])
    call armada_get(c, [1, 1], [4, 3], z)
    call check(all(z(3:4, 1:2) == x(1:2, 2:3)) .and. count(z /= 0) == 4, 'copy_patch')
    ! Transposing copy into a 3 x 4 array.
    call armada_create(ARMADA_REAL8, [3, 4], tr)
    call armada_copy_patch(a, [1, 1], [4, 3], tr, [1, 1], [3, 4], transpose=.true.)
    call armada_get(tr, [1, 1], [3, 4], t)
    call check(all(t == transpose(x)), 'copy_patch with transpose')
    call armada_sync()
    call armada_destroy(tr)
    call armada_destroy(a)
    call armada_destroy(b)
    call armada_destroy(c)
  end subroutine

  ! A counter on rank 0 incremented under a mutex: no increment lost.
  subroutine test_mutexes()
    integer, parameter :: rounds = 10
    integer :: set, g, i
    integer(8) :: x(1)
    call armada_mutexes_create(1, set)
    call armada_create(ARMADA_INT8, [1], g)
    call armada_zero(g)
    do i = 1, rounds
      call armada_mutex_lock(set, 0, 0)
      call armada_get(g, [1], [1], x)
      x = x + 1
      call armada_put(g, [1], [1], x)
      call armada_mutex_unlock(set, 0, 0)
    end do
    call armada_sync()
    call armada_get(g, [1], [1], x)
    call check(x(1) == rounds * nproc, 'mutex: no increment lost')
    if (me == 0) then
      call check(armada_mutex_trylock(set, 0, 0), 'trylock of a free mutex')
      call armada_mutex_unlock(set, 0, 0)
    end if
    call armada_sync()
    call armada_destroy(g)
    call armada_mutexes_destroy(set)
  end subroutine

  subroutine test_fortran_collectives()
    integer(4) :: counts(2, 3)
    integer(8) :: big(4)
    real(8) :: biggest(1)
    complex(8) :: z(2)
    real(4) :: cube(2, 2, 2)
    counts = me + 1
    call armada_gop(counts, '+')
    call check(all(counts == nproc * (nproc + 1) / 2), 'gop + on integer(4) (2-D)')
    big = me
    call armada_gop(big, 'max')
    call check(all(big == nproc - 1), 'gop max on integer(8)')
    biggest = -me
    call armada_gop(biggest, 'absmax')
    call check(biggest(1) == nproc - 1, 'gop absmax on real(8)')
    z = cmplx(1, me, 8)
    call armada_gop(z, '+')
    call check(all(z == cmplx(nproc, nproc * (nproc - 1) / 2, 8)), 'gop + on complex(8)')
    cube = me
    call armada_brdcst(cube, nproc - 1)
    call check(all(cube == nproc - 1), 'brdcst of a 3-D real(4) array')
  end subroutine

  subroutine test_errors()
    integer :: g, st, req
    real(8) :: buf(4, 4), big(8, 8)
    real(4) :: single(4, 4)
    character(len=400) :: msg
    character(len=24) :: rank_tag
    call armada_create(ARMADA_REAL8, [4, 4], g)
    write (rank_tag, '(a, i0, a)') '[rank ', me, ']'
    msg = ''
    call armada_get(g, [1, 1, 1], [2, 2, 2], buf, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, "'lo' has 3 entries") > 0, 'a lo with 3 entries for a 2-D array')
    ! Patch errors speak the program's terms: the procedure it called, its own one-based lo/hi in
    ! Fortran order, the array's Fortran declaration, the rank; the first wrong argument wins.
    call armada_get(g, [2, 1], [5, 3], buf, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, '] armada_get: argument ''hi'' = [5, 3]: ') > 0 .and. &
               index(msg, 'hi(1) = 5 is past dims(1) = 4') > 0 .and. index(msg, 'armada_gaf_') == 0 .and. &
               index(msg, '(real(8), dims [4, 4])') > 0 .and. index(msg, trim(rank_tag)) == 1, &
               'a patch past the array: ' // trim(msg))
    call armada_get(g, [0, 1], [2, 2], buf, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'argument ''lo'' = [0, 1]: ') > 0 .and. &
               index(msg, 'lo(1) = 0 is below 1') > 0 .and. index(msg, 'negative') == 0, &
               'lo below 1, as the program passed it: ' // trim(msg))
    call armada_get(g, [1, 0], [9, 2], buf, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'lo(2) = 0 is below 1') > 0, &
               'lo and hi both wrong: lo is named (argument order): ' // trim(msg))
    call armada_get(g, [3, 1], [1, 2], buf, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'hi(1) = 1 is below lo(1) = 3') > 0, &
               'hi below lo - 1: ' // trim(msg))
    call armada_get(g, [1, 1], [4, 4], single, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_TYPE .and. index(msg, 'real(4)') > 0 .and. index(msg, 'real(8)') > 0 .and. &
               index(msg, trim(rank_tag) // ' armada_get: argument ''buf''') == 1 .and. &
               index(msg, 'array ''' // armada_name(g) // '''') > 0, &
               'a real(4) buffer for a real(8) array: ' // trim(msg))
    ! A section with gaps: blocking calls take it through a copy (the compiler's), nonblocking
    ! ones refuse it (the copy would be gone before the data arrives).
    call armada_fill(g, 4.5d0)
    big = 0
    call armada_get(g, [1, 1], [4, 4], big(1:8:2, 1:4), stat=st, errmsg=msg)
    call check(st == ARMADA_OK .and. all(big(1:8:2, 1:4) == 4.5d0) .and. all(big(2:8:2, :) == 0), &
               'blocking get into a section with gaps')
    call armada_nbget(g, [1, 1], [4, 4], big(1:8:2, 1:4), req, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'contiguous') > 0, 'nbget into a section with gaps: ' // trim(msg))
    call armada_get(g, [1, 1], [4, 4], big(1:8, 1:1), stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'has 8 elements, the operation needs 16') > 0, &
               'a buffer too small: ' // trim(msg))
    call armada_get(12345, [1, 1], [4, 4], buf, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_HANDLE, 'an unknown array handle: ' // trim(msg))
    call armada_nbwait(987654, stat=st, errmsg=msg)
    ! armada_nbwait and armada_fence are generated forwarders (module armada_forwarders): the
    ! message names them as the program called them.
    call check(st == ARMADA_ERR_HANDLE .and. index(msg, '987654') > 0 .and. index(msg, 'armada_nbwait') > 0 .and. &
               index(msg, 'armada_ga_') == 0, 'an unknown request: ' // trim(msg))
    call armada_put(g, [1, 1], [4, 4], buf, ld=[2], stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'ld(1) = 2 is less than the patch''s extent 4 in dimension 1') > 0, &
               'ld smaller than the patch: ' // trim(msg))
    call armada_fill(g, 1.0d0, lo=[1, 1], stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'both bounds') > 0, 'a patch with lo but no hi')
    call armada_fence(nproc, stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'rank') > 0 .and. index(msg, 'armada_fence') > 0 .and. &
               index(msg, 'armada_ga_') == 0, 'fence to a rank past the world: ' // trim(msg))
    call armada_gop(buf, 'sum of squares', stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_ARG .and. index(msg, 'sum of squares') > 0, 'gop with an unknown op')
    call armada_init(stat=st, errmsg=msg)
    call check(st == ARMADA_ERR_STATE, 'armada_init twice: ' // trim(msg))
    call armada_nbget(g, [1, 1], [4, 4], buf, req, stat=st)
    call check(st == ARMADA_OK, 'nbget after the errors: the array still works')
    call armada_nbwait(req)
    st = -1
    call armada_sync(stat=st)
    call check(st == ARMADA_OK, 'stat = ARMADA_OK on success')
    call armada_destroy(g)
  end subroutine

end program test_fortran_arrays
