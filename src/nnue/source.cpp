#include "staccato/nnue/source.h"

#include <algorithm>
#include <cstring>

#ifndef _WIN32
#include <sys/wait.h>
#endif

namespace staccato::nnue {

namespace {

constexpr unsigned char XZ_MAGIC[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

// The command line that decompresses `path` to standard output.
std::string xz_command(const std::string& path) {
#ifdef _WIN32
    return "xz -dc -- \"" + path + "\"";
#else
    std::string quoted = "'";
    for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return "xz -dc -- " + quoted + "'";
#endif
}

std::FILE* open_pipe(const std::string& command) {
#ifdef _WIN32
    return _popen(command.c_str(), "rb");
#else
    return popen(command.c_str(), "r");
#endif
}

// The decompressor's exit code (127: the shell could not find `xz`).
int close_pipe(std::FILE* f) {
#ifdef _WIN32
    return _pclose(f);
#else
    const int status = pclose(f);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : 128;
#endif
}

} // namespace

ByteSource::~ByteSource() { close(); }

std::optional<std::string> ByteSource::open(const std::string& path) {
    close();
    path_ = path;
    pipe_ = eof_ = false;
    consumed_ = 0;
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) return "cannot open " + path;
    unsigned char magic[sizeof XZ_MAGIC] = {};
    const std::size_t got = std::fread(magic, 1, sizeof magic, file_);
    if (got == sizeof magic && std::memcmp(magic, XZ_MAGIC, sizeof magic) == 0) {
        std::fclose(file_);
        pipe_ = true;
        file_ = open_pipe(xz_command(path));
        if (!file_) return "cannot start `xz -dc` to read " + path + " (xz-compressed)";
        // An xz stream never decompresses to nothing useful for us without
        // at least one byte; an empty pipe means xz did not run or failed.
        if (!fill(1)) {
            if (auto error = close()) return error;
        }
        return std::nullopt;
    }
    // A plain file: what was read to look for the magic number is the data.
    std::memcpy(buffer_.data(), magic, got);
    end_ = got;
    return std::nullopt;
}

bool ByteSource::fill(std::size_t want) {
    if (end_ - begin_ >= want) return true;
    if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (want > buffer_.size()) buffer_.resize(want);
    while (end_ < want && !eof_ && file_) {
        const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
        if (got == 0) eof_ = true;
        end_ += got;
    }
    return end_ - begin_ >= want;
}

std::string_view ByteSource::peek(std::size_t n) {
    fill(n);
    return {buffer_.data() + begin_, std::min(n, end_ - begin_)};
}

std::size_t ByteSource::read(void* dst, std::size_t n) {
    auto* out = static_cast<char*>(dst);
    std::size_t done = 0;
    while (done < n) {
        if (begin_ == end_ && !fill(1)) break;
        const std::size_t take = std::min(n - done, end_ - begin_);
        std::memcpy(out + done, buffer_.data() + begin_, take);
        begin_ += take, done += take, consumed_ += take;
    }
    return done;
}

bool ByteSource::getline(std::string& line) {
    line.clear();
    bool any = false;
    while (true) {
        if (begin_ == end_ && !fill(1)) break;
        any = true;
        const char* start = buffer_.data() + begin_;
        const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
        const std::size_t take = nl ? std::size_t(nl - start) : end_ - begin_;
        line.append(start, take);
        begin_ += take, consumed_ += take;
        if (nl) {
            ++begin_, ++consumed_;
            break;
        }
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return any;
}

std::optional<std::string> ByteSource::close() {
    if (!file_) return std::nullopt;
    std::FILE* f = file_;
    file_ = nullptr;
    begin_ = end_ = 0;
    if (!pipe_) {
        std::fclose(f);
        return std::nullopt;
    }
    const bool whole = eof_;
    const int code = close_pipe(f);
    // A reader that stopped before the end closes the pipe under xz, which
    // then fails to write: that is not the file's fault.
    if (code == 0 || (!whole && code != 127)) return std::nullopt;
    if (code == 127) return path_ + " is xz-compressed and the `xz` program was not found (install xz-utils)";
    return "xz failed on " + path_ + " (exit code " + std::to_string(code) + ") after " +
           std::to_string(consumed_) + " decompressed bytes: the file is damaged or cut off";
}

} // namespace staccato::nnue
