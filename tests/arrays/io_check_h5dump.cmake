# Checks the file Cross.Write saved with h5dump (hdf5-tools), an independent reader:
#   cmake -DH5DUMP=<h5dump> -DFILE=<cross.h5> -P io_check_h5dump.cmake
# The header must show the types h5py reads as complex and the attributes docs/io.md lists; two
# elements are read back and compared with io_value (tests/arrays/io_util.hpp).
function(dump out)
  execute_process(COMMAND ${H5DUMP} ${ARGN} ${FILE} OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "h5dump ${ARGN} failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
function(expect text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "h5dump: ${what} not found (pattern '${pattern}')")
  endif()
endfunction()

dump(header -H -A)
foreach(name int long float double cfloat cdouble cube)
  expect("${header}" "DATASET \"${name}\"" "dataset ${name}")
endforeach()
expect("${header}" "DATASET \"cdouble\" {[ \n]*DATATYPE  H5T_COMPOUND {[ \n]*H5T_IEEE_F64LE \"r\";[ \n]*H5T_IEEE_F64LE \"i\";"
       "cdouble as compound {r, i} of doubles")
expect("${header}" "DATASET \"cfloat\" {[ \n]*DATATYPE  H5T_COMPOUND {[ \n]*H5T_IEEE_F32LE \"r\";[ \n]*H5T_IEEE_F32LE \"i\";"
       "cfloat as compound {r, i} of floats")
expect("${header}" "DATASET \"int\" {[ \n]*DATATYPE  H5T_STD_I32LE[ \n]*DATASPACE  SIMPLE { \\( 23, 7 \\)" "int as 32-bit integers, 23 x 7")
expect("${header}" "ATTRIBUTE \"armada_version\"" "attribute armada_version")
expect("${header}" "ATTRIBUTE \"armada_ghosts\"" "attribute armada_ghosts")
# int[1][2]: linear index 9 -> 9 - 300; cdouble[0][1]: x = -299 -> -299 + (-299 % 5 - 2)i = -299 - 6i.
dump(one -d /int -s 1,2 -c 1,1)
expect("${one}" "\\(1,2\\): -291" "int[1][2] = -291")
dump(two -d /cdouble -s 0,1 -c 1,1)
expect("${two}" "\\(0,1\\): {[ \n]*-299,[ \n]*-6[ \n]*}" "cdouble[0][1] = {-299, -6}")
message(STATUS "h5dump check passed")
