// Training games in the compact format: each game stored once, as its start
// position followed by one (move, score) pair per ply, so that a position
// costs 4 bytes instead of a 32-byte record. This is the layout known as
// "viriformat" (a marlinformat start board, then moves and scores), written
// from its public description; files from other engines read the same way.
//
// A file is a sequence of games; all integers are little-endian; squares
// are numbered a1 = 0, h1 = 7, a8 = 56, h8 = 63.
//
// Game = Board, then zero or more (Move, Score) pairs, then 4 zero bytes.
//
// Board (32 bytes, "marlinformat"):
//   offset  size  field
//        0     8  occupancy: bit s set when square s holds a piece
//        8    16  pieces: one 4-bit code per occupied square, in increasing
//                 square order, low nibble first: colour << 3 | type, where
//                 pawn = 0 .. king = 5, and 6 = a rook that still has its
//                 castling right (the king's right on that side)
//       24     1  side to move (bit 7: Black) | en-passant square (64: none)
//       25     1  fifty-move counter (plies)
//       26     2  fullmove number
//       28     2  score: unused in the start board (0)
//       30     1  the game's result for White: 0 loss, 1 draw, 2 win
//       31     1  unused, 0
// Move (2 bytes): from (bits 0-5) | to (6-11) | promotion piece, knight = 0
//   .. queen = 3 (12-13) | type (14-15): 0 normal, 1 en passant, 2 castling
//   (encoded as king takes own rook), 3 promotion. A zero move never occurs
//   in a game, which is what makes the terminator unambiguous.
// Score (2 bytes): the search's score for the position before the move, in
//   centipawns, White's view (int16).
//
// The reader replays every move on the engine's own board, so a move that is
// not legal, a score beyond a mate score, a bad result or a cut-off game is
// refused with the file name and the byte offset of the game.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "staccato/nnue/data.h"
#include "staccato/nnue/packed.h"
#include "staccato/nnue/source.h"
#include "staccato/position.h"

namespace staccato::nnue {

struct GameBoard {
    std::uint64_t occupancy = 0;
    std::array<std::uint8_t, 16> pieces{};
    std::uint8_t side_ep = SQ_NONE;
    std::uint8_t rule50 = 0;
    std::uint16_t fullmove = 1;
    std::int16_t score = 0;
    std::uint8_t result = 1;
    std::uint8_t extra = 0;
};
static_assert(sizeof(GameBoard) == 32, "the board layout is part of the data format");

std::uint16_t encode_move(Move m);
// The move in `pos` that `code` names, if it is legal there.
std::optional<Move> decode_move(const Position& pos, std::uint16_t code);

// One game on its way to the file.
class GameWriter {
  public:
    explicit GameWriter(const Position& start);
    // The move played from the current position and the score (White's view)
    // searched there.
    void add(Move m, int white_score);
    // The game's bytes, with `white_result` (0, 1, 2) in the start board.
    void write(std::ostream& out, int white_result) const;
    std::size_t plies() const { return moves_.size(); }

  private:
    GameBoard board_;
    std::vector<std::array<std::uint16_t, 2>> moves_;
};

// What reading a game file reports, game by game: the start position and
// result, then every move with the position before it and its score (White's
// view), then the end of the game. A game that breaks off is never ended.
class GameVisitor {
  public:
    virtual ~GameVisitor() = default;
    virtual void start(const Position& pos, int white_result) = 0;
    virtual void move(const Position& before, Move m, int white_score, int ply) = 0;
    virtual void end(int plies) = 0;
};

// Walks every game of `src`. A malformed game is refused with the file, the
// game's number and byte offset and the reason; the games before it were
// ended, and `games` counts them.
std::optional<std::string> walk_games(ByteSource& src, GameVisitor& visitor, std::uint64_t& games);

// Appends the kept positions of every game in `src` to `out` (the filter:
// nnue/data.h); the positions of a game are appended when it is whole.
std::optional<std::string> read_games(ByteSource& src, const GameFilter& filter,
                                      std::vector<PackedPosition>& out, DataStats& stats);

// How many whole games the file `path` holds and where the last one ends: a
// datagen run that appends cuts a torn game (a run killed mid-write, a full
// disk) back to that boundary first. Nothing when the file does not exist.
struct GameFileEnd {
    std::uint64_t games = 0, plies = 0, whole_bytes = 0, size = 0;
};
std::optional<GameFileEnd> scan_game_file(const std::string& path);

} // namespace staccato::nnue
