// Training positions in 32 bytes: the record format of older datagen runs and
// of `staccato-train convert`; the trainer also keeps its positions in memory
// this way, whatever file they came from (nnue/data.h).
//
// Layout (little-endian, no padding):
//   offset  size  field
//        0     8  occupancy: bit s set when square s (a1 = 0, h8 = 63) holds a piece
//        8    16  pieces: one 4-bit Piece code (colour << 3 | type, pawn = 0 ..
//                 king = 5) per occupied square, in increasing square order,
//                 low nibble first; at most 32 pieces
//       24     2  score: the search's score in centipawns, White's view (int16)
//       26     1  result: the game's result for White: 0 loss, 1 draw, 2 win
//       27     1  side to move: 0 White, 1 Black
//       28     1  en-passant square (64: none)
//       29     1  castling rights (CastlingRight bits)
//       30     1  fifty-move counter (plies, capped at 255)
//       31     1  reserved, 0
// A file is a plain sequence of records (no header), so files can be
// concatenated and appended to, and record i sits at byte 32 * i.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "staccato/position.h"

namespace staccato::nnue {

struct PackedPosition {
    std::uint64_t occupancy = 0;
    std::array<std::uint8_t, 16> pieces{};
    std::int16_t score = 0;
    std::uint8_t result = 1;
    std::uint8_t side = 0;
    std::uint8_t ep_square = SQ_NONE;
    std::uint8_t castling = 0;
    std::uint8_t rule50 = 0;
    std::uint8_t reserved = 0;

    // The position with its label. The score is clamped to the int16 range.
    static PackedPosition pack(const Position& pos, int white_score, int white_result /* 0, 1, 2 */);

    // The piece on the i-th occupied square (i < popcount(occupancy)).
    Piece piece(int i) const { return Piece((pieces[i / 2] >> (4 * (i % 2))) & 15); }

    // Reason the record is malformed (bad piece code, more than 32 pieces, no
    // king of a colour, bad result or side), or nothing.
    std::optional<std::string> check() const;

    // The position as a FEN (clocks: the fifty-move counter and move 1).
    std::string fen() const;
};
static_assert(sizeof(PackedPosition) == 32, "the record layout is part of the data format");

// The FEN piece-placement field of a board given as one letter a square
// (a1 = 0, ' ' for an empty square): both data formats unpack their boards
// into letters and share this.
std::string placement_field(const std::array<char, 64>& letters);

class ByteSource;
struct GameFilter;
struct DataStats;

// Appends the records of `src` whose |score| is under filter.max_score to
// `out`. A malformed record, or a file whose size is not a whole number of
// records, is refused with the file name, the record number and its byte
// offset; the records before it stay in `out`.
std::optional<std::string> read_records(ByteSource& src, const GameFilter& filter,
                                        std::vector<PackedPosition>& out, DataStats& stats);

} // namespace staccato::nnue
