# armada_add_mpi_test(<target>
#     RANKS <n>...                      one ctest case per rank count: <name>.np<n>
#     [NAME <name>]                     test name stem (default: <target>)
#     [ENV VAR=VALUE ...]               extra environment (e.g. ARMADA_NODE_SIZE=2 for virtual nodes)
#     [ARGS ...]                        arguments for the test program
#     [PROGRAM <path>]                  launch this program instead of <target>'s file (an
#                                       interpreter: <target> then only names the test)
#     [TIMEOUT <seconds>]               kill the whole launch after this long (default 300)
#     [LABELS ...]
#     [EXPECT_FAILURE <regex>]          the case passes only if the job fails and prints <regex>
#     [EXPECT_TIMEOUT]                  the case passes only if the job is killed by its timeout
#                                       and leaves no process of the program behind
#     [EXPECT_OUTPUT <regex>]           the case passes only if the job succeeds and prints <regex>
#     [EXPECT_EXIT <code>])             with EXPECT_FAILURE: the exit code must be exactly <code>
#                                       (e.g. 2 for a program's bad-input path)
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
  # Open MPI's shared-memory BTL keeps a file per rank in /dev/shm (vader_segment.*) that only a
  # clean end of the job removes: a launch killed by its timeout, or whose ranks die, leaves them.
  # The rows of armada_add_mpi_test keep theirs in a directory of this build tree's own, made by
  # the fixture's first test; its last test removes the files no process holds any more
  # (cmake/vader-cleanup.sh), so a suite leaves no segment of Open MPI's behind.
  string(SHA1 _armada_build_hash "${CMAKE_BINARY_DIR}")
  string(SUBSTRING "${_armada_build_hash}" 0 12 _armada_build_hash)
  set(ARMADA_TEST_VADER_DIR "/dev/shm/armada-tests-${_armada_build_hash}")
  add_test(NAME mpi_segments_directory COMMAND ${CMAKE_COMMAND} -E make_directory ${ARMADA_TEST_VADER_DIR})
  add_test(NAME mpi_segments_cleanup COMMAND ${CMAKE_CURRENT_LIST_DIR}/vader-cleanup.sh ${ARMADA_TEST_VADER_DIR})
  set_tests_properties(mpi_segments_directory PROPERTIES FIXTURES_SETUP armada_mpi_segments LABELS "mpi;harness")
  set_tests_properties(mpi_segments_cleanup PROPERTIES FIXTURES_CLEANUP armada_mpi_segments LABELS "mpi;harness")
