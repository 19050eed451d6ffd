// The board: bitboards per piece type and colour, a 64-square mailbox, the
// game state, and the game list + signature list of the positions played.
//
// make_move()/unmake_move() keep their undo records in a ply-indexed array
// inside the position (no allocation per move). The game list holds the moves
// played from the root FEN, the signature list the Zobrist key of every
// position; both serve repetition and 50-move detection. A game longer than
// the list keeps its last HISTORY_KEPT plies, all that the rules look at.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "staccato/attacks.h"
#include "staccato/types.h"

namespace staccato {

namespace zobrist {
extern const std::array<std::array<Key, 64>, PIECE_NB> PSQ;
extern const std::array<Key, 16> CASTLING;
extern const std::array<Key, 8> EN_PASSANT;
extern const Key SIDE;
} // namespace zobrist

// Undo record: what make_move() cannot recompute when unmaking.
struct StateInfo {
    Bitboard checkers = 0;              // enemy pieces giving check to the side to move
    std::array<Bitboard, 2> blockers{}; // pieces of either colour shielding king c from sliders
    Key pawn_key = 0;
    std::array<Key, 2> non_pawn_key{}; // [colour]: its knights, bishops, rooks, queens and king
    Square ep_square = SQ_NONE;
    std::uint8_t castling = NO_CASTLING;
    std::uint16_t rule50 = 0; // plies since the last capture or pawn move
    std::uint16_t plies_from_null = 0;
    Piece captured = NO_PIECE;
};

// What setting up a position came to: the reason it was refused (nothing
// changed then), or the warnings about what was dropped to accept it.
struct SetupResult {
    std::optional<std::string> error;
    std::vector<std::string> warnings;
};

class Position {
  public:
    // Capacity of the game list: the played moves plus a full search line.
    static constexpr int CAPACITY = MAX_GAME_PLY + MAX_PLY + 8;
    // The plies a full game list keeps when it makes room: repetitions only
    // look back to the last capture or pawn move, and past 100 plies the
    // 50-move rule decides, so older ones never change a result.
    static constexpr int HISTORY_KEPT = MAX_GAME_PLY / 2;
    static constexpr std::string_view START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    Position(); // the start position

    // Parses a FEN (X-FEN or Shredder-FEN castling). What has no sensible
    // reading is refused: *this is left unchanged and .error says why. What
    // no position can hold, where the intent is still clear, is dropped with
    // a warning: a castling right without its king or rook on the first rank,
    // an en-passant square that no double pawn push explains. An en-passant
    // square no pawn can take on is cleared silently (FEN allows it). A
    // Shredder letter or a castling rook off its standard file switches
    // Chess960 mode on.
    [[nodiscard]] SetupResult set_fen(std::string_view fen, bool chess960 = false);
    std::string fen() const;
    std::string to_string() const; // board picture + FEN + key, for the `d` command

