# The training step of the profile-guided build (CMakeLists.txt,
# STACCATO_PGO), run by the build:
#
#   cmake -DSOURCE_DIR=<tree> -DPGO_DIR=<build>/pgo -DGENERATOR=<generator>
#         -DUSE_FLAGS=<flags with the profile> -P bench/pgo.cmake
#
# Configures and builds the instrumented engine in PGO_DIR/build (its
# settings in PGO_DIR/init.cmake), runs its `bench` to write the profile to
# PGO_DIR/profile, and writes PGO_DIR/flags.rsp, the flags the engine's
# objects are compiled with: USE_FLAGS, or nothing when a step failed. It
# never fails the build: a failure is one message naming the step and the
# log (PGO_DIR/training.log).
foreach(var SOURCE_DIR PGO_DIR GENERATOR USE_FLAGS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "bench/pgo.cmake: -D${var}= is missing")
  endif()
endforeach()
set(log ${PGO_DIR}/training.log)
set(flags ${PGO_DIR}/flags.rsp)

function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  file(APPEND ${log} "\n$ ${ARGN}\n${out}exit: ${rc}\n")
  if(NOT rc EQUAL 0)
    set(failed "${step} failed" PARENT_SCOPE)
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${PGO_DIR}/profile)
file(WRITE ${log} "PGO training\n")
set(failed "")
# The build's own parallelism where it says one; else every core.
if(DEFINED ENV{CMAKE_BUILD_PARALLEL_LEVEL})
  set(jobs $ENV{CMAKE_BUILD_PARALLEL_LEVEL})
else()
  cmake_host_system_information(RESULT jobs QUERY NUMBER_OF_LOGICAL_CORES)
endif()

run("configuring the instrumented build" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${PGO_DIR}/build -G ${GENERATOR}
    -C ${PGO_DIR}/init.cmake)
if(failed STREQUAL "")
  run("building the instrumented engine" ${CMAKE_COMMAND} --build ${PGO_DIR}/build --target staccato --parallel ${jobs})
endif()
if(failed STREQUAL "")
  file(MAKE_DIRECTORY ${PGO_DIR}/profile)
  run("the training run (bench)" ${PGO_DIR}/build/staccato bench)
endif()
if(failed STREQUAL "" AND NOT out MATCHES "[0-9]+ nodes [0-9]+ nps")
  set(failed "the training run printed no bench result")
endif()
if(failed STREQUAL "")
  file(GLOB_RECURSE profiles ${PGO_DIR}/profile/*.gcda)
  list(LENGTH profiles count)
  if(count EQUAL 0)
    set(failed "the training run wrote no profile to ${PGO_DIR}/profile")
  endif()
endif()

if(failed STREQUAL "")
  string(REGEX MATCH "[0-9]+ nodes [0-9]+ nps" result "${out}")
  file(WRITE ${flags} "${USE_FLAGS}\n")
  message("PGO: trained on bench (${result} instrumented, ${count} profile files): the engine is built with them")
else()
  file(WRITE ${flags} "")
  message("PGO: ${failed} (${log}): the engine is built without a profile")
endif()
