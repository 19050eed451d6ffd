# ctest entry ctest-entries-match-test-cases (tests/CMakeLists.txt): the number
# of Catch2 test cases (hidden ones aside) must equal the number of ctest
# entries registered for them, so that no test case is split (a `;` in its
# name) or lost. Arguments: -DTESTS=<staccato_tests> -DCTEST=<ctest>
# -DBUILD_DIR=<build directory>.
execute_process(COMMAND "${TESTS}" --list-test-names-only OUTPUT_VARIABLE names)
string(REPLACE ";" "," names "${names}") # a `;` would split a name in a CMake list
string(REGEX MATCHALL "[^\n]+" names "${names}")
list(LENGTH names cases)

execute_process(COMMAND "${CTEST}" -N -LE "perft-full|syzygy-full|strength-full|registration|openbench|docs|commits|build|portability" --test-dir "${BUILD_DIR}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT listing MATCHES "Total Tests: ([0-9]+)")
  message(FATAL_ERROR "ctest -N failed (${rc}):\n${listing}")
endif()
set(entries ${CMAKE_MATCH_1})

message(STATUS "${cases} Catch2 test cases, ${entries} ctest entries")
if(cases EQUAL 0 OR NOT cases EQUAL entries)
  message(FATAL_ERROR "the Catch2 test cases and the ctest entries differ in number")
endif()