    // Board access.
    Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & pieces(a, b); }
    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    Square king_square(Color c) const { return lsb(pieces(c, KING)); }
    Piece moved_piece(Move m) const { return board_[m.from()]; }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }

    // State.
    Color side_to_move() const { return side_; }
    Square ep_square() const { return st().ep_square; }
    int castling_rights() const { return st().castling; }
    int rule50() const { return st().rule50; }
    int game_ply() const { return game_ply_; }
    int fullmove_number() const { return 1 + game_ply_ / 2; }
    Key key() const { return signatures_[sp_]; }
    // The key after m for an ordinary move or capture (castling, en passant
    // and promotion come out wrong, and so does a new en passant square):
    // good enough to prefetch the child's hash entry before m is made.
    Key key_after(Move m) const {
        const Piece pc = board_[m.from()], captured = board_[m.to()];
        Key k = key() ^ zobrist::SIDE ^ zobrist::PSQ[pc][m.from()] ^ zobrist::PSQ[pc][m.to()];
        if (captured != NO_PIECE) k ^= zobrist::PSQ[captured][m.to()];
        if (st().ep_square != SQ_NONE) k ^= zobrist::EN_PASSANT[file_of(st().ep_square)];
        return k;
    }
    Key pawn_key() const { return st().pawn_key; }
    Key non_pawn_key(Color c) const { return st().non_pawn_key[c]; }
    Bitboard checkers() const { return st().checkers; }
    bool in_check() const { return st().checkers != 0; }
    Bitboard blockers_for_king(Color c) const { return st().blockers[c]; }
    Piece captured_piece() const { return st().captured; }
    bool is_chess960() const { return chess960_; }
    void set_chess960(bool on) { chess960_ = on; }
    // True when a castling right has its king or rook off the standard
    // squares, so that only Chess960 notation (king takes rook) can name it.
    bool castling_needs_chess960() const;

    // Castling: index = castling_index(colour, king_side).
    bool can_castle(int index) const { return st().castling & (1 << index); }
    Square castling_rook_square(int index) const { return castling_rook_[index]; }
    Bitboard castling_path(int index) const { return castling_path_[index]; }
    bool castling_blocked(int index) const { return pieces() & castling_path_[index]; }

    // Attacks.
    Bitboard attackers_to(Square s, Bitboard occupied) const;
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    bool attacked_by(Color c, Square s, Bitboard occupied) const {
        return attackers_to(s, occupied) & pieces(c);
    }
    // Every square colour c attacks, its sliders seeing through nothing but
    // `occupied` (the squares a king may not step to, with its own square
    // taken off; the threats a quiet move flees or walks into).
    Bitboard attacks_by(Color c, Bitboard occupied) const;
    Bitboard attacks_by(Color c) const { return attacks_by(c, pieces()); }

    // Move legality: is_pseudo_legal() accepts any 16-bit move (hash, killer)
    // and checks it against the position without generating; is_legal()
    // finishes the job for a pseudo-legal move (pins, king safety, en passant,
    // castling through attacked squares).
    bool is_pseudo_legal(Move m) const;
    bool is_legal(Move m) const;
    bool is_capture(Move m) const {
        return (!empty(m.to()) && m.type() != MoveType::Castling) || m.type() == MoveType::EnPassant;
    }
    bool is_capture_or_promotion(Move m) const { return is_capture(m) || m.type() == MoveType::Promotion; }
    // The type of the piece m takes (PAWN for en passant; NO_PIECE_TYPE when
    // m takes nothing: a quiet move or castling, encoded king-takes-rook).
    PieceType captured_type(Move m) const {
        if (m.type() == MoveType::EnPassant) return PAWN;
        return m.type() == MoveType::Castling ? NO_PIECE_TYPE : type_of(piece_on(m.to()));
    }
    bool gives_check(Move m) const;

    // Making moves. The position keeps a stack of undo records; unmake must
    // get the same move back.
    void make_move(Move m);
    void unmake_move(Move m);
    void make_null();
    void unmake_null();
    // Plays a move as part of the game (not a search): like make_move, but a
    // full game list first drops all but its last HISTORY_KEPT plies, so that
    // a game of any length fits and a search always has MAX_PLY plies of room.
    void push_game_move(Move m);

    // Draws by rule. is_repetition: the current position occurred before,
    // scanning back only to the last irreversible move, two plies at a time.
    // A repetition of a position inside the search (after `search_root`)
    // counts at once; one from the game history needs two earlier occurrences.
    bool is_repetition(int search_root_ply) const;
    bool is_fifty_move_draw() const { return st().rule50 >= 100; }
    bool has_insufficient_material() const;

    // The game list: the moves it holds (those since the FEN, or the last ones
    // of a long game), history_key(history_length()) being the current key.
    int history_length() const { return sp_; }
    Move history_move(int i) const { return game_moves_[i]; }
    Key history_key(int i) const { return signatures_[i]; }

    // UCI move text (e1g1, or e1h1 in Chess960) and parsing against this
    // position: only a legal move is returned.
    std::string move_to_uci(Move m) const;
    std::optional<Move> parse_uci_move(std::string_view text) const;

    // Consistency check (debug/tests): bitboards, mailbox and keys agree.
    bool is_consistent(std::string* why = nullptr) const;
    Key compute_key() const;
    Key compute_pawn_key() const;
    Key compute_non_pawn_key(Color c) const;

  private:
    struct Blank {};
    explicit Position(Blank) { clear(); }
    const StateInfo& st() const { return states_[sp_]; }
    StateInfo& st() { return states_[sp_]; }
    void clear();
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void set_castling_right(Color c, Square rook_sq);
    void update_check_info();
    void drop_oldest_history(int plies);
    Bitboard slider_blockers(Bitboard sliders, Square target) const;
    static std::optional<std::string> parse_fen(Position& p, std::string_view fen,
                                                std::vector<std::string>& warnings);
    // parse_fen's steps, in order, on the blank position being filled.
    std::optional<std::string> parse_placement(std::string_view field);
    std::optional<std::string> check_material() const;
    std::optional<std::string> parse_castling_right(char c, std::vector<std::string>& warnings);
    std::optional<std::string> parse_en_passant(std::string_view field, std::vector<std::string>& warnings);
    std::optional<std::string> parse_clocks(std::string_view halfmove, std::string_view fullmove);
    std::optional<std::string> validate() const;
    bool castling_is_legal(Move m) const;

    std::array<Bitboard, PIECE_TYPE_NB> by_type_{};
    std::array<Bitboard, COLOR_NB> by_color_{};
    std::array<Piece, 64> board_{};
    Color side_ = WHITE;
    bool chess960_ = false;
    int game_ply_ = 0; // plies since the start of the game (from the FEN's move number)

    std::array<int, 64> castling_mask_{};          // rights lost when a piece leaves/reaches a square
    std::array<Square, 4> castling_rook_{};        // rook square per right
    std::array<Bitboard, 4> castling_path_{};      // squares that must be empty
    std::array<Bitboard, 4> castling_king_path_{}; // squares the king crosses (not attacked)

    // The stacks: states_[i], game_moves_[i] (the move that led from position
    // i to i+1) and signatures_[i] (Zobrist key of position i), i <= sp_.
    int sp_ = 0;
    std::array<StateInfo, CAPACITY> states_{};
    std::array<Move, CAPACITY> game_moves_{};
    std::array<Key, CAPACITY> signatures_{};
};

// Squares the king and rook land on when castling (relative to colour).
constexpr Square castle_king_to(Color c, bool king_side) {
    return relative_square(c, king_side ? SQ_G1 : SQ_C1);
}
constexpr Square castle_rook_to(Color c, bool king_side) {
    return relative_square(c, king_side ? SQ_F1 : SQ_D1);
}

} // namespace staccato
