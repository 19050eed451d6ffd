// The bytes of one data file, whatever holds them: a plain file, or an
// xz-compressed one read through `xz -dc` as it is decompressed (nothing is
// unpacked to disk). Which of the two a file is comes from its first bytes
// (the xz magic number), never from its name.
//
// The readers of every data format (nnue/data.h) read through this class, so
// that each of them works on compressed files too, and every offset they
// report is an offset into the decompressed bytes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace staccato::nnue {

class ByteSource {
  public:
    ByteSource() = default;
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;
    ~ByteSource();

    // Opens `path`. Refused: a file that cannot be opened, and an
    // xz-compressed one when the `xz` program cannot be run.
    std::optional<std::string> open(const std::string& path);

    const std::string& path() const { return path_; }
    bool compressed() const { return pipe_; }

    // Up to `n` of the next bytes without consuming them (fewer at the end).
    std::string_view peek(std::size_t n);
    // Copies up to `n` bytes into `dst`; fewer only at the end.
    std::size_t read(void* dst, std::size_t n);
    // The next line without its '\n' (and a '\r' before it); false at the end.
    bool getline(std::string& line);
    // Bytes consumed so far (of the decompressed stream for an xz file).
    std::uint64_t offset() const { return consumed_; }

    // Closes the file. For an xz file read to its end: why decompression
    // failed (a damaged or cut-off file, a missing `xz`), or nothing.
    std::optional<std::string> close();

  private:
    bool fill(std::size_t want); // at least `want` bytes buffered, unless the end comes first

    std::string path_;
    std::FILE* file_ = nullptr;
    bool pipe_ = false;
    bool eof_ = false;
    std::vector<char> buffer_ = std::vector<char>(1 << 20);
    std::size_t begin_ = 0, end_ = 0; // the buffered, unread bytes
    std::uint64_t consumed_ = 0;
};

} // namespace staccato::nnue
