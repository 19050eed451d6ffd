// The one door through which training data comes in: staccato-train and the
// Texel tuner (staccato-tune) read every file through read_data(), which
// recognises the format by the file's content, never by its name:
//
//   format          recognised by                            written by
//   games           a 32-byte start board whose score bytes   staccato datagen (nnue/games.h)
//                   are zero, then (move, score) pairs
//   records         a 32-byte record whose en-passant byte   older datagen, `staccato-train
//                   is a square or 64 (nnue/packed.h)         convert` (nnue/packed.h)
//   scored text     "FEN | score | result" lines              ../shared/data/nnue's bootstrap
//   labelled text   "FEN [1.0]" or EPD with c9 "1-0" lines    Texel-tuning sets (results only)
//   PGN             a tag line "[Name "value"]" first         fastchess, cutechess-cli, OpenBench
//
// Any of them may be xz-compressed (nnue/source.h reads it through `xz -dc`).
// A file that is none of them is refused with its name and what its first
// bytes looked like. A file that breaks part-way is refused with its name,
// the format it was taken for and the byte offset (or line, record or game
// number) of the damage; every position read before the damage stays in
// `out`, so a caller can go on with what it has.
//
// Which positions of a game become training positions is chosen here, at
// load time (GameFilter), so the same games can be filtered differently
// later; formats that carry less (text, records) apply what they can.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "staccato/nnue/packed.h"

namespace staccato::nnue {

enum class DataFormat { Empty, Games, Records, ScoredText, LabelledText, Pgn };
std::string_view format_name(DataFormat f);

struct GameFilter {
    int min_ply = 8;           // games, PGN: skip each game's first plies (its opening)
    int max_score = 1500;      // |score| at or above this: decided, not kept (all scored formats)
    bool skip_in_check = true; // games, PGN, text: the side to move is in check
    bool skip_noisy = true;    // games, PGN: the played move captures or promotes
    int max_ply = 1 << 30;     // games, PGN: positions from this ply on are not kept
    std::string player;        // PGN: only the moves of the side whose White/Black tag is this
                               // (a game it did not play is skipped); empty: both sides'
};

struct DataStats {
    DataFormat format = DataFormat::Empty;
    bool compressed = false;
    std::uint64_t games = 0;   // whole games read (games, PGN)
    std::uint64_t plies = 0;   // positions seen: moves of games, lines, records
    std::uint64_t kept = 0;    // positions appended to `out`
    std::uint64_t skipped = 0; // PGN: games skipped (no scores, no result, another variant)
    std::uint64_t bytes = 0;   // bytes read (decompressed)
};

// The format of a file whose content starts with `head` (at least 64 bytes
// unless the file is shorter), or why it is none of them.
struct Detected {
    std::optional<DataFormat> format;
    std::string why; // when refused: what the first bytes look like
};
Detected detect_format(std::string_view head);

// Appends the kept positions of `path` to `out` and counts in `stats`. With
// `need_scores`, labelled text (results only) is refused: the trainer needs
// a search score for every position; the tuner does not.
std::optional<std::string> read_data(const std::string& path, const GameFilter& filter,
                                     std::vector<PackedPosition>& out, DataStats& stats,
                                     bool need_scores = true);

} // namespace staccato::nnue
