# How every library of Armada is made a package member: armada_library() gives it its
# armada::<name> alias, versioned file name, export name, public headers and install rule;
# armada_fortran_libraries() builds a library of Fortran entry points once per default INTEGER
# width (GA's Fortran API, TCGMSG's and pario's: ga/fortran/abi/fortran_abi.hpp).

# armada_library(<target> EXPORT <name> [HEADERS <dir> [HEADERS_SUBDIR <dir>]] [PRIVATE_SRC])
#   HEADERS: the public headers' folder (relative to this CMakeLists.txt), installed users find
#   them in include/<HEADERS_SUBDIR>; PRIVATE_SRC: src/ is on the library's own include path.
function(armada_library target)
  cmake_parse_arguments(PARSE_ARGV 1 A "PRIVATE_SRC" "EXPORT;HEADERS;HEADERS_SUBDIR" "")
  add_library(armada::${A_EXPORT} ALIAS ${target})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${target} EXPORT_NAME ${A_EXPORT}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  if(A_HEADERS)
    set(installed ${CMAKE_INSTALL_INCLUDEDIR})
    if(A_HEADERS_SUBDIR)
      string(APPEND installed /${A_HEADERS_SUBDIR})
    endif()
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/${A_HEADERS}>
                                                $<INSTALL_INTERFACE:${installed}>)
  endif()
  if(A_PRIVATE_SRC)
    target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  endif()
  install(TARGETS ${target} EXPORT ArmadaTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

# armada_fortran_libraries(<target> SOURCES <file>... LINK <target>... [FORTRAN_FLAGS <flag>...]
#                          [HEADERS <dir> [HEADERS_SUBDIR <dir>]] [PRIVATE_SRC])
#   Makes <target> (4-byte INTEGER) and <target>_i8 (8-byte: also adds -fdefault-integer-8 to the
#   Fortran sources of its users), each from SOURCES with ARMADA_FORTRAN_INTEGER_BYTES defined,
#   linking LINK (public unless a PRIVATE keyword in it says otherwise); FORTRAN_FLAGS go to its
#   users' Fortran sources (gfortran); HEADERS, HEADERS_SUBDIR, PRIVATE_SRC as armada_library's.
function(armada_fortran_libraries base)
  cmake_parse_arguments(PARSE_ARGV 1 A "PRIVATE_SRC" "HEADERS;HEADERS_SUBDIR" "SOURCES;LINK;FORTRAN_FLAGS")
  set(library_options)
  foreach(option HEADERS HEADERS_SUBDIR)
    if(A_${option})
      list(APPEND library_options ${option} ${A_${option}})
    endif()
  endforeach()
  if(A_PRIVATE_SRC)
    list(APPEND library_options PRIVATE_SRC)
  endif()
  foreach(bytes 4 8)
    set(lib ${base})
    set(flags ${A_FORTRAN_FLAGS})
    if(bytes EQUAL 8)
      set(lib ${base}_i8)
      list(APPEND flags -fdefault-integer-8)
    endif()
    add_library(${lib} ${A_SOURCES})
    string(REPLACE "armada_" "" export_name ${lib})
    armada_library(${lib} EXPORT ${export_name} ${library_options})
    target_compile_definitions(${lib} PRIVATE ARMADA_FORTRAN_INTEGER_BYTES=${bytes}
      OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
    target_include_directories(${lib} PRIVATE ${PROJECT_SOURCE_DIR}/ga/fortran/abi)
    target_link_libraries(${lib} PUBLIC ${A_LINK})
    target_link_libraries(${lib} PRIVATE $<BUILD_INTERFACE:armada_build_flags>)
    foreach(flag IN LISTS flags)
      target_compile_options(${lib} INTERFACE $<$<COMPILE_LANG_AND_ID:Fortran,GNU>:${flag}>)
    endforeach()
  endforeach()
endfunction()
