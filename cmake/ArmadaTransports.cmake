# The transports' table (docs/architecture.md#adding-a-transport). Every folder
# rma/src/transport/<folder>/ holding a transport.cmake is one transport, and that file is its one
# row: its name, registration order, entry symbol, sources, required packages, capabilities, and
# the test configurations it runs in (local and on the emulated cluster). The build
# (rma/CMakeLists.txt: sources, and the library's registration list generated from this table),
# the test matrix (cmake/ArmadaMpiTest.cmake, cmake/ArmadaClusterTest.cmake) and CI read it; no
# other file names a transport to build or test it. Included by the top-level CMakeLists.txt before
# rma/, so that what the rows set is seen by every folder.
#
# A row's calls (in its transport.cmake; sources are relative to its folder):
#   armada_transport(<name> ORDER <n> ENTRY <symbol> [LABEL <label>] [UNAVAILABLE <why>]
#                    [SOURCES ...] [HOT_SOURCES ...] [LIBRARIES ...] [CAPABILITIES ...])
#       <name> is the entry's name (ARMADA_TRANSPORT=<name>); ORDER: registration order (the
#       settings table and ARMADA_TRANSPORT's accepted values follow it); <symbol>: its
#       TransportEntry (rma/src/transport/plugin.hpp); LABEL: the ctest label of its rows
#       (default <name>); UNAVAILABLE: not built here, and why (a package is missing);
#       HOT_SOURCES: sources of the per-operation path, optimized even in debug-info builds.
#   armada_transport_config(<config> RANKS <n>... [NODE_SIZE <k>] [ENV ...] [CAPABILITIES ...]
#                           [LAYER] [QUICK])
#       a configuration the conformance programs run in (rows <program>.<config>.np<n>; the
#       configuration `shm` is the default one: rows <program>.np<n>). NODE_SIZE: ranks per virtual
#       node, and ARMADA_TRANSPORT=<name>. CAPABILITIES: more than the transport's (a variant's
#       own, e.g. `variant`). LAYER: one of the rows every layer above rma must meet
#       (ARMADA_LAYER_CONFIGS, docs/testing.md#the-test-matrix). QUICK: kept by quick runs
#       (scripts/test.sh with ARMADA_TEST_QUICK=1: CI's run against MPICH); they leave out the rows
#       of the other configurations, and every row naming a transport without a QUICK one
#       (<build>/transport-rows-slow.regex).
#   armada_transport_cluster(<config> [ENV ...] [DEFAULT])
#       an environment for the emulated-cluster rows (<program>.cluster<k>x<r>.<config>); DEFAULT:
#       in every cluster test's list.
#
# Capabilities (what tests ask for instead of a name; an unknown one fails the configure step):
set(ARMADA_TRANSPORT_CAPABILITY_WORDS
  node_memory            # carries on-node targets (the one NodeMemory transport)
  crosses_hosts          # carries targets on other hosts (an inter-node transport)
  helper_thread          # runs a helper thread of its own in every process (a node server, a service)
  one_sided_atomics      # fetch-and-ops and compare-and-swap without the target's CPU
  exclusive_atomics      # carries every atomic, to on-node targets too (TransportCaps::exclusive_atomics)
  mpi_data_path          # moves the data itself with MPI calls (their int counts are a risk)
  mpi_windows            # keeps MPI windows per segment (the MPI's own window costs apply)
  any_thread_level       # runs below MPI_THREAD_MULTIPLE without giving way to another transport
  stall_warning          # watches its own waits: a peer silent for ARMADA_STALL_WARN s is named (common/stall.hpp)
  variant                # (configurations) a transport's variant, not its default path
)

