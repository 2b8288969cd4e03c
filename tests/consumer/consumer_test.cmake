# cmake -P script: install, build a consumer with find_package(Armada), run it.
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)

install_scratch()
build_against_prefix("${SOURCE_DIR}" "${WORK_DIR}/build")
run(${launch} "${WORK_DIR}/build/consumer")
run(${launch} "${WORK_DIR}/build/linalg_program")
message("consumer test: installed package found, built against and ran on 2 ranks")
