# ctest entry makefile-sources-match-cmake (tests/CMakeLists.txt): the make
# build (src/makefile, for OpenBench) compiles exactly the engine's sources:
# CMakeLists.txt's staccato_core list and src/main.cpp.
# Arguments: -DSOURCE_DIR=<source tree> -DMAKE=<make program>.
file(READ "${SOURCE_DIR}/CMakeLists.txt" text)
if(NOT text MATCHES "add_library\\(staccato_core STATIC([^)]*)\\)")
  message(FATAL_ERROR "no add_library(staccato_core STATIC ...) in CMakeLists.txt")
endif()
string(REGEX MATCHALL "src/[^ \t\r\n]+\\.cpp" cmake_sources "${CMAKE_MATCH_1}")
list(APPEND cmake_sources src/main.cpp)
list(TRANSFORM cmake_sources REPLACE "^src/" "")
list(SORT cmake_sources)

execute_process(COMMAND "${MAKE}" -s --no-print-directory print-sources
                WORKING_DIRECTORY "${SOURCE_DIR}/src" OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make print-sources failed (${rc})")
endif()
string(STRIP "${listing}" listing)
string(REGEX REPLACE "[ \t\n]+" ";" make_sources "${listing}")
list(SORT make_sources)

message(STATUS "CMake: ${cmake_sources}")
message(STATUS "make:  ${make_sources}")
if(NOT cmake_sources STREQUAL make_sources)
  message(FATAL_ERROR "src/makefile and CMakeLists.txt build different sources")
endif()
