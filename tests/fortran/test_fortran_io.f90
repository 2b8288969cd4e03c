! Module armada's parallel HDF5 I/O: save, load (new array, existing array, a patch), checkpoint
! and restart, and an error through stat/errmsg, against value_of (checks.f90) element by element.
program test_fortran_io
  use armada
  use checks
  implicit none
  integer, parameter :: n1 = 6, n2 = 5
  character(len=64) :: file, prefix

  call armada_init()
  me = armada_rank()
  nproc = armada_size()
  write (file, '(a,i0,a)') 'fortran_io_np', nproc, '.h5'
  write (prefix, '(a,i0)') 'fortran_ck_np', nproc

  ! Files of an earlier run would be found by restart.
  call remove(trim(file))
  call remove(trim(prefix) // '.1.h5')
  call remove(trim(prefix) // '.2.h5')
  call armada_sync()

  call test_save_load()
  call test_checkpoint()
  call test_errors()
  call armada_sync()
  call remove(trim(file))
  call remove(trim(prefix) // '.2.h5')

  call finish_test('test_fortran_io')

contains

  subroutine remove(name)
    character(len=*), intent(in) :: name
    integer :: unit, ios
    if (me /= 0) return
    open (newunit=unit, file=name, status='old', iostat=ios)
    if (ios == 0) close (unit, status='delete')
  end subroutine

  ! Fills g (extents n1 x n2) with value_of + salt, from rank 0.
  subroutine fill(g, salt)
    integer, intent(in) :: g
    real(8), intent(in) :: salt
    real(8) :: v(n1, n2)
    integer :: i, j
    do j = 1, n2
      do i = 1, n1
        v(i, j) = value_of([i, j]) + salt
      end do
    end do
    if (me == 0) call armada_put(g, [1, 1], [n1, n2], v)
    call armada_sync()
  end subroutine

  ! g's patch [lo, hi] holds value_of of the file's index (offset by `origin` - 1) + salt.
  subroutine expect_values(g, lo, hi, origin, salt, what)
    integer, intent(in) :: g, lo(2), hi(2), origin(2)
    real(8), intent(in) :: salt
    character(len=*), intent(in) :: what
    real(8), allocatable :: v(:, :)
    integer :: i, j, bad
    allocate (v(hi(1) - lo(1) + 1, hi(2) - lo(2) + 1))
    call armada_get(g, lo, hi, v)
    bad = 0
    do j = 1, size(v, 2)
      do i = 1, size(v, 1)
        if (v(i, j) /= value_of([i + origin(1) - 1, j + origin(2) - 1]) + salt) bad = bad + 1
      end do
    end do
    call check(bad == 0, what)
  end subroutine

  subroutine test_save_load()
    integer :: a, b, c, stat
    call armada_create(ARMADA_REAL8, [n1, n2], a, name='field', ghosts=[1, 1])
    call fill(a, 0.0d0)
    call armada_save(trim(file), [a], stat=stat)
    call check(stat == 0, 'armada_save')
    call armada_load(trim(file), 'field', b, stat=stat)
    call check(stat == 0, 'armada_load')
    call expect_values(b, [1, 1], [n1, n2], [1, 1], 0.0d0, 'armada_load: values')
    call armada_zero(b)
    call armada_load_into(trim(file), 'field', b, stat=stat)
    call check(stat == 0, 'armada_load_into')
    call expect_values(b, [1, 1], [n1, n2], [1, 1], 0.0d0, 'armada_load_into: values')
    ! The patch (2:4, 3:5) of the file into a 3 x 3 array.
    call armada_create(ARMADA_REAL8, [3, 3], c, name='patch')
    call armada_load_patch(trim(file), 'field', [2, 3], [4, 5], c, stat=stat)
    call check(stat == 0, 'armada_load_patch')
    call expect_values(c, [1, 1], [3, 3], [2, 3], 0.0d0, 'armada_load_patch: values')
    ! Rewritten in place (the file holds exactly 'field'): the new values are read back.
    call fill(a, 50.0d0)
    call armada_save(trim(file), [a], stat=stat, in_place=.true.)
    call check(stat == 0, 'armada_save in_place')
    call armada_load_into(trim(file), 'field', b, stat=stat)
    call expect_values(b, [1, 1], [n1, n2], [1, 1], 50.0d0, 'armada_save in_place: values')
    call armada_destroy(a)
    call armada_destroy(b)
    call armada_destroy(c)
  end subroutine

  subroutine test_checkpoint()
    integer :: a, step, stat
    call armada_create(ARMADA_REAL8, [n1, n2], a, name='state')
    call armada_restart(trim(prefix), [a], step, stat=stat)
    call check(stat == 0 .and. step == -1, 'armada_restart without a checkpoint: step -1')
    call fill(a, 100.0d0)
    call armada_checkpoint(trim(prefix), 1, [a], stat=stat)
    call check(stat == 0, 'armada_checkpoint 1')
    call fill(a, 200.0d0)
    call armada_checkpoint(trim(prefix), 2, [a], keep=1, stat=stat)
    call check(stat == 0, 'armada_checkpoint 2')
    call armada_zero(a)
    call armada_restart(trim(prefix), [a], step, stat=stat)
    call check(stat == 0 .and. step == 2, 'armada_restart finds step 2')
    call expect_values(a, [1, 1], [n1, n2], [1, 1], 200.0d0, 'armada_restart: values of step 2')
    call armada_destroy(a)
  end subroutine

  subroutine test_errors()
    integer :: g, stat
    character(len=300) :: msg
    msg = ''
    call armada_load('no_such_file.h5', 'field', g, stat=stat, errmsg=msg)
    call check(stat /= 0, 'armada_load of a missing file fails')
    call check(index(msg, 'no_such_file.h5') > 0, 'the message names the file: ' // trim(msg))
  end subroutine

end program test_fortran_io
