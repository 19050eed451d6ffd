// Positions as text, one a line (nnue/data.h tells the two kinds apart):
//   scored text:    "FEN | score | result": score in centipawns and result
//                   1.0 / 0.5 / 0.0, both White's view (the bootstrap data
//                   in ../shared/data/nnue);
//   labelled text:  "FEN [1.0]", or EPD with c9 "1-0" / "0-1" / "1/2-1/2"
//                   (Texel-tuning sets): a result and no score (0 is stored).
// Every FEN goes through the engine's own parser. A line that does not read
// is refused with the file, the line number and its byte offset; the lines
// before it stay in `out`. Blank lines are skipped.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "staccato/nnue/data.h"
#include "staccato/nnue/source.h"

namespace staccato::nnue {

std::optional<std::string> read_text(ByteSource& src, DataFormat kind, const GameFilter& filter,
                                     std::vector<PackedPosition>& out, DataStats& stats);

} // namespace staccato::nnue
