! A GA-style Fortran program: the product C = A B of two distributed matrices computed block by
! block by a task pool. A shared counter (nga_read_inc) hands out the blocks of C; the taker gets
! A's block row and B's block column (ga_get into MA stack memory, dbl_mb), multiplies locally
! and puts the block (ga_put). Checked against ga_dgemm (D = A B, then D - C with ga_add and
! ga_ddot) and against the serial product of the formulas. Exit code 0 only if every check passed.
program fortran_task_pool
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n = 40, k = 24, bs = 7
  integer :: me, np, g_a, g_b, g_c, g_d, counter, nb, task, ib, jb, ilo, ihi, jlo, jhi, mine
  integer :: ha, ia, hb, ib_, i, j, failures, done
  double precision :: a(n, k), b(k, n), ref(n, n), got(n, n), diff
  character(80) :: summary
  logical :: ok

  call check_start(failures)
  ok = ma_init(MT_DBL, 2 * bs * k + 100, 100)
  me = ga_nodeid()
  np = ga_nnodes()
  do j = 1, k
    do i = 1, n
      a(i, j) = dble(mod(i * 7 + j * 3, 11)) - 5.0d0
      b(j, i) = dble(mod(i + 2 * j, 5)) * 0.25d0
    end do
  end do
  ref = matmul(a, b)

  ok = ga_create(MT_DBL, n, k, 'A', -1, -1, g_a) .and. ga_create(MT_DBL, k, n, 'B', -1, -1, g_b)
  ok = ok .and. ga_create(MT_DBL, n, n, 'C', -1, -1, g_c) .and. ga_duplicate(g_c, g_d, 'D')
  ok = ok .and. nga_create(MT_INT, 1, (/ 1 /), 'counter', (/ -1 /), counter)
  if (.not. ok) call ga_error('fortran_task_pool: creation failed', 1)
  call put_whole(g_a, n, k, a)
  call put_whole(g_b, k, n, b)
  call ga_zero(g_c)
  call ga_zero(counter)
  call ga_sync()

  nb = (n + bs - 1) / bs
  mine = 0
  ok = ma_push_get(MT_DBL, bs * k, 'A rows', ha, ia) .and. ma_push_get(MT_DBL, k * bs, 'B cols', hb, ib_)
  do
    task = nga_read_inc(counter, (/ 1 /), 1)
    if (task >= nb * nb) exit
    ib = mod(task, nb)
    jb = task / nb
    ilo = ib * bs + 1
    ihi = min(n, ilo + bs - 1)
    jlo = jb * bs + 1
    jhi = min(n, jlo + bs - 1)
    call ga_get(g_a, ilo, ihi, 1, k, dbl_mb(ia), bs)
    call ga_get(g_b, 1, k, jlo, jhi, dbl_mb(ib_), k)
    call multiply(dbl_mb(ia), dbl_mb(ib_), ihi - ilo + 1, jhi - jlo + 1)
    mine = mine + 1
  end do
  ok = ma_pop_stack(hb) .and. ma_pop_stack(ha)
  if (.not. ok) call ga_error('fortran_task_pool: ma_pop_stack failed', 2)
  done = mine
  call ga_igop(1, done, 1, '+')
  if (done /= nb * nb) failures = failures + 1
  call ga_sync()

  call ga_get(g_c, 1, n, 1, n, got, n)
  if (any(abs(got - ref) > 1.0d-12 * maxval(abs(ref)))) then
    failures = failures + 1
    print *, 'rank', me, ': task-pool product differs from the serial one'
  end if
  call ga_dgemm('n', 'n', n, n, k, 1.0d0, g_a, g_b, 0.0d0, g_d)
  call ga_add(1.0d0, g_d, -1.0d0, g_c, g_d)
  diff = ga_ddot(g_d, g_d)
  if (diff > 1.0d-20 * sum(ref * ref)) then
    failures = failures + 1
    print *, 'rank', me, ': ga_dgemm and the task pool differ: |D - C|^2 =', diff
  end if

  ok = ga_destroy(counter) .and. ga_destroy(g_d) .and. ga_destroy(g_c) .and. ga_destroy(g_b) .and. ga_destroy(g_a)
  write (summary, '(a, i0, a, i0, a)') ' (', nb * nb, ' tasks on ', np, ' ranks)'
  call check_finish('fortran_task_pool', failures, trim(summary))

contains

  ! C(ilo:ihi, jlo:jhi) = rows(1:mr, :) cols(:, 1:nc): the block of this task.
  subroutine multiply(rows, cols, mr, nc)
    integer, intent(in) :: mr, nc
    double precision, intent(in) :: rows(bs, *), cols(k, *)
    double precision :: block(bs, bs)
    block(1:mr, 1:nc) = matmul(rows(1:mr, 1:k), cols(1:k, 1:nc))
    call ga_put(g_c, ilo, ihi, jlo, jhi, block, bs)
  end subroutine multiply

end program fortran_task_pool
