// A read-only view of a whole file in memory: mmap() on POSIX,
// CreateFileMapping()/MapViewOfFile() on Windows. The tablebase files are
// large and read at random, so the operating system pages them in on demand
// and shares them between processes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace staccato::syzygy {

class MappedFile {
  public:
    MappedFile() = default;
    ~MappedFile() { close(); }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }
    MappedFile& operator=(MappedFile&& other) noexcept;

    // Maps `path`; false (and nothing mapped) when it cannot be opened or
    // mapped, or is empty.
    bool open(const std::string& path);
    void close();

    bool is_open() const { return data_ != nullptr; }
    std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

  private:
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
#ifdef _WIN32
    void* mapping_ = nullptr; // the file mapping object's HANDLE
#endif
};

} // namespace staccato::syzygy
