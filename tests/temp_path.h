// Scratch files for tests: a path in the system's temporary folder whose name
// carries a token drawn once per test process, so that test cases that ctest
// runs at the same time (each case is its own process) never share a file.
#pragma once

#include <filesystem>
#include <random>
#include <string>

namespace staccato::test {

inline const std::string& process_token() {
    static const std::string token = std::to_string(std::random_device{}());
    return token;
}

// A file name in the temporary folder; the file itself is not created.
inline std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("staccato-test-" + process_token() + "-" + name))
        .string();
}

// A folder in the temporary folder, created empty if it was not there.
inline std::string temp_folder(const std::string& name) {
    const std::string dir = temp_path(name);
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace staccato::test
