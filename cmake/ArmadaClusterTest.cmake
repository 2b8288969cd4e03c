# armada_add_cluster_test(<target>
#     [NAME <stem>]                     test name stem (default: <target>)
#     [HOSTS <k>]                       emulated hosts (default 2)
#     [RANKS_PER_HOST <r>]              ranks on each (default 2)
#     [TRANSPORTS <t>...]               subset of auto server rdma mpi-rma (default: all four)
#     [ENV VAR=VALUE ...]               extra environment for every rank (mpirun -x)
#     [ARGS ...]                        arguments for the program
#     [PROGRAM <path>]                  run this instead of <target>'s file
#     [TIMEOUT <seconds>]               the launch's limit (default 300)
#     [SCRIPT_ARGS ...]                 more options of scripts/cluster.sh (--fault, --check-leftovers)
#     [LABELS ...]
#     [EXPECT_FAILURE <regex>]          the case passes only if the job fails and prints <regex>
#     [EXPECT_OUTPUT <regex>])          the case passes only if the job succeeds and prints <regex>
#
# One ctest case per transport, <stem>.cluster<k>x<r>.<transport>, run by scripts/cluster.sh on
# an emulated cluster of <k> hosts made of namespaces (docs/cluster.md), labelled `cluster`. The
# program starts MPI itself, as users' programs do. Without root the script exits 77 and ctest
# reports the case as skipped. Open MPI only (the script drives Open MPI's rsh launcher); with
# another MPI no case is added (docs/cluster.md says so).
#
# Per transport, the environment each case gets (one table):
#   auto     ARMADA_TRANSPORT=auto: what rma::init picks between hosts
#   server   the node server; data between hosts as MPI messages over the TCP BTL
#   rdma     UCX over TCP (UCX_TLS=tcp,self), the path clusters without RDMA NICs take
#   mpi-rma  MPI-3 windows with OMPI_MCA_osc=sm,ucx and UCX_USE_MT_MUTEX=y: a program that starts
#            MPI itself must set them, as Open MPI's default osc rdma cannot make windows over TCP
#            (the clear error without it is its own case, tests/cluster/CMakeLists.txt) and UCX's
#            default spin lock stalls threads that share cores (docs/mpi-quirks.md)
#   mpi-rma-without-osc-ucx   Open MPI's default osc: only for that case (never in the default list)
#   mpi-rma-spin-lock         osc ucx on UCX's default spin lock: only for the warning's case
set(ARMADA_CLUSTER_SCRIPT ${PROJECT_SOURCE_DIR}/scripts/cluster.sh)
set(_cluster_auto_ENV ARMADA_TRANSPORT=auto)
set(_cluster_server_ENV ARMADA_TRANSPORT=server)
set(_cluster_rdma_ENV ARMADA_TRANSPORT=rdma UCX_TLS=tcp,self)
set(_cluster_mpi-rma_ENV ARMADA_TRANSPORT=mpi-rma OMPI_MCA_osc=sm,ucx UCX_USE_MT_MUTEX=y)
set(_cluster_mpi-rma-without-osc-ucx_ENV ARMADA_TRANSPORT=mpi-rma)
set(_cluster_mpi-rma-spin-lock_ENV ARMADA_TRANSPORT=mpi-rma OMPI_MCA_osc=sm,ucx)

function(armada_add_cluster_test target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;HOSTS;RANKS_PER_HOST;TIMEOUT;PROGRAM;EXPECT_FAILURE;EXPECT_OUTPUT"
                        "TRANSPORTS;ENV;ARGS;LABELS;SCRIPT_ARGS")
  armada_flatten_labels(arg_LABELS)
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "armada_add_cluster_test(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARMADA_MPI_VENDOR STREQUAL "openmpi")
    return()
  endif()
  set(available auto server mpi-rma)
  if(ARMADA_HAVE_RDMA)  # UCX was found (rma/src/transport/rdma/sources.cmake)
    list(APPEND available rdma)
  endif()
  foreach(var NAME HOSTS RANKS_PER_HOST TIMEOUT TRANSPORTS)
    set(default_NAME ${target})
    set(default_HOSTS 2)
    set(default_RANKS_PER_HOST 2)
    set(default_TIMEOUT 300)
    set(default_TRANSPORTS ${available})
    if(NOT arg_${var})
      set(arg_${var} ${default_${var}})
    endif()
  endforeach()
  set(program $<TARGET_FILE:${target}>)
  if(arg_PROGRAM)
    set(program ${arg_PROGRAM})
  endif()
  set(env_flags "")
  foreach(kv IN LISTS arg_ENV)
    list(APPEND env_flags -x ${kv})
  endforeach()
  math(EXPR backstop "${arg_TIMEOUT} + 40")
  math(EXPR ranks "${arg_HOSTS} * ${arg_RANKS_PER_HOST}")
  foreach(transport IN LISTS arg_TRANSPORTS)
    if(NOT DEFINED _cluster_${transport}_ENV)
      message(FATAL_ERROR "armada_add_cluster_test(${target}): unknown transport '${transport}'")
    endif()
    if(transport STREQUAL "rdma" AND NOT ARMADA_HAVE_RDMA)
      continue()  # not in this build (no UCX)
    endif()
    set(transport_flags "")
    foreach(kv IN LISTS _cluster_${transport}_ENV)
      list(APPEND transport_flags -x ${kv})
    endforeach()
    set(launch ${ARMADA_CLUSTER_SCRIPT} --hosts ${arg_HOSTS} --ranks-per-host ${arg_RANKS_PER_HOST}
               --timeout ${arg_TIMEOUT} ${arg_SCRIPT_ARGS} ${transport_flags} ${env_flags} -- ${program} ${arg_ARGS})
    if(DEFINED arg_EXPECT_FAILURE)
      set(launch ${ARMADA_EXPECT_SCRIPT} fail "${arg_EXPECT_FAILURE}" - ${launch})
    elseif(DEFINED arg_EXPECT_OUTPUT)
      set(launch ${ARMADA_EXPECT_SCRIPT} pass "${arg_EXPECT_OUTPUT}" - ${launch})
    endif()
    set(name ${arg_NAME}.cluster${arg_HOSTS}x${arg_RANKS_PER_HOST}.${transport})
    add_test(NAME ${name} COMMAND ${launch})
    set_tests_properties(${name} PROPERTIES
      TIMEOUT ${backstop}
      PROCESSORS ${ranks}
      SKIP_RETURN_CODE 77
      SKIP_REGULAR_EXPRESSION "cluster.sh: SKIPPED:"
      LABELS "cluster;${arg_LABELS}")
  endforeach()
endfunction()