endif()
set(ARMADA_EXPECT_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/armada-expect.sh")
set(_armada_sanitizer_env "")
if(ARMADA_SANITIZE MATCHES "thread")
  # Reports inside Open MPI's (uninstrumented) progress engine; see the file.
  # history_size=7: the deepest access history, so that the stack of a write done inside Open MPI
  # can be restored and matched by the suppressions (otherwise "failed to restore the stack").
  list(APPEND _armada_sanitizer_env "TSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/tsan.supp history_size=7")
  # UCX's memory hooks (libucm) crash a process when one of its threads exits under TSan: glibc
  # releases the stack through them (madvise), into an rwlock TSan intercepts after it tore the
  # thread's state down. Every process loads UCX where it was found (the rdma transport, Open
  # MPI's ucx components), not only the rdma rows; none of the rows needs the hooks (the rdma
  # transport's segments are UCX's own memory, other buffers are registered per operation).
  list(APPEND _armada_sanitizer_env UCX_MEM_MALLOC_HOOKS=no UCX_MEM_EVENTS=no)
  # Open MPI's memory patcher routes the same munmap (a thread's stack at its exit) into libucm
  # on its own, whatever UCX's settings: the ARMCI C API's Threads tests crashed there (SIGSEGV in
  # TSan's rwlock interceptor under ucm_vm_munmap). No row relies on the patcher (it serves
  # registration caches of RDMA NICs).
  if(ARMADA_MPI_VENDOR STREQUAL "openmpi")
    list(APPEND _armada_sanitizer_env OMPI_MCA_memory=^patcher)
  endif()
endif()
# The sanitizer's settings also reach the ranks of the cluster rows (ArmadaClusterTest.cmake),
# whose namespaces get only the variables passed with -x.
list(APPEND _armada_vendor_env ${_armada_sanitizer_env})

# The measured seconds of the longest rows (tests/costs.txt, written by scripts/test-timing.py
# --costs): ctest's COST, so that a fresh build directory, which has no ctest history, starts the
# longest rows first instead of finishing on one of them.
set(ARMADA_TEST_COSTS_FILE ${PROJECT_SOURCE_DIR}/tests/costs.txt)
if(EXISTS ${ARMADA_TEST_COSTS_FILE})
  file(STRINGS ${ARMADA_TEST_COSTS_FILE} _armada_cost_lines REGEX "^[^#]")
  foreach(_line IN LISTS _armada_cost_lines)
    string(REGEX MATCH "^([^ ]+) ([0-9.]+)$" _ "${_line}")
    set(_armada_cost_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endforeach()
endif()
# armada_apply_test_cost(<test>): its COST from tests/costs.txt, if listed (every row of
# armada_add_mpi_test gets it there). armada_apply_test_costs(): the same for every listed row
# the calling directory added with add_test (a folder with such rows calls it at its end: a
# test's properties can only be set in the directory that added it).
function(armada_apply_test_cost name)
  if(DEFINED _armada_cost_${name})
    set_tests_properties(${name} PROPERTIES COST ${_armada_cost_${name}})
    # ctest starts the rows a fixture's cleanup waits for before the rows nothing waits for, and
    # orders by COST only within each: a costly row outside the MPI rows' fixture started last.
    # (Every listed row launches MPI: its segments belong in the fixture's directory anyway.)
    armada_join_mpi_segments(${name})
  endif()
endfunction()
function(armada_apply_test_costs)
  foreach(line IN LISTS _armada_cost_lines)
    string(REGEX MATCH "^[^ ]+" name "${line}")
    if(TEST ${name})
      armada_apply_test_cost(${name})
    endif()
  endforeach()
endfunction()

# armada_join_mpi_segments(<test>): under Open MPI, the row keeps its shared-memory segments in
# the build's directory and belongs to the fixture whose cleanup removes what it left.
function(armada_join_mpi_segments name)
  if(ARMADA_TEST_VADER_DIR)
    get_test_property(${name} ENVIRONMENT env)
    if(NOT env MATCHES "OMPI_MCA_btl_vader_backing_directory")
      set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT OMPI_MCA_btl_vader_backing_directory=${ARMADA_TEST_VADER_DIR})
    endif()
    set_property(TEST ${name} APPEND PROPERTY FIXTURES_REQUIRED armada_mpi_segments)
  endif()
endfunction()

# armada_set_test_ranks(<test> <ranks>): what ctest's scheduler knows of a row that launches
# <ranks> processes. Up to the machine's cores, PROCESSORS is the rank count. A row with more
# ranks than cores oversubscribes the machine by itself: it counts as all the cores (PROCESSORS,
# so ctest -j 2 x cores still runs a 2-core row beside it) and takes the lock
# armada_oversubscribed, so that no two such rows (4 ranks on 2 cores) run at once. (Counted as
# 4 processors they ran alone and, at any -j, only once nothing smaller was left: the suite
# ended on a queue of them, one at a time.)
cmake_host_system_information(RESULT ARMADA_TEST_CORES QUERY NUMBER_OF_LOGICAL_CORES)
function(armada_set_test_ranks name ranks)
  if(ranks GREATER ARMADA_TEST_CORES)
    set_tests_properties(${name} PROPERTIES PROCESSORS ${ARMADA_TEST_CORES} RESOURCE_LOCK armada_oversubscribed)
  else()
    set_tests_properties(${name} PROPERTIES PROCESSORS ${ranks})
  endif()
endfunction()

# A LABELS list as words: cmake_parse_arguments(PARSE_ARGV) keeps a quoted "apps;mg" as one
# element (its semicolons escaped), which ctest would show as a single label "apps;mg".
function(armada_flatten_labels var)
  set(words "")
  foreach(w IN LISTS ${var})
    list(APPEND words ${w})
  endforeach()
  set(${var} "${words}" PARENT_SCOPE)
endfunction()

# The defaults of a test function's arguments: the test is named after its target, 300 s.
macro(_armada_test_defaults)
  if(NOT arg_NAME)
    set(arg_NAME ${target})
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 300)
  endif()
