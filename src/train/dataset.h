// staccato-train's data: files of nnue::PackedPosition records, and the
// conversion of text data ("FEN | score | result" lines) into them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "staccato/nnue/packed.h"

namespace staccato::train {

struct ConvertStats {
    std::uint64_t lines = 0, written = 0, refused = 0;
};
// Converts text lines "FEN | score | result" (score in centipawns and result
// 1.0 / 0.5 / 0.0, both White's view; .xz files are read through `xz -dc`)
// into records appended to `out_path`. Each FEN goes through the engine's own
// parser; a line it refuses is counted and reported, not written.
std::optional<std::string> convert_text(const std::string& in_path, const std::string& out_path,
                                        ConvertStats& stats);

} // namespace staccato::train
