// Armada's C++ API needs C++20 (concepts, std::span, designated initializers). Every public C++
// header includes this one first, so that a program compiled without C++20 gets this one error
// and stops, instead of a thousand errors from inside the headers. The C headers (c_api.h,
// armci.h, ga.h) do not include it: they are C89/C99.
#pragma once

#if defined(_MSVC_LANG) ? _MSVC_LANG <= 201703L : __cplusplus <= 201703L
#error "Armada's C++ API needs C++20: compile with -std=c++20 (CMake: target_link_libraries(... armada::<library>) sets it, or set CMAKE_CXX_STANDARD 20). C programs use the C headers (armada/arrays/c_api.h, armada/linalg/c_api.h, armci.h)"
// Stop here: the errors that would follow come from C++20 code in the headers and say no more.
#include <armada_cxx_api_needs_cxx20_stopping_here>
#endif