endmacro()

function(armada_add_mpi_test target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXPECT_TIMEOUT" "NAME;TIMEOUT;EXPECT_FAILURE;EXPECT_OUTPUT;EXPECT_EXIT;PROGRAM"
                        "RANKS;ENV;ARGS;LABELS")
  armada_flatten_labels(arg_LABELS)
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "armada_add_mpi_test(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_RANKS)
    message(FATAL_ERROR "armada_add_mpi_test(${target}): RANKS is required")
  endif()
  _armada_test_defaults()
  math(EXPR backstop "${arg_TIMEOUT} + 30")
  set(program $<TARGET_FILE:${target}>)
  if(arg_PROGRAM)
    set(program ${arg_PROGRAM})
  endif()

  foreach(n IN LISTS arg_RANKS)
    set(launch ${ARMADA_TIMEOUT_EXECUTABLE} --kill-after=10 ${arg_TIMEOUT}
               ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n}
               ${_armada_vendor_flags} ${ARMADA_MPIEXEC_PREFLAGS} ${MPIEXEC_PREFLAGS}
               ${program} ${MPIEXEC_POSTFLAGS} ${arg_ARGS})
    if(arg_EXPECT_TIMEOUT)
      set(launch ${ARMADA_EXPECT_SCRIPT} timeout - ${program} ${launch})
    elseif(DEFINED arg_EXPECT_FAILURE AND DEFINED arg_EXPECT_EXIT)
      set(launch ${ARMADA_EXPECT_SCRIPT} exit "${arg_EXPECT_FAILURE}" ${arg_EXPECT_EXIT} ${launch})
    elseif(DEFINED arg_EXPECT_FAILURE)
      set(launch ${ARMADA_EXPECT_SCRIPT} fail "${arg_EXPECT_FAILURE}" - ${launch})
    elseif(DEFINED arg_EXPECT_OUTPUT)
      set(launch ${ARMADA_EXPECT_SCRIPT} pass "${arg_EXPECT_OUTPUT}" - ${launch})
    endif()
    set(name ${arg_NAME}.np${n})
    add_test(NAME ${name} COMMAND ${launch})
    set_tests_properties(${name} PROPERTIES
      TIMEOUT ${backstop}
      LABELS "mpi;${arg_LABELS}"
      ENVIRONMENT "${_armada_vendor_env};${arg_ENV}")
    armada_set_test_ranks(${name} ${n})
    armada_join_mpi_segments(${name})
    armada_apply_test_cost(${name})
  endforeach()
endfunction()

# ---- The transport configurations every conformance program runs in ----------------------------
# One table for every layer (rma, the ARMCI C API, arrays, and the layers above), so that no layer
# claims a configuration it does not run: the transports' own rows (cmake/ArmadaTransports.cmake,
# each rma/src/transport/<folder>/transport.cmake) give ARMADA_TRANSPORT_CONFIGS and, for each
# configuration, _cfg_<config>_RANKS (on virtual nodes, only counts that make more than one node:
# vnode2 at 2 ranks is one node and moves no inter-node traffic), _ENV, _LABELS and _CAPABILITIES.