# armada_transport_read(): includes every row (rma/src/transport/*/transport.cmake) in the caller's
# scope, then sets ARMADA_TRANSPORTS (the available ones, by ORDER), ARMADA_TRANSPORT_CONFIGS
# (their configurations), ARMADA_LAYER_CONFIGS (those marked LAYER), ARMADA_CLUSTER_TRANSPORTS
# (the DEFAULT cluster configurations) and ARMADA_TRANSPORT_HOT_SOURCES.
macro(armada_transport_read)
  file(GLOB _armada_transport_rows CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rma/src/transport/*/transport.cmake)
  set(ARMADA_TRANSPORT_CONFIGS "")
  set(ARMADA_LAYER_CONFIGS "")
  set(ARMADA_CLUSTER_TRANSPORTS "")
  set(ARMADA_TRANSPORT_HOT_SOURCES "")
  set(_armada_transport_keys "")
  foreach(_row IN LISTS _armada_transport_rows)
    include(${_row})
  endforeach()
  list(SORT _armada_transport_keys COMPARE NATURAL)
  set(ARMADA_TRANSPORTS "")
  foreach(_key IN LISTS _armada_transport_keys)
    string(REGEX REPLACE "^[0-9]+:" "" _name "${_key}")
    list(APPEND ARMADA_TRANSPORTS ${_name})
    list(APPEND ARMADA_TRANSPORT_CONFIGS ${_armada_transport_${_name}_CONFIGS})
    list(APPEND ARMADA_CLUSTER_TRANSPORTS ${_armada_transport_${_name}_CLUSTER_DEFAULT})
    list(APPEND ARMADA_TRANSPORT_HOT_SOURCES ${_armada_transport_${_name}_HOT})
    foreach(_c IN LISTS _armada_transport_${_name}_CONFIGS)
      if(_cfg_${_c}_LAYER)
        list(APPEND ARMADA_LAYER_CONFIGS ${_c})
      endif()
    endforeach()
  endforeach()
endmacro()

function(armada_transport_check_capabilities where)
  foreach(cap IN LISTS ARGN)
    if(NOT cap IN_LIST ARMADA_TRANSPORT_CAPABILITY_WORDS)
      message(FATAL_ERROR "${where}: unknown capability '${cap}' (cmake/ArmadaTransports.cmake lists them: "
                          "${ARMADA_TRANSPORT_CAPABILITY_WORDS})")
    endif()
  endforeach()
endfunction()

macro(armada_transport name)
  cmake_parse_arguments(_t "" "ORDER;ENTRY;LABEL;UNAVAILABLE" "SOURCES;HOT_SOURCES;LIBRARIES;CAPABILITIES" ${ARGN})
  if(NOT DEFINED _t_ORDER OR NOT _t_ENTRY OR _t_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "armada_transport(${name}) in ${CMAKE_CURRENT_LIST_FILE}: ORDER and ENTRY are required"
                        " (unknown: ${_t_UNPARSED_ARGUMENTS})")
  endif()
  if(DEFINED _armada_transport_${name}_DIR)
    message(FATAL_ERROR "armada_transport(${name}): registered twice (${_armada_transport_${name}_DIR} and ${CMAKE_CURRENT_LIST_DIR})")
  endif()
  armada_transport_check_capabilities("armada_transport(${name})" ${_t_CAPABILITIES})
  set(_armada_transport_${name}_DIR ${CMAKE_CURRENT_LIST_DIR})
  set(_armada_transport_${name}_ENTRY ${_t_ENTRY})
  set(_armada_transport_${name}_CAPABILITIES ${_t_CAPABILITIES})
  set(_armada_transport_${name}_LIBRARIES ${_t_LIBRARIES})
  list(TRANSFORM _t_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/ OUTPUT_VARIABLE _armada_transport_${name}_SOURCES)
  list(TRANSFORM _t_HOT_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/ OUTPUT_VARIABLE _armada_transport_${name}_HOT)
  list(APPEND _armada_transport_${name}_SOURCES ${_armada_transport_${name}_HOT})
  set(_armada_transport_${name}_LABEL ${name})
  if(_t_LABEL)
    set(_armada_transport_${name}_LABEL ${_t_LABEL})
  endif()
  set(_armada_transport_${name}_CONFIGS "")
  set(_armada_transport_${name}_CLUSTER_DEFAULT "")
  set(_armada_transport_current ${name})
  set(_armada_transport_named ${name})
  if(_t_UNAVAILABLE)
    message(STATUS "Armada: no ${name} transport: ${_t_UNAVAILABLE}")
    set(_armada_transport_current "")  # its configurations are not registered
  else()
    list(APPEND _armada_transport_keys "${_t_ORDER}:${name}")
  endif()
endmacro()

# The rows of the configuration <config> (cmake/ArmadaMpiTest.cmake reads _cfg_<config>_*).
macro(armada_transport_config config)
  cmake_parse_arguments(_c "LAYER;QUICK" "NODE_SIZE" "RANKS;ENV;CAPABILITIES" ${ARGN})
  if(NOT _c_RANKS OR _c_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "armada_transport_config(${config}) in ${CMAKE_CURRENT_LIST_FILE}: RANKS is required"
                        " (unknown: ${_c_UNPARSED_ARGUMENTS})")
  endif()
  armada_transport_check_capabilities("armada_transport_config(${config})" ${_c_CAPABILITIES})
  if(_armada_transport_current)
    set(_tname ${_armada_transport_current})
    list(APPEND _armada_transport_${_tname}_CONFIGS ${config})
    set(_cfg_${config}_TRANSPORT ${_tname})
    set(_cfg_${config}_RANKS ${_c_RANKS})
    set(_cfg_${config}_ENV "")
    if(_c_NODE_SIZE)
      set(_cfg_${config}_ENV ARMADA_NODE_SIZE=${_c_NODE_SIZE} ARMADA_TRANSPORT=${_tname})
    endif()
    list(APPEND _cfg_${config}_ENV ${_c_ENV})
    set(_cfg_${config}_LABELS "")
    if(_c_NODE_SIZE)
      set(_cfg_${config}_LABELS ${_armada_transport_${_tname}_LABEL})
    endif()
    set(_cfg_${config}_CAPABILITIES ${_armada_transport_${_tname}_CAPABILITIES} ${_c_CAPABILITIES})
    set(_cfg_${config}_LAYER ${_c_LAYER})
    set(_cfg_${config}_QUICK ${_c_QUICK})
  endif()
endmacro()

# (A transport that is UNAVAILABLE still names its cluster configurations: a test asking for one
# gets no row here instead of an error.)
macro(armada_transport_cluster config)
  cmake_parse_arguments(_c "DEFAULT" "" "ENV" ${ARGN})
  set(_cluster_${config}_ENV ARMADA_TRANSPORT=${_armada_transport_named} ${_c_ENV})
  set(_cluster_${config}_CAPABILITIES ${_armada_transport_${_armada_transport_named}_CAPABILITIES})
  set(_cluster_${config}_AVAILABLE FALSE)
  if(_armada_transport_current)
    set(_cluster_${config}_AVAILABLE TRUE)
    if(_c_DEFAULT)
      list(APPEND _armada_transport_${_armada_transport_named}_CLUSTER_DEFAULT ${config})
    endif()
  endif()
endmacro()

# armada_transport_configs_with(<out> <configs var> REQUIRES <caps>... [EXCLUDES <caps>...]
#                               [CLUSTER]): the configurations of <configs var> whose capabilities
# hold every REQUIRES and no EXCLUDES, in order (CLUSTER: emulated-cluster configurations).
function(armada_transport_configs_with _armada_out _armada_configs_var)
  cmake_parse_arguments(PARSE_ARGV 2 arg "CLUSTER" "" "REQUIRES;EXCLUDES")
  armada_transport_check_capabilities("armada_transport_configs_with" ${arg_REQUIRES} ${arg_EXCLUDES})
  set(prefix _cfg_)
  if(arg_CLUSTER)
    set(prefix _cluster_)
  endif()
  set(kept "")
  foreach(config IN LISTS ${_armada_configs_var})
    set(ok TRUE)
    foreach(cap IN LISTS arg_REQUIRES)
      if(NOT cap IN_LIST ${prefix}${config}_CAPABILITIES)
        set(ok FALSE)
      endif()
    endforeach()
    foreach(cap IN LISTS arg_EXCLUDES)
      if(cap IN_LIST ${prefix}${config}_CAPABILITIES)
        set(ok FALSE)
      endif()
    endforeach()
    if(ok)
      list(APPEND kept ${config})
    endif()
  endforeach()
  set(${_armada_out} "${kept}" PARENT_SCOPE)
endfunction()

# armada_transport_sources(<target>): adds every available transport's sources and libraries to
# <target> and generates its registration list (transports.cpp, from transports.cpp.in).
function(armada_transport_sources target)
  set(declarations "")
  set(entries "")
  foreach(name IN LISTS ARMADA_TRANSPORTS)
    target_sources(${target} PRIVATE ${_armada_transport_${name}_SOURCES})
    if(_armada_transport_${name}_LIBRARIES)
      target_link_libraries(${target} PRIVATE ${_armada_transport_${name}_LIBRARIES})
    endif()
    string(APPEND declarations "extern const TransportEntry ${_armada_transport_${name}_ENTRY};  // ${name}\n")
    string(APPEND entries "    &${_armada_transport_${name}_ENTRY},\n")
  endforeach()
  set(ARMADA_TRANSPORT_DECLARATIONS "${declarations}")
  set(ARMADA_TRANSPORT_ENTRIES "${entries}")
  configure_file(${PROJECT_SOURCE_DIR}/rma/src/transport/transports.cpp.in
                 ${CMAKE_CURRENT_BINARY_DIR}/generated/transports.cpp @ONLY)
  target_sources(${target} PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated/transports.cpp)
  list(JOIN ARMADA_TRANSPORTS ", " names)
  message(STATUS "Armada: transports ${names}")
endfunction()

# armada_transport_write_quick_filter(<file>): the regex of the row names quick runs leave out:
# the configurations not marked QUICK, and the label (a row-name prefix: mpirma-direct, ...) of
# every transport with no QUICK configuration.
function(armada_transport_write_quick_filter file)
  set(slow "")
  foreach(name IN LISTS ARMADA_TRANSPORTS)
    set(quick FALSE)
    foreach(config IN LISTS _armada_transport_${name}_CONFIGS)
      if(_cfg_${config}_QUICK)
        set(quick TRUE)
      else()
        string(REPLACE "." "\\." pattern "${config}")
        list(APPEND slow "\\.${pattern}\\.")  # <stem>.<config>.np<n>
      endif()
    endforeach()
    if(NOT quick)
      list(APPEND slow "${_armada_transport_${name}_LABEL}")
    endif()
  endforeach()
  list(JOIN slow "|" regex)
  file(WRITE ${file} "${regex}\n")
endfunction()

# armada_transport_write_list(<file>): this build's transports for scripts (scripts/bench-*.sh),
# one line each in registration order: the name, then its capabilities separated by commas.
function(armada_transport_write_list file)
  set(text "")
  foreach(name IN LISTS ARMADA_TRANSPORTS)
    list(JOIN _armada_transport_${name}_CAPABILITIES "," caps)
    string(APPEND text "${name} ${caps}\n")
  endforeach()
  file(WRITE ${file} "${text}")
endfunction()

if(NOT CMAKE_SCRIPT_MODE_FILE)  # (scripts include the functions only: tests/harness)
  armada_transport_read()
  armada_transport_write_quick_filter(${PROJECT_BINARY_DIR}/transport-rows-slow.regex)
  armada_transport_write_list(${PROJECT_BINARY_DIR}/transports.txt)
endif()
