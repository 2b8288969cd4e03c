# Installs the exported targets, an `Armada` CMake package (config + version file), pkg-config
# files, the docs and the example sources.
include(CMakePackageConfigHelpers)

set(ARMADA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Armada")
install(EXPORT ArmadaTargets NAMESPACE armada:: DESTINATION "${ARMADA_INSTALL_CMAKEDIR}")
configure_package_config_file(cmake/ArmadaConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/ArmadaConfig.cmake"
  INSTALL_DESTINATION "${ARMADA_INSTALL_CMAKEDIR}")
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/ArmadaConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/ArmadaConfig.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/ArmadaConfigVersion.cmake"
        DESTINATION "${ARMADA_INSTALL_CMAKEDIR}")

# pkg-config files of the libraries (armada-armci.pc is made in rma/capi, armada-ga.pc in ga/),
# one per library whose target is built. Each finds its prefix from its own location, so the tree
# stays valid wherever it is installed, and records the library folder as the programs' rpath, so
# that a first `pkg-config` build runs without LD_LIBRARY_PATH. Each requires the .pc of the layer
# below, and the lowest MPI's C part only: the C++ headers include <mpi.h> with MPI's C++
# bindings switched off (OMPI_SKIP_MPICXX, MPICH_SKIP_MPICXX), so neither C nor C++ programs
# need libmpi_cxx (docs/building.md).
foreach(_armada_pc armada-rma armada-arrays armada-linalg armada-fortran)
  string(REPLACE "-" "_" _armada_pc_target ${_armada_pc})
  if(NOT TARGET ${_armada_pc_target})
    continue()
  endif()
  configure_file(cmake/pkgconfig/${_armada_pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${_armada_pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${_armada_pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# Documentation and example sources: <prefix>/share/doc/armada (the README, docs/*.md, and
# examples/ with a CMakeLists.txt that builds them against the installed package).
set(ARMADA_INSTALL_DOCDIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/armada")
install(FILES README.md DESTINATION "${ARMADA_INSTALL_DOCDIR}")
install(DIRECTORY docs/ DESTINATION "${ARMADA_INSTALL_DOCDIR}/docs" FILES_MATCHING PATTERN "*.md")
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
  install(DIRECTORY examples/ DESTINATION "${ARMADA_INSTALL_DOCDIR}/examples")
endif()
