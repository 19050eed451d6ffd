// Static evaluation: material and tapered (middlegame/endgame) piece-square
// tables, blended by game phase. Computed from White's view, returned from the
// side to move's view.
#pragma once

#include <string>

#include "staccato/position.h"

namespace staccato {

Value evaluate(const Position& pos);

// The term-by-term breakdown printed by the `eval` command.
std::string eval_report(const Position& pos);

} // namespace staccato
