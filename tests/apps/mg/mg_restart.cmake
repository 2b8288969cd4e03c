# armada-mg --checkpoint / --restart: a run on 4 ranks checkpoints every 2 iterations (class S:
# 4 iterations, checkpoints 2 and 4); the checkpoint of iteration 4 is removed, as if the job had
# been killed before writing it; a run on 2 ranks restarts from iteration 2, runs iterations 3
# and 4, and must verify the official norm (exit code 0).
#   cmake -DPROGRAM=<armada-mg> -DDIR=<dir> -DLAUNCH="<mpiexec;flags>" -P mg_restart.cmake
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
function(run ranks out)
  execute_process(COMMAND ${LAUNCH} -n ${ranks} ${PROGRAM} --class S ${ARGN} --checkpoint-prefix ${DIR}/mg
                  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 300)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "armada-mg ${ARGN} on ${ranks} ranks failed (${rc}):\n${text}\n${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

run(4 first --checkpoint 2)
foreach(step 2 4)
  if(NOT EXISTS ${DIR}/mg.${step}.h5)
    message(FATAL_ERROR "no checkpoint of iteration ${step} in ${DIR}")
  endif()
endforeach()
file(REMOVE ${DIR}/mg.4.h5)
run(2 second --restart)
if(NOT second MATCHES "Restarted from checkpoint '[^']*mg.2.h5' \\(after iteration 2\\)")
  message(FATAL_ERROR "the second run did not restart from iteration 2:\n${second}")
endif()
if(NOT second MATCHES "VERIFICATION SUCCESSFUL|Verification += +SUCCESSFUL")
  message(FATAL_ERROR "the restarted run did not verify:\n${second}")
endif()
message(STATUS "restarted from iteration 2 on 2 ranks and verified")
