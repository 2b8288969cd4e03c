# armada_add_mpi_test(<target>
#     RANKS <n>...                      one ctest case per rank count: <name>.np<n>
#     [NAME <name>]                     test name stem (default: <target>)
#     [ENV VAR=VALUE ...]               extra environment (e.g. ARMADA_NODE_SIZE=2 for virtual nodes)
#     [ARGS ...]                        arguments for the test program
#     [TIMEOUT <seconds>]               kill the whole launch after this long (default 300)
#     [LABELS ...]
#     [EXPECT_FAILURE <regex>]          the case passes only if the job fails and prints <regex>
#     [EXPECT_TIMEOUT])                 the case passes only if the job is killed by its timeout
#
# Every launch is `timeout <T> mpiexec -n <n> <flags> <exe> <args>`, so a hang ends at <T> with
# exit code 124 instead of holding CI; ctest's own TIMEOUT stays as a backstop a little later.
# Open MPI additionally gets --oversubscribe (tests run up to 4 ranks on 2 cores), --bind-to none
# (oversubscribed ranks must not share one core) and the variables that let it run as root.

find_program(ARMADA_TIMEOUT_EXECUTABLE timeout REQUIRED)

set(ARMADA_MPIEXEC_PREFLAGS "" CACHE STRING "Extra flags for every test launch, before the program")
set(_armada_vendor_flags "")
set(_armada_vendor_env "")
if(ARMADA_MPI_VENDOR STREQUAL "openmpi")
  set(_armada_vendor_flags --oversubscribe --bind-to none)
  set(_armada_vendor_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                         # Tests run on one machine: shared memory and self only. This keeps the
                         # openib BTL from probing for absent hardware, and the TCP BTL (whose
                         # internal lock order ThreadSanitizer reports) out of the picture.
                         OMPI_MCA_btl=self,vader)
endif()
# The mpi-rma transport's one-sided components (docs/mpi-quirks.md). ARMADA_MPI_RMA_ENV is what
# rma::init selects when it starts MPI itself (Open MPI: osc sm for windows inside one host,
# osc ucx for the rest); ARMADA_MPI_RMA_UCX_ENV forces the inter-node component (osc ucx) on
# every window, so one machine also runs the path clusters take. Other MPIs: their default.
set(ARMADA_MPI_RMA_ENV "")
set(ARMADA_MPI_RMA_UCX_ENV "")
if(ARMADA_MPI_VENDOR STREQUAL "openmpi")
  if(ARMADA_SANITIZE MATCHES "thread")
    # Under ThreadSanitizer, loading osc ucx crashes every process when a thread exits: glibc
    # releases the stack through Open MPI's memory hooks into libucm, whose rwlock TSan
    # intercepts after it tore the thread's state down. osc sm alone still runs the transport's
    # own threading (progress thread, pending table, mutex slots) on MPI_Win_allocate windows;
    # the variants that need osc ucx (Win_create windows, osc ucx everywhere) are left out.
    set(ARMADA_MPI_RMA_ENV OMPI_MCA_osc=sm)
    set(ARMADA_MPI_RMA_NEEDS_UCX_SKIPPED ON)
  else()
    set(ARMADA_MPI_RMA_ENV OMPI_MCA_osc=sm,ucx)
    set(ARMADA_MPI_RMA_UCX_ENV OMPI_MCA_osc=ucx)
  endif()
endif()
set(ARMADA_EXPECT_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/armada-expect.sh")
if(ARMADA_SANITIZE MATCHES "thread")
  # Reports inside Open MPI's (uninstrumented) progress engine; see the file.
  # history_size=7: the deepest access history, so that the stack of a write done inside Open MPI
  # can be restored and matched by the suppressions (otherwise "failed to restore the stack").
  list(APPEND _armada_vendor_env "TSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/tsan.supp history_size=7")
endif()

function(armada_add_mpi_test target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXPECT_TIMEOUT" "NAME;TIMEOUT;EXPECT_FAILURE"
                        "RANKS;ENV;ARGS;LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "armada_add_mpi_test(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_RANKS)
    message(FATAL_ERROR "armada_add_mpi_test(${target}): RANKS is required")
  endif()
  if(NOT arg_NAME)
    set(arg_NAME ${target})
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 300)
  endif()
  math(EXPR backstop "${arg_TIMEOUT} + 30")

  foreach(n IN LISTS arg_RANKS)
    set(launch ${ARMADA_TIMEOUT_EXECUTABLE} --kill-after=10 ${arg_TIMEOUT}
               ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n}
               ${_armada_vendor_flags} ${ARMADA_MPIEXEC_PREFLAGS} ${MPIEXEC_PREFLAGS}
               $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS} ${arg_ARGS})
    if(arg_EXPECT_TIMEOUT)
      set(launch ${ARMADA_EXPECT_SCRIPT} timeout - $<TARGET_FILE_NAME:${target}> ${launch})
    elseif(DEFINED arg_EXPECT_FAILURE)
      set(launch ${ARMADA_EXPECT_SCRIPT} fail "${arg_EXPECT_FAILURE}" - ${launch})
    endif()
    set(name ${arg_NAME}.np${n})
    add_test(NAME ${name} COMMAND ${launch})
    set_tests_properties(${name} PROPERTIES
      TIMEOUT ${backstop}
      PROCESSORS ${n}
      LABELS "mpi;${arg_LABELS}"
      ENVIRONMENT "${_armada_vendor_env};${arg_ENV}")
  endforeach()
endfunction()
