! Interfaces of Armada's C APIs (armada/arrays/c_api.h, armada/linalg/c_api.h) and the module's
! C helpers (buffers.c), as the Fortran module calls them. Index tuples go to the arrays C API's
! Fortran view (armada_gaf_*), which converts them to the C++ convention: the one place where
! that happens (DESIGN.md, "Conventions that cross layers"). Functions without index tuples
! serve both views (armada_ga_*). Not meant to be used by programs directly: use module armada.
module armada_c
  use, intrinsic :: iso_c_binding
  implicit none
  public

  ! Element types and return codes of the C APIs (armada/arrays/c_api.h, armada/linalg/c_api.h).
  integer(c_int), parameter :: ARMADA_GA_INT = 0, ARMADA_GA_LONG = 1, ARMADA_GA_FLOAT = 2, &
    ARMADA_GA_DOUBLE = 3, ARMADA_GA_SCOMPLEX = 4, ARMADA_GA_DCOMPLEX = 5
  integer(c_int), parameter :: ARMADA_GA_OK = 0, ARMADA_GA_ERR_ARG = 1, ARMADA_GA_ERR_HANDLE = 2, &
    ARMADA_GA_ERR_TYPE = 3, ARMADA_GA_ERR_STATE = 4, ARMADA_GA_ERR_SYSTEM = 5, &
    ARMADA_GA_ERR_UNSUPPORTED = 6, ARMADA_GA_ERR_INTERNAL = 7
  integer(c_int), parameter :: ARMADA_LA_ERR_SINGULAR = 20, ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE = 21, &
    ARMADA_LA_ERR_NO_CONVERGENCE = 22
  integer(c_int), parameter :: ARMADA_GA_GROUP_WORLD = 0, ARMADA_GA_MAX_DIM = 7
  integer(c_int), parameter :: ARMADA_LA_NOTRANS = 0, ARMADA_LA_TRANS = 1, ARMADA_LA_CONJTRANS = 2

  interface
    ! ---- buffers.c: buffers as C descriptors, and the module's error message ----
    integer(c_int) function armada_f_buffer(buf, type, count, op, arg, handle, addr) bind(C)
      import
      type(*), dimension(..), intent(in) :: buf
      integer(c_int), value :: type
      integer(c_int64_t), value :: count
      character(kind=c_char), intent(in) :: op(*), arg(*)
      integer(c_int), value :: handle
      type(c_ptr), intent(out) :: addr
    end function
    integer(c_int) function armada_f_reject(op, text, handle, code) bind(C)
      import
      character(kind=c_char), intent(in) :: op(*), text(*)
      integer(c_int), value :: handle, code
    end function
    integer(c_int) function armada_f_plain_buffer(buf, op, arg, type, count, addr) bind(C)
      import
      type(*), dimension(..), intent(in) :: buf
      character(kind=c_char), intent(in) :: op(*), arg(*)
      integer(c_int), intent(out) :: type
      integer(c_int64_t), intent(out) :: count
      type(c_ptr), intent(out) :: addr
    end function
    type(c_ptr) function armada_f_message() bind(C)
      import
    end function
    subroutine armada_f_set_message(message) bind(C)
      import
      character(kind=c_char), intent(in) :: message(*)
    end subroutine
    subroutine armada_f_keep_ga_message() bind(C)
    end subroutine
    subroutine armada_f_keep_la_message() bind(C)
    end subroutine

    ! ---- armada/arrays/c_api.h and armada/linalg/c_api.h ----
    integer(c_int) function armada_ga_initialize(argc, argv) bind(C)
      import
      type(c_ptr), value :: argc, argv
    end function
    type(c_ptr) function armada_ga_error_message() bind(C)
      import
    end function
    integer(c_int) function armada_ga_initialize_fcomm(fortran_comm) bind(C)
      import
      integer(c_int), value :: fortran_comm
    end function
    integer(c_int) function armada_ga_initialized(flag) bind(C)
      import
      integer(c_int), intent(out) :: flag
    end function
    integer(c_int) function armada_ga_finalize() bind(C)
      import
    end function
    integer(c_int) function armada_ga_rank(rank) bind(C)
      import
      integer(c_int), intent(out) :: rank
    end function
    integer(c_int) function armada_ga_size(size) bind(C)
      import
      integer(c_int), intent(out) :: size
    end function
    integer(c_int) function armada_ga_node_count(count) bind(C)
      import
      integer(c_int), intent(out) :: count
    end function
    integer(c_int) function armada_ga_node_of(rank, node) bind(C)
      import
      integer(c_int), value :: rank
      integer(c_int), intent(out) :: node
    end function
    integer(c_int) function armada_ga_node_size(node, size) bind(C)
      import
      integer(c_int), value :: node
      integer(c_int), intent(out) :: size
    end function
    integer(c_int) function armada_ga_node_rank(node, i, rank) bind(C)
      import
      integer(c_int), value :: node
      integer(c_int), value :: i
      integer(c_int), intent(out) :: rank
    end function
    integer(c_int) function armada_ga_sync() bind(C)
      import
    end function
    integer(c_int) function armada_ga_sync_group(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_fence(rank) bind(C)
      import
      integer(c_int), value :: rank
    end function
    integer(c_int) function armada_ga_fence_all() bind(C)
      import
    end function
    integer(c_int) function armada_ga_gop(group, type, x, n, op) bind(C)
      import
      integer(c_int), value :: group
      integer(c_int), value :: type
      type(c_ptr), value :: x
      integer(c_int64_t), value :: n
      character(kind=c_char), intent(in) :: op(*)
    end function
    integer(c_int) function armada_ga_brdcst(group, buf, bytes, root) bind(C)
      import
      integer(c_int), value :: group
      type(c_ptr), value :: buf
      integer(c_int64_t), value :: bytes
      integer(c_int), value :: root
    end function
    integer(c_int) function armada_ga_group_create(parent, n, ranks, group) bind(C)
      import
      integer(c_int), value :: parent
      integer(c_int), value :: n
      integer(c_int), intent(in) :: ranks(*)
      integer(c_int), intent(out) :: group
    end function
    integer(c_int) function armada_ga_group_destroy(group) bind(C)
      import
      integer(c_int), value :: group
    end function
    integer(c_int) function armada_ga_group_size(group, size) bind(C)
      import
      integer(c_int), value :: group
      integer(c_int), intent(out) :: size
    end function
    integer(c_int) function armada_ga_group_rank(group, rank) bind(C)
      import
      integer(c_int), value :: group
      integer(c_int), intent(out) :: rank
    end function
    integer(c_int) function armada_ga_group_world_rank(group, group_rank, world_rank) bind(C)
      import
      integer(c_int), value :: group
      integer(c_int), value :: group_rank
      integer(c_int), intent(out) :: world_rank
    end function
    integer(c_int) function armada_ga_group_sync(group) bind(C)
      import
      integer(c_int), value :: group
    end function
    integer(c_int) function armada_ga_mutexes_create(count, group, set) bind(C)
      import
      integer(c_int), value :: count
      integer(c_int), value :: group
      integer(c_int), intent(out) :: set
    end function
    integer(c_int) function armada_ga_mutexes_destroy(set) bind(C)
      import
      integer(c_int), value :: set
    end function
    integer(c_int) function armada_ga_mutex_count(set, rank, count) bind(C)
      import
      integer(c_int), value :: set
      integer(c_int), value :: rank
      integer(c_int), intent(out) :: count
    end function
    integer(c_int) function armada_ga_mutex_lock(set, mutex, rank) bind(C)
      import
      integer(c_int), value :: set
      integer(c_int), value :: mutex
      integer(c_int), value :: rank
    end function
    integer(c_int) function armada_ga_mutex_unlock(set, mutex, rank) bind(C)
      import
      integer(c_int), value :: set
      integer(c_int), value :: mutex
      integer(c_int), value :: rank
    end function
    integer(c_int) function armada_ga_mutex_trylock(set, mutex, rank, acquired) bind(C)
      import
      integer(c_int), value :: set
      integer(c_int), value :: mutex
      integer(c_int), value :: rank
      integer(c_int), intent(out) :: acquired
    end function
    integer(c_int) function armada_ga_duplicate(handle, name, new_handle) bind(C)
      import
      integer(c_int), value :: handle
      character(kind=c_char), intent(in), optional :: name(*)
      integer(c_int), intent(out) :: new_handle
    end function
    integer(c_int) function armada_ga_destroy(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_valid(handle, flag) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int), intent(out) :: flag
    end function
    integer(c_int) function armada_ga_element_size(handle, bytes) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(out) :: bytes
    end function
    integer(c_int) function armada_ga_name(handle, name) bind(C)
      import
      integer(c_int), value :: handle
      type(c_ptr), intent(out) :: name
    end function
    integer(c_int) function armada_ga_set_name(handle, name) bind(C)
      import
      integer(c_int), value :: handle
      character(kind=c_char), intent(in) :: name(*)
    end function
    integer(c_int) function armada_ga_group(handle, group) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int), intent(out) :: group
    end function
    integer(c_int) function armada_ga_nbwait(request) bind(C)
      import
      integer(c_int), value :: request
    end function
    integer(c_int) function armada_ga_nbtest(request, done) bind(C)
      import
      integer(c_int), value :: request
      integer(c_int), intent(out) :: done
    end function
    integer(c_int) function armada_ga_release(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_release_update(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_fill(handle, value) bind(C)
      import
      integer(c_int), value :: handle
      type(c_ptr), value :: value
    end function
    integer(c_int) function armada_ga_zero(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_scale(handle, alpha) bind(C)
      import
      integer(c_int), value :: handle
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_ga_add_constant(handle, alpha) bind(C)
      import
      integer(c_int), value :: handle
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_ga_abs(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_reciprocal(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_copy(a, b) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
    end function
    integer(c_int) function armada_ga_add(alpha, a, beta, b, c) bind(C)
      import
      type(c_ptr), value :: alpha
      integer(c_int), value :: a
      type(c_ptr), value :: beta
      integer(c_int), value :: b
      integer(c_int), value :: c
    end function
    integer(c_int) function armada_ga_elem_multiply(a, b, c) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
      integer(c_int), value :: c
    end function
    integer(c_int) function armada_ga_elem_divide(a, b, c) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
      integer(c_int), value :: c
    end function
    integer(c_int) function armada_ga_elem_max(a, b, c) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
      integer(c_int), value :: c
    end function
    integer(c_int) function armada_ga_elem_min(a, b, c) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
      integer(c_int), value :: c
    end function
    integer(c_int) function armada_ga_dot(a, b, result) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
      type(c_ptr), value :: result
    end function
    integer(c_int) function armada_ga_update_ghosts(handle, periodic) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int), value :: periodic
    end function
    integer(c_int) function armada_ga_print(handle) bind(C)
      import
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_summary() bind(C)
      import
    end function
    integer(c_int) function armada_gaf_create(type, ndim, dims, name, chunk, handle) bind(C)
      import
      integer(c_int), value :: type
      integer(c_int), value :: ndim
      integer(c_int64_t), intent(in) :: dims(*)
      character(kind=c_char), intent(in), optional :: name(*)
      integer(c_int64_t), intent(in), optional :: chunk(*)
      integer(c_int), intent(out) :: handle
    end function
    integer(c_int) function armada_gaf_create_irreg(type, ndim, dims, name, nblock, map, handle) bind(C)
      import
      integer(c_int), value :: type
      integer(c_int), value :: ndim
      integer(c_int64_t), intent(in) :: dims(*)
      character(kind=c_char), intent(in), optional :: name(*)
      integer(c_int64_t), intent(in), optional :: nblock(*)
      integer(c_int64_t), intent(in), optional :: map(*)
      integer(c_int), intent(out) :: handle
    end function
    integer(c_int) function armada_gaf_create_ghosts(type, ndim, dims, width, name, chunk, handle) bind(C)
      import
      integer(c_int), value :: type
      integer(c_int), value :: ndim
      integer(c_int64_t), intent(in) :: dims(*)
      integer(c_int64_t), intent(in), optional :: width(*)
      character(kind=c_char), intent(in), optional :: name(*)
      integer(c_int64_t), intent(in), optional :: chunk(*)
      integer(c_int), intent(out) :: handle
    end function
    integer(c_int) function armada_gaf_create_full( &
        type, ndim, dims, name, grid, chunk, nblock, map, width, group, handle) bind(C)
      import
      integer(c_int), value :: type
      integer(c_int), value :: ndim
      integer(c_int64_t), intent(in) :: dims(*)
      character(kind=c_char), intent(in), optional :: name(*)
      integer(c_int64_t), intent(in), optional :: grid(*)
      integer(c_int64_t), intent(in), optional :: chunk(*)
      integer(c_int64_t), intent(in), optional :: nblock(*)
      integer(c_int64_t), intent(in), optional :: map(*)
      integer(c_int64_t), intent(in), optional :: width(*)
      integer(c_int), value :: group
      integer(c_int), intent(out) :: handle
    end function
    integer(c_int) function armada_gaf_inquire(handle, type, ndim, dims) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int), intent(out) :: type
      integer(c_int), intent(out) :: ndim
      integer(c_int64_t), intent(out) :: dims(*)
    end function
    integer(c_int) function armada_gaf_ghosts(handle, width) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(out), optional :: width(*)
    end function
    integer(c_int) function armada_gaf_grid(handle, grid) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(out), optional :: grid(*)
    end function
    integer(c_int) function armada_gaf_distribution(handle, rank, lo, hi) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int), value :: rank
      integer(c_int64_t), intent(out) :: lo(*)
      integer(c_int64_t), intent(out) :: hi(*)
    end function
    integer(c_int) function armada_gaf_locate(handle, index, rank) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: index(*)
      integer(c_int), intent(out) :: rank
    end function
    integer(c_int) function armada_gaf_locate_region(handle, lo, hi, max, ranks, los, his, count) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      integer(c_int), value :: max
      integer(c_int), intent(out), optional :: ranks(*)
      integer(c_int64_t), intent(out), optional :: los(*)
      integer(c_int64_t), intent(out), optional :: his(*)
      integer(c_int), intent(out) :: count
    end function
    integer(c_int) function armada_gaf_check_patch(handle, lo, hi, ld) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      integer(c_int64_t), intent(in), optional :: ld(*)
    end function
    integer(c_int) function armada_gaf_get(handle, lo, hi, buf, ld) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
    end function
    integer(c_int) function armada_gaf_put(handle, lo, hi, buf, ld) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
    end function
    integer(c_int) function armada_gaf_acc(handle, lo, hi, buf, ld, alpha) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_gaf_nbget(handle, lo, hi, buf, ld, request) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
      integer(c_int), intent(out) :: request
    end function
    integer(c_int) function armada_gaf_nbput(handle, lo, hi, buf, ld, request) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
      integer(c_int), intent(out) :: request
    end function
    integer(c_int) function armada_gaf_nbacc(handle, lo, hi, buf, ld, alpha, request) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
      type(c_ptr), value :: alpha
      integer(c_int), intent(out) :: request
    end function
    integer(c_int) function armada_gaf_strided_get(handle, lo, hi, skip, buf, ld) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      integer(c_int64_t), intent(in) :: skip(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
    end function
    integer(c_int) function armada_gaf_strided_put(handle, lo, hi, skip, buf, ld) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      integer(c_int64_t), intent(in) :: skip(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
    end function
    integer(c_int) function armada_gaf_strided_acc(handle, lo, hi, skip, buf, ld, alpha) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      integer(c_int64_t), intent(in) :: skip(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_gaf_periodic_get(handle, lo, hi, buf, ld) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
    end function
    integer(c_int) function armada_gaf_periodic_put(handle, lo, hi, buf, ld) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
    end function
    integer(c_int) function armada_gaf_periodic_acc(handle, lo, hi, buf, ld, alpha) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: buf
      integer(c_int64_t), intent(in), optional :: ld(*)
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_gaf_gather(handle, n, subscripts, values) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: subscripts(*)
      type(c_ptr), value :: values
    end function
    integer(c_int) function armada_gaf_scatter(handle, n, subscripts, values) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: subscripts(*)
      type(c_ptr), value :: values
    end function
    integer(c_int) function armada_gaf_scatter_acc(handle, n, subscripts, values, alpha) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: subscripts(*)
      type(c_ptr), value :: values
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_gaf_read_inc(handle, index, increment, old_value) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: index(*)
      integer(c_long), value :: increment
      integer(c_long), intent(out) :: old_value
    end function
    integer(c_int) function armada_gaf_access(handle, ptr, lo, hi, strides) bind(C)
      import
      integer(c_int), value :: handle
      type(c_ptr), intent(out) :: ptr
      integer(c_int64_t), intent(out) :: lo(*)
      integer(c_int64_t), intent(out) :: hi(*)
      integer(c_int64_t), intent(out) :: strides(*)
    end function
    integer(c_int) function armada_gaf_access_ghosts(handle, ptr, lo, hi, strides) bind(C)
      import
      integer(c_int), value :: handle
      type(c_ptr), intent(out) :: ptr
      integer(c_int64_t), intent(out) :: lo(*)
      integer(c_int64_t), intent(out) :: hi(*)
      integer(c_int64_t), intent(out) :: strides(*)
    end function
    integer(c_int) function armada_gaf_fill_patch(handle, lo, hi, value) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: value
    end function
    integer(c_int) function armada_gaf_zero_patch(handle, lo, hi) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
    end function
    integer(c_int) function armada_gaf_scale_patch(handle, lo, hi, alpha) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_gaf_add_constant_patch(handle, lo, hi, alpha) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      type(c_ptr), value :: alpha
    end function
    integer(c_int) function armada_gaf_abs_patch(handle, lo, hi) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
    end function
    integer(c_int) function armada_gaf_reciprocal_patch(handle, lo, hi) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
    end function
    integer(c_int) function armada_gaf_copy_patch(a, alo, ahi, b, blo, bhi, transpose) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      integer(c_int), value :: transpose
    end function
    integer(c_int) function armada_gaf_add_patch(alpha, a, alo, ahi, beta, b, blo, bhi, c, clo, chi) bind(C)
      import
      type(c_ptr), value :: alpha
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      type(c_ptr), value :: beta
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      integer(c_int), value :: c
      integer(c_int64_t), intent(in) :: clo(*)
      integer(c_int64_t), intent(in) :: chi(*)
    end function
    integer(c_int) function armada_gaf_elem_multiply_patch(a, alo, ahi, b, blo, bhi, c, clo, chi) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      integer(c_int), value :: c
      integer(c_int64_t), intent(in) :: clo(*)
      integer(c_int64_t), intent(in) :: chi(*)
    end function
    integer(c_int) function armada_gaf_elem_divide_patch(a, alo, ahi, b, blo, bhi, c, clo, chi) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      integer(c_int), value :: c
      integer(c_int64_t), intent(in) :: clo(*)
      integer(c_int64_t), intent(in) :: chi(*)
    end function
    integer(c_int) function armada_gaf_elem_max_patch(a, alo, ahi, b, blo, bhi, c, clo, chi) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      integer(c_int), value :: c
      integer(c_int64_t), intent(in) :: clo(*)
      integer(c_int64_t), intent(in) :: chi(*)
    end function
    integer(c_int) function armada_gaf_elem_min_patch(a, alo, ahi, b, blo, bhi, c, clo, chi) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      integer(c_int), value :: c
      integer(c_int64_t), intent(in) :: clo(*)
      integer(c_int64_t), intent(in) :: chi(*)
    end function
    integer(c_int) function armada_gaf_dot_patch(a, alo, ahi, b, blo, bhi, result) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      type(c_ptr), value :: result
    end function
    integer(c_int) function armada_gaf_norm1(handle, result) bind(C)
      import
      integer(c_int), value :: handle
      real(c_double), intent(out) :: result
    end function
    integer(c_int) function armada_gaf_norm_infinity(handle, result) bind(C)
      import
      integer(c_int), value :: handle
      real(c_double), intent(out) :: result
    end function
    integer(c_int) function armada_gaf_select_elem(handle, want_max, value, index) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int), value :: want_max
      type(c_ptr), value :: value
      integer(c_int64_t), intent(out) :: index(*)
    end function
    integer(c_int) function armada_gaf_select_elem_patch(handle, lo, hi, want_max, value, index) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      integer(c_int), value :: want_max
      type(c_ptr), value :: value
      integer(c_int64_t), intent(out) :: index(*)
    end function
    integer(c_int) function armada_gaf_print_patch(handle, lo, hi) bind(C)
      import
      integer(c_int), value :: handle
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
    end function
    integer(c_int) function armada_gaf_to_c_patch(ndim, lo, hi, clo, chi) bind(C)
      import
      integer(c_int), value :: ndim
      integer(c_int64_t), intent(in) :: lo(*)
      integer(c_int64_t), intent(in) :: hi(*)
      integer(c_int64_t), intent(out) :: clo(*)
      integer(c_int64_t), intent(out) :: chi(*)
    end function
    type(c_ptr) function armada_la_error_message() bind(C)
      import
    end function
    integer(c_int64_t) function armada_la_error_index() bind(C)
      import
    end function
    integer(c_int) function armada_la_gemm(op_a, op_b, alpha, a, b, beta, c) bind(C)
      import
      integer(c_int), value :: op_a
      integer(c_int), value :: op_b
      type(c_ptr), value :: alpha
      integer(c_int), value :: a
      integer(c_int), value :: b
      type(c_ptr), value :: beta
      integer(c_int), value :: c
    end function
    integer(c_int) function armada_la_matmul_patch( &
        op_a, op_b, alpha, a, alo, ahi, b, blo, bhi, beta, c, clo, chi) bind(C)
      import
      integer(c_int), value :: op_a
      integer(c_int), value :: op_b
      type(c_ptr), value :: alpha
      integer(c_int), value :: a
      integer(c_int64_t), intent(in) :: alo(*)
      integer(c_int64_t), intent(in) :: ahi(*)
      integer(c_int), value :: b
      integer(c_int64_t), intent(in) :: blo(*)
      integer(c_int64_t), intent(in) :: bhi(*)
      type(c_ptr), value :: beta
      integer(c_int), value :: c
      integer(c_int64_t), intent(in) :: clo(*)
      integer(c_int64_t), intent(in) :: chi(*)
    end function
    integer(c_int) function armada_la_transpose(a, b) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
    end function
    integer(c_int) function armada_la_symmetrize(a) bind(C)
      import
      integer(c_int), value :: a
    end function
    integer(c_int) function armada_la_conjugate(a) bind(C)
      import
      integer(c_int), value :: a
    end function
    integer(c_int) function armada_la_lu_solve(op, a, b) bind(C)
      import
      integer(c_int), value :: op
      integer(c_int), value :: a
      integer(c_int), value :: b
    end function
    integer(c_int) function armada_la_cholesky_solve(a, b) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: b
    end function
    integer(c_int) function armada_la_eigen_symmetric(a, v, eigenvalues) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: v
      type(c_ptr), value :: eigenvalues
    end function
    integer(c_int) function armada_la_inverse(a, inv) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: inv
    end function
    integer(c_int) function armada_la_cholesky_inverse(a, inv) bind(C)
      import
      integer(c_int), value :: a
      integer(c_int), value :: inv
    end function
    integer(c_int) function armada_la_set_blas_threads(n) bind(C)
      import
      integer(c_int), value :: n
    end function
    ! ---- parallel HDF5 I/O (armada/arrays/c_api.h) ----
    integer(c_int) function armada_ga_io_available(flag) bind(C)
      import
      integer(c_int), intent(out) :: flag
    end function
    integer(c_int) function armada_ga_save(file, n, handles) bind(C)
      import
      character(kind=c_char), intent(in) :: file(*)
      integer(c_int), value :: n
      integer(c_int), intent(in) :: handles(*)
    end function
    integer(c_int) function armada_ga_save_in_place(file, n, handles) bind(C)
      import
      character(kind=c_char), intent(in) :: file(*)
      integer(c_int), value :: n
      integer(c_int), intent(in) :: handles(*)
    end function
    integer(c_int) function armada_ga_load(file, name, group, handle) bind(C)
      import
      character(kind=c_char), intent(in) :: file(*), name(*)
      integer(c_int), value :: group
      integer(c_int), intent(out) :: handle
    end function
    integer(c_int) function armada_ga_load_into(file, name, handle) bind(C)
      import
      character(kind=c_char), intent(in) :: file(*), name(*)
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_gaf_load_patch(file, name, lo, hi, handle) bind(C)
      import
      character(kind=c_char), intent(in) :: file(*), name(*)
      integer(c_int64_t), intent(in) :: lo(*), hi(*)
      integer(c_int), value :: handle
    end function
    integer(c_int) function armada_ga_checkpoint(prefix, step, n, handles, keep) bind(C)
      import
      character(kind=c_char), intent(in) :: prefix(*)
      integer(c_long), value :: step
      integer(c_int), value :: n
      integer(c_int), intent(in) :: handles(*)
      integer(c_int), value :: keep
    end function
    integer(c_int) function armada_ga_restart(prefix, n, handles, step) bind(C)
      import
      character(kind=c_char), intent(in) :: prefix(*)
      integer(c_int), value :: n
      integer(c_int), intent(in) :: handles(*)
      integer(c_long), intent(out) :: step
    end function
  end interface
end module armada_c
