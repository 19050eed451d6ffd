// Scratch files for tests: a path in the system's temporary folder whose name
// carries a token drawn once per test process, so that test cases that ctest
// runs at the same time (each case is its own process) never share a file.
// Every path handed out is removed (with what it holds) when the process ends.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace staccato::test {

class ScratchPaths {
  public:
    ScratchPaths() : token_(std::to_string(std::random_device{}())) {}
    ScratchPaths(const ScratchPaths&) = delete;
    ScratchPaths& operator=(const ScratchPaths&) = delete;
    ~ScratchPaths() {
        for (const std::string& p : paths_) {
            std::error_code ec; // a file never created, or already gone, is fine
            std::filesystem::remove_all(p, ec);
        }
    }

    std::string make(const std::string& name) {
        paths_.push_back(
            (std::filesystem::temp_directory_path() / ("staccato-test-" + token_ + "-" + name)).string());
        return paths_.back();
    }

  private:
    std::string token_;
    std::vector<std::string> paths_;
};

inline ScratchPaths& scratch_paths() {
    static ScratchPaths paths;
    return paths;
}

// A file name in the temporary folder; the file itself is not created.
inline std::string temp_path(const std::string& name) { return scratch_paths().make(name); }

// A scratch file (as temp_path) holding `bytes`; returns its path.
inline std::string write_temp(const std::string& name, std::string_view bytes) {
    const std::string path = temp_path(name);
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    return path;
}

inline std::string write_temp(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    return write_temp(name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

// A folder in the temporary folder, created empty if it was not there.
inline std::string temp_folder(const std::string& name) {
    const std::string dir = temp_path(name);
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace staccato::test
