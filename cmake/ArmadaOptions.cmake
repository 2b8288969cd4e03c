# Compiler warnings, sanitizers and run-paths shared by every Armada target.

set(ARMADA_SANITIZE "" CACHE STRING
  "Sanitizers to build with: empty, 'address,undefined' or 'thread'")
set_property(CACHE ARMADA_SANITIZE PROPERTY STRINGS "" "address,undefined" "address" "undefined" "thread")

# Every Armada target links this interface target for its warning and sanitizer flags, so the
# flags never leak into the exported package.
add_library(armada_build_flags INTERFACE)
target_compile_options(armada_build_flags INTERFACE
  $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra>)

if(ARMADA_SANITIZE)
  string(REPLACE "," ";" _sanitizers "${ARMADA_SANITIZE}")
  foreach(_s IN LISTS _sanitizers)
    if(NOT _s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "ARMADA_SANITIZE: unknown sanitizer '${_s}' (use address,undefined or thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _sanitizers AND ("address" IN_LIST _sanitizers))
    message(FATAL_ERROR "ARMADA_SANITIZE: 'thread' cannot be combined with 'address'")
  endif()
  # Sanitizers apply to everything built here (tests and benchmarks too), so that a race or
  # overflow in a test's own use of the library is reported as well.
  add_compile_options(-fsanitize=${ARMADA_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=${ARMADA_SANITIZE})
  # GA's Fortran memory idiom reads MA-allocated memory through a one-element common array
  # (dbl_mb(index), int_mb(index): mafdecls.fh), beyond the array's declared size by design;
  # UBSan's object-size check reports every such read, so it is off for Fortran sources.
  if("undefined" IN_LIST _sanitizers)
    add_compile_options($<$<COMPILE_LANGUAGE:Fortran>:-fno-sanitize=object-size>)
  endif()
endif()

# Installed binaries find the installed libraries; build-tree binaries find the build tree's.
set(CMAKE_INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

# ccache, when installed (scripts/setup.sh installs it) and no launcher is given: a second tree
# of the same sources (CI's clean clone, rma_toy_transport's scratch copy, another build type's
# tree already built once) takes unchanged objects from the cache instead of compiling them.
# Each tree's own source folder is ccache's base_dir, so the paths a compile line holds hash
# relative to it; hash_dir is off because -g would otherwise hash the absolute build folder
# (the debug information of an object from the cache names the folder it was first built in).
# -DARMADA_CCACHE=OFF compiles without it.
option(ARMADA_CCACHE "Compile C and C++ through ccache when it is installed" ON)
set(ARMADA_USER_C_LAUNCHER "${CMAKE_C_COMPILER_LAUNCHER}")     # a launcher the user gave, passed on
set(ARMADA_USER_CXX_LAUNCHER "${CMAKE_CXX_COMPILER_LAUNCHER}") # to nested builds (tests/rma)
if(ARMADA_CCACHE AND NOT CMAKE_C_COMPILER_LAUNCHER AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(ARMADA_CCACHE_PROGRAM ccache)
  set(_ccache_env ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1)
  if(ARMADA_CCACHE_PROGRAM)
    # ccache fails every compile where it cannot write its cache (a missing or read-only home, as
    # some service accounts have): one compile through it first, and without it if that fails.
    set(_probe ${CMAKE_BINARY_DIR}/CMakeFiles/armada-ccache-probe)
    file(WRITE ${_probe}/probe.c "int armada_ccache_probe(void) { return 0; }\n")
    execute_process(COMMAND ${_ccache_env} ${ARMADA_CCACHE_PROGRAM} ${CMAKE_C_COMPILER} -c probe.c -o probe.o
                    WORKING_DIRECTORY ${_probe} RESULT_VARIABLE _ccache_rc OUTPUT_VARIABLE _ccache_out
                    ERROR_VARIABLE _ccache_out)
    if(NOT _ccache_rc EQUAL 0)
      string(STRIP "${_ccache_out}" _ccache_out)
      message(STATUS "Armada: not compiling through ${ARMADA_CCACHE_PROGRAM}: a test compile failed (${_ccache_out})")
      set(ARMADA_CCACHE_PROGRAM "")
    endif()
  endif()
  if(ARMADA_CCACHE_PROGRAM)
    set(CMAKE_C_COMPILER_LAUNCHER ${_ccache_env} ${ARMADA_CCACHE_PROGRAM})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_ccache_env} ${ARMADA_CCACHE_PROGRAM})
    # The test programs' precompiled headers (armada_gtest_program): ccache uses them only with
    # this sloppiness (their sources have no __DATE__ or __TIME__; the .gch is made just before).
    set(ARMADA_CCACHE_PCH_LAUNCHER ${_ccache_env}
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${ARMADA_CCACHE_PROGRAM})
    message(STATUS "Armada: compiling through ${ARMADA_CCACHE_PROGRAM} (base_dir ${PROJECT_SOURCE_DIR})")
  endif()
endif()
