// perft: counts the leaf nodes of the legal move tree, the standard check of
// a move generator. Bulk counting at the last ply, no hash table, one thread.
#pragma once

#include <cstdint>
#include <ostream>

#include "staccato/position.h"

namespace staccato {

// Leaf nodes at `depth` plies below pos (pos is restored on return).
std::uint64_t perft(Position& pos, int depth);

// The "divide" form used by `staccato perft` and `go perft`: one
// `move: count` line per root move, then `Nodes searched: N`, the time and
// the speed. Returns the total.
std::uint64_t perft_divide(Position& pos, int depth, std::ostream& out);

} // namespace staccato
