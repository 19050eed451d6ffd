// Games in the compact format (nnue/games.h) for the data tests: `moves` (UCI
// text) played from `fen` into a GameWriter, with scores 10, 20, ...; and
// KEEP_ALL, the filter that keeps every ply of every game.
#pragma once

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "staccato/nnue/data.h"
#include "staccato/nnue/games.h"
#include "suite.h"

namespace staccato::test {

// Every ply of every game, scored or decided, in check or not.
inline const nnue::GameFilter KEEP_ALL{0, 1 << 20, false, false, 1 << 30, {}};

inline std::string game_bytes(const std::string& fen, const std::vector<std::string>& moves, int result) {
    Position pos = from_fen(fen);
    nnue::GameWriter game(pos);
    int score = 10;
    for (const std::string& text : moves) {
        const auto m = pos.parse_uci_move(text);
        REQUIRE(m);
        game.add(*m, score);
        score += 10;
        pos.push_game_move(*m);
    }
    std::ostringstream out;
    game.write(out, result);
    return out.str();
}

} // namespace staccato::test