# ---- The test matrix by ownership (docs/testing.md#the-test-matrix) ------------------------------
# Transport code is owned by rma/: its conformance programs (rma, the ARMCI C API) run every row
# of ARMADA_TRANSPORT_CONFIGS. The layers above only issue rma operations: each of their programs
# runs in the default configuration (shm: one node, 1, 2 and 4 ranks), and a few programs per
# layer also run one row per transport and node shape (ARMADA_LAYER_CONFIGS), chosen so that every
# layer meets every row of that list at least once. A transport's own variants (server
# clustering, osc ucx on every window, MPI_Win_create windows, UCX over TCP) are tested where
# they live, in the rma and C API suites.
# ARMADA_LAYER_CONFIGS: the configurations the transports' rows mark LAYER.
include(${CMAKE_CURRENT_LIST_DIR}/ArmadaTestCoverage.cmake)  # which layer meets which row

# armada_gtest_filter(<var> <source>...): --gtest_filter=<the test suites the sources define>,
# read from their TEST/TEST_F/TEST_P/TYPED_TEST lines, so that a row can run one source's tests
# out of a layer's merged program (armada_gtest_program).
# armada_add_install_test(<name> SCRIPT <file.cmake> WORK_DIR <dir> LABELS <label>...
#                         [TIMEOUT s] [LAUNCH_TIMEOUT s] [DEFINES VAR=VALUE...])
# A test that runs a CMake script (-P) against this build's install (BUILD_DIR, WORK_DIR, CONFIG,
# GENERATOR and LAUNCH, a '|'-separated mpiexec line for 2 ranks, are defined for it, DEFINES too).
function(armada_add_install_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SCRIPT;WORK_DIR;TIMEOUT;LAUNCH_TIMEOUT" "LABELS;DEFINES")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()
  if(NOT arg_LAUNCH_TIMEOUT)
    set(arg_LAUNCH_TIMEOUT 60)
  endif()
  list(JOIN _armada_vendor_flags "|" flags)
  list(TRANSFORM arg_DEFINES PREPEND -D)
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DWORK_DIR=${arg_WORK_DIR} -DCONFIG=$<CONFIG>
      -DGENERATOR=${CMAKE_GENERATOR} ${arg_DEFINES}
      -DLAUNCH=${ARMADA_TIMEOUT_EXECUTABLE}|${arg_LAUNCH_TIMEOUT}|${MPIEXEC_EXECUTABLE}|${MPIEXEC_NUMPROC_FLAG}|2|${flags}
      -P ${arg_SCRIPT})
  list(JOIN arg_LABELS ";" labels)
  set_tests_properties(${name} PROPERTIES TIMEOUT ${arg_TIMEOUT} PROCESSORS 2 LABELS "${labels}"
    ENVIRONMENT "${_armada_vendor_env}")
endfunction()

function(armada_gtest_filter var)
  set(patterns "")
  foreach(source IN LISTS ARGN)
    file(STRINGS ${source} lines REGEX "^(TEST|TEST_F|TEST_P|TYPED_TEST)\\( *[A-Za-z0-9_]+")
    foreach(line IN LISTS lines)
      string(REGEX MATCH "^[A-Z_]+\\( *([A-Za-z0-9_]+)" _ "${line}")
      set(suite ${CMAKE_MATCH_1})
      if(line MATCHES "^TEST_P")
        list(APPEND patterns "*/${suite}.*")   # instantiated as <prefix>/<suite>.<test>/<n>
      elseif(line MATCHES "^TYPED_TEST")
        list(APPEND patterns "${suite}/*")     # <suite>/<n>.<test>
      else()
        list(APPEND patterns "${suite}.*")
      endif()
    endforeach()
  endforeach()
  if(NOT patterns)
    message(FATAL_ERROR "armada_gtest_filter: no TEST in ${ARGN}")
  endif()
  list(REMOVE_DUPLICATES patterns)
  list(JOIN patterns ":" filter)
  set(${var} "--gtest_filter=${filter}" PARENT_SCOPE)
endfunction()

