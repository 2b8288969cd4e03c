! MA from Fortran (mafdecls.fh) on the same allocator as C's (fortran_ma_c.c): a block of
! MT_F_DBL pushed from C is read through dbl_mb(index) with ma_get_index's index, and one pushed
! from Fortran is read from C at C's index + 1; ma_inquire_* report ma_init's sizes; the stack is
! chopped; the iterator, ma_free_heap_piece, ma_verify_allocator_stuff, ma_set_numalign, and the
! reports ma_summarize_allocated_blocks, ma_trace and ma_print_stats (their output is checked by
! the test's regex). MA is per process: every rank does the same on its own. And a reshaping
! GA_Copy of F_INT arrays from C, whose element size is not MA's MT_F_INT size in the 4-byte build.
program fortran_ma
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: nstack = 5000, nheap = 7000
  integer(4) :: ierr
  integer :: failures, h, hc, hi, idx, idx2, k, it, n, a, b, c
  logical :: ok
  double precision, external :: c_sum
  integer, external :: c_index, c_sizeof_fint, c_reshape_fint
  external c_push_fdbl, c_alloc_fint

  call mpi_init(ierr)
  call ga_initialize()
  failures = 0
  if (.not. ma_init(MT_DBL, nstack, nheap)) call check_fail(failures, 'ma_init')
  if (ma_inquire_stack(MT_DBL) /= nstack) call check_fail(failures, 'ma_inquire_stack = ma_init''s stack')
  if (ma_inquire_heap(MT_DBL) /= nheap) call check_fail(failures, 'ma_inquire_heap = ma_init''s heap')
  if (ma_inquire_avail(MT_DBL) < nstack + nheap) call check_fail(failures, 'ma_inquire_avail >= stack + heap')
  if (ma_inquire_avail(MT_DBL) > nstack + nheap + ma_sizeof_overhead(MT_DBL)) &
    call check_fail(failures, 'ma_inquire_avail <= stack + heap + one overhead')

  ! A block C pushed, reached through dbl_mb at Fortran's index.
  hc = -1
  call c_push_fdbl(100, hc)
  if (.not. ma_get_index(hc, idx)) call check_fail(failures, 'ma_get_index of a C block')
  do k = 1, 100
    if (dbl_mb(idx + k - 1) /= k - 1 + 0.25d0) call check_fail(failures, 'dbl_mb of the block C pushed')
  end do
  if (c_index(hc) /= idx) call check_fail(failures, 'C index + 1 = Fortran index (C block)')
  ! And the reverse: a block Fortran pushed, read from C.
  if (.not. ma_push_get(MT_DBL, 50, 'from Fortran', h, idx2)) call check_fail(failures, 'ma_push_get')
  do k = 1, 50
    dbl_mb(idx2 + k - 1) = 2 * k
  end do
  if (c_sum(h, 50) /= 2550d0) call check_fail(failures, 'C reads the block Fortran pushed')
  if (c_index(h) /= idx2) call check_fail(failures, 'C index + 1 = Fortran index (Fortran block)')
  if (.not. ma_get_index(h, k) .or. k /= idx2) call check_fail(failures, 'ma_get_index = ma_push_get''s index')
  ! MT_F_INT from C has the size of this program's INTEGER, reached through int_mb.
  if (c_sizeof_fint() /= bit_size(k) / 8) call check_fail(failures, 'MT_F_INT is a default INTEGER')
  hi = -1
  call c_alloc_fint(20, hi)
  if (.not. ma_get_index(hi, idx)) call check_fail(failures, 'ma_get_index of a C heap block')
  do k = 1, 20
    if (int_mb(idx + k - 1) /= 3 * (k - 1)) call check_fail(failures, 'int_mb of the block C allocated')
  end do

  ! Chopping C's block pops it and Fortran's above it: the stack is whole again.
  if (.not. ma_chop_stack(hc)) call check_fail(failures, 'ma_chop_stack')
  if (ma_inquire_stack(MT_DBL) /= nstack) call check_fail(failures, 'ma_inquire_stack after the chop')
  ! The iterator: only C's heap block is left.
  n = 0
  if (.not. ma_init_memhandle_iterator(it)) call check_fail(failures, 'ma_init_memhandle_iterator')
  do while (ma_get_next_memhandle(it, k))
    n = n + 1
    if (k /= hi) call check_fail(failures, 'the iterator gave a block not live')
  end do
  if (n /= 1) call check_fail(failures, 'the iterator gave one block')

  ok = ma_push_stack(MT_INT, 10, 'stack ints', a)
  if (.not. ok) call check_fail(failures, 'ma_push_stack')
  ok = ma_allocate_heap(MT_DBL, 10, 'heap doubles', b)
  if (.not. ok) call check_fail(failures, 'ma_allocate_heap')
  if (.not. ma_free_heap_piece(b, 5)) call check_fail(failures, 'ma_free_heap_piece')
  if (.not. ma_verify_allocator_stuff()) call check_fail(failures, 'ma_verify_allocator_stuff')
  call ma_summarize_allocated_blocks()
  call ma_trace(.true.)
  ok = ma_push_get(MT_DBL, 3, 'traced', c, idx)
  ok = ma_pop_stack(c)
  call ma_trace(.false.)
  call ma_print_stats(.true.)

  ! A push beyond the room is refused with .false.
  ok = ma_set_error_print(.false.)
  if (ma_push_get(MT_DBL, ma_inquire_avail(MT_DBL) + 1, 'too big', c, idx)) &
    call check_fail(failures, 'a push beyond ma_inquire_avail returned .true.')
  ok = ma_set_error_print(.true.)
  if (.not. ma_set_numalign(5)) call check_fail(failures, 'ma_set_numalign(5)')
  if (.not. ma_get_numalign(n) .or. n /= 5) call check_fail(failures, 'ma_get_numalign')
  ok = ma_set_numalign(0)
  if (ma_sizeof_overhead(MT_DBL) <= 0) call check_fail(failures, 'ma_sizeof_overhead')

  if (.not. (ma_pop_stack(a) .and. ma_free_heap(b) .and. ma_free_heap(hi))) call check_fail(failures, 'frees')
  if (ma_inquire_heap(MT_DBL) /= nheap) call check_fail(failures, 'ma_inquire_heap after the frees')
  ! GA_Copy between shapes of F_INT arrays from C moves whole 8-byte elements (collective).
  if (c_reshape_fint() /= 1) call check_fail(failures, 'GA_Copy of reshaped F_INT arrays')
  call check_finish('fortran_ma', failures, '')
end program fortran_ma
