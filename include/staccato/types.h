// Basic chess types shared by every module: colours, pieces, squares and the
// 16-bit Move.
#pragma once

#include <cstdint>
#include <string>

namespace staccato {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

constexpr int MAX_PLY = 128;       // deepest search ply
constexpr int MAX_MOVES = 256;     // more than any legal position has (218)
constexpr int MAX_GAME_PLY = 1024; // game list capacity (played moves)

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, NO_PIECE_TYPE, PIECE_TYPE_NB = 6 };

// Piece = type + 8 * colour, so colour and type are bit fields.
enum Piece : std::uint8_t {
    W_PAWN = 0,
    W_KNIGHT,
    W_BISHOP,
    W_ROOK,
    W_QUEEN,
    W_KING,
    B_PAWN = 8,
    B_KNIGHT,
    B_BISHOP,
    B_ROOK,
    B_QUEEN,
    B_KING,
    NO_PIECE = 6,
    PIECE_NB = 16
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Squares a1 = 0 ... h8 = 63.
enum Square : std::uint8_t {
    SQ_A1,
    SQ_B1,
    SQ_C1,
    SQ_D1,
    SQ_E1,
    SQ_F1,
    SQ_G1,
    SQ_H1,
    SQ_A2,
    SQ_B2,
    SQ_C2,
    SQ_D2,
    SQ_E2,
    SQ_F2,
    SQ_G2,
    SQ_H2,
    SQ_A3,
    SQ_B3,
    SQ_C3,
    SQ_D3,
    SQ_E3,
    SQ_F3,
    SQ_G3,
    SQ_H3,
    SQ_A4,
    SQ_B4,
    SQ_C4,
    SQ_D4,
    SQ_E4,
    SQ_F4,
    SQ_G4,
    SQ_H4,
    SQ_A5,
    SQ_B5,
    SQ_C5,
    SQ_D5,
    SQ_E5,
    SQ_F5,
    SQ_G5,
    SQ_H5,
    SQ_A6,
    SQ_B6,
    SQ_C6,
    SQ_D6,
    SQ_E6,
    SQ_F6,
    SQ_G6,
    SQ_H6,
    SQ_A7,
    SQ_B7,
    SQ_C7,
    SQ_D7,
    SQ_E7,
    SQ_F7,
    SQ_G7,
    SQ_H7,
    SQ_A8,
    SQ_B8,
    SQ_C8,
    SQ_D8,
    SQ_E8,
    SQ_F8,
    SQ_G8,
    SQ_H8,
    SQ_NONE = 64,
    SQUARE_NB = 64
};

constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// "e4": the square as UCI and FEN write it.
inline std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }
constexpr bool is_ok(Square s) { return s < SQ_NONE; }
// Rank as seen from colour c (rank 0 is c's back rank).
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr Square flip_rank(Square s) { return Square(s ^ 56); } // a1 <-> a8
constexpr Square flip_file(Square s) { return Square(s ^ 7); }  // a1 <-> h1
// King steps from a to b (Chebyshev distance): 0..7.
constexpr int distance(Square a, Square b) {
    const int files = file_of(a) - file_of(b), ranks = rank_of(a) - rank_of(b);
    const int f = files < 0 ? -files : files, r = ranks < 0 ? -ranks : ranks;
    return f > r ? f : r;
}
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

// Castling rights, one bit per (colour, side).
enum CastlingRight : std::uint8_t {
    NO_CASTLING = 0,
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
    ALL_CASTLING = 15
};
constexpr int castling_index(Color c, bool king_side) { return c * 2 + (king_side ? 0 : 1); }

enum class MoveType : std::uint16_t { Normal = 0, Promotion = 1, EnPassant = 2, Castling = 3 };

// A move in 16 bits: from (6) | to (6) | promotion piece - knight (2) | type (2).
// Castling is encoded as "king takes own rook" so that Chess960 needs nothing special.
class Move {
  public:
    constexpr Move() = default;
    constexpr explicit Move(std::uint16_t raw) : data(raw) {}
    constexpr Move(Square from, Square to) : data(std::uint16_t(from | (to << 6))) {}
    constexpr Move(Square from, Square to, MoveType type, PieceType promo = KNIGHT)
        : data(std::uint16_t(from | (to << 6) | ((promo - KNIGHT) << 12) | (std::uint16_t(type) << 14))) {}

    static constexpr Move none() { return Move(); }
    static constexpr Move null() { return Move(std::uint16_t(65)); } // b1b1: never legal

    constexpr Square from() const { return Square(data & 63); }
    constexpr Square to() const { return Square((data >> 6) & 63); }
    constexpr MoveType type() const { return MoveType(data >> 14); }
    constexpr PieceType promotion() const { return PieceType(((data >> 12) & 3) + KNIGHT); }
    constexpr std::uint16_t raw() const { return data; }
    constexpr bool is_ok() const { return from() != to(); }
    constexpr explicit operator bool() const { return data != 0; }
    constexpr bool operator==(const Move&) const = default;

  private:
    std::uint16_t data = 0;
};

// A move with an ordering score: the element of the move array.
struct ScoredMove {
    Move move;
    int score = 0;
    ScoredMove& operator=(Move m) {
        move = m;
        return *this;
    }
};

// Search values.
using Value = int;
constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;

// Tablebase wins and losses: below every mate score, above any evaluation;
// like mates they count from the root, ply by ply.
constexpr Value VALUE_TB = VALUE_MATE_IN_MAX_PLY - 1;
constexpr Value VALUE_TB_WIN_IN_MAX_PLY = VALUE_TB - MAX_PLY;
constexpr Value VALUE_TB_LOSS_IN_MAX_PLY = -VALUE_TB_WIN_IN_MAX_PLY;

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }

} // namespace staccato
