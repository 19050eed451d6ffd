// Static exchange evaluation: does a capture sequence on one square win at
// least `threshold` centipawns for the side making move m? Handles x-rays
// (sliders revealed behind earlier capturers), promotions and en passant.
#pragma once

#include "staccato/position.h"

namespace staccato {

// Piece values used by SEE and MVV-LVA ordering (pawn = 100).
inline constexpr int SEE_VALUE[PIECE_TYPE_NB + 1] = {100, 320, 330, 500, 950, 20000, 0};

// True when the exchange started by m (assumed pseudo-legal) nets at least
// `threshold` for the side to move, both sides capturing with their least
// valuable attacker and free to stop.
bool see_ge(const Position& pos, Move m, int threshold);

} // namespace staccato
