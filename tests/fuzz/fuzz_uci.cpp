// libFuzzer target: arbitrary bytes as UCI input, line by line, into one
// long-lived engine. Every `go` is followed by `stop` (which waits for the
// bestmove), so no search outlives its input. Lines that would only make a run
// slow or huge, not find bugs in parsing, are dropped: setting Hash or Threads
// (allocation), bench, perft and genfens (long computations, files read).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include "staccato/attacks.h"
#include "staccato/engine.h"
#include "staccato/uci.h"

using namespace staccato;

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

bool too_costly(std::string_view line) {
    const std::string l = lower(line);
    return l.find("hash") != std::string::npos || l.find("threads") != std::string::npos ||
           l.find("bench") != std::string::npos || l.find("perft") != std::string::npos ||
           l.find("genfens") != std::string::npos;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static bool ready = (attacks::init(), true);
    (void)ready;
    static Engine::Sink sink = [](std::string_view) {};
    static Engine engine(sink);
    static UciLoop loop(engine, sink);

    loop.handle_line("position startpos");
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::size_t begin = 0;
    while (begin <= input.size()) {
        std::size_t end = input.find('\n', begin);
        if (end == std::string_view::npos) end = input.size();
        const std::string_view line = input.substr(begin, end - begin);
        begin = end + 1;
        if (too_costly(line)) continue;
        loop.handle_line(line); // `quit` returns false; the loop stays usable
        loop.handle_line("stop");
    }
    loop.handle_line("stop");
    loop.handle_line("isready");
    return 0;
}
