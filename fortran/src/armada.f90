! Module armada: Armada's distributed arrays from Fortran, in Global Arrays' Fortran conventions.
!
!   * Indices are one-based, patches inclusive [lo, hi], arrays column-major with dimensions in
!     Fortran order: element (i, j) of an array is where GA's Fortran API has it, and where a C
!     program on the same handle finds element [j-1][i-1]. The conversion is done once, in the
!     arrays C API's Fortran view (armada_gaf_*); this module passes tuples through unchanged.
!   * Arrays, groups, mutex sets and nonblocking requests are default INTEGER handles; ranks are
!     zero-based world ranks, as in GA.
!   * Buffers are any Fortran array (rank 0 to 7) of the array's element type: integer(4),
!     integer(8), real(4), real(8), complex(4), complex(8) (ARMADA_INT4 ...). Contiguous ones go
!     to the C API without a copy; sections with gaps are copied by the compiler in blocking
!     calls (`contiguous` dummies) and refused by nonblocking ones. A buffer of the wrong type or
!     too small is an error before any data moves. Scalars (alpha, value, result) are of the
!     array's type too.
!   * Every procedure takes optional `stat` (0 or an ARMADA_ERR_* code) and `errmsg` (set on an
!     error); without `stat` an error stops the program with Armada's message, which names the
!     rank, the operation, the argument and its value.
!   * Local blocks are Fortran pointers into the array's memory (armada_access, no copy) whose
!     bounds are the global indices; linear algebra is in module armada_linalg (re-exported).
! docs/fortran.md is the guide, with a table of GA calls and their counterparts here.
module armada
  use, intrinsic :: iso_c_binding
  use armada_c
  use armada_support
  use armada_local, only: armada_access
  use armada_forwarders
  use armada_linalg
  implicit none
  private

  ! Element types (the `type` of armada_create), return codes, the world group.
  integer, parameter, public :: ARMADA_INT4 = ARMADA_GA_INT, ARMADA_INT8 = ARMADA_GA_LONG, &
    ARMADA_REAL4 = ARMADA_GA_FLOAT, ARMADA_REAL8 = ARMADA_GA_DOUBLE, &
    ARMADA_COMPLEX4 = ARMADA_GA_SCOMPLEX, ARMADA_COMPLEX8 = ARMADA_GA_DCOMPLEX
  integer, parameter, public :: ARMADA_OK = ARMADA_GA_OK, ARMADA_ERR_ARG = ARMADA_GA_ERR_ARG, &
    ARMADA_ERR_HANDLE = ARMADA_GA_ERR_HANDLE, ARMADA_ERR_TYPE = ARMADA_GA_ERR_TYPE, &
    ARMADA_ERR_STATE = ARMADA_GA_ERR_STATE, ARMADA_ERR_SYSTEM = ARMADA_GA_ERR_SYSTEM, &
    ARMADA_ERR_UNSUPPORTED = ARMADA_GA_ERR_UNSUPPORTED, ARMADA_ERR_INTERNAL = ARMADA_GA_ERR_INTERNAL, &
    ARMADA_ERR_SINGULAR = ARMADA_LA_ERR_SINGULAR, &
    ARMADA_ERR_NOT_POSITIVE_DEFINITE = ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE, &
    ARMADA_ERR_NO_CONVERGENCE = ARMADA_LA_ERR_NO_CONVERGENCE
  integer, parameter, public :: ARMADA_WORLD = ARMADA_GA_GROUP_WORLD, ARMADA_MAX_DIM = ARMADA_GA_MAX_DIM

  ! runtime, ranks, nodes, synchronization
  public :: armada_init, armada_finalize, armada_initialized, armada_rank, armada_size, armada_node_count, &
            armada_node_of, armada_node_size, armada_node_rank, armada_sync, armada_sync_group, armada_fence, &
            armada_fence_all
  ! groups and mutexes
  public :: armada_group_create, armada_group_destroy, armada_group_size, armada_group_rank, &
            armada_group_world_rank, armada_group_sync, armada_mutexes_create, armada_mutexes_destroy, &
            armada_mutex_lock, armada_mutex_unlock, armada_mutex_trylock
  ! creation and inquiry
  public :: armada_create, armada_duplicate, armada_destroy, armada_valid, armada_inquire, armada_name, &
            armada_ghost_width, armada_grid, armada_group, armada_distribution, armada_locate, &
            armada_locate_region
  ! one-sided patch operations
  public :: armada_get, armada_put, armada_acc, armada_nbget, armada_nbput, armada_nbacc, armada_nbwait, &
            armada_nbtest, armada_strided_get, armada_strided_put, armada_strided_acc, armada_periodic_get, &
            armada_periodic_put, armada_periodic_acc, armada_gather, armada_scatter, armada_scatter_acc, &
            armada_read_inc
  ! local access and ghosts
  public :: armada_access, armada_release, armada_update_ghosts
  ! collective operations on arrays
  public :: armada_fill, armada_zero, armada_scale, armada_add_constant, armada_abs, armada_reciprocal, &
            armada_copy, armada_copy_patch, armada_add, armada_elem_multiply, armada_elem_divide, &
            armada_elem_max, armada_elem_min, armada_dot, armada_norm1, armada_norm_infinity, &
            armada_select_elem, armada_print, armada_summary
  ! collectives on Fortran arrays
  public :: armada_gop, armada_brdcst
  ! parallel HDF5 I/O (docs/io.md)
  public :: armada_io_available, armada_save, armada_load, armada_load_into, armada_load_patch, &
            armada_checkpoint, armada_restart
  ! linear algebra (module armada_linalg)
  public :: armada_gemm, armada_matmul_patch, armada_transpose, armada_symmetrize, armada_lu_solve, &
            armada_cholesky_solve, armada_eigen_symmetric, armada_inverse, armada_cholesky_inverse

