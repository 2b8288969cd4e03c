# cmake -P script: install, build a consumer with find_package(Armada), run it.
include(${CMAKE_CURRENT_LIST_DIR}/install_common.cmake)

install_scratch()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${CONFIG})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run(${launch} "${WORK_DIR}/build/consumer")
run(${launch} "${WORK_DIR}/build/linalg_program")
message("consumer test: installed package found, built against and ran on 2 ranks")
