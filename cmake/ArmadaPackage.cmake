# Installs the exported targets and an `Armada` CMake package (config + version file).
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
