! What the Fortran test programs share: counting checks and failures, and ending the run with a
! nonzero exit code on every rank when any rank saw a failure.
module checks
  use armada
  implicit none
  private
  public :: check, finish_test, me, nproc, value_of

  integer :: failures = 0, checks_done = 0
  integer :: me = -1, nproc = 0

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    checks_done = checks_done + 1
    if (ok) return
    failures = failures + 1
    if (failures <= 30) write (*, '(a,i0,2a)') '[rank ', me, '] FAILED: ', what
  end subroutine

  ! The value the tests store at Fortran index idx: i1 + 10 i2 + 100 i3 + ... (c_view.c agrees).
  pure real(8) function value_of(idx)
    integer, intent(in) :: idx(:)
    integer :: d
    value_of = 0
    do d = 1, size(idx)
      value_of = value_of + idx(d) * 10.0d0**(d - 1)
    end do
  end function

  ! Sums failures over the ranks, finalizes, and stops with code 1 if any rank failed.
  subroutine finish_test(name)
    character(len=*), intent(in) :: name
    integer :: total(2)
    total = [failures, checks_done]
    call armada_gop(total, '+')
    if (me == 0) write (*, '(a,a,i0,a,i0,a,i0,a)') name, ': ', total(2) - total(1), ' of ', total(2), &
      ' checks passed on ', nproc, ' ranks'
    call armada_finalize()
    if (total(1) > 0) error stop 1
    if (total(2) == 0) error stop 'no check ran'
  end subroutine

end module checks
