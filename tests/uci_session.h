// A UCI session in process, for the test files that drive the UCI layer line
// by line as a GUI would: every line the engine writes is kept, in order.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "staccato/engine.h"
#include "staccato/uci.h"

namespace staccato::test {

struct UciSession {
    std::mutex m;
    std::vector<std::string> lines;
    Engine::Sink sink = [this](std::string_view l) {
        std::lock_guard lock(m);
        lines.emplace_back(l);
    };
    Engine engine{sink};
    UciLoop loop{engine, sink};

    bool send(std::string_view line) { return loop.handle_line(line); }
    // Lines that start with `prefix`.
    int count(const std::string& prefix) {
        std::lock_guard lock(m);
        int n = 0;
        for (auto& l : lines) n += l.rfind(prefix, 0) == 0;
        return n;
    }
    // Lines that hold `text` anywhere.
    int count_containing(const std::string& text) {
        std::lock_guard lock(m);
        int n = 0;
        for (auto& l : lines) n += l.find(text) != std::string::npos;
        return n;
    }
    // The last line but the search's progress lines (`info depth ...`),
    // which a running search writes at any moment (slow builds: after the
    // answer to the command just sent).
    std::string last() {
        std::lock_guard lock(m);
        for (auto it = lines.rbegin(); it != lines.rend(); ++it)
            if (it->rfind("info depth ", 0) != 0) return *it;
        return {};
    }
    // The last line that starts with `prefix`.
    std::string last_starting(const std::string& prefix) {
        std::lock_guard lock(m);
        for (auto it = lines.rbegin(); it != lines.rend(); ++it)
            if (it->rfind(prefix, 0) == 0) return *it;
        return {};
    }
};

} // namespace staccato::test
