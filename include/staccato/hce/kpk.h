// King and pawn against king: a bitbase of every position, built once at
// start-up by retrograde iteration (about 200k positions, a few ms), so that
// the evaluation knows exactly which KPK endings are won.
#pragma once

#include "staccato/types.h"

namespace staccato::kpk {

// Builds the table; called once from main/tests before the first probe.
// Probing before init() builds it on first use (thread-safe).
void init();

// Does the side with the pawn win? `strong` is the pawn's colour, `stm` the
// side to move. Any legal KPK position (with the pawn on ranks 2-7).
bool probe(Color strong, Square strong_king, Square strong_pawn, Square weak_king, Color stm);

} // namespace staccato::kpk
