// Standard algebraic notation (SAN), the move text of PGN: "Nf3", "exd5",
// "e8=Q+", "O-O". Used to read match runners' PGN files (nnue/pgn.h) and by
// the tests that write them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "staccato/position.h"

namespace staccato {

// The legal move that `text` names in `pos`, or why none does (not legal,
// ambiguous, not SAN). Accepted beyond strict SAN: check marks, annotations
// (!, ?), "0-0" for "O-O", a promotion without '=' ("e8Q"), and more
// disambiguation than needed ("Ng1f3"). Castling is "O-O" / "O-O-O" in
// Chess960 too (the king's side of its castling rook).
struct SanResult {
    std::optional<Move> move;
    std::string error;
};
SanResult parse_san(const Position& pos, std::string_view text);

// `m` (legal in `pos`) in SAN, with '+' or '#' when it checks or mates.
std::string to_san(const Position& pos, Move m);

} // namespace staccato
