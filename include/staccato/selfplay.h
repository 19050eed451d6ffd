// What self-play needs around the search, shared by datagen and genfens: the
// result of a game by the rules, a book of opening lines, and a random
// opening drawn from it (a book line, then random legal plies).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "staccato/position.h"
#include "staccato/random.h"

namespace staccato {

enum class GameResult { None, WhiteWin, Draw, BlackWin };

// The result by the rules: mate, stalemate, the 50-move rule, insufficient
// material, a repetition; None while the game goes on.
GameResult game_result(const Position& pos);

// A book of opening positions: one a line, EPD or FEN. The four board fields,
// then the two counters when the line has them as numbers (a FEN), else "0 1"
// (an EPD's operations are dropped). Lines that are no position, or a game
// that is already over, are skipped and counted; blank lines are ignored.
struct Book {
    std::vector<std::string> fens;
    int skipped = 0;
};
// The book in `path`, or nothing when it cannot be read. An empty path is an
// empty book (the start position).
std::optional<Book> read_book(const std::string& path);

// `pos` set to a line of `book` drawn by `rng` (the start position when the
// book is empty), then `plies` random legal moves. False when a line does not
// set up or the game ends on the way.
bool random_opening(Position& pos, const Book& book, int plies, Rng& rng);

} // namespace staccato
