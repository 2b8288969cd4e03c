# cmake -P script: docs/fortran.md's two ways of building a program with module armada, against
# an installed tree. Installs the build into a scratch prefix, builds PROGRAM (a Fortran program
# that checks its own result) with mpifort + pkg-config and as a CMake project with
# find_package(Armada) and armada::fortran, and runs each with 2 ranks.
include(${CMAKE_CURRENT_LIST_DIR}/../../consumer/install_common.cmake)
install_scratch()

# 1. pkg-config.
set(ENV{PKG_CONFIG_PATH} "${libdir}/pkgconfig")
pkg_flags(flags armada-fortran)
run(${MPIFORT} "${PROGRAM}" ${flags} -o "${WORK_DIR}/pkgconfig")
run(${launch} "${WORK_DIR}/pkgconfig")

# 2. CMake package.
build_against_prefix("${CMAKE_CURRENT_LIST_DIR}/project" "${WORK_DIR}/build" -DPROGRAM=${PROGRAM})
run(${launch} "${WORK_DIR}/build/fortran_consumer")
message("fortran install test: built with pkg-config and with find_package(Armada); both ran")