# armada_add_transport_tests(<target> [NAME <stem>] [TIMEOUT <s>] [LABELS ...] [ARGS ...]
#                            [ENV ...] [CONFIGS <subset of ARMADA_TRANSPORT_CONFIGS>] [RANKS <n>...]
#                            [REQUIRES <capability>...] [EXCLUDES <capability>...]
#                            [PROGRAM <path>] [EXPECT_OUTPUT <regex>] [LAYER <layer>])
# One armada_add_mpi_test per configuration: <stem> for shm, <stem>.<config> for the others.
# RANKS, when given, restricts every configuration to those of its counts that are listed.
# REQUIRES/EXCLUDES keep the configurations (of CONFIGS, or all) whose capabilities hold every
# REQUIRES and no EXCLUDES (cmake/ArmadaTransports.cmake lists the words): a test that needs, say,
# one-sided atomics asks for them, not for the transports that have them today.
# LAYER records which (layer, configuration) pairs the rows meet (armada_check_layer_coverage).
function(armada_add_transport_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;TIMEOUT;PROGRAM;EXPECT_OUTPUT;LAYER"
                        "LABELS;ARGS;ENV;CONFIGS;RANKS;REQUIRES;EXCLUDES")
  armada_flatten_labels(arg_LABELS)
  _armada_test_defaults()
  if(NOT arg_CONFIGS)
    set(arg_CONFIGS ${ARMADA_TRANSPORT_CONFIGS})
  endif()
  if(arg_REQUIRES OR arg_EXCLUDES)
    armada_transport_configs_with(arg_CONFIGS arg_CONFIGS REQUIRES ${arg_REQUIRES} EXCLUDES ${arg_EXCLUDES})
  endif()
  set(extra "")
  if(arg_PROGRAM)
    list(APPEND extra PROGRAM ${arg_PROGRAM})
  endif()
  if(DEFINED arg_EXPECT_OUTPUT)
    list(APPEND extra EXPECT_OUTPUT "${arg_EXPECT_OUTPUT}")
  endif()
  foreach(config IN LISTS arg_CONFIGS)
    if(NOT config IN_LIST ARMADA_TRANSPORT_CONFIGS)
      continue()  # not available in this build (e.g. osc ucx under ThreadSanitizer)
    endif()
    set(ranks ${_cfg_${config}_RANKS})
    if(arg_RANKS)
      armada_keep_listed(ranks arg_RANKS)
    endif()
    if(NOT ranks)
      continue()
    endif()
    set(name ${arg_NAME}.${config})
    if(config STREQUAL "shm")
      set(name ${arg_NAME})
    endif()
    # The table's capabilities, for the test that checks them against the library's account.
    list(JOIN _cfg_${config}_CAPABILITIES "," caps)
    armada_add_mpi_test(${target} NAME ${name} RANKS ${ranks} TIMEOUT ${arg_TIMEOUT} ARGS ${arg_ARGS} ${extra}
      ENV ${_cfg_${config}_ENV} ${arg_ENV} ARMADA_TEST_TRANSPORT_CAPABILITIES=${caps}
      LABELS ${arg_LABELS} ${_cfg_${config}_LABELS})
    if(arg_LAYER)
      armada_record_layer_coverage(${arg_LAYER} ${config} ${arg_NAME})
    endif()
  endforeach()
endfunction()

