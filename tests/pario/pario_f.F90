! GA's parallel I/O from Fortran (eaf.fh, dra.fh, sf.fh), built for 4- and 8-byte INTEGER and run
! at 1, 2 and 4 processes: EAF (synchronous and asynchronous transfers, probe/wait, length,
! truncate, end of file by code and text, a bad fd, a non-integer offset, a read-only file, stat,
! delete), DRA (dra_create/dra_write/dra_read of a 2-d array, inquire, sections, a transposed
! section, the n-d forms on a 3-d INTEGER array, errors) and SF (every process writes its block
! and reads its neighbour's), and the headers in a fixed-form source (pario_fixed.F). Rank 0 prints "pario_f: passed" when every check held everywhere.
program pario_f
  implicit none
#include "mafdecls.fh"
#include "global.fh"
#include "eaf.fh"
#include "dra.fh"
#include "sf.fh"
  integer(4) :: ierr
  integer :: me, np, failures, tag
  character(256) :: dir

  call mpi_init(ierr)
  call ga_initialize()
  me = ga_nodeid()
  np = ga_nnodes()
  failures = 0
  ! Names unique to this launch: rank 0's process id, known to all.
  tag = 0
  if (me == 0) tag = getpid()
  call ga_igop(1, tag, 1, '+')
  call get_environment_variable('TMPDIR', dir)
  if (len_trim(dir) == 0) dir = '/tmp'

  if (eaf_util_szint() /= storage_size(me) / 8) call fail('eaf_util_szint is not the INTEGER size')
  call fixed_form()
  call eaf_checks()
  call dra_checks()
  call sf_checks()

  call ga_igop(2, failures, 1, '+')
  if (me == 0) then
    if (failures == 0) print '(a)', 'pario_f: passed'
    if (failures /= 0) print '(a, i0, a)', 'pario_f: ', failures, ' check(s) failed'
  end if
  call ga_terminate()
  call mpi_finalize(ierr)
  if (failures /= 0) stop 1

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    failures = failures + 1
    print '(a, i0, a, a)', 'rank ', me, ': check failed: ', what
  end subroutine fail

  function name(stem, private)
    character(*), intent(in) :: stem
    logical, intent(in) :: private
    character(300) :: name
    if (private) then
      write (name, '(a, a, a, i0, a, i0, a, i0)') trim(dir), '/', stem, tag, '.r', me, '.i', storage_size(me) / 8
    else
      write (name, '(a, a, a, i0, a, i0)') trim(dir), '/', stem, tag, '.i', storage_size(me) / 8
    end if
  end function name

  ! The headers in a fixed-form source (pario_fixed.F).
  subroutine fixed_form()
    integer :: bad
    bad = 0
    call pario_fixed_checks(name('armada-pario-f-fixed', .true.), bad)
    if (bad /= 0) call fail('the fixed-form source (pario_fixed.F)')
  end subroutine fixed_form

  subroutine eaf_checks()
    integer, parameter :: n = 1000
    double precision :: a(n), b(n), len
    integer :: fd, id, status, rc, avail, i
    character(80) :: msg
    character(16) :: fstype
    character(300) :: fname
    fname = name('armada-pario-f-eaf', .true.)
    do i = 1, n
      a(i) = me * 1d4 + i
    end do
    if (eaf_open(fname, eaf_rw, fd) /= 0) call fail('eaf_open eaf_rw')
    if (eaf_write(fd, 0d0, a, 8 * n) /= 0) call fail('eaf_write')
    b = 0
    if (eaf_read(fd, 0d0, b, 8 * n) /= 0) call fail('eaf_read')
    if (any(a /= b)) call fail('eaf_read back')
    if (eaf_awrite(fd, 8d0 * n, a, 8 * n, id) /= 0) call fail('eaf_awrite')
    if (eaf_wait(fd, id) /= 0) call fail('eaf_wait of the write')
    b = 0
    if (eaf_aread(fd, 8d0 * n, b, 8 * n, id) /= 0) call fail('eaf_aread')
    status = 1
    do while (status /= 0)
      if (eaf_probe(id, status) /= 0) then
        call fail('eaf_probe')
        exit
      end if
    end do
    if (eaf_wait(fd, id) /= 0) call fail('eaf_wait of the read')
    if (any(a /= b)) call fail('eaf_aread gave what eaf_awrite wrote')
    if (eaf_length(fd, len) /= 0) call fail('eaf_length')
    if (len /= 16d0 * n) call fail('eaf_length value')
    if (eaf_truncate(fd, 8d0 * n) /= 0) call fail('eaf_truncate')
    if (eaf_length(fd, len) /= 0) call fail('eaf_length after eaf_truncate')
    if (len /= 8d0 * n) call fail('eaf_length value after eaf_truncate')
    rc = eaf_read(fd, 8d0 * n - 8, b, 16)
    if (.not. eaf_eof(rc) .or. eaf_eof(0)) call fail('eaf_eof of a read past the end')
    call eaf_errmsg(rc, msg)
    if (msg /= 'end of file') call fail('eaf_errmsg of end of file: '//trim(msg))
    rc = eaf_write(fd + 99, 0d0, a, 8)
    call eaf_errmsg(rc, msg)
    if (rc == 0 .or. msg /= 'invalid file descriptor') call fail('eaf_write to a bad fd: '//trim(msg))
    if (eaf_read(fd, 1.5d0, b, 8) == 0) call fail('eaf_read at offset 1.5')
    if (eaf_stat(fname, avail, fstype) /= 0) call fail('eaf_stat')
    if (avail <= 0 .or. fstype /= 'UFS') call fail('eaf_stat values')
    if (eaf_close(fd) /= 0) call fail('eaf_close')
    if (eaf_close(fd) == 0) call fail('eaf_close twice')
    if (eaf_open(fname, eaf_r, fd) /= 0) call fail('eaf_open eaf_r')
    if (eaf_write(fd, 0d0, a, 8) == 0) call fail('eaf_write to a read-only file')
    if (eaf_read(fd, 0d0, b, 8) /= 0) call fail('eaf_read of a read-only file')
    if (b(1) /= a(1)) call fail('eaf_read of a read-only file: value')
    if (eaf_close(fd) /= 0) call fail('eaf_close')
    if (eaf_delete(fname) /= 0) call fail('eaf_delete')
    if (eaf_open(fname, eaf_r, fd) == 0) call fail('eaf_open eaf_r of a deleted file')
  end subroutine eaf_checks

  subroutine dra_checks()
    integer, parameter :: m = 13, n = 9
    double precision :: a(m, n), b(m, n)
    integer :: g_a, g_b, d_a, d_t, req, status, type, d1, d2, i, j
    character(80) :: label
    character(300) :: fname, tname, got
    fname = name('armada-pario-f-a.dra', .false.)
    tname = name('armada-pario-f-t.dra', .false.)
    do j = 1, n
      do i = 1, m
        a(i, j) = 1000 * i + j
      end do
    end do
    if (dra_init(-1, -1d0, -1d0, -1d0) /= 0) call fail('dra_init')
    if (.not. ga_create(MT_DBL, m, n, 'a', 0, 0, g_a)) call fail('ga_create')
    if (.not. ga_create(MT_DBL, m, n, 'b', 0, 0, g_b)) call fail('ga_create')
    if (me == 0) call ga_put(g_a, 1, m, 1, n, a, m)
    call ga_sync()
    if (dra_create(MT_DBL, m, n, 'fortran array', fname, DRA_RW, -1, -1, d_a) /= 0) call fail('dra_create')
    if (dra_write(g_a, d_a, req) /= 0) call fail('dra_write')
    if (dra_wait(req) /= 0) call fail('dra_wait')
    if (dra_probe(req, status) /= 0) call fail('dra_probe')
    if (status /= 0) call fail('dra_probe status')
    call ga_zero(g_b)
    if (dra_read(g_b, d_a, req) /= 0) call fail('dra_read')
    if (dra_wait(req) /= 0) call fail('dra_wait')
    call ga_get(g_b, 1, m, 1, n, b, m)
    if (any(a /= b)) call fail('dra_read gave what dra_write wrote')
    if (dra_inquire(d_a, type, d1, d2, label, got) /= 0) call fail('dra_inquire')
    if (type /= MT_DBL .or. d1 /= m .or. d2 /= n) call fail('dra_inquire: type or dims')
    if (label /= 'fortran array' .or. got /= fname) call fail('dra_inquire: name or filename')
    ! a(2:5, 1:3) -> d(8:11, 5:7), read back into b(1:4, 1:3)
    if (dra_write_section(.false., g_a, 2, 5, 1, 3, d_a, 8, 11, 5, 7, req) /= 0) call fail('dra_write_section')
    call ga_zero(g_b)
    if (dra_read_section(.false., g_b, 1, 4, 1, 3, d_a, 8, 11, 5, 7, req) /= 0) call fail('dra_read_section')
    call ga_get(g_b, 1, m, 1, n, b, m)
    if (any(b(1:4, 1:3) /= a(2:5, 1:3)) .or. any(b(5:, :) /= 0) .or. any(b(:, 4:) /= 0)) &
      call fail('dra_read_section gave what dra_write_section wrote')
    ! Bad arguments: a code, and the message naming the Fortran argument (checked by the test row).
    if (dra_read(g_b, 4242, req) == 0) call fail('dra_read of a bad handle')
    if (dra_write_section(.false., g_a, 2, 5, 1, 3, d_a, 11, 14, 5, 7, req) == 0) call fail('dra_write_section past the end')
    ! Transposed: a(1:3, 1:5) -> t(1:5, 1:3)
    if (dra_create(MT_DBL, 5, 3, 't', tname, DRA_RW, 5, 3, d_t) /= 0) call fail('dra_create t')
    if (dra_write_section(.true., g_a, 1, 3, 1, 5, d_t, 1, 5, 1, 3, req) /= 0) call fail('dra_write_section transposed')
    call ga_zero(g_b)
    if (dra_read_section(.false., g_b, 1, 5, 1, 3, d_t, 1, 5, 1, 3, req) /= 0) call fail('dra_read_section of t')
    call ga_get(g_b, 1, m, 1, n, b, m)
    if (any(b(1:5, 1:3) /= transpose(a(1:3, 1:5)))) call fail('the transposed section')
    if (dra_delete(d_t) /= 0) call fail('dra_delete t')
    if (dra_close(d_a) /= 0) call fail('dra_close')
    if (dra_open(fname, DRA_R, d_a) /= 0) call fail('dra_open')
    call ga_zero(g_b)
    if (dra_read(g_b, d_a, req) /= 0) call fail('dra_read after dra_open')
    call ga_get(g_b, 1, m, 1, n, b, m)
    if (b(8, 5) /= a(2, 1) .or. b(1, 1) /= a(1, 1)) call fail('the reopened array')
    if (dra_write(g_a, d_a, req) == 0) call fail('dra_write to a DRA_R array')
    if (dra_delete(d_a) /= 0) call fail('dra_delete')
    call nd_checks()
    if (dra_terminate() /= 0) call fail('dra_terminate')
    if (.not. ga_destroy(g_a)) call fail('ga_destroy')
    if (.not. ga_destroy(g_b)) call fail('ga_destroy')
  end subroutine dra_checks

  ! The n-d forms on a 4 x 5 x 6 INTEGER array.
  subroutine nd_checks()
    integer :: g, h, d, req, type, ndim, i, j, k
    integer :: dims(3), lo(3), hi(3), v(4, 5, 6), w(4, 5, 6), got(7)
    character(80) :: label
    character(300) :: fname, fgot
    fname = name('armada-pario-f-cube.dra', .false.)
    dims = (/ 4, 5, 6 /)
    if (.not. nga_create(MT_INT, 3, dims, 'cube', dims, g)) call fail('nga_create')
    if (.not. nga_create(MT_INT, 3, dims, 'cube2', dims, h)) call fail('nga_create')
    do k = 1, 6
      do j = 1, 5
        do i = 1, 4
          v(i, j, k) = 100 * i + 10 * j + k
        end do
      end do
    end do
    lo = 1
    if (me == 0) call nga_put(g, lo, dims, v, (/ 4, 5 /))
    call ga_zero(h)
    call ga_sync()
    if (ndra_create(MT_INT, 3, dims, 'cube', fname, DRA_RW, dims, d) /= 0) call fail('ndra_create')
    if (ndra_write(g, d, req) /= 0) call fail('ndra_write')
    lo = (/ 2, 2, 3 /)
    hi = (/ 3, 4, 5 /)
    if (ndra_read_section(.false., h, lo, hi, d, lo, hi, req) /= 0) call fail('ndra_read_section')
    call nga_get(h, (/ 1, 1, 1 /), dims, w, (/ 4, 5 /))
    if (any(w(2:3, 2:4, 3:5) /= v(2:3, 2:4, 3:5)) .or. w(1, 1, 1) /= 0 .or. w(4, 5, 6) /= 0) call fail('3-d section')
    if (ndra_inquire(d, type, ndim, got, label, fgot) /= 0) call fail('ndra_inquire')
    if (type /= MT_INT .or. ndim /= 3 .or. any(got(1:3) /= dims) .or. label /= 'cube') call fail('ndra_inquire values')
    if (dra_delete(d) /= 0) call fail('dra_delete cube')
    if (.not. ga_destroy(g)) call fail('ga_destroy')
    if (.not. ga_destroy(h)) call fail('ga_destroy')
  end subroutine nd_checks

  subroutine sf_checks()
    integer, parameter :: n = 500
    integer :: h, ids(2), mine(n), theirs(n), next, i
    double precision :: bytes
    character(300) :: fname
    fname = name('armada-pario-f-sf', .false.)
    bytes = dble(storage_size(me) / 8) * n
    do i = 1, n
      mine(i) = me * 10000 + i
    end do
    if (sf_create(fname, 1d7, 1d6, bytes, h) /= 0) call fail('sf_create')
    if (sf_write(h, me * bytes, bytes, mine, ids(1)) /= 0) call fail('sf_write')
    if (sf_wait(ids(1)) /= 0) call fail('sf_wait')
    call ga_sync()
    next = mod(me + 1, np)
    if (sf_read(h, next * bytes, bytes / 2, theirs, ids(1)) /= 0) call fail('sf_read 1')
    if (sf_read(h, next * bytes + bytes / 2, bytes / 2, theirs(n / 2 + 1), ids(2)) /= 0) call fail('sf_read 2')
    if (sf_waitall(ids, 2) /= 0) call fail('sf_waitall')
    do i = 1, n
      if (theirs(i) /= next * 10000 + i) then
        call fail('sf_read of the neighbour''s block')
        exit
      end if
    end do
    if (sf_write(h + 77, 0d0, bytes, mine, ids(1)) == 0) call fail('sf_write to a bad handle')
    if (sf_destroy(h) /= 0) call fail('sf_destroy')
  end subroutine sf_checks

end program pario_f
