// Games in PGN, as match runners write them: fastchess, cutechess-cli and
// OpenBench's datagen workloads put each engine move's score in the comment
// after it, from the side that moved:
//
//   1. e4 {book} e5 {book} 2. Nf3 {+0.34/12 0.211s} Nc6 {-0.20/11 0.198s, ...}
//   ... Qxf7# {+M1/1 0.001s, White mates} 1-0
//
// Read: the tags (Result; FEN with SetUp for a game from a set position;
// Variant "Chess960" / "fischerandom" for Chess960, castling written O-O /
// O-O-O), the SAN moves (nested variations, NAGs, ';' comments and move
// numbers skipped), each move's comment, and the result 1-0, 0-1 or 1/2-1/2.
// A score is "+0.34" (pawns) or "+M5" / "-M5" (mate) before a '/', or a
// "[%eval 0.34]" / "[%eval #-3]" command (White's view), as in lichess's
// exports. The position before each scored move is a candidate, White's view.
// With filter.player set, only that player's moves count (its White or
// Black tag): one engine's scores out of a match between two.
//
// A game with no scored move, no result ('*'), another variant, or (with
// filter.player) another player's is skipped and counted (stats.skipped). A
// game that cannot be read (a move that is not legal, a bad FEN, movetext cut
// off) is refused with its number and the line it starts on; the games before
// it stay in `out`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "staccato/nnue/data.h"
#include "staccato/nnue/source.h"

namespace staccato::nnue {

std::optional<std::string> read_pgn(ByteSource& src, const GameFilter& filter,
                                    std::vector<PackedPosition>& out, DataStats& stats);

} // namespace staccato::nnue
