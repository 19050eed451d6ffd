// The `eval` command's report: the network's evaluation, and what each piece
// is worth to it (the evaluation minus the evaluation without that piece),
// drawn on the board.
#pragma once

#include <string>

#include "staccato/nnue/network.h"
#include "staccato/position.h"

namespace staccato::nnue {

std::string eval_report(const Network& net, const Position& pos);

} // namespace staccato::nnue
