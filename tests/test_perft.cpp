// perft over both suites in ../shared/data/perft: every depth whose count is
// at most PERFT_LIMIT in the default run, every depth in [perft-full].
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "staccato/perft.h"

using namespace staccato;

namespace {

struct PerftCase {
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> counts; // (depth, nodes)
};

std::vector<PerftCase> load(const char* name) {
    std::ifstream in(std::string(STACCATO_SHARED_DATA) + "/perft/" + name);
    REQUIRE(in.good());
    std::vector<PerftCase> cases;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        PerftCase c;
        std::size_t semi = line.find(';');
        c.fen = line.substr(0, semi);
        std::istringstream rest(line.substr(semi));
        std::string field;
        while (std::getline(rest, field, ';')) {
            std::istringstream f(field);
            std::string d;
            std::uint64_t n;
            if (f >> d >> n) c.counts.emplace_back(std::stoi(d.substr(1)), n);
        }
        cases.push_back(c);
    }
    REQUIRE(!cases.empty());
    return cases;
}

// The default run stays fast in the sanitizer build too.
#ifdef NDEBUG
constexpr std::uint64_t PERFT_LIMIT = 1000000;
#else
constexpr std::uint64_t PERFT_LIMIT = 100000;
#endif

void run_suite(const char* name, std::uint64_t limit) {
    int checked = 0;
    for (const PerftCase& c : load(name)) {
        Position pos;
        REQUIRE(!pos.set_fen(c.fen));
        for (auto [depth, expected] : c.counts) {
            if (expected > limit) continue;
            INFO(c.fen << " depth " << depth);
            REQUIRE(perft(pos, depth) == expected);
            ++checked;
        }
        REQUIRE(pos.fen() == Position(pos).fen());
    }
    REQUIRE(checked > 0);
}

} // namespace

TEST_CASE("perft standard suite (counts up to the default limit)", "[perft]") {
    run_suite("standard.epd", PERFT_LIMIT);
}

TEST_CASE("perft Chess960 suite (counts up to the default limit)", "[perft]") {
    run_suite("fischer.epd", PERFT_LIMIT);
}

TEST_CASE("perft standard suite, every depth", "[perft-full]") { run_suite("standard.epd", UINT64_MAX); }

TEST_CASE("perft Chess960 suite, every depth", "[perft-full]") { run_suite("fischer.epd", UINT64_MAX); }
