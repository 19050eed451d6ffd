#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "staccato/movegen.h"

using namespace staccato;

namespace {
std::vector<std::string> suite(int every) {
    std::vector<std::string> out;
    for (const char* name : {"/perft/standard.epd", "/perft/fischer.epd"}) {
        std::ifstream in(std::string(STACCATO_SHARED_DATA) + name);
        REQUIRE(in.good());
        int i = 0;
        for (std::string line; std::getline(in, line);)
            if (i++ % every == 0) out.push_back(line.substr(0, line.find(" ;")));
    }
    return out;
}

template <GenType T> std::set<std::uint16_t> gen(const Position& pos) {
    std::array<ScoredMove, MAX_MOVES> buf;
    ScoredMove* end = generate<T>(pos, buf.data());
    std::set<std::uint16_t> s;
    for (ScoredMove* m = buf.data(); m != end; ++m) REQUIRE(s.insert(m->move.raw()).second);
    return s;
}

void check_position(const Position& pos) {
    INFO(pos.fen());
    std::set<std::uint16_t> pseudo;
    if (pos.in_check()) {
        pseudo = gen<GenType::Evasions>(pos);
    } else {
        auto caps = gen<GenType::Captures>(pos);
        auto quiets = gen<GenType::Quiets>(pos);
        for (auto m : caps) REQUIRE(!quiets.count(m)); // categories are disjoint
        pseudo = caps;
        pseudo.insert(quiets.begin(), quiets.end());
        REQUIRE(pseudo == gen<GenType::NonEvasions>(pos));
    }
    MoveList legal(pos);
    std::set<std::uint16_t> legal_set;
    for (const ScoredMove& sm : legal) legal_set.insert(sm.move.raw());
    std::set<std::uint16_t> filtered;
    for (auto raw : pseudo)
        if (pos.is_legal(Move(raw))) filtered.insert(raw);
    REQUIRE(filtered == legal_set);
    REQUIRE(count_legal_moves(pos) == legal.size());
}
} // namespace

TEST_CASE("categories, legality filter and bulk count agree on the suites", "[movegen]") {
    for (const std::string& fen : suite(1)) {
        Position pos;
        REQUIRE(!pos.set_fen(fen));
        check_position(pos);
    }
}

TEST_CASE("categories and counts agree along random games", "[movegen]") {
    std::mt19937_64 rng(5);
    for (int g = 0; g < 100; ++g) {
        Position pos;
        for (int p = 0; p < 150; ++p) {
            check_position(pos);
            MoveList list(pos);
            if (list.size() == 0) break;
            pos.make_move(list.begin()[rng() % list.size()].move);
        }
    }
}

TEST_CASE("is_pseudo_legal agrees with generation for every 16-bit move", "[movegen]") {
    auto fens = suite(24);
    for (const std::string& fen : fens) {
        Position pos;
        REQUIRE(!pos.set_fen(fen));
        auto pseudo = pos.in_check() ? gen<GenType::Evasions>(pos) : gen<GenType::NonEvasions>(pos);
        MoveList legal(pos);
        for (std::uint32_t raw = 0; raw < 65536; ++raw) {
            Move m{std::uint16_t(raw)};
            bool ok = pos.is_pseudo_legal(m);
            INFO(fen << " raw " << raw);
            // In check the generator limits non-king moves to blocks and
            // captures; is_pseudo_legal applies the same rule.
            REQUIRE(ok == (pseudo.count(std::uint16_t(raw)) > 0));
            REQUIRE((ok && pos.is_legal(m)) == legal.contains(m));
        }
    }
}
