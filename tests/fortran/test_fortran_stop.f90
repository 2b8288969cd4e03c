! Without stat, an error stops the program with Armada's message (the test expects the failure
! and the message: a bad patch on the last rank).
program test_fortran_stop
  use armada
  implicit none
  integer :: g
  real(8) :: buf(2, 3)
  call armada_init()
  call armada_create(ARMADA_REAL8, [4, 4], g)
  if (armada_rank() == armada_size() - 1) call armada_get(g, [3, 3], [4, 5], buf)
  call armada_finalize()
end program test_fortran_stop
