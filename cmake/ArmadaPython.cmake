# The Python package (python/): pybind11, a Python 3 interpreter with its development files,
# NumPy and mpi4py. ARMADA_BUILD_PYTHON defaults to ON when all of them are found.
#
# The interpreter is the first `python3` on PATH that imports numpy and mpi4py (a pyenv or venv
# interpreter without them is passed over); -DPython3_EXECUTABLE=... chooses one explicitly.

function(_armada_find_python_with_numpy out)
  set(${out} "" PARENT_SCOPE)
  string(REPLACE ":" ";" _dirs "$ENV{PATH}")
  foreach(_dir IN LISTS _dirs)
    if(EXISTS "${_dir}/python3" AND NOT IS_DIRECTORY "${_dir}/python3")
      execute_process(COMMAND "${_dir}/python3" -c "import numpy, mpi4py"
                      RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
      if(_rc EQUAL 0)
        set(${out} "${_dir}/python3" PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
endfunction()

set(ARMADA_PYTHON_MISSING "")
if(ARMADA_SANITIZE)
  # A sanitized extension cannot load into an uninstrumented interpreter (the sanitizer runtime
  # must come first in the process); sanitizer builds test the C++ layers.
  list(APPEND ARMADA_PYTHON_MISSING "a build without ARMADA_SANITIZE (${ARMADA_SANITIZE})")
endif()
if(NOT Python3_EXECUTABLE)
  _armada_find_python_with_numpy(_armada_python)
  if(_armada_python)
    set(Python3_EXECUTABLE "${_armada_python}" CACHE FILEPATH "Python interpreter of the armada package")
  else()
    list(APPEND ARMADA_PYTHON_MISSING "a python3 on PATH that imports numpy and mpi4py")
  endif()
endif()
if(NOT ARMADA_PYTHON_MISSING)
  find_package(Python3 COMPONENTS Interpreter Development.Module NumPy QUIET)
  if(NOT Python3_FOUND)
    list(APPEND ARMADA_PYTHON_MISSING "Python3 development files and NumPy headers (python3-dev, python3-numpy)")
  endif()
endif()
# mpi4py must run on the MPI Armada is built with (Debian's python3-mpi4py is built on Open MPI:
# an MPICH build of Armada cannot share a process with it).
if(NOT ARMADA_PYTHON_MISSING)
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c
                    "from mpi4py import rc; rc.initialize = False; from mpi4py import MPI; print(MPI.Get_library_version())"
                  OUTPUT_VARIABLE _armada_mpi4py_mpi RESULT_VARIABLE _rc ERROR_QUIET)
  set(_armada_mpi4py_vendor unknown)
  if(_armada_mpi4py_mpi MATCHES "Open MPI")
    set(_armada_mpi4py_vendor openmpi)
  elseif(_armada_mpi4py_mpi MATCHES "MPICH")
    set(_armada_mpi4py_vendor mpich)
  endif()
  if(NOT _armada_mpi4py_vendor STREQUAL ARMADA_MPI_VENDOR)
    list(APPEND ARMADA_PYTHON_MISSING
         "an mpi4py on Armada's MPI (${ARMADA_MPI_VENDOR}; this mpi4py runs on ${_armada_mpi4py_vendor})")
  endif()
endif()
if(NOT ARMADA_PYTHON_MISSING)
  find_package(pybind11 CONFIG QUIET)
  if(NOT pybind11_FOUND)
    list(APPEND ARMADA_PYTHON_MISSING "pybind11's CMake package (pybind11-dev)")
  endif()
endif()

if(ARMADA_PYTHON_MISSING)
  set(_armada_python_default OFF)
else()
  set(_armada_python_default ON)
endif()
option(ARMADA_BUILD_PYTHON "Build the Python package armada (python/)" ${_armada_python_default})
if(ARMADA_BUILD_PYTHON AND ARMADA_PYTHON_MISSING)
  list(JOIN ARMADA_PYTHON_MISSING "; " _missing)
  message(FATAL_ERROR "ARMADA_BUILD_PYTHON=ON, but the Python package needs ${_missing}")
elseif(NOT ARMADA_BUILD_PYTHON)
  if(ARMADA_PYTHON_MISSING)
    list(JOIN ARMADA_PYTHON_MISSING "; " _missing)
    message(STATUS "Python package armada (python/) not built: it needs ${_missing}")
  else()
    message(STATUS "Python package armada (python/) not built: ARMADA_BUILD_PYTHON=OFF")
  endif()
  return()
endif()

# Where `cmake --install` puts the package, relative to the prefix: the interpreter's own site
# directory when it lies under the prefix (Debian: lib/python3.X/dist-packages under /usr/local),
# else the same layout under the prefix.
execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import sysconfig; print(sysconfig.get_path('platlib'))"
                OUTPUT_VARIABLE _armada_site OUTPUT_STRIP_TRAILING_WHITESPACE)
cmake_path(IS_PREFIX CMAKE_INSTALL_PREFIX "${_armada_site}" NORMALIZE _armada_site_in_prefix)
if(_armada_site_in_prefix)
  cmake_path(RELATIVE_PATH _armada_site BASE_DIRECTORY "${CMAKE_INSTALL_PREFIX}" OUTPUT_VARIABLE _armada_site_rel)
else()
  set(_armada_site_rel "${CMAKE_INSTALL_LIBDIR}/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages")
endif()
set(ARMADA_PYTHON_SITE_DIR "${_armada_site_rel}" CACHE STRING
  "Install directory of the Python package, relative to CMAKE_INSTALL_PREFIX")
message(STATUS "Python package armada: ${Python3_EXECUTABLE} (${Python3_VERSION}), pybind11 ${pybind11_VERSION}, "
               "installs to <prefix>/${ARMADA_PYTHON_SITE_DIR}")
