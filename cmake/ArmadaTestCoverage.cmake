# The coverage of the test matrix by ownership (docs/testing.md#the-test-matrix): which layer
# meets which row of ARMADA_LAYER_CONFIGS (cmake/ArmadaMpiTest.cmake), recorded as rows are
# registered and checked once all are. Functions only (no test is added here), so that
# tests/harness/coverage_refuses_lost_pair.cmake can run the check in script mode.

# What each layer must meet: ALL is every row of ARMADA_LAYER_CONFIGS that this build has; ALL
# followed by capabilities, those of them whose transport has the capabilities
# (cmake/ArmadaTransports.cmake). GA's Fortran programs start MPI with a plain mpi_init, as GA
# Fortran programs do: across nodes the server transport then gives way to mpi-rma
# (docs/armci.md), so the rows that layer can meet are those of transports that run at any thread
# level. armada_check_layer_coverage() refuses a build whose tests lose a pair.
set(ARMADA_LAYER_COVERAGE_REQUIRED
  "arrays=ALL" "linalg=ALL" "ga=ALL" "ga-fortran=ALL any_thread_level" "fortran=ALL"
  "python=ALL" "apps=ALL" "examples=ALL")

# armada_keep_listed(<list var> <allowed list var>): keeps the items of <list var> that <allowed>
# holds, in their order.
function(armada_keep_listed var allowed)
  set(kept "")
  foreach(item IN LISTS ${var})
    if(item IN_LIST ${allowed})
      list(APPEND kept ${item})
    endif()
  endforeach()
  set(${var} "${kept}" PARENT_SCOPE)
endfunction()

# armada_record_layer_coverage(<layer> <config> <test stem>): the pair (layer, config) is met by
# the rows <test stem>.*; read back by armada_check_layer_coverage().
function(armada_record_layer_coverage layer config stem)
  set_property(GLOBAL APPEND PROPERTY ARMADA_LAYER_COVERAGE "${layer}|${config}|${stem}")
endfunction()

# armada_layer_coverage_missing(<out> <records> <required> <available>): the "layer config" pairs
# of <required> (entries "layer=config config..." or "layer=ALL [capability...]") that no record "layer|config|stem"
# meets, among the configurations <available> in this build. Pure list logic, so that a script
# (tests/coverage_refuses_lost_pair.cmake) can show it refuses a matrix that lost a pair.
function(armada_layer_coverage_missing out records required available)
  set(missing "")
  foreach(entry IN LISTS required)
    string(REPLACE "=" ";" parts "${entry}")
    list(GET parts 0 layer)
    list(GET parts 1 configs)
    if(NOT records MATCHES "(^|;)${layer}\\|")
      continue()  # a layer this build does not have (Python without mpi4py on its MPI, ...)
    endif()
    if(configs MATCHES "^ALL( |$)")
      string(REPLACE " " ";" caps "${configs}")
      list(REMOVE_AT caps 0)
      set(configs ${available})
      if(caps)
        armada_transport_configs_with(configs configs REQUIRES ${caps})
      endif()
    else()
      string(REPLACE " " ";" configs "${configs}")
    endif()
    foreach(config IN LISTS configs)
      if(NOT config IN_LIST available)
        continue()  # not in this build (e.g. rdma without UCX)
      endif()
      set(found FALSE)
      foreach(record IN LISTS records)
        if(record MATCHES "^${layer}\\|${config}\\|")
          set(found TRUE)
          break()
        endif()
      endforeach()
      if(NOT found)
        list(APPEND missing "${layer} ${config}")
      endif()
    endforeach()
  endforeach()
  set(${out} "${missing}" PARENT_SCOPE)
endfunction()

# armada_check_layer_coverage(): run once every test is registered (deferred to the end of the
# top-level directory by tests/CMakeLists.txt). Fails the configure step on a lost pair, and
# writes the table of which program meets which pair (tests/layer-coverage.md in the build tree),
# which docs/testing.md must contain (test docs_testing_coverage_in_sync).
function(armada_check_layer_coverage)
  get_property(records GLOBAL PROPERTY ARMADA_LAYER_COVERAGE)
  set(available ${ARMADA_LAYER_CONFIGS})
  armada_keep_listed(available ARMADA_TRANSPORT_CONFIGS)  # the rows this build has
  armada_layer_coverage_missing(missing "${records}" "${ARMADA_LAYER_COVERAGE_REQUIRED}" "${available}")
  foreach(entry IN LISTS ARMADA_LAYER_COVERAGE_REQUIRED)
    string(REGEX REPLACE "=.*" "" layer "${entry}")
    if(NOT records MATCHES "(^|;)${layer}\\|")
      message(STATUS "Test matrix: no row of layer ${layer} in this build (not built here)")
    endif()
  endforeach()
  if(missing)
    list(JOIN missing ", " text)
    message(FATAL_ERROR "The test matrix loses (layer, configuration) pairs: ${text}. Give a program of "
                        "that layer the configuration (armada_add_layer_tests ... ACROSS), docs/testing.md")
  endif()
  set(table "| layer | configuration | programs |\n| --- | --- | --- |\n")
  foreach(entry IN LISTS ARMADA_LAYER_COVERAGE_REQUIRED)
    string(REGEX REPLACE "=.*" "" layer "${entry}")
    foreach(config IN LISTS ARMADA_LAYER_CONFIGS)
      set(stems "")
      foreach(record IN LISTS records)
        if(record MATCHES "^${layer}\\|${config}\\|(.*)$")
          list(APPEND stems "`${CMAKE_MATCH_1}`")
        endif()
      endforeach()
      if(stems)
        list(REMOVE_DUPLICATES stems)
        list(SORT stems)
        list(JOIN stems ", " stems)
        string(APPEND table "| ${layer} | ${config} | ${stems} |\n")
      endif()
    endforeach()
  endforeach()
  file(WRITE ${PROJECT_BINARY_DIR}/tests/layer-coverage.md "${table}")
endfunction()

