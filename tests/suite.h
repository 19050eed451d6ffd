// Test helpers shared by the test files: the test data in tests/data (path
// from CMake: STACCATO_TEST_DATA; tests/data/SOURCES.md says where each file
// came from). A missing or empty file fails the test that asked for it, with
// the file's path in the message; nothing is ever skipped.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "staccato/position.h"

namespace staccato::test {

struct EpdLine {
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> counts; // (depth, leaf nodes)
};

// The lines of tests/data/<name>; fails the calling test, naming the file,
// when it is missing or empty.
inline std::vector<std::string> data_lines(const std::string& name) {
    const std::string path = std::string(STACCATO_TEST_DATA) + "/" + name;
    std::ifstream in(path);
    INFO("test data file " << path);
    REQUIRE(in.good());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
    REQUIRE(!lines.empty());
    return lines;
}

// "FEN ;D1 20 ;D2 400 ..." lines of tests/data/perft/<name>.
inline std::vector<EpdLine> load_epd(const std::string& name) {
    std::vector<EpdLine> lines;
    for (const std::string& line : data_lines("perft/" + name)) {
        EpdLine e;
        const std::size_t semi = line.find(';');
        e.fen = line.substr(0, semi);
        while (!e.fen.empty() && e.fen.back() == ' ') e.fen.pop_back();
        if (semi != std::string::npos) {
            std::istringstream rest(line.substr(semi + 1));
            for (std::string field; std::getline(rest, field, ';');) {
                std::istringstream f(field);
                std::string d;
                std::uint64_t n = 0;
                REQUIRE((f >> d >> n));
                REQUIRE(d.size() >= 2);
                REQUIRE(d[0] == 'D');
                e.counts.emplace_back(std::stoi(d.substr(1)), n);
            }
        }
        REQUIRE(!e.counts.empty());
        lines.push_back(std::move(e));
    }
    return lines;
}

// The FENs of both suites (standard first), every `every`-th line of each.
inline std::vector<std::string> suite_fens(int every = 1) {
    std::vector<std::string> out;
    for (const char* name : {"standard.epd", "fischer.epd"}) {
        int i = 0;
        for (const EpdLine& e : load_epd(name))
            if (i++ % every == 0) out.push_back(e.fen);
    }
    return out;
}

inline Position from_fen(const std::string& fen) {
    Position pos;
    auto err = pos.set_fen(fen).error;
    INFO(fen << ": " << err.value_or(""));
    REQUIRE(!err);
    return pos;
}

// A move in UCI notation that must be legal in `pos`.
inline Move uci(const Position& pos, std::string_view text) {
    auto m = pos.parse_uci_move(text);
    INFO(pos.fen() << " move " << text);
    REQUIRE(m);
    return *m;
}

} // namespace staccato::test
