# ctest entry pgo-forwards-build-settings (tests/CMakeLists.txt): a
# profile-guided build (STACCATO_PGO) trains an instrumented engine built
# with the same settings, so the settings that change the engine's code (the
# input kind, the hidden width, the embedded net, link-time optimisation)
# reach PGO_DIR/init.cmake. Configures a PGO build of SOURCE_DIR in SCRATCH
# with a mirrored 384-wide shape and LTO, and reads what the instrumented
# build would be given.
# Arguments: -DSOURCE_DIR=<source tree> -DSCRATCH=<empty folder> -DGENERATOR=<generator>.
file(REMOVE_RECURSE "${SCRATCH}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${SCRATCH}" -G "${GENERATOR}"
                        -DSTACCATO_PGO=ON -DSTACCATO_BUILD_TESTS=OFF -DSTACCATO_HIDDEN=384
                        -DSTACCATO_MIRRORED=ON -DSTACCATO_LTO=ON
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the PGO build failed (${rc}):\n${out}")
endif()
if(NOT EXISTS "${SCRATCH}/pgo/init.cmake")
  message(FATAL_ERROR "no ${SCRATCH}/pgo/init.cmake: PGO is off in this configuration:\n${out}")
endif()
file(READ "${SCRATCH}/pgo/init.cmake" init)
file(REMOVE_RECURSE "${SCRATCH}")
foreach(setting "STACCATO_HIDDEN [==[384]==]" "STACCATO_MIRRORED [==[ON]==]" "STACCATO_LTO [==[ON]==]"
                "STACCATO_EVALFILE [==[${SOURCE_DIR}/src/nnue/default.nnue]==]" "STACCATO_PGO OFF")
  string(FIND "${init}" "set(${setting}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the instrumented build is not given set(${setting} ...):\n${init}")
  endif()
endforeach()
message(STATUS "the instrumented build gets the engine's shape, net and LTO")