# armada_add_layer_tests(<target> LAYER <layer> [NAME <stem>] [TIMEOUT <s>] [LABELS ...] [ARGS ...]
#                        [ENV ...] [RANKS <n>...] [PROGRAM <path>] [EXPECT_OUTPUT <regex>]
#                        [DEFAULT_ARGS ...] [ACROSS ALL|<configs>...] [ACROSS_REQUIRES <capability>...]
#                        [ACROSS_ARGS ...] [ACROSS_RANKS <n>...])
# A program of a layer above rma: the default configuration (shm, RANKS or 1, 2 and 4 ranks; the
# program gets ARGS and DEFAULT_ARGS) and, with ACROSS, one row per listed configuration of
# ARMADA_LAYER_CONFIGS (ALL: every one), whose program gets ARGS and ACROSS_ARGS (e.g. a
# --gtest_filter choosing the tests that cross). ACROSS_REQUIRES: those of ARMADA_LAYER_CONFIGS
# whose capabilities hold the words (alone, it means ACROSS ALL ACROSS_REQUIRES ...).
function(armada_add_layer_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;TIMEOUT;PROGRAM;EXPECT_OUTPUT;LAYER"
                        "LABELS;ARGS;ENV;RANKS;DEFAULT_ARGS;ACROSS;ACROSS_REQUIRES;ACROSS_ARGS;ACROSS_RANKS")
  if(NOT arg_LAYER)
    message(FATAL_ERROR "armada_add_layer_tests(${target}): LAYER is required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "armada_add_layer_tests(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(common LAYER ${arg_LAYER} LABELS ${arg_LABELS} ENV ${arg_ENV})
  foreach(key NAME TIMEOUT PROGRAM)
    if(arg_${key})
      list(APPEND common ${key} ${arg_${key}})
    endif()
  endforeach()
  if(DEFINED arg_EXPECT_OUTPUT)
    list(APPEND common EXPECT_OUTPUT "${arg_EXPECT_OUTPUT}")
  endif()
  armada_add_transport_tests(${target} ${common} CONFIGS shm RANKS ${arg_RANKS} ARGS ${arg_ARGS} ${arg_DEFAULT_ARGS})
  if(arg_ACROSS STREQUAL "ALL" OR (arg_ACROSS_REQUIRES AND NOT arg_ACROSS))
    set(arg_ACROSS ${ARMADA_LAYER_CONFIGS})
  endif()
  if(arg_ACROSS_REQUIRES)
    armada_transport_configs_with(arg_ACROSS arg_ACROSS REQUIRES ${arg_ACROSS_REQUIRES})
  endif()
  list(REMOVE_ITEM arg_ACROSS shm)
  foreach(config IN LISTS arg_ACROSS)
    if(NOT config IN_LIST ARMADA_LAYER_CONFIGS)
      message(FATAL_ERROR "armada_add_layer_tests(${target}): ACROSS ${config} is not in ARMADA_LAYER_CONFIGS")
    endif()
  endforeach()
  if(arg_ACROSS)
    armada_add_transport_tests(${target} ${common} CONFIGS ${arg_ACROSS} RANKS ${arg_ACROSS_RANKS}
      ARGS ${arg_ARGS} ${arg_ACROSS_ARGS})
  endif()
endfunction()

# armada_gtest_program(<target> RUNTIME RMA|ARMCI|GA SOURCES <source>... [LIBRARIES ...]): one
# GoogleTest program for a folder's test sources, so that one launch runs all of them (a launch
# costs about a second of MPI start-up, more than most of the sources' tests). Each source is still
# compiled once; armada_gtest_filter(<var> <source>) selects one source's tests for a row that
# only they need.
function(armada_gtest_program target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RUNTIME" "SOURCES;LIBRARIES")
  add_executable(${target} ${arg_SOURCES})
  if(arg_RUNTIME)
    armada_test_runtime(${target} ${arg_RUNTIME})
  endif()
  target_link_libraries(${target} PRIVATE ${arg_LIBRARIES} armada_gtest_main armada_build_flags)
  # GoogleTest's and MPI's headers (and the standard library's that every test includes), parsed
  # once per program instead of once per source.
  target_precompile_headers(${target} PRIVATE ${ARMADA_TEST_PRECOMPILED_HEADERS})
  if(ARMADA_CCACHE_PCH_LAUNCHER)
    set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "${ARMADA_CCACHE_PCH_LAUNCHER}")
  endif()
endfunction()
set(ARMADA_TEST_PRECOMPILED_HEADERS "$<$<COMPILE_LANGUAGE:CXX>:<gtest/gtest.h$<ANGLE-R>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<mpi.h$<ANGLE-R>>" "$<$<COMPILE_LANGUAGE:CXX>:<vector$<ANGLE-R>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<string$<ANGLE-R>>" "$<$<COMPILE_LANGUAGE:CXX>:<functional$<ANGLE-R>>")
