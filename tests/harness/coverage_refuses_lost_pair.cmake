cmake_minimum_required(VERSION 3.25)  # script mode: the policies of the project
# cmake -DMODULE=cmake/ArmadaTestCoverage.cmake -DTRANSPORTS_MODULE=cmake/ArmadaTransports.cmake
#   -P coverage_refuses_lost_pair.cmake
# armada_layer_coverage_missing, the check that makes the configure step refuse a test matrix
# that loses a (layer, configuration) pair, on a made-up matrix: complete, it finds nothing;
# with one pair's only program gone, it names exactly that pair.
include(${MODULE})
set(available shm server.vnode1 mpirma.vnode1)
set(required "arrays=ALL" "ga-fortran=shm mpirma.vnode1 rdma.vnode1")
set(records "arrays|shm|arrays_tests" "arrays|server.vnode1|arrays_tests" "arrays|mpirma.vnode1|arrays_tests"
            "arrays|mpirma.vnode1|example" "ga-fortran|shm|f" "ga-fortran|mpirma.vnode1|f")
armada_layer_coverage_missing(missing "${records}" "${required}" "${available}")
if(missing)
  message(FATAL_ERROR "a complete matrix was refused: ${missing}")
endif()
list(REMOVE_ITEM records "arrays|server.vnode1|arrays_tests")
armada_layer_coverage_missing(missing "${records}" "${required}" "${available}")
if(NOT missing STREQUAL "arrays server.vnode1")
  message(FATAL_ERROR "the matrix without arrays' server.vnode1 row gave '${missing}', not 'arrays server.vnode1'")
endif()
# A layer this build does not have (no row at all) is not required.
armada_layer_coverage_missing(none "${records}" "python=ALL" "${available}")
if(none)
  message(FATAL_ERROR "a layer with no row in the build was required: ${none}")
endif()
# "layer=ALL <capability>": the available rows whose transport has it (cmake/ArmadaTransports.cmake).
include(${TRANSPORTS_MODULE})
set(_cfg_shm_CAPABILITIES node_memory any_thread_level)
set(_cfg_server.vnode1_CAPABILITIES crosses_hosts)
set(_cfg_mpirma.vnode1_CAPABILITIES crosses_hosts any_thread_level)
armada_layer_coverage_missing(by_capability "ga-fortran|shm|f" "ga-fortran=ALL any_thread_level" "${available}")
if(NOT by_capability STREQUAL "ga-fortran mpirma.vnode1")
  message(FATAL_ERROR "ALL any_thread_level gave '${by_capability}', not 'ga-fortran mpirma.vnode1'")
endif()
message(STATUS "coverage check: a lost pair is refused (${missing})")
