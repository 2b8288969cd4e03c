! A Global Arrays program in the classic style, written with module armada: an n x n matrix is
! filled block column by block column, the blocks handed out by a shared task counter
! (read_inc); every rank then reads a patch back, accumulates into the whole matrix, and the
! dot product of the result with itself is checked against the closed form. Exits nonzero if
! any check fails.
!   mpiexec -n 4 ./example_ga_classic_f
program ga_classic
  use armada
  implicit none
  integer, parameter :: n = 60, block = 7
  integer :: a, counter, me, nproc, task, ntasks, mine, first, last, i, j, failures
  integer(8) :: next
  real(8), allocatable :: columns(:, :)
  real(8) :: patch(10, 5), dot, expected
  integer :: done(1)

  call armada_init()
  me = armada_rank()
  nproc = armada_size()
  call armada_create(ARMADA_REAL8, [n, n], a, name='A')
  call armada_create(ARMADA_INT8, [1], counter, name='task counter')
  call armada_zero(counter)
  failures = 0

  ! Fill: task k is block column k (columns (k-1)*block+1 .. k*block).
  ntasks = (n + block - 1) / block
  mine = 0
  do
    next = armada_read_inc(counter, [1])  ! NGA_Read_inc(counter, 1, 1)
    task = int(next) + 1
    if (task > ntasks) exit
    first = (task - 1) * block + 1
    last = min(n, task * block)
    allocate (columns(n, first:last))
    do j = first, last
      do i = 1, n
        columns(i, j) = element(i, j)
      end do
    end do
    call armada_put(a, [1, first], [n, last], columns)  ! NGA_Put
    deallocate (columns)
    mine = mine + 1
  end do
  done = mine
  call armada_gop(done, '+')  ! GA_Igop
  if (done(1) /= ntasks) call fail('every task done exactly once')
  call armada_sync()  ! GA_Sync

  ! Get: a 10 x 5 patch that differs per rank.
  first = 1 + mod(7 * me, n - 9)
  call armada_get(a, [first, 3], [first + 9, 7], patch)  ! NGA_Get
  do j = 1, 5
    do i = 1, 10
      if (patch(i, j) /= element(first + i - 1, j + 2)) call fail('get: a patch of A')
    end do
  end do
  call armada_sync()

  ! Acc: every rank adds 1 to the whole matrix (alpha = 1).
  allocate (columns(n, n))
  columns = 1
  call armada_acc(a, [1, 1], [n, n], columns, 1.0d0)  ! NGA_Acc
  call armada_sync()

  ! Dot: sum over (i, j) of (element(i, j) + nproc)^2.
  call armada_dot(a, a, dot)  ! GA_Ddot
  expected = 0
  do j = 1, n
    do i = 1, n
      expected = expected + (element(i, j) + nproc)**2
    end do
  end do
  if (abs(dot - expected) > 1d-9 * expected) call fail('dot')
  if (me == 0) write (*, '(a,i0,a,i0,a,es16.9,a,es16.9)') 'ga_classic: ', ntasks, ' tasks on ', nproc, &
    ' ranks, dot = ', dot, ', expected ', expected

  done = failures
  call armada_gop(done, '+')
  call armada_destroy(counter)
  call armada_destroy(a)
  call armada_finalize()
  if (done(1) > 0) error stop 'ga_classic: wrong results'

contains

  pure real(8) function element(i, j)
    integer, intent(in) :: i, j
    element = i + 0.001d0 * j
  end function

  subroutine fail(what)
    character(len=*), intent(in) :: what
    failures = failures + 1
    if (failures <= 10) write (*, '(a,i0,2a)') '[rank ', me, '] FAILED: ', what
  end subroutine

end program ga_classic
