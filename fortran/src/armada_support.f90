! What the module's procedures share: reporting errors (into `stat` and `errmsg`, or a stop with
! Armada's message), checking index tuples against an array's rank, and handing buffers to the
! C API after checking their type, contiguity and size (buffers.c). No index is converted here:
! tuples go unchanged to the arrays C API's Fortran view (armada_gaf_*).
module armada_support
  use, intrinsic :: iso_c_binding
  use armada_c
  implicit none
  private
  public :: patch_t, finish, ga, la, reject, c_string, cstr, array_info, tuple_size, patch_of, buffer_of, &
            scalar_of, optional_patch, i64

  ! A patch operation's arguments ready for the C API.
  type :: patch_t
    integer(c_int) :: etype = -1, ndim = 0
    integer(c_int64_t), allocatable :: lo(:), hi(:), ld(:), skip(:)
    integer(c_int64_t) :: need = 0  ! elements the buffer must hold
    type(c_ptr) :: buf = c_null_ptr
  end type

contains

  ! Ends every procedure: `stat` gets the code; on an error `errmsg` gets the message, and
  ! without `stat` the program stops with it (as Fortran's own statements do). `op` is the
  ! procedure the program called: it replaces the C function the message names.
  subroutine finish(code, stat, errmsg, op)
    integer(c_int), intent(in) :: code
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), intent(in), optional :: op
    character(len=:), allocatable :: message
    if (present(stat)) stat = code
    if (code == ARMADA_GA_OK) return
    message = c_string(armada_f_message())
    if (present(op)) message = called_as(message, op)
    if (present(errmsg)) errmsg = message
    if (.not. present(stat)) error stop 'armada: ' // message
  end subroutine

  ! The C API ends its messages with "(in armada_gaf_get)", the C function the module called:
  ! the program called `op`, so the message names that instead, also where the C API's own
  ! checks (the Fortran view's) open the message with the function's name.
  function called_as(message, op) result(s)
    character(len=*), intent(in) :: message, op
    character(len=:), allocatable :: s, cname
    integer :: at, length, opens
    at = index(message, '(in armada_', back=.true.)
    if (at == 0) then
      s = message
      return
    end if
    length = scan(message(at + 4:), ';)') - 1
    if (length < 1) then
      s = message
      return
    end if
    cname = message(at + 4:at + 3 + length)
    opens = index(message, '] ' // cname // ': ')
    if (opens > 0) then  ! "[rank 0] armada_gaf_get: ..." names the function once, up front
      s = message(:opens + 1) // op // message(opens + 2 + len(cname):at - 2)
    else
      s = message(:at + 3) // op // message(at + 4 + length:)
    end if
  end function

  ! A return code of the arrays (ga) or linalg (la) C API; on an error its message becomes the
  ! module's.
  integer(c_int) function ga(code)
    integer(c_int), intent(in) :: code
    if (code /= ARMADA_GA_OK) call armada_f_keep_ga_message()
    ga = code
  end function
  integer(c_int) function la(code)
    integer(c_int), intent(in) :: code
    if (code /= ARMADA_GA_OK) call armada_f_keep_la_message()
    la = code
  end function

  ! An error found by the module itself: "<op>: <text>", code ARMADA_GA_ERR_ARG (or `code`).
  ! The module's own check failed: the message names the rank, `op` and (g given) the array.
  integer(c_int) function reject(op, text, code, g)
    character(len=*), intent(in) :: op, text
    integer(c_int), intent(in), optional :: code
    integer, intent(in), optional :: g
    integer(c_int) :: handle, status
    handle = -1
    if (present(g)) handle = g
    status = ARMADA_GA_ERR_ARG
    if (present(code)) status = code
    reject = armada_f_reject(cstr(op), cstr(text), handle, status)
  end function

  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    call c_f_pointer(p, chars, [huge(n)])  ! read up to the NUL only
    n = 0
    do while (chars(n + 1) /= c_null_char)
      n = n + 1
    end do
    allocate (character(len=n) :: s)
    s = transfer(chars(1:n), s)
  end function

  ! A NUL-terminated copy for C.
  function cstr(s)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: cstr
    cstr = trim(s) // c_null_char
  end function

  elemental integer(c_int64_t) function i64(x)
    integer, intent(in) :: x
    i64 = int(x, c_int64_t)
  end function

  function itoa(x) result(s)
    integer(c_int64_t), intent(in) :: x
    character(len=24) :: buffer
    character(len=:), allocatable :: s
    write (buffer, '(i0)') x
    s = trim(buffer)
  end function

  ! The element type and rank of array g.
  integer(c_int) function array_info(g, etype, ndim) result(code)
    integer, intent(in) :: g
    integer(c_int), intent(out) :: etype, ndim
    integer(c_int64_t) :: dims(ARMADA_GA_MAX_DIM)
    code = ga(armada_gaf_inquire(g, etype, ndim, dims))
  end function

  ! An index tuple must have one entry per dimension.
  integer(c_int) function tuple_size(op, arg, have, want, g) result(code)
    character(len=*), intent(in) :: op, arg
    integer, intent(in) :: have
    integer(c_int), intent(in) :: want
    integer, intent(in), optional :: g
    code = ARMADA_GA_OK
    if (have /= want) code = reject(op, "argument '" // arg // "' has " // itoa(i64(have)) // &
                                    " entries, the array has " // itoa(int(want, c_int64_t)) // " dimensions", g=g)
  end function

  ! Checks a patch's tuples against array g and works out how many elements its buffer needs
  ! (with ld, GA's leading dimensions: the buffer's extents in dimensions 1 .. ndim-1).
  ! bounded: a one-sided operation on a patch that must lie inside the array; its bounds (and a
  ! dense patch's ld) are checked here, by the C API's Fortran view, before its buffer is, so a
  ! message names the first wrong argument in the order the program wrote them. (Collectives
  ! leave the check to the C API's collective call, where every member learns of an error.)
  integer(c_int) function patch_of(op, g, lo, hi, p, ld, skip, bounded) result(code)
    character(len=*), intent(in) :: op
    integer, intent(in) :: g, lo(:), hi(:)
    type(patch_t), intent(out) :: p
    integer, intent(in), optional :: ld(:), skip(:)
    logical, intent(in), optional :: bounded
    integer(c_int64_t) :: n(ARMADA_GA_MAX_DIM), stride
    integer :: d
    code = array_info(g, p%etype, p%ndim)
    if (code == ARMADA_GA_OK) code = tuple_size(op, 'lo', size(lo), p%ndim, g)
    if (code == ARMADA_GA_OK) code = tuple_size(op, 'hi', size(hi), p%ndim, g)
    if (code == ARMADA_GA_OK .and. present(skip)) code = tuple_size(op, 'skip', size(skip), p%ndim, g)
    if (code == ARMADA_GA_OK .and. present(ld) .and. p%ndim > 1) &
      code = tuple_size(op, 'ld', size(ld), p%ndim - 1, g)
    if (code /= ARMADA_GA_OK) return
    p%lo = i64(lo)
    p%hi = i64(hi)
    if (present(ld) .and. p%ndim > 1) p%ld = i64(ld)
    if (present(skip)) p%skip = i64(skip)
    if (present(bounded)) then
      if (bounded) then
        if (present(skip)) then  ! a strided patch's ld counts selected elements: arrays checks it
          code = ga(armada_gaf_check_patch(g, p%lo, p%hi))
        else
          code = ga(armada_gaf_check_patch(g, p%lo, p%hi, p%ld))  ! p%ld unallocated: absent
        end if
        if (code /= ARMADA_GA_OK) return
      end if
    end if
    n(1:p%ndim) = max(0_c_int64_t, p%hi - p%lo + 1)
    if (present(skip)) then
      where (p%skip > 0 .and. n(1:p%ndim) > 0) n(1:p%ndim) = (p%hi - p%lo) / p%skip + 1
    end if
    p%need = 0
    if (any(n(1:p%ndim) == 0)) return  ! an empty or wrong patch: the C API names the error
    p%need = 1
    stride = 1
    do d = 1, p%ndim
      p%need = p%need + (n(d) - 1) * stride
      if (d < p%ndim) then
        if (allocated(p%ld)) then
          stride = stride * p%ld(d)
        else
          stride = stride * n(d)
        end if
      end if
    end do
  end function

  ! The address of a buffer of `count` elements of ARMADA_GA_* `type` (buffers.c checks it).
  ! g: the array the buffer is for, named in the message (absent: none).
  integer(c_int) function buffer_of(op, etype, buf, count, arg, addr, g) result(code)
    character(len=*), intent(in) :: op, arg
    integer(c_int), intent(in) :: etype
    type(*), dimension(..), intent(in) :: buf
    integer(c_int64_t), intent(in) :: count
    type(c_ptr), intent(out) :: addr
    integer, intent(in), optional :: g
    integer(c_int) :: handle
    handle = -1
    if (present(g)) handle = g
    code = armada_f_buffer(buf, etype, count, cstr(op), cstr(arg), handle, addr)
  end function

  ! The address of a scalar argument (alpha, value, result) of array g's element type.
  integer(c_int) function scalar_of(op, g, x, arg, addr) result(code)
    character(len=*), intent(in) :: op, arg
    integer, intent(in) :: g
    type(*), dimension(..), intent(in) :: x
    type(c_ptr), intent(out) :: addr
    integer(c_int) :: etype, ndim
    code = array_info(g, etype, ndim)
    if (code == ARMADA_GA_OK) code = buffer_of(op, etype, x, 1_c_int64_t, arg, addr, g)
  end function

  ! Optional patch bounds come in pairs: both (a patch operation) or neither (the whole array).
  integer(c_int) function optional_patch(op, has_lo, has_hi, patch) result(code)
    character(len=*), intent(in) :: op
    logical, intent(in) :: has_lo, has_hi
    logical, intent(out) :: patch
    code = ARMADA_GA_OK
    patch = has_lo .and. has_hi
    if (has_lo .neqv. has_hi) code = reject(op, "give both bounds of a patch (lo and hi) or neither")
  end function

end module armada_support
