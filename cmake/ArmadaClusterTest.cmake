# armada_add_cluster_test(<target>
#     [NAME <stem>]                     test name stem (default: <target>)
#     [HOSTS <k>]                       emulated hosts (default 2)
#     [RANKS_PER_HOST <r>]              ranks on each (default 2)
#     [TRANSPORTS <t>...]               cluster configurations (default: auto and every transport's DEFAULT one)
#     [REQUIRES <capability>...]        only the configurations (of TRANSPORTS, or every transport's
#                                       DEFAULT one) whose transport has them (cmake/ArmadaTransports.cmake)
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
# Per transport, the environment each case gets: auto is ARMADA_TRANSPORT=auto, what rma::init
# picks between hosts; the others are the transports' rows (armada_transport_cluster in
# rma/src/transport/<folder>/transport.cmake, read by cmake/ArmadaTransports.cmake).
set(ARMADA_CLUSTER_SCRIPT ${PROJECT_SOURCE_DIR}/scripts/cluster.sh)
set(_cluster_auto_ENV ARMADA_TRANSPORT=auto)
set(_cluster_auto_AVAILABLE TRUE)

function(armada_add_cluster_test target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;HOSTS;RANKS_PER_HOST;TIMEOUT;PROGRAM;EXPECT_FAILURE;EXPECT_OUTPUT"
                        "TRANSPORTS;ENV;ARGS;LABELS;SCRIPT_ARGS;REQUIRES")
  armada_flatten_labels(arg_LABELS)
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "armada_add_cluster_test(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARMADA_MPI_VENDOR STREQUAL "openmpi")
    return()
  endif()
  set(available auto ${ARMADA_CLUSTER_TRANSPORTS})
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
  if(arg_REQUIRES)
    if(arg_TRANSPORTS STREQUAL "${available}")  # the default list: auto is no transport
      list(REMOVE_ITEM arg_TRANSPORTS auto)
    endif()
    armada_transport_configs_with(arg_TRANSPORTS arg_TRANSPORTS REQUIRES ${arg_REQUIRES} CLUSTER)
  endif()
  set(program $<TARGET_FILE:${target}>)
  if(arg_PROGRAM)
    set(program ${arg_PROGRAM})
  endif()
  set(env_flags "")
  foreach(kv IN LISTS _armada_sanitizer_env arg_ENV)
    list(APPEND env_flags -x ${kv})
  endforeach()
  math(EXPR backstop "${arg_TIMEOUT} + 40")
  math(EXPR ranks "${arg_HOSTS} * ${arg_RANKS_PER_HOST}")
  foreach(transport IN LISTS arg_TRANSPORTS)
    if(NOT DEFINED _cluster_${transport}_ENV)
      message(FATAL_ERROR "armada_add_cluster_test(${target}): unknown transport '${transport}'")
    endif()
    if(NOT _cluster_${transport}_AVAILABLE)
      continue()  # its transport is not in this build (a package is missing)
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
