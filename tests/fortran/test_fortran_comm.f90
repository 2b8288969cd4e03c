! A program that starts MPI itself (mpi_f08) and hands Armada a communicator: its own duplicate
! of MPI_COMM_WORLD, as a library inside a bigger MPI code would. Armada's world is then that
! communicator; MPI keeps running after armada_finalize and the program finalizes it.
program test_fortran_comm
  use mpi_f08
  use armada
  implicit none
  type(MPI_Comm) :: comm
  integer :: mpi_rank, mpi_size, g, failures, total, st, provided
  integer :: values(2)
  logical :: finalized
  character(len=300) :: msg

  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided)  ! the server transport's helper thread calls MPI
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_rank(comm, mpi_rank)
  call MPI_Comm_size(comm, mpi_size)
  failures = 0

  call armada_init(comm=comm%MPI_VAL)
  if (armada_rank() /= mpi_rank .or. armada_size() /= mpi_size) call fail('rank and size are the communicator''s')
  call armada_init(comm=comm%MPI_VAL, stat=st, errmsg=msg)
  if (st /= ARMADA_ERR_STATE) call fail('a second armada_init: ARMADA_ERR_STATE')

  call armada_create(ARMADA_INT4, [2, mpi_size], g)
  call armada_put(g, [1, mpi_rank + 1], [2, mpi_rank + 1], [mpi_rank, 10 * mpi_rank])
  call armada_sync()
  call armada_get(g, [1, mpi_size - mpi_rank], [2, mpi_size - mpi_rank], values)
  if (any(values /= [mpi_size - 1 - mpi_rank, 10 * (mpi_size - 1 - mpi_rank)])) call fail('put/get on the communicator')
  call armada_finalize()

  call MPI_Finalized(finalized)
  if (finalized) call fail('MPI was finalized by armada_finalize')
  call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, comm)
  call MPI_Comm_free(comm)
  if (mpi_rank == 0) write (*, '(a,i0,a)') 'test_fortran_comm: ', total, ' failures'
  call MPI_Finalize()
  if (total > 0) error stop 1

contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    failures = failures + 1
    write (*, '(a,i0,2a)') '[rank ', mpi_rank, '] FAILED: ', what
  end subroutine
end program test_fortran_comm
