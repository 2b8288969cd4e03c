! An SCF-like Fock build in GA's Fortran style (the C program tests/ga/scf.c, written as NWChem
! writes it). Model integrals (ij|kl) = g(i,j) g(k,l) make F = H + 2 J - K checkable:
! J(i,j) = g(i,j) (g . D), K = g D g. D = C C^T by ga_dgemm; the blocks (I, J), I <= J, of F are
! tasks from a nga_read_inc counter: each gets g's rows and D (ga_get), adds its block with
! ga_acc (off-diagonal blocks twice), and ga_symmetrize completes F. Then the orbital Fock
! matrix C^T F C (two ga_dgemm), its diagonal (ga_get_diag) and a level shift of it
! (ga_shift_diagonal), and the energy sum D (H + F) (ga_ddot). Each against a serial computation.
program fortran_scf
  implicit none
#include "mafdecls.fh"
#include "global.fh"
  integer, parameter :: n = 26, nocc = 5, bs = 6
  integer :: me, nb, task, bi, bj, rest, done, failures, i, j
  integer :: g_h, g_g, g_d, g_f, g_c, g_t, g_e, g_v, counter
  double precision :: h(n, n), g(n, n), c(n, nocc), d(n, n), f(n, n), e(nocc, nocc), got(n, n)
  double precision :: gote(nocc, nocc), diag(nocc), gdotd, energy, ref_energy, shift
  character(80) :: summary
  logical :: ok

  call check_start(failures)
  ok = ma_init(MT_DBL, 100000, 100000)
  me = ga_nodeid()
  do j = 1, n
    do i = 1, n
      h(i, j) = -1.0d0 / (1.0d0 + abs(i - j))
      if (i == j) h(i, j) = h(i, j) - 0.1d0 * (i - 1)
      g(i, j) = exp(-0.1d0 * dble((i - j) * (i - j)))
    end do
  end do
  do j = 1, nocc
    do i = 1, n
      c(i, j) = sin(0.7d0 * i * j) / sqrt(dble(n))
    end do
  end do
  ! The serial reference.
  d = matmul(c, transpose(c))
  f = h + 2.0d0 * g * sum(g * d) - matmul(matmul(g, d), g)
  e = matmul(transpose(c), matmul(f, c))
  ref_energy = sum(d * (h + f))

  ok = ga_create(MT_DBL, n, n, 'core', -1, -1, g_h) .and. ga_duplicate(g_h, g_g, 'g')
  ok = ok .and. ga_duplicate(g_h, g_d, 'density') .and. ga_duplicate(g_h, g_f, 'fock')
  ok = ok .and. ga_create(MT_DBL, n, nocc, 'coefficients', -1, -1, g_c) .and. ga_duplicate(g_c, g_t, 'fc')
  ok = ok .and. ga_create(MT_DBL, nocc, nocc, 'fock mo', -1, -1, g_e)
  ok = ok .and. nga_create(MT_DBL, 1, (/ nocc /), 'orbital energies', (/ -1 /), g_v)
  ok = ok .and. nga_create(MT_INT, 1, (/ 1 /), 'next task', (/ -1 /), counter)
  if (.not. ok) call ga_error('fortran_scf: creation failed', 1)
  call put_whole(g_h, n, n, h)
  call put_whole(g_g, n, n, g)
  call put_whole(g_c, n, nocc, c)
  call ga_zero(g_f)
  call ga_zero(counter)
  call ga_sync()
  call ga_dgemm('n', 't', n, n, nocc, 1.0d0, g_c, g_c, 0.0d0, g_d)
  gdotd = ga_ddot(g_g, g_d)

  nb = (n + bs - 1) / bs
  done = 0
  do
    task = nga_read_inc(counter, (/ 1 /), 1)
    if (task >= nb * (nb + 1) / 2) exit
    bi = 0
    rest = task
    do while (rest >= nb - bi)
      rest = rest - (nb - bi)
      bi = bi + 1
    end do
    bj = bi + rest
    call fock_block(bi, bj)
    done = done + 1
  end do
  call ga_igop(1, done, 1, '+')
  if (done /= nb * (nb + 1) / 2) call check_fail(failures, 'each block once')
  call ga_sync()
  call ga_symmetrize(g_f)
  call ga_add(1.0d0, g_f, 1.0d0, g_h, g_f)
  call ga_dgemm('n', 'n', n, nocc, n, 1.0d0, g_f, g_c, 0.0d0, g_t)
  call ga_dgemm('t', 'n', nocc, nocc, n, 1.0d0, g_c, g_t, 0.0d0, g_e)
  energy = ga_ddot(g_d, g_h) + ga_ddot(g_d, g_f)

  call ga_get(g_f, 1, n, 1, n, got, n)
  if (maxval(abs(got - f)) > 1.0d-11) call check_fail(failures, 'Fock matrix')
  if (any(got /= transpose(got))) call check_fail(failures, 'Fock matrix symmetric')
  call ga_get(g_d, 1, n, 1, n, got, n)
  if (maxval(abs(got - d)) > 1.0d-13) call check_fail(failures, 'density')
  call ga_get(g_e, 1, nocc, 1, nocc, gote, nocc)
  if (maxval(abs(gote - e)) > 1.0d-11) call check_fail(failures, 'orbital Fock matrix')
  if (abs(energy - ref_energy) > 1.0d-10 * abs(ref_energy)) call check_fail(failures, 'energy')
  ! Orbital energies: the diagonal; then a level shift of it.
  call ga_get_diag(g_e, g_v)
  call nga_get(g_v, (/ 1 /), (/ nocc /), diag, (/ 1 /))
  do i = 1, nocc
    if (abs(diag(i) - e(i, i)) > 1.0d-11) call check_fail(failures, 'ga_get_diag')
  end do
  shift = 0.5d0
  call ga_shift_diagonal(g_e, shift)
  call ga_get(g_e, 1, nocc, 1, nocc, gote, nocc)
  do j = 1, nocc
    do i = 1, nocc
      if (i == j .and. abs(gote(i, j) - e(i, j) - shift) > 1.0d-11) call check_fail(failures, 'ga_shift_diagonal')
      if (i /= j .and. abs(gote(i, j) - e(i, j)) > 1.0d-11) call check_fail(failures, 'ga_shift_diagonal off the diagonal')
    end do
  end do

  ok = ga_destroy(counter) .and. ga_destroy(g_v) .and. ga_destroy(g_e) .and. ga_destroy(g_t)
  ok = ok .and. ga_destroy(g_c) .and. ga_destroy(g_f) .and. ga_destroy(g_d) .and. ga_destroy(g_g)
  ok = ok .and. ga_destroy(g_h)
  write (summary, '(a, i0, a, f16.12, a)') ' (', nb * (nb + 1) / 2, ' Fock blocks, energy ', energy, ')'
  call check_finish('fortran_scf', failures, trim(summary))

contains

  ! Block (bi, bj) (zero-based block numbers) of 2 J - K, added to F (twice off the diagonal).
  subroutine fock_block(bi, bj)
    integer, intent(in) :: bi, bj
    integer :: ilo, ihi, jlo, jhi
    double precision :: gi(bs, n), gj(bs, n), dd(n, n), blk(bs, bs), weight
    ilo = bi * bs + 1
    ihi = min(n, ilo + bs - 1)
    jlo = bj * bs + 1
    jhi = min(n, jlo + bs - 1)
    call ga_get(g_g, ilo, ihi, 1, n, gi, bs)
    call ga_get(g_g, jlo, jhi, 1, n, gj, bs)
    call ga_get(g_d, 1, n, 1, n, dd, n)
    blk(1:ihi-ilo+1, 1:jhi-jlo+1) = 2.0d0 * gdotd * gi(1:ihi-ilo+1, jlo:jhi) &
        - matmul(matmul(gi(1:ihi-ilo+1, :), dd), transpose(gj(1:jhi-jlo+1, :)))
    weight = 2.0d0
    if (bi == bj) weight = 1.0d0
    call ga_acc(g_f, ilo, ihi, jlo, jhi, blk, bs, weight)
  end subroutine fock_block

end program fortran_scf
