! Heat equation (Jacobi iterations) on a distributed 2-D grid with ghost cells, in Fortran.
!
! The grid T(n, n) holds fixed boundary values (top edge 1, left edge 2, the rest 0); each
! iteration replaces every interior point by the mean of its four neighbours. Each rank works
! on its own block through a pointer with ghost cells (armada_access, no copy) after
! armada_update_ghosts has filled them from the neighbouring blocks. Rank 0 then repeats the
! same iterations on a plain Fortran array and compares: the program exits nonzero if any point
! differs.
!   mpiexec -n 4 ./example_heat_f [n] [iterations]
program heat
  use armada
  implicit none
  integer :: n = 40, iterations = 200
  integer :: g, lo(2), hi(2), it, me, st
  real(8), pointer :: t(:, :)
  real(8), allocatable :: next(:, :), result(:, :), serial(:, :)
  real(8) :: worst
  character(len=32) :: arg

  call armada_init()
  me = armada_rank()
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *, iostat=st) n
    if (st /= 0 .or. n < 3) call bad_input('n', arg)
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *, iostat=st) iterations
    if (st /= 0 .or. iterations < 0) call bad_input('iterations', arg)
  end if

  call armada_create(ARMADA_REAL8, [n, n], g, name='temperature', ghosts=[1, 1])
  call armada_zero(g)
  if (me == 0) then
    call armada_put(g, [1, 1], [1, n], spread(1.0d0, 1, n))  ! top edge (row 1)
    call armada_put(g, [2, 1], [n, 1], spread(2.0d0, 1, n - 1))  ! left edge (column 1)
  end if
  call armada_sync()

  call armada_distribution(g, me, lo, hi)
  do it = 1, iterations
    call armada_update_ghosts(g)  ! neighbours' edge values into this block's ghost cells
    call armada_access(g, t, ghosts=.true.)  ! bounds lo-1 .. hi+1: global indices
    if (associated(t)) then
      call jacobi_step(t, lbound(t), lo, hi, n, next)
      t(lo(1):hi(1), lo(2):hi(2)) = next
    end if
    call armada_release(g, update=.true.)
  end do
  call armada_sync()

  allocate (result(n, n))
  call armada_get(g, [1, 1], [n, n], result)
  worst = 0
  if (me == 0) then
    allocate (serial(n, n))
    serial = 0
    serial(1, :) = 1
    serial(2:n, 1) = 2
    do it = 1, iterations
      call jacobi_step(serial, [1, 1], [1, 1], [n, n], n, next)
      serial = next
    end do
    worst = maxval(abs(result - serial))
    write (*, '(a,i0,a,i0,a,i0,a,es10.3,a,f8.5)') 'heat: ', n, ' x ', n, ', ', iterations, &
      ' iterations, largest difference from the serial run ', worst, ', centre ', result(n / 2, n / 2)
  end if
  call armada_brdcst(worst, 0)
  call armada_finalize()
  if (worst > 1d-12) error stop 'heat: the distributed result differs from the serial one'

contains

  ! next = one Jacobi step of the points [lo, hi] of u, whose first element is point ulo
  ! (boundary points of the n x n grid keep their value); u holds the points around [lo, hi].
  subroutine jacobi_step(u, ulo, lo, hi, n, next)
    integer, intent(in) :: ulo(2), lo(2), hi(2), n
    real(8), intent(in) :: u(ulo(1):, ulo(2):)
    real(8), allocatable, intent(inout) :: next(:, :)
    integer :: i, j
    if (allocated(next)) deallocate (next)
    allocate (next(lo(1):hi(1), lo(2):hi(2)))
    do j = lo(2), hi(2)
      do i = lo(1), hi(1)
        if (i == 1 .or. j == 1 .or. i == n .or. j == n) then
          next(i, j) = u(i, j)
        else
          next(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
        end if
      end do
    end do
  end subroutine

  subroutine bad_input(what, value)
    character(len=*), intent(in) :: what, value
    write (*, '(5a)') 'heat: bad ', what, ' "', trim(value), '" (usage: example_heat_f [n >= 3] [iterations >= 0])'
    call armada_finalize()
    stop 2
  end subroutine

end program heat