contains

  ! ================================ runtime ==================================================
  ! Starts Armada on MPI_COMM_WORLD (starting MPI unless the program did), or on `comm`, a
  ! communicator of a program that called MPI_Init itself: the old mpi module's INTEGER handle
  ! or mpi_f08's comm%MPI_VAL. Collective.
  subroutine armada_init(comm, stat, errmsg)
    integer, intent(in), optional :: comm
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    if (present(comm)) then
      call finish(ga(armada_ga_initialize_fcomm(comm)), stat, errmsg, 'armada_init')
    else
      call finish(ga(armada_ga_initialize()), stat, errmsg, 'armada_init')
    end if
  end subroutine

  ! armada_finalize([stat, errmsg]): destroys every array and mutex set, stops Armada (and MPI if
  ! armada_init started it). It and every procedure below that only calls one C function with
  ! its integer arguments are generated (module armada_forwarders, from the table in
  ! fortran/cmake/GenerateForwarders.cmake); their comments stay here, in the module's order.
  logical function armada_initialized(stat, errmsg)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: flag
    flag = 0
    call finish(ga(armada_ga_initialized(flag)), stat, errmsg, 'armada_initialized')
    armada_initialized = flag /= 0
  end function

  ! This rank (0 .. size-1) and the number of ranks (GA_Nodeid, GA_Nnodes).
  integer function armada_rank(stat, errmsg)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_rank = -1
    call finish(ga(armada_ga_rank(armada_rank)), stat, errmsg, 'armada_rank')
  end function
  integer function armada_size(stat, errmsg)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_size = 0
    call finish(ga(armada_ga_size(armada_size)), stat, errmsg, 'armada_size')
  end function

  ! Nodes: ranks sharing memory (GA_Cluster_nnodes, GA_Cluster_nodeid, ...). Nodes, and ranks
  ! within a node, count from 0.
  integer function armada_node_count(stat, errmsg)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_node_count = 0
    call finish(ga(armada_ga_node_count(armada_node_count)), stat, errmsg, 'armada_node_count')
  end function
  integer function armada_node_of(rank, stat, errmsg)
    integer, intent(in) :: rank
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_node_of = -1
    call finish(ga(armada_ga_node_of(rank, armada_node_of)), stat, errmsg, 'armada_node_of')
  end function
  integer function armada_node_size(node, stat, errmsg)
    integer, intent(in) :: node
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_node_size = 0
    call finish(ga(armada_ga_node_size(node, armada_node_size)), stat, errmsg, 'armada_node_size')
  end function
  ! The i-th rank (i from 0) of `node`.
  integer function armada_node_rank(node, i, stat, errmsg)
    integer, intent(in) :: node, i
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_node_rank = -1
    call finish(ga(armada_ga_node_rank(node, i, armada_node_rank)), stat, errmsg, 'armada_node_rank')
  end function

  ! armada_sync, armada_sync_group(g) (GA_Sync): complete this rank's operations and barrier the
  ! world (or the array's group).
  ! armada_fence(rank), armada_fence_all: remote completion of this rank's operations to `rank`,
  ! or to every rank (GA_Fence).
  ! ================================ groups and mutexes =======================================
  ! A group of the listed ranks of `parent` (default: the world), in that order. Collective over
  ! the parent.
  subroutine armada_group_create(ranks, group, parent, stat, errmsg)
    integer, intent(in) :: ranks(:)
    integer, intent(out) :: group
    integer, intent(in), optional :: parent
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: p
    integer(c_int), allocatable :: list(:)
    p = ARMADA_GA_GROUP_WORLD
    if (present(parent)) p = parent
    allocate (list, source=ranks)
    group = -1
    call finish(ga(armada_ga_group_create(p, size(list), list, group)), stat, errmsg, 'armada_group_create')
  end subroutine
  ! armada_group_destroy(group), armada_group_sync(group): generated (as armada_finalize).
  integer function armada_group_size(group, stat, errmsg)
    integer, intent(in) :: group
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_group_size = 0
    call finish(ga(armada_ga_group_size(group, armada_group_size)), stat, errmsg, 'armada_group_size')
  end function
  ! This rank's rank in the group, -1 if it is not a member.
  integer function armada_group_rank(group, stat, errmsg)
    integer, intent(in) :: group
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_group_rank = -1
    call finish(ga(armada_ga_group_rank(group, armada_group_rank)), stat, errmsg, 'armada_group_rank')
  end function
  integer function armada_group_world_rank(group, group_rank, stat, errmsg)
    integer, intent(in) :: group, group_rank
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_group_world_rank = -1
    call finish(ga(armada_ga_group_world_rank(group, group_rank, armada_group_world_rank)), stat, errmsg, 'armada_group_world_rank')
  end function

  ! `count` mutexes on every member of `group` (default: the world); a mutex is named by its
  ! index (from 0) and the rank holding it. Collective.
  subroutine armada_mutexes_create(count, set, group, stat, errmsg)
    integer, intent(in) :: count
    integer, intent(out) :: set
    integer, intent(in), optional :: group
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: g
    g = ARMADA_GA_GROUP_WORLD
    if (present(group)) g = group
    set = -1
    call finish(ga(armada_ga_mutexes_create(count, g, set)), stat, errmsg, 'armada_mutexes_create')
  end subroutine
  ! armada_mutexes_destroy(set), armada_mutex_lock(set, mutex, rank), armada_mutex_unlock(set,
  ! mutex, rank): generated. Unlock completes this rank's operations first: the next holder sees
  ! what was written under the lock.
  logical function armada_mutex_trylock(set, mutex, rank, stat, errmsg)
    integer, intent(in) :: set, mutex, rank
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: acquired
    acquired = 0
    call finish(ga(armada_ga_mutex_trylock(set, mutex, rank, acquired)), stat, errmsg, 'armada_mutex_trylock')
    armada_mutex_trylock = acquired /= 0
  end function

  ! ================================ creation and inquiry =====================================
  ! Creates array g of ARMADA_* `type` with extents `dims` (Fortran order), collective over
  ! `group` (default: the world). Every GA creation variant, by keyword:
  !   chunk(ndim)   minimum block extents (GA's chunk; <= 0: no limit)
  !   grid(ndim)    blocks per dimension (the process grid)
  !   nblock(ndim), map(sum(nblock))  irregular blocks: map holds the first index of each block,
  !                 dimension after dimension (NGA_Create_irreg)
  !   ghosts(ndim)  ghost-cell widths (NGA_Create_ghosts)
  subroutine armada_create(type, dims, g, name, chunk, grid, nblock, map, ghosts, group, stat, errmsg)
    integer, intent(in) :: type, dims(:)
    integer, intent(out) :: g
    character(len=*), intent(in), optional :: name
    integer, intent(in), optional :: chunk(:), grid(:), nblock(:), map(:), ghosts(:)
    integer, intent(in), optional :: group
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_create'
    integer(c_int64_t), allocatable :: cchunk(:), cgrid(:), cnblock(:), cmap(:), cghosts(:)
    integer(c_int) :: code, n, grp
    n = size(dims)
    g = 0
    grp = ARMADA_GA_GROUP_WORLD
    if (present(group)) grp = group
    code = ARMADA_GA_OK
    if (present(chunk)) call take(chunk, 'chunk', cchunk)
    if (present(grid)) call take(grid, 'grid', cgrid)
    if (present(nblock)) call take(nblock, 'nblock', cnblock)
    if (present(ghosts)) call take(ghosts, 'ghosts', cghosts)
    if (present(map)) cmap = i64(map)
    if (code == ARMADA_GA_OK .and. (present(nblock) .neqv. present(map))) &
      code = reject(op, 'irregular blocks need both nblock and map')
    if (code == ARMADA_GA_OK .and. present(nblock) .and. present(map)) then
      if (size(map) /= sum(nblock)) code = reject(op, "argument 'map' must have sum(nblock) entries")
    end if
    if (code == ARMADA_GA_OK) then
      if (present(name)) then
        code = ga(armada_gaf_create_full(type, n, i64(dims), cstr(name), cgrid, cchunk, cnblock, cmap, &
                                         cghosts, grp, g))
      else
        code = ga(armada_gaf_create_full(type, n, i64(dims), grid=cgrid, chunk=cchunk, nblock=cnblock, map=cmap, &
                                         width=cghosts, group=grp, handle=g))
      end if
    end if
    call finish(code, stat, errmsg, 'armada_create')
  contains
    subroutine take(x, arg, out)
      integer, intent(in) :: x(:)
      character(len=*), intent(in) :: arg
      integer(c_int64_t), allocatable, intent(out) :: out(:)
      if (code == ARMADA_GA_OK) code = tuple_size(op, arg, size(x), n)
      out = i64(x)
    end subroutine
  end subroutine

  ! Same type, distribution, ghosts and group; contents not copied (GA_Duplicate). Collective.
  subroutine armada_duplicate(g, new, name, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out) :: new
    character(len=*), intent(in), optional :: name
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    new = 0
    if (present(name)) then
      call finish(ga(armada_ga_duplicate(g, cstr(name), new)), stat, errmsg, 'armada_duplicate')
    else
      call finish(ga(armada_ga_duplicate(g, cstr(''), new)), stat, errmsg, 'armada_duplicate')
    end if
  end subroutine

  ! armada_destroy(g): generated.

  ! .true. if g names a live array.
  logical function armada_valid(g, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: flag
    flag = 0
    call finish(ga(armada_ga_valid(g, flag)), stat, errmsg, 'armada_valid')
    armada_valid = flag /= 0
  end function

  ! Element type (ARMADA_*), rank and extents (Fortran order; dims needs ndim entries).
  subroutine armada_inquire(g, type, ndim, dims, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out), optional :: type, ndim, dims(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: t, n, code
    integer(c_int64_t) :: d(ARMADA_GA_MAX_DIM)
    code = ga(armada_gaf_inquire(g, t, n, d))
    if (code == ARMADA_GA_OK) then
      if (present(type)) type = t
      if (present(ndim)) ndim = n
      if (present(dims)) then
        if (size(dims) < n) then
          code = reject('armada_inquire', "argument 'dims' is shorter than the array's rank")
        else
          dims(1:n) = int(d(1:n))
        end if
      end if
    end if
    call finish(code, stat, errmsg, 'armada_inquire')
  end subroutine

  function armada_name(g, stat, errmsg) result(name)
    integer, intent(in) :: g
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=:), allocatable :: name
    type(c_ptr) :: p
    integer(c_int) :: code
    p = c_null_ptr
    code = ga(armada_ga_name(g, p))
    name = c_string(p)
    call finish(code, stat, errmsg, 'armada_name')
  end function

  ! Ghost widths and blocks per dimension (ndim entries each).
  subroutine armada_ghost_width(g, width, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out) :: width(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: w(ARMADA_GA_MAX_DIM)
    integer(c_int) :: code
    code = out_tuple('armada_ghost_width', g, 'width', size(width))
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_ghosts(g, w))
    if (code == ARMADA_GA_OK) width = int(w(1:size(width)))
    call finish(code, stat, errmsg, 'armada_ghost_width')
  end subroutine
  subroutine armada_grid(g, grid, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out) :: grid(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: w(ARMADA_GA_MAX_DIM)
    integer(c_int) :: code
    code = out_tuple('armada_grid', g, 'grid', size(grid))
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_grid(g, w))
    if (code == ARMADA_GA_OK) grid = int(w(1:size(grid)))
    call finish(code, stat, errmsg, 'armada_grid')
  end subroutine

  ! The handle of the array's group.
  integer function armada_group(g, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_group = -1
    call finish(ga(armada_ga_group(g, armada_group)), stat, errmsg, 'armada_group')
  end function

  ! The block [lo, hi] of `rank` (NGA_Distribution); lo > hi somewhere: it owns nothing.
  subroutine armada_distribution(g, rank, lo, hi, stat, errmsg)
    integer, intent(in) :: g, rank
    integer, intent(out) :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: l(ARMADA_GA_MAX_DIM), h(ARMADA_GA_MAX_DIM)
    integer(c_int) :: code
    code = out_tuple('armada_distribution', g, 'lo', size(lo))
    if (code == ARMADA_GA_OK) code = out_tuple('armada_distribution', g, 'hi', size(hi))
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_distribution(g, rank, l, h))
    if (code == ARMADA_GA_OK) then
      lo = int(l(1:size(lo)))
      hi = int(h(1:size(hi)))
    end if
    call finish(code, stat, errmsg, 'armada_distribution')
  end subroutine

  ! The rank owning element `index` (NGA_Locate).
  integer function armada_locate(g, index, stat, errmsg)
    integer, intent(in) :: g, index(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: code, t, n
    armada_locate = -1
    code = array_info(g, t, n)
    if (code == ARMADA_GA_OK) code = tuple_size('armada_locate', 'index', size(index), n)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_locate(g, i64(index), armada_locate))
    call finish(code, stat, errmsg, 'armada_locate')
  end function

  ! The owners of patch [lo, hi] (NGA_Locate_region): `count` of them; the first size(ranks)
  ! are stored in ranks and, one column each, in los(ndim, :) and his(ndim, :).
  subroutine armada_locate_region(g, lo, hi, count, ranks, los, his, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    integer, intent(out) :: count
    integer, intent(out), optional :: ranks(:), los(:, :), his(:, :)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(patch_t) :: p
    integer(c_int) :: code, room
    integer(c_int), allocatable :: r(:)
    integer(c_int64_t), allocatable :: l(:, :), h(:, :)
    count = 0
    code = patch_of('armada_locate_region', g, lo, hi, p)
    if (code == ARMADA_GA_OK) then
      room = 0  ! owners stored: as many as every given output holds (none without ranks)
      if (present(ranks)) room = size(ranks)
      if (present(los)) room = min(room, size(los, 2))
      if (present(his)) room = min(room, size(his, 2))
      allocate (r(max(1, room)), l(p%ndim, max(1, room)), h(p%ndim, max(1, room)))
      code = ga(armada_gaf_locate_region(g, p%lo, p%hi, room, r, l, h, count))
      if (code == ARMADA_GA_OK .and. room > 0) then
        if (present(ranks)) ranks(1:min(room, count)) = r(1:min(room, count))
        if (present(los)) los(1:p%ndim, 1:min(room, count)) = int(l(:, 1:min(room, count)))
        if (present(his)) his(1:p%ndim, 1:min(room, count)) = int(h(:, 1:min(room, count)))
      end if
    end if
    call finish(code, stat, errmsg, 'armada_locate_region')
  end subroutine

  ! An output tuple needs room for the array's rank.
  integer(c_int) function out_tuple(op, g, arg, have) result(code)
    character(len=*), intent(in) :: op, arg
    integer, intent(in) :: g, have
    integer(c_int) :: t, n
    code = array_info(g, t, n)
    if (code == ARMADA_GA_OK) code = tuple_size(op, arg, have, n)
  end function

  ! ================================ one-sided patch operations ===============================
  ! buf holds the patch [lo, hi] column-major, dense, or with leading dimensions ld(ndim-1)
  ! (GA's ld). Any rank alone; a blocking put/acc returns when buf may be reused.
  subroutine armada_get(g, lo, hi, buf, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_get'
    type(patch_t) :: p
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_get(g, p%lo, p%hi, p%buf, p%ld))
    call finish(code, stat, errmsg, 'armada_get')
  end subroutine
  subroutine armada_put(g, lo, hi, buf, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_put'
    type(patch_t) :: p
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_put(g, p%lo, p%hi, p%buf, p%ld))
    call finish(code, stat, errmsg, 'armada_put')
  end subroutine
  ! g[lo:hi] += alpha * buf, atomically per element.
  subroutine armada_acc(g, lo, hi, buf, alpha, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(in) :: buf, alpha
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_acc'
    type(patch_t) :: p
    type(c_ptr) :: a
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, alpha, 1_c_int64_t, 'alpha', a, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_acc(g, p%lo, p%hi, p%buf, p%ld, a))
    call finish(code, stat, errmsg, 'armada_acc')
  end subroutine

  ! Nonblocking forms: `request` names the operation until armada_nbwait. buf must stay in
  ! place until then (give it the ASYNCHRONOUS or TARGET attribute, never pass an expression).
  subroutine armada_nbget(g, lo, hi, buf, request, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), intent(inout), asynchronous :: buf
    integer, intent(out) :: request
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_nbget'
    type(patch_t) :: p
    integer(c_int) :: code
    request = 0
    code = patch_of(op, g, lo, hi, p, ld=ld, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_nbget(g, p%lo, p%hi, p%buf, p%ld, request))
    call finish(code, stat, errmsg, 'armada_nbget')
  end subroutine
  subroutine armada_nbput(g, lo, hi, buf, request, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), intent(in), asynchronous :: buf
    integer, intent(out) :: request
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_nbput'
    type(patch_t) :: p
    integer(c_int) :: code
    request = 0
    code = patch_of(op, g, lo, hi, p, ld=ld, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_nbput(g, p%lo, p%hi, p%buf, p%ld, request))
    call finish(code, stat, errmsg, 'armada_nbput')
  end subroutine
  subroutine armada_nbacc(g, lo, hi, buf, alpha, request, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), intent(in), asynchronous :: buf
    type(*), dimension(..), intent(in) :: alpha
    integer, intent(out) :: request
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_nbacc'
    type(patch_t) :: p
    type(c_ptr) :: a
    integer(c_int) :: code
    request = 0
    code = patch_of(op, g, lo, hi, p, ld=ld, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, alpha, 1_c_int64_t, 'alpha', a, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_nbacc(g, p%lo, p%hi, p%buf, p%ld, a, request))
    call finish(code, stat, errmsg, 'armada_nbacc')
  end subroutine
  ! armada_nbwait(request), generated: completes the request and retires its number (NGA_NbWait).
  ! .true. once the request has completed (armada_nbwait it still, which then returns at once).
  logical function armada_nbtest(request, stat, errmsg)
    integer, intent(in) :: request
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: done
    done = 0
    call finish(ga(armada_ga_nbtest(request, done)), stat, errmsg, 'armada_nbtest')
    armada_nbtest = done /= 0
  end function

  ! Every skip(d)-th element of [lo, hi] (NGA_Strided_get ...); buf dense over those elements.
  subroutine armada_strided_get(g, lo, hi, skip, buf, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:), skip(:)
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_strided_get'
    type(patch_t) :: p
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld, skip=skip, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_strided_get(g, p%lo, p%hi, p%skip, p%buf, p%ld))
    call finish(code, stat, errmsg, 'armada_strided_get')
  end subroutine
  subroutine armada_strided_put(g, lo, hi, skip, buf, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:), skip(:)
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_strided_put'
    type(patch_t) :: p
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld, skip=skip, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_strided_put(g, p%lo, p%hi, p%skip, p%buf, p%ld))
    call finish(code, stat, errmsg, 'armada_strided_put')
  end subroutine
  subroutine armada_strided_acc(g, lo, hi, skip, buf, alpha, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:), skip(:)
    type(*), dimension(..), contiguous, intent(in) :: buf, alpha
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_strided_acc'
    type(patch_t) :: p
    type(c_ptr) :: a
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld, skip=skip, bounded=.true.)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, alpha, 1_c_int64_t, 'alpha', a, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_strided_acc(g, p%lo, p%hi, p%skip, p%buf, p%ld, a))
    call finish(code, stat, errmsg, 'armada_strided_acc')
  end subroutine

  ! Indices wrap around the array's extents (NGA_Periodic_get ...).
  subroutine armada_periodic_get(g, lo, hi, buf, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_periodic_get'
    type(patch_t) :: p
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_periodic_get(g, p%lo, p%hi, p%buf, p%ld))
    call finish(code, stat, errmsg, 'armada_periodic_get')
  end subroutine
  subroutine armada_periodic_put(g, lo, hi, buf, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_periodic_put'
    type(patch_t) :: p
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_periodic_put(g, p%lo, p%hi, p%buf, p%ld))
    call finish(code, stat, errmsg, 'armada_periodic_put')
  end subroutine
  subroutine armada_periodic_acc(g, lo, hi, buf, alpha, ld, stat, errmsg)
    integer, intent(in) :: g, lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(in) :: buf, alpha
    integer, intent(in), optional :: ld(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_periodic_acc'
    type(patch_t) :: p
    type(c_ptr) :: a
    integer(c_int) :: code
    code = patch_of(op, g, lo, hi, p, ld=ld)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, buf, p%need, 'buf', p%buf, g)
    if (code == ARMADA_GA_OK) code = buffer_of(op, p%etype, alpha, 1_c_int64_t, 'alpha', a, g)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_periodic_acc(g, p%lo, p%hi, p%buf, p%ld, a))
    call finish(code, stat, errmsg, 'armada_periodic_acc')
  end subroutine

  ! Element lists: subs(ndim, n) holds n one-based index tuples, values(n) their elements
  ! (NGA_Gather, NGA_Scatter, NGA_Scatter_acc: repeated elements accumulate once each).
  subroutine armada_gather(g, subs, values, stat, errmsg)
    integer, intent(in) :: g, subs(:, :)
    type(*), dimension(..), contiguous, intent(inout) :: values
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: v
    integer(c_int) :: code
    code = element_list('armada_gather', g, subs, values, v)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_gather(g, size(subs, 2, c_int64_t), i64(subs), v))
    call finish(code, stat, errmsg, 'armada_gather')
  end subroutine
  subroutine armada_scatter(g, subs, values, stat, errmsg)
    integer, intent(in) :: g, subs(:, :)
    type(*), dimension(..), contiguous, intent(in) :: values
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: v
    integer(c_int) :: code
    code = element_list('armada_scatter', g, subs, values, v)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_scatter(g, size(subs, 2, c_int64_t), i64(subs), v))
    call finish(code, stat, errmsg, 'armada_scatter')
  end subroutine
  subroutine armada_scatter_acc(g, subs, values, alpha, stat, errmsg)
    integer, intent(in) :: g, subs(:, :)
    type(*), dimension(..), contiguous, intent(in) :: values, alpha
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: v, a
    integer(c_int) :: code
    code = element_list('armada_scatter_acc', g, subs, values, v)
    if (code == ARMADA_GA_OK) code = scalar_of('armada_scatter_acc', g, alpha, 'alpha', a)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_scatter_acc(g, size(subs, 2, c_int64_t), i64(subs), v, a))
    call finish(code, stat, errmsg, 'armada_scatter_acc')
  end subroutine
  integer(c_int) function element_list(op, g, subs, values, v) result(code)
    character(len=*), intent(in) :: op
    integer, intent(in) :: g, subs(:, :)
    type(*), dimension(..), contiguous, intent(in) :: values
    type(c_ptr), intent(out) :: v
    integer(c_int) :: t, n
    code = array_info(g, t, n)
    if (code == ARMADA_GA_OK) code = tuple_size(op, 'subs (its first extent)', size(subs, 1), n)
    if (code == ARMADA_GA_OK) code = buffer_of(op, t, values, size(subs, 2, c_int64_t), 'values', v, g)
  end function

  ! Atomic fetch-and-add on an integer(4) or integer(8) element (NGA_Read_inc): returns the
  ! old value. The task counter of GA programs.
  integer(c_long) function armada_read_inc(g, index, inc, stat, errmsg)
    integer, intent(in) :: g, index(:)
    integer, intent(in), optional :: inc
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: code, t, n
    integer(c_long) :: increment
    increment = 1
    if (present(inc)) increment = inc
    armada_read_inc = 0
    code = array_info(g, t, n)
    if (code == ARMADA_GA_OK) code = tuple_size('armada_read_inc', 'index', size(index), n)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_read_inc(g, i64(index), increment, armada_read_inc))
    call finish(code, stat, errmsg, 'armada_read_inc')
  end function

  ! ================================ local access and ghosts ==================================
  ! Ends an armada_access: update = .true. if the block was modified (NGA_Release_update).
  subroutine armada_release(g, update, stat, errmsg)
    integer, intent(in) :: g
    logical, intent(in), optional :: update
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    logical :: modified
    modified = .false.
    if (present(update)) modified = update
    if (modified) then
      call finish(ga(armada_ga_release_update(g)), stat, errmsg, 'armada_release')
    else
      call finish(ga(armada_ga_release(g)), stat, errmsg, 'armada_release')
    end if
  end subroutine

  ! Fills the ghost cells from their owners (periodic: wrapping around the edges). Collective.
  subroutine armada_update_ghosts(g, periodic, stat, errmsg)
    integer, intent(in) :: g
    logical, intent(in), optional :: periodic
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: wrap
    wrap = 0
    if (present(periodic)) then
      if (periodic) wrap = 1
    end if
    call finish(ga(armada_ga_update_ghosts(g, wrap)), stat, errmsg, 'armada_update_ghosts')
  end subroutine

  ! ================================ collective operations on arrays ==========================
  ! Collective over the array's group. The optional lo/hi restrict them to a patch.
  subroutine armada_fill(g, value, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    type(*), dimension(..), intent(in) :: value
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call scalar_op('armada_fill', g, value, lo, hi, armada_ga_fill, armada_gaf_fill_patch, stat, errmsg)
  end subroutine
  subroutine armada_scale(g, alpha, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    type(*), dimension(..), intent(in) :: alpha
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call scalar_op('armada_scale', g, alpha, lo, hi, armada_ga_scale, armada_gaf_scale_patch, stat, errmsg)
  end subroutine
  subroutine armada_add_constant(g, alpha, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    type(*), dimension(..), intent(in) :: alpha
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call scalar_op('armada_add_constant', g, alpha, lo, hi, armada_ga_add_constant, armada_gaf_add_constant_patch, &
                   stat, errmsg)
  end subroutine
  subroutine armada_zero(g, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call unary_op('armada_zero', g, lo, hi, armada_ga_zero, armada_gaf_zero_patch, stat, errmsg)
  end subroutine
  subroutine armada_abs(g, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call unary_op('armada_abs', g, lo, hi, armada_ga_abs, armada_gaf_abs_patch, stat, errmsg)
  end subroutine
  subroutine armada_reciprocal(g, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call unary_op('armada_reciprocal', g, lo, hi, armada_ga_reciprocal, armada_gaf_reciprocal_patch, stat, errmsg)
  end subroutine

  ! The shared body of fill, scale and add_constant: a scalar, on the array or on a patch.
  subroutine scalar_op(op, g, x, lo, hi, whole, patch, stat, errmsg)
    character(len=*), intent(in) :: op
    integer, intent(in) :: g
    type(*), dimension(..), intent(in) :: x
    integer, intent(in), optional :: lo(:), hi(:)
    procedure(armada_ga_fill) :: whole  ! as armada_ga_fill and armada_gaf_fill_patch (module armada_c)
    procedure(armada_gaf_fill_patch) :: patch
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(patch_t) :: p
    type(c_ptr) :: a
    logical :: on_patch
    integer(c_int) :: code
    code = optional_patch(op, present(lo), present(hi), on_patch)
    if (code == ARMADA_GA_OK) code = scalar_of(op, g, x, 'value', a)
    if (code == ARMADA_GA_OK) then
      if (on_patch) then
        code = patch_of(op, g, lo, hi, p)
        if (code == ARMADA_GA_OK) code = ga(patch(g, p%lo, p%hi, a))
      else
        code = ga(whole(g, a))
      end if
    end if
    call finish(code, stat, errmsg, op)
  end subroutine
  ! The shared body of zero, abs and reciprocal.
  subroutine unary_op(op, g, lo, hi, whole, patch, stat, errmsg)
    character(len=*), intent(in) :: op
    integer, intent(in) :: g
    integer, intent(in), optional :: lo(:), hi(:)
    procedure(armada_ga_zero) :: whole  ! as armada_ga_zero and armada_gaf_zero_patch (module armada_c)
    procedure(armada_gaf_zero_patch) :: patch
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(patch_t) :: p
    logical :: on_patch
    integer(c_int) :: code
    code = optional_patch(op, present(lo), present(hi), on_patch)
    if (code == ARMADA_GA_OK) then
      if (on_patch) then
        code = patch_of(op, g, lo, hi, p)
        if (code == ARMADA_GA_OK) code = ga(patch(g, p%lo, p%hi))
      else
        code = ga(whole(g))
      end if
    end if
    call finish(code, stat, errmsg, op)
  end subroutine

  ! b = a (armada_copy(a, b), generated; GA_Copy), or b[blo:bhi] = a[alo:ahi] with equal element
  ! counts (NGA_Copy_patch; transpose = .true.: every dimension reversed).
  subroutine armada_copy_patch(a, alo, ahi, b, blo, bhi, transpose, stat, errmsg)
    integer, intent(in) :: a, alo(:), ahi(:), b, blo(:), bhi(:)
    logical, intent(in), optional :: transpose
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(patch_t) :: pa, pb
    integer(c_int) :: code, t
    t = 0
    if (present(transpose)) then
      if (transpose) t = 1
    end if
    code = patch_of('armada_copy_patch', a, alo, ahi, pa)
    if (code == ARMADA_GA_OK) code = patch_of('armada_copy_patch', b, blo, bhi, pb)
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_copy_patch(a, pa%lo, pa%hi, b, pb%lo, pb%hi, t))
    call finish(code, stat, errmsg, 'armada_copy_patch')
  end subroutine

  ! c = alpha a + beta b (GA_Add / NGA_Add_patch with all six patch bounds).
  subroutine armada_add(alpha, a, beta, b, c, alo, ahi, blo, bhi, clo, chi, stat, errmsg)
    type(*), dimension(..), intent(in) :: alpha, beta
    integer, intent(in) :: a, b, c
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:), clo(:), chi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_add'
    type(patch_t) :: pa, pb, pc
    type(c_ptr) :: x, y
    logical :: on_patch
    integer(c_int) :: code
    code = three_patches(op, a, b, c, pa, pb, pc, on_patch, alo, ahi, blo, bhi, clo, chi)
    if (code == ARMADA_GA_OK) code = scalar_of(op, a, alpha, 'alpha', x)
    if (code == ARMADA_GA_OK) code = scalar_of(op, a, beta, 'beta', y)
    if (code == ARMADA_GA_OK) then
      if (on_patch) then
        code = ga(armada_gaf_add_patch(x, a, pa%lo, pa%hi, y, b, pb%lo, pb%hi, c, pc%lo, pc%hi))
      else
        code = ga(armada_ga_add(x, a, y, b, c))
      end if
    end if
    call finish(code, stat, errmsg, 'armada_add')
  end subroutine

  ! c = a .* b, a ./ b, max(a, b), min(a, b) element by element (GA_Elem_multiply ...).
  subroutine armada_elem_multiply(a, b, c, alo, ahi, blo, bhi, clo, chi, stat, errmsg)
    integer, intent(in) :: a, b, c
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:), clo(:), chi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call binary_op('armada_elem_multiply', armada_ga_elem_multiply, armada_gaf_elem_multiply_patch, a, b, c, &
                   alo, ahi, blo, bhi, clo, chi, stat, errmsg)
  end subroutine
  subroutine armada_elem_divide(a, b, c, alo, ahi, blo, bhi, clo, chi, stat, errmsg)
    integer, intent(in) :: a, b, c
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:), clo(:), chi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call binary_op('armada_elem_divide', armada_ga_elem_divide, armada_gaf_elem_divide_patch, a, b, c, &
                   alo, ahi, blo, bhi, clo, chi, stat, errmsg)
  end subroutine
  subroutine armada_elem_max(a, b, c, alo, ahi, blo, bhi, clo, chi, stat, errmsg)
    integer, intent(in) :: a, b, c
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:), clo(:), chi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call binary_op('armada_elem_max', armada_ga_elem_max, armada_gaf_elem_max_patch, a, b, c, &
                   alo, ahi, blo, bhi, clo, chi, stat, errmsg)
  end subroutine
  subroutine armada_elem_min(a, b, c, alo, ahi, blo, bhi, clo, chi, stat, errmsg)
    integer, intent(in) :: a, b, c
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:), clo(:), chi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call binary_op('armada_elem_min', armada_ga_elem_min, armada_gaf_elem_min_patch, a, b, c, &
                   alo, ahi, blo, bhi, clo, chi, stat, errmsg)
  end subroutine
  subroutine binary_op(op, whole, patch, a, b, c, alo, ahi, blo, bhi, clo, chi, stat, errmsg)
    character(len=*), intent(in) :: op
    ! The C functions of one element-wise operation: their interfaces are those of one of them
    ! (module armada_c, generated from the C header), so none is restated here.
    procedure(armada_ga_elem_multiply) :: whole
    procedure(armada_gaf_elem_multiply_patch) :: patch
    integer, intent(in) :: a, b, c
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:), clo(:), chi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(patch_t) :: pa, pb, pc
    logical :: on_patch
    integer(c_int) :: code
    code = three_patches(op, a, b, c, pa, pb, pc, on_patch, alo, ahi, blo, bhi, clo, chi)
    if (code == ARMADA_GA_OK) then
      if (on_patch) then
        code = ga(patch(a, pa%lo, pa%hi, b, pb%lo, pb%hi, c, pc%lo, pc%hi))
      else
        code = ga(whole(a, b, c))
      end if
    end if
    call finish(code, stat, errmsg, op)
  end subroutine
  ! Patches of a three-array operation: all six bounds or none.
  integer(c_int) function three_patches(op, a, b, c, pa, pb, pc, on_patch, alo, ahi, blo, bhi, clo, chi) result(code)
    character(len=*), intent(in) :: op
    integer, intent(in) :: a, b, c
    type(patch_t), intent(out) :: pa, pb, pc
    logical, intent(out) :: on_patch
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:), clo(:), chi(:)
    logical :: given(6)
    given = [present(alo), present(ahi), present(blo), present(bhi), present(clo), present(chi)]
    on_patch = all(given)
    code = ARMADA_GA_OK
    if (any(given) .and. .not. on_patch) then
      code = reject(op, 'give all six patch bounds (alo, ahi, blo, bhi, clo, chi) or none')
      return
    end if
    if (.not. on_patch) return
    code = patch_of(op, a, alo, ahi, pa)
    if (code == ARMADA_GA_OK) code = patch_of(op, b, blo, bhi, pb)
    if (code == ARMADA_GA_OK) code = patch_of(op, c, clo, chi, pc)
  end function

  ! result = sum of a(i) * b(i) (no conjugation), a scalar of the arrays' type (GA_Ddot,
  ! NGA_Ddot_patch with alo .. bhi). Collective.
  subroutine armada_dot(a, b, result, alo, ahi, blo, bhi, stat, errmsg)
    integer, intent(in) :: a, b
    type(*), dimension(..), intent(inout) :: result
    integer, intent(in), optional :: alo(:), ahi(:), blo(:), bhi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_dot'
    type(patch_t) :: pa, pb
    type(c_ptr) :: r
    logical :: given(4)
    integer(c_int) :: code
    given = [present(alo), present(ahi), present(blo), present(bhi)]
    code = scalar_of(op, a, result, 'result', r)
    if (code == ARMADA_GA_OK .and. any(given) .and. .not. all(given)) &
      code = reject(op, 'give all four patch bounds (alo, ahi, blo, bhi) or none')
    if (code == ARMADA_GA_OK) then
      if (all(given)) then
        code = patch_of(op, a, alo, ahi, pa)
        if (code == ARMADA_GA_OK) code = patch_of(op, b, blo, bhi, pb)
        if (code == ARMADA_GA_OK) code = ga(armada_gaf_dot_patch(a, pa%lo, pa%hi, b, pb%lo, pb%hi, r))
      else
        code = ga(armada_ga_dot(a, b, r))
      end if
    end if
    call finish(code, stat, errmsg, 'armada_dot')
  end subroutine

  ! 1-D: sum of |x| and largest |x|; 2-D: largest column sum and largest row sum of |a(i, j)|
  ! (GA_Norm1, GA_Norm_infinity).
  real(c_double) function armada_norm1(g, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_norm1 = 0
    call finish(ga(armada_gaf_norm1(g, armada_norm1)), stat, errmsg, 'armada_norm1')
  end function
  real(c_double) function armada_norm_infinity(g, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    armada_norm_infinity = 0
    call finish(ga(armada_gaf_norm_infinity(g, armada_norm_infinity)), stat, errmsg, 'armada_norm_infinity')
  end function

  ! The largest (which = 'max') or smallest ('min') element and its index (NGA_Select_elem;
  ! complex: by modulus). Optional lo/hi: within a patch.
  subroutine armada_select_elem(g, which, value, index, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    character(len=*), intent(in) :: which
    type(*), dimension(..), intent(inout) :: value
    integer, intent(out) :: index(:)
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_select_elem'
    type(patch_t) :: p
    type(c_ptr) :: v
    integer(c_int64_t) :: at(ARMADA_GA_MAX_DIM)
    integer(c_int) :: code, want_max
    logical :: on_patch
    code = optional_patch(op, present(lo), present(hi), on_patch)
    if (code == ARMADA_GA_OK) code = out_tuple(op, g, 'index', size(index))
    if (code == ARMADA_GA_OK) code = scalar_of(op, g, value, 'value', v)
    if (code == ARMADA_GA_OK) then
      select case (which)
      case ('max', 'MAX')
        want_max = 1
      case ('min', 'MIN')
        want_max = 0
      case default
        code = reject(op, "argument 'which' = '" // which // "': 'max' or 'min'")
      end select
    end if
    if (code == ARMADA_GA_OK) then
      if (on_patch) then
        code = patch_of(op, g, lo, hi, p)
        if (code == ARMADA_GA_OK) code = ga(armada_gaf_select_elem_patch(g, p%lo, p%hi, want_max, v, at))
      else
        code = ga(armada_gaf_select_elem(g, want_max, v, at))
      end if
    end if
    if (code == ARMADA_GA_OK) index = int(at(1:size(index)))
    call finish(code, stat, errmsg, 'armada_select_elem')
  end subroutine

  ! Group rank 0 prints the array or a patch; armada_summary: this rank's table of arrays.
  subroutine armada_print(g, lo, hi, stat, errmsg)
    integer, intent(in) :: g
    integer, intent(in), optional :: lo(:), hi(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call unary_op('armada_print', g, lo, hi, armada_ga_print, armada_gaf_print_patch, stat, errmsg)
  end subroutine
  ! armada_summary, generated: this rank's table of live arrays on standard output (GA_Summarize).
  ! Not collective.
  ! ================================ collectives on Fortran arrays ============================
  ! In-place reduction of x (any of the six types, any rank, contiguous) over `group` (default:
  ! the world): op '+', '*', 'max', 'min', 'absmax', 'absmin' (complex: '+' only). GA_Dgop,
  ! GA_Igop, GA_Sgop, GA_Zgop in one.
  subroutine armada_gop(x, op, group, stat, errmsg)
    type(*), dimension(..), contiguous, intent(inout) :: x
    character(len=*), intent(in) :: op
    integer, intent(in), optional :: group
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    type(c_ptr) :: p
    integer(c_int) :: code, t, g
    integer(c_int64_t) :: n
    g = ARMADA_GA_GROUP_WORLD
    if (present(group)) g = group
    code = armada_f_plain_buffer(x, cstr('armada_gop'), cstr('x'), t, n, p)
    if (code == ARMADA_GA_OK) code = ga(armada_ga_gop(g, t, p, n, cstr(op)))
    call finish(code, stat, errmsg, 'armada_gop')
  end subroutine

  ! x on every member of `group` becomes group rank root's x (GA_Brdcst).
  subroutine armada_brdcst(x, root, group, stat, errmsg)
    type(*), dimension(..), contiguous, intent(inout) :: x
    integer, intent(in) :: root
    integer, intent(in), optional :: group
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int64_t), parameter :: bytes(0:5) = [4, 8, 4, 8, 8, 16]
    type(c_ptr) :: p
    integer(c_int) :: code, t, g
    integer(c_int64_t) :: n
    g = ARMADA_GA_GROUP_WORLD
    if (present(group)) g = group
    code = armada_f_plain_buffer(x, cstr('armada_brdcst'), cstr('x'), t, n, p)
    if (code == ARMADA_GA_OK) code = ga(armada_ga_brdcst(g, p, n * bytes(t), root))
    call finish(code, stat, errmsg, 'armada_brdcst')
  end subroutine

  ! ================================ parallel HDF5 I/O (docs/io.md) ===========================
  ! .true. if Armada was built with parallel HDF5 (otherwise the calls below fail with
  ! ARMADA_GA_ERR_UNSUPPORTED).
  logical function armada_io_available()
    integer(c_int) :: flag, code
    flag = 0
    code = armada_ga_io_available(flag)
    armada_io_available = code == ARMADA_GA_OK .and. flag /= 0
  end function

  ! Writes arrays gs (one group, distinct names) to `file`, one dataset each. Collective.
  ! in_place = .true.: a file holding exactly these datasets is rewritten where it lies (faster;
  ! not all-or-nothing: see docs/io.md).
  subroutine armada_save(file, gs, stat, errmsg, in_place)
    character(len=*), intent(in) :: file
    integer, intent(in) :: gs(:)
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    logical, intent(in), optional :: in_place
    logical :: rewrite
    rewrite = .false.
    if (present(in_place)) rewrite = in_place
    if (rewrite) then
      call finish(ga(armada_ga_save_in_place(cstr(file), size(gs), int(gs, c_int))), stat, errmsg, 'armada_save')
    else
      call finish(ga(armada_ga_save(cstr(file), size(gs), int(gs, c_int))), stat, errmsg, 'armada_save')
    end if
  end subroutine

  ! A new array g holding dataset `name` of `file` (regular distribution on `group`, default the
  ! world). Collective over the group.
  subroutine armada_load(file, name, g, group, stat, errmsg)
    character(len=*), intent(in) :: file, name
    integer, intent(out) :: g
    integer, intent(in), optional :: group
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: grp, h
    grp = ARMADA_GA_GROUP_WORLD
    if (present(group)) grp = group
    h = 0
    call finish(ga(armada_ga_load(cstr(file), cstr(name), grp, h)), stat, errmsg)
    g = h
  end subroutine

  ! Dataset `name` into existing array g (same extents and type). Collective over its group.
  subroutine armada_load_into(file, name, g, stat, errmsg)
    character(len=*), intent(in) :: file, name
    integer, intent(in) :: g
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    call finish(ga(armada_ga_load_into(cstr(file), cstr(name), g)), stat, errmsg)
  end subroutine

  ! Patch lo:hi (one-based, inclusive, Fortran order) of dataset `name` into existing array g whose
  ! extents are the patch's. Collective over its group.
  subroutine armada_load_patch(file, name, lo, hi, g, stat, errmsg)
    character(len=*), intent(in) :: file, name
    integer, intent(in) :: lo(:), hi(:), g
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    character(len=*), parameter :: op = 'armada_load_patch'
    integer(c_int) :: code
    code = tuple_size(op, 'hi', size(hi), size(lo))
    if (code == ARMADA_GA_OK) code = ga(armada_gaf_load_patch(cstr(file), cstr(name), i64(lo), i64(hi), g))
    call finish(code, stat, errmsg)
  end subroutine

  ! Checkpoint `step` of arrays gs as "<prefix>.<step>.h5", complete or absent; the `keep` newest
  ! (default 2) are kept. Collective over the arrays' group.
  subroutine armada_checkpoint(prefix, step, gs, keep, stat, errmsg)
    character(len=*), intent(in) :: prefix
    integer, intent(in) :: step, gs(:)
    integer, intent(in), optional :: keep
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_int) :: k
    k = 2
    if (present(keep)) k = keep
    call finish(ga(armada_ga_checkpoint(cstr(prefix), int(step, c_long), size(gs), int(gs, c_int), k)), stat, errmsg)
  end subroutine

  ! Loads gs from the newest complete checkpoint of prefix; step is its step, or -1 (arrays
  ! untouched) when there is none. Collective.
  subroutine armada_restart(prefix, gs, step, stat, errmsg)
    character(len=*), intent(in) :: prefix
    integer, intent(in) :: gs(:)
    integer, intent(out) :: step
    integer, intent(out), optional :: stat
    character(len=*), intent(inout), optional :: errmsg
    integer(c_long) :: found
    found = -1
    call finish(ga(armada_ga_restart(cstr(prefix), size(gs), int(gs, c_int), found)), stat, errmsg)
    step = int(found)
  end subroutine

end module armada
