#include "staccato/position.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <sstream>
#include <vector>

#include "staccato/movegen.h"
#include "staccato/parse.h"

namespace staccato {

// ---------------------------------------------------------------------------
// Zobrist keys, generated at compile time from a fixed seed.
// ---------------------------------------------------------------------------
namespace zobrist {
namespace {
struct Keys {
    std::array<std::array<Key, 64>, PIECE_NB> psq{};
    std::array<Key, 16> castling{};
    std::array<Key, 8> ep{};
    Key side = 0;
};

constexpr Keys make_keys() {
    Keys k{};
    std::uint64_t s = 0x2545F4914F6CDD1DULL;
    auto next = [&s]() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    };
    for (auto& row : k.psq)
        for (auto& key : row) key = next();
    for (auto& key : k.ep) key = next();
    // Castling: one key per right, XOR-combined so any subset has a key.
    std::array<Key, 4> single{next(), next(), next(), next()};
    for (int i = 0; i < 16; ++i)
        for (int b = 0; b < 4; ++b)
            if (i & (1 << b)) k.castling[i] ^= single[b];
    k.side = next();
    return k;
}
constexpr Keys KEYS = make_keys();
} // namespace

const std::array<std::array<Key, 64>, PIECE_NB> PSQ = KEYS.psq;
const std::array<Key, 16> CASTLING = KEYS.castling;
const std::array<Key, 8> EN_PASSANT = KEYS.ep;
const Key SIDE = KEYS.side;
} // namespace zobrist

namespace {
constexpr std::string_view PIECE_CHARS = "PNBRQK  pnbrqk";

Piece piece_from_char(char c) {
    auto i = PIECE_CHARS.find(c);
    return (i == std::string_view::npos || c == ' ') ? NO_PIECE : Piece(i);
}
char piece_char(Piece p) { return PIECE_CHARS[type_of(p) + (color_of(p) == BLACK ? 8 : 0)]; }

std::vector<std::string_view> split(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

} // namespace

// ---------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------
Position::Position() {
    auto result = set_fen(START_FEN);
    assert(!result.error && result.warnings.empty());
    (void)result;
}

void Position::clear() {
    by_type_.fill(0);
    by_color_.fill(0);
    board_.fill(NO_PIECE);
    side_ = WHITE;
    chess960_ = false;
    game_ply_ = 0;
    castling_mask_.fill(0);
    castling_rook_.fill(SQ_NONE);
    castling_path_.fill(0);
    castling_king_path_.fill(0);
    sp_ = 0;
    states_[0] = StateInfo{};
    signatures_[0] = 0;
}

void Position::put_piece(Piece p, Square s) {
    board_[s] = p;
    by_type_[type_of(p)] |= square_bb(s);
    by_color_[color_of(p)] |= square_bb(s);
}

void Position::remove_piece(Square s) {
    Piece p = board_[s];
    by_type_[type_of(p)] ^= square_bb(s);
    by_color_[color_of(p)] ^= square_bb(s);
    board_[s] = NO_PIECE;
}

void Position::move_piece(Square from, Square to) {
    Piece p = board_[from];
    Bitboard ft = square_bb(from) | square_bb(to);
    by_type_[type_of(p)] ^= ft;
    by_color_[color_of(p)] ^= ft;
    board_[from] = NO_PIECE;
    board_[to] = p;
}

void Position::set_castling_right(Color c, Square rook_sq) {
    Square ksq = king_square(c);
    bool king_side = file_of(rook_sq) > file_of(ksq);
    int idx = castling_index(c, king_side);
    st().castling |= std::uint8_t(1 << idx);
    castling_mask_[ksq] |= 1 << idx;
    castling_mask_[rook_sq] |= 1 << idx;
    castling_rook_[idx] = rook_sq;

    Square kto = castle_king_to(c, king_side), rto = castle_rook_to(c, king_side);
    castling_king_path_[idx] = between_bb(ksq, kto) | square_bb(kto);
    castling_path_[idx] =
        (between_bb(ksq, kto) | between_bb(rook_sq, rto) | square_bb(kto) | square_bb(rto)) &
        ~(square_bb(ksq) | square_bb(rook_sq));
}

bool Position::castling_needs_chess960() const {
    for (int idx = 0; idx < 4; ++idx) {
        if (!can_castle(idx)) continue;
        Color c = idx < 2 ? WHITE : BLACK;
        int rook_file = file_of(castling_rook_[idx]);
        if (file_of(king_square(c)) != 4 || (rook_file != 0 && rook_file != 7)) return true;
    }
    return false;
}

SetupResult Position::set_fen(std::string_view fen, bool chess960) {
    SetupResult result;
    Position p{Blank{}}; // parse into a fresh object; *this changes only on success
    p.chess960_ = chess960;
    result.error = parse_fen(p, fen, result.warnings);
    if (result.error)
        result.warnings.clear();
    else
        *this = p;
    return result;
}

// Fills the blank position `p` from `fen`; the reason when it cannot.
std::optional<std::string> Position::parse_fen(Position& p, std::string_view fen,
                                               std::vector<std::string>& warnings) {
    auto fields = split(fen);
    if (fields.size() < 4 || fields.size() > 6)
        return "FEN has " + std::to_string(fields.size()) + " fields, expected 6 (or 4)";
    if (auto err = p.parse_placement(fields[0])) return err;
    if (auto err = p.check_material()) return err;
    if (fields[1] == "w")
        p.side_ = WHITE;
    else if (fields[1] == "b")
        p.side_ = BLACK;
    else
        return "FEN side to move must be 'w' or 'b', not '" + std::string(fields[1]) + "'";
    if (fields[2] != "-")
        for (char c : fields[2])
            if (auto err = p.parse_castling_right(c, warnings)) return err;
    if (auto err = p.parse_en_passant(fields[3], warnings)) return err;
    if (auto err = p.parse_clocks(fields.size() >= 5 ? fields[4] : "0", fields.size() >= 6 ? fields[5] : "1"))
        return err;
    if (auto err = p.validate()) return err;

    p.signatures_[0] = p.compute_key();
    p.st().pawn_key = p.compute_pawn_key();
    for (Color c : {WHITE, BLACK}) p.st().non_pawn_key[c] = p.compute_non_pawn_key(c);
    p.update_check_info();
    return std::nullopt;
}

// FEN field 1, the piece placement: eight ranks of eight squares.
std::optional<std::string> Position::parse_placement(std::string_view field) {
    int rank = 7, file = 0;
    auto rank_text = [&] { return "FEN rank " + std::to_string(rank + 1); };
    for (char c : field) {
        if (c == '/') {
            if (file != 8) return rank_text() + " does not have 8 squares";
            if (--rank < 0) return std::string("FEN board has more than 8 ranks");
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return rank_text() + " has more than 8 squares";
        } else {
            Piece pc = piece_from_char(c);
            if (pc == NO_PIECE) return std::string("FEN has a bad piece letter '") + c + "'";
            if (file >= 8) return rank_text() + " has more than 8 squares";
            put_piece(pc, make_square(file++, rank));
        }
    }
    if (rank != 0) return std::string("FEN board has fewer than 8 ranks");
    if (file != 8) return std::string("FEN rank 1 does not have 8 squares");
    return std::nullopt;
}

// One king a side, no pawn on the first or last rank, and promoted pieces
// paid for by missing pawns (keeps every position under the 256-move bound).
std::optional<std::string> Position::check_material() const {
    for (Color c : {WHITE, BLACK})
        if (count(c, KING) != 1)
            return std::string("FEN must have exactly one ") + (c == WHITE ? "white" : "black") + " king";
    if (pieces(PAWN) & (RANK_1_BB | RANK_8_BB))
        return std::string("FEN has a pawn on the first or last rank");
    for (Color c : {WHITE, BLACK}) {
        int extra = std::max(0, count(c, QUEEN) - 1) + std::max(0, count(c, ROOK) - 2) +
                    std::max(0, count(c, BISHOP) - 2) + std::max(0, count(c, KNIGHT) - 2);
        if (count(c, PAWN) + extra > 8)
            return std::string("FEN has too many ") + (c == WHITE ? "white" : "black") + " pieces";
    }
    return std::nullopt;
}

// One letter of FEN field 3, castling: KQkq (outermost rook), or
// Shredder/X-FEN file letters. A right that no king and rook back up is
// dropped with a warning.
std::optional<std::string> Position::parse_castling_right(char c, std::vector<std::string>& warnings) {
    Color col = (c >= 'a' && c <= 'z') ? BLACK : WHITE;
    char lc = char(c | 0x20);
    if (lc != 'k' && lc != 'q' && (lc < 'a' || lc > 'h'))
        return std::string("FEN castling field has a bad letter '") + c + "'";
    auto drop = [&](const char* why) {
        warnings.push_back(std::string("FEN castling '") + c + "' " + why + ": right dropped");
        return std::nullopt;
    };
    Square ksq = king_square(col);
    Bitboard back_rooks = pieces(col, ROOK) & rank_bb(col == WHITE ? 0 : 7);
    if (relative_rank(col, ksq) != 0) return drop("but the king is not on its first rank");
    Square rsq = SQ_NONE;
    if (lc == 'k') {
        Bitboard r = back_rooks & ~(square_bb(ksq) * 2 - 1); // files right of the king
        if (r) rsq = msb(r);
    } else if (lc == 'q') {
        Bitboard r = back_rooks & (square_bb(ksq) - 1);
        if (r) rsq = lsb(r);
    } else {
        rsq = make_square(lc - 'a', col == WHITE ? 0 : 7);
        if (!(back_rooks & square_bb(rsq))) rsq = SQ_NONE;
        chess960_ = true;
    }
    if (rsq == SQ_NONE || file_of(rsq) == file_of(ksq)) return drop("has no matching rook");
    int idx = castling_index(col, file_of(rsq) > file_of(ksq));
    if (st().castling & (1 << idx)) return std::string("FEN castling field repeats a right ('") + c + "')";
    set_castling_right(col, rsq);
    if (file_of(ksq) != 4 || (file_of(rsq) != 0 && file_of(rsq) != 7)) chess960_ = true;
    return std::nullopt;
}

// FEN field 4, en passant: kept only when a double push explains it and a
// pawn of the side to move can take.
std::optional<std::string> Position::parse_en_passant(std::string_view f,
                                                      std::vector<std::string>& warnings) {
    if (f == "-") return std::nullopt;
    if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] < '1' || f[1] > '8')
        return "FEN en-passant field '" + std::string(f) + "' is not a square";
    Square ep = make_square(f[0] - 'a', f[1] - '1');
    Color us = side_, them = ~us;
    auto clear = [&](const char* why) {
        warnings.push_back("FEN en-passant square " + std::string(f) + " " + why + ": cleared");
    };
    if (relative_rank(us, ep) != 5)
        clear("is on the wrong rank");
    else if (piece_on(Square(ep - pawn_push(us))) != make_piece(them, PAWN) || !empty(ep) ||
             !empty(Square(ep + pawn_push(us))))
        clear("does not follow a double pawn push");
    else if (pawn_attacks(them, ep) & pieces(us, PAWN))
        st().ep_square = ep;
    return std::nullopt;
}

// FEN fields 5 and 6, the halfmove clock and the move number.
std::optional<std::string> Position::parse_clocks(std::string_view halfmove, std::string_view fullmove) {
    const auto rule50 = parse_number<int>(halfmove);
    if (!rule50 || *rule50 < 0 || *rule50 > 10000)
        return "FEN halfmove clock '" + std::string(halfmove) + "' is not valid";
    const auto move = parse_number<int>(fullmove);
    if (!move || *move < 0 || *move > 100000)
        return "FEN fullmove number '" + std::string(fullmove) + "' is not valid";
    st().rule50 = std::uint16_t(*rule50);
    game_ply_ = 2 * (std::max(1, *move) - 1) + (side_ == BLACK);
    return std::nullopt;
}

std::optional<std::string> Position::validate() const {
    Color them = ~side_;
    if (attackers_to(king_square(them)) & pieces(side_))
        return std::string("FEN side not to move is in check");
    return std::nullopt;
}

Key Position::compute_key() const {
    Key k = 0;
    for (int s = 0; s < 64; ++s)
        if (board_[s] != NO_PIECE) k ^= zobrist::PSQ[board_[s]][s];
    k ^= zobrist::CASTLING[st().castling];
    if (st().ep_square != SQ_NONE) k ^= zobrist::EN_PASSANT[file_of(st().ep_square)];
    if (side_ == BLACK) k ^= zobrist::SIDE;
    return k;
}

Key Position::compute_pawn_key() const {
    Key k = 0;
    Bitboard b = pieces(PAWN);
    while (b) {
        Square s = pop_lsb(b);
        k ^= zobrist::PSQ[board_[s]][s];
    }
    return k;
}

Key Position::compute_non_pawn_key(Color c) const {
    Key k = 0;
    for (Bitboard b = pieces(c) & ~pieces(PAWN); b;) {
        Square s = pop_lsb(b);
        k ^= zobrist::PSQ[board_[s]][s];
    }
    return k;
}

std::string Position::fen() const {
    std::string s;
    for (int r = 7; r >= 0; --r) {
        int empty_run = 0;
        for (int f = 0; f < 8; ++f) {
            Piece p = board_[make_square(f, r)];
            if (p == NO_PIECE) {
                ++empty_run;
                continue;
            }
            if (empty_run) s += char('0' + empty_run);
            empty_run = 0;
            s += piece_char(p);
        }
        if (empty_run) s += char('0' + empty_run);
        if (r) s += '/';
    }
    s += side_ == WHITE ? " w " : " b ";
    std::string castle;
    for (int idx = 0; idx < 4; ++idx) {
        if (!can_castle(idx)) continue;
        Color c = Color(idx / 2);
        char letter = chess960_ ? char('a' + file_of(castling_rook_[idx])) : (idx % 2 == 0 ? 'k' : 'q');
        castle += c == WHITE ? char(letter - 32) : letter;
    }
    s += castle.empty() ? "-" : castle;
    s += ' ';
    s += st().ep_square == SQ_NONE ? "-" : square_name(st().ep_square);
    s += ' ' + std::to_string(st().rule50) + ' ' + std::to_string(fullmove_number());
    return s;
}

std::string Position::to_string() const {
    std::ostringstream os;
    os << "\n +---+---+---+---+---+---+---+---+\n";
    for (int r = 7; r >= 0; --r) {
        for (int f = 0; f < 8; ++f) {
            Piece p = board_[make_square(f, r)];
            os << " | " << (p == NO_PIECE ? ' ' : piece_char(p));
        }
        os << " | " << (r + 1) << "\n +---+---+---+---+---+---+---+---+\n";
    }
    os << "   a   b   c   d   e   f   g   h\n\n";
    char keybuf[32];
    std::snprintf(keybuf, sizeof keybuf, "%016llX", static_cast<unsigned long long>(key()));
    os << "Fen: " << fen() << "\nKey: " << keybuf << "\nCheckers:";
    Bitboard b = checkers();
    while (b) os << ' ' << square_name(pop_lsb(b));
    os << '\n';
    return os.str();
}

// ---------------------------------------------------------------------------
// Attacks and check information
// ---------------------------------------------------------------------------
Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
           (knight_attacks(s) & pieces(KNIGHT)) | (rook_attacks(s, occupied) & pieces(ROOK, QUEEN)) |
           (bishop_attacks(s, occupied) & pieces(BISHOP, QUEEN)) | (king_attacks(s) & pieces(KING));
}

Bitboard Position::attacks_by(Color c, Bitboard occupied) const {
    const Bitboard pawns = pieces(c, PAWN);
    Bitboard att = (c == WHITE ? pawn_attacks_bb<WHITE>(pawns) : pawn_attacks_bb<BLACK>(pawns)) |
                   king_attacks(king_square(c));
    for (Bitboard b = pieces(c, KNIGHT); b;) att |= knight_attacks(pop_lsb(b));
    for (Bitboard b = pieces(c, BISHOP, QUEEN); b;) att |= bishop_attacks(pop_lsb(b), occupied);
    for (Bitboard b = pieces(c, ROOK, QUEEN); b;) att |= rook_attacks(pop_lsb(b), occupied);
    return att;
}

// Pieces (of either colour) that alone stand between `target` and one of the
// given sliders.
Bitboard Position::slider_blockers(Bitboard sliders, Square target) const {
    Bitboard snipers = ((rook_attacks(target, 0) & pieces(ROOK, QUEEN)) |
                        (bishop_attacks(target, 0) & pieces(BISHOP, QUEEN))) &
                       sliders;
    Bitboard occupancy = pieces() ^ snipers;
    Bitboard blockers = 0;
    while (snipers) {
        Bitboard b = between_bb(target, pop_lsb(snipers)) & occupancy;
        if (b && !more_than_one(b)) blockers |= b;
    }
    return blockers;
}

void Position::update_check_info() {
    StateInfo& s = st();
    s.checkers = attackers_to(king_square(side_)) & pieces(~side_);
    s.blockers[WHITE] = slider_blockers(pieces(BLACK), king_square(WHITE));
    s.blockers[BLACK] = slider_blockers(pieces(WHITE), king_square(BLACK));
}

// ---------------------------------------------------------------------------
// Legality
// ---------------------------------------------------------------------------
bool Position::castling_is_legal(Move m) const {
    Color us = side_;
    Square from = m.from(), rook = m.to();
    bool king_side = rook > from;
    int idx = castling_index(us, king_side);
    Bitboard occ = pieces() ^ square_bb(from) ^ square_bb(rook);
    Bitboard path = castling_king_path_[idx];
    while (path)
        if (attackers_to(pop_lsb(path), occ) & pieces(~us)) return false;
    return true;
}

bool Position::is_legal(Move m) const {
    Color us = side_, them = ~us;
    Square from = m.from(), to = m.to();
    Square ksq = king_square(us);

    if (m.type() == MoveType::EnPassant) {
        Square capsq = Square(to - pawn_push(us));
        Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(capsq)) | square_bb(to);
        return !(rook_attacks(ksq, occ) & pieces(them, QUEEN, ROOK)) &&
               !(bishop_attacks(ksq, occ) & pieces(them, QUEEN, BISHOP));
    }
    if (m.type() == MoveType::Castling) return castling_is_legal(m);
    if (from == ksq) return !(attackers_to(to, pieces() ^ square_bb(from)) & pieces(them));
    return !(blockers_for_king(us) & square_bb(from)) || aligned(from, to, ksq);
}

bool Position::is_pseudo_legal(Move m) const {
    Color us = side_, them = ~us;
    Square from = m.from(), to = m.to();
    Piece pc = board_[from];
    if (!m.is_ok() || pc == NO_PIECE || color_of(pc) != us) return false;
    PieceType pt = type_of(pc);
    // Non-promotions carry no promotion bits: one encoding per move.
    if (m.type() != MoveType::Promotion && (m.raw() >> 12) != (std::uint16_t(m.type()) << 2)) return false;

    if (m.type() == MoveType::Castling) {
        if (pt != KING || in_check()) return false;
        bool king_side = to > from;
        int idx = castling_index(us, king_side);
        return relative_rank(us, from) == 0 && can_castle(idx) && castling_rook_[idx] == to &&
               !castling_blocked(idx);
    }
    if (pieces(us) & square_bb(to)) return false;

    if (pt == PAWN) {
        bool last_rank = relative_rank(us, to) == 7;
        if (last_rank != (m.type() == MoveType::Promotion)) return false;
        if (m.type() == MoveType::EnPassant) {
            if (to != st().ep_square || !(pawn_attacks(us, from) & square_bb(to))) return false;
        } else if (pawn_attacks(us, from) & square_bb(to)) {
            if (!(pieces(them) & square_bb(to))) return false;
        } else if (to == from + pawn_push(us)) {
            if (!empty(to)) return false;
        } else if (to == from + 2 * pawn_push(us)) {
            if (relative_rank(us, from) != 1 || !empty(to) || !empty(Square(from + pawn_push(us))))
                return false;
        } else {
            return false;
        }
    } else {
        if (m.type() != MoveType::Normal) return false;
        if (!(attacks_bb(pt, from, pieces()) & square_bb(to))) return false;
    }

    // In check, a non-king move must capture or block a single checker.
    if (in_check() && pt != KING) {
        Bitboard chk = checkers();
        if (more_than_one(chk)) return false;
        Square checker = lsb(chk);
        Bitboard target = between_bb(king_square(us), checker) | chk;
        Square effective = m.type() == MoveType::EnPassant ? Square(to - pawn_push(us)) : to;
        if (!(target & square_bb(to)) && !(square_bb(effective) & chk)) return false;
    }
    return true;
}

bool Position::gives_check(Move m) const {
    Color us = side_, them = ~us;
    Square from = m.from(), to = m.to();
    Square ksq = king_square(them);
    PieceType pt = type_of(board_[from]);

    // Discovered check: the mover was the only piece between a slider and the king.
    bool discovered = (blockers_for_king(them) & square_bb(from)) && !aligned(from, to, ksq);

    switch (m.type()) {
    case MoveType::Normal: {
        Bitboard occ = (pieces() ^ square_bb(from)) | square_bb(to);
        Bitboard att = pt == PAWN ? pawn_attacks(us, to) : attacks_bb(pt, to, occ);
        return discovered || (att & square_bb(ksq));
    }
    case MoveType::Promotion: {
        Bitboard occ = (pieces() ^ square_bb(from)) | square_bb(to);
        return discovered || (attacks_bb(m.promotion(), to, occ) & square_bb(ksq));
    }
    case MoveType::EnPassant: {
        Square capsq = Square(to - pawn_push(us));
        Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(capsq)) | square_bb(to);
        return (pawn_attacks(us, to) & square_bb(ksq)) ||
               (rook_attacks(ksq, occ) & pieces(us, QUEEN, ROOK)) ||
               (bishop_attacks(ksq, occ) & pieces(us, QUEEN, BISHOP));
    }
    case MoveType::Castling: {
        bool king_side = to > from;
        Square rto = castle_rook_to(us, king_side), kto = castle_king_to(us, king_side);
        Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(to)) | square_bb(rto) | square_bb(kto);
        return rook_attacks(rto, occ) & square_bb(ksq);
    }
    }
    return false;
}

// ---------------------------------------------------------------------------
// Make / unmake
// ---------------------------------------------------------------------------
void Position::make_move(Move m) {
    assert(sp_ + 1 < CAPACITY);
    Color us = side_, them = ~us;
    Square from = m.from(), to = m.to();
    Piece pc = board_[from];
    const StateInfo& prev = states_[sp_];

    game_moves_[sp_] = m;
    Key k = signatures_[sp_] ^ zobrist::SIDE;
    ++sp_;
    StateInfo& ns = states_[sp_];
    ns.pawn_key = prev.pawn_key;
    ns.non_pawn_key = prev.non_pawn_key;
    ns.castling = prev.castling;
    ns.rule50 = std::uint16_t(prev.rule50 + 1);
    ns.plies_from_null = std::uint16_t(prev.plies_from_null + 1);
    ns.ep_square = SQ_NONE;
    ns.captured = NO_PIECE;
    if (prev.ep_square != SQ_NONE) k ^= zobrist::EN_PASSANT[file_of(prev.ep_square)];

    if (m.type() == MoveType::Castling) {
        bool king_side = to > from;
        Square kto = castle_king_to(us, king_side), rto = castle_rook_to(us, king_side);
        Piece rook = board_[to];
        remove_piece(from);
        remove_piece(to);
        put_piece(pc, kto);
        put_piece(rook, rto);
        const Key moved =
            zobrist::PSQ[pc][from] ^ zobrist::PSQ[pc][kto] ^ zobrist::PSQ[rook][to] ^ zobrist::PSQ[rook][rto];
        k ^= moved;
        ns.non_pawn_key[us] ^= moved;
    } else {
        Square capsq = m.type() == MoveType::EnPassant ? Square(to - pawn_push(us)) : to;
        Piece captured = board_[capsq];
        if (captured != NO_PIECE) {
            remove_piece(capsq);
            k ^= zobrist::PSQ[captured][capsq];
            (type_of(captured) == PAWN ? ns.pawn_key : ns.non_pawn_key[them]) ^=
                zobrist::PSQ[captured][capsq];
            ns.rule50 = 0;
            ns.captured = captured;
        }
        move_piece(from, to);
        k ^= zobrist::PSQ[pc][from] ^ zobrist::PSQ[pc][to];
        if (type_of(pc) != PAWN) ns.non_pawn_key[us] ^= zobrist::PSQ[pc][from] ^ zobrist::PSQ[pc][to];
        if (type_of(pc) == PAWN) {
            ns.rule50 = 0;
            ns.pawn_key ^= zobrist::PSQ[pc][from] ^ zobrist::PSQ[pc][to];
            if ((int(to) ^ int(from)) == 16 &&
                (pawn_attacks(us, Square(from + pawn_push(us))) & pieces(them, PAWN))) {
                ns.ep_square = Square(from + pawn_push(us));
                k ^= zobrist::EN_PASSANT[file_of(ns.ep_square)];
            } else if (m.type() == MoveType::Promotion) {
                Piece promo = make_piece(us, m.promotion());
                remove_piece(to);
                put_piece(promo, to);
                k ^= zobrist::PSQ[pc][to] ^ zobrist::PSQ[promo][to];
                ns.pawn_key ^= zobrist::PSQ[pc][to];
                ns.non_pawn_key[us] ^= zobrist::PSQ[promo][to];
            }
        }
    }

    int lost = castling_mask_[from] | castling_mask_[to];
    if (ns.castling && lost) {
        k ^= zobrist::CASTLING[ns.castling];
        ns.castling &= std::uint8_t(~lost);
        k ^= zobrist::CASTLING[ns.castling];
    }

    side_ = them;
    ++game_ply_;
    signatures_[sp_] = k;
    update_check_info();
}

void Position::unmake_move(Move m) {
    side_ = ~side_;
    --game_ply_;
    Color us = side_;
    Square from = m.from(), to = m.to();
    const StateInfo& s = states_[sp_];

    if (m.type() == MoveType::Castling) {
        bool king_side = to > from;
        Square kto = castle_king_to(us, king_side), rto = castle_rook_to(us, king_side);
        Piece king = board_[kto], rook = board_[rto];
        remove_piece(kto);
        remove_piece(rto);
        put_piece(king, from);
        put_piece(rook, to);
    } else {
        if (m.type() == MoveType::Promotion) {
            remove_piece(to);
            put_piece(make_piece(us, PAWN), to);
        }
        move_piece(to, from);
        if (s.captured != NO_PIECE) {
            Square capsq = m.type() == MoveType::EnPassant ? Square(to - pawn_push(us)) : to;
            put_piece(s.captured, capsq);
        }
    }
    --sp_;
}

void Position::make_null() {
    assert(sp_ + 1 < CAPACITY);
    const StateInfo& prev = states_[sp_];
    game_moves_[sp_] = Move::null();
    Key k = signatures_[sp_] ^ zobrist::SIDE;
    if (prev.ep_square != SQ_NONE) k ^= zobrist::EN_PASSANT[file_of(prev.ep_square)];
    ++sp_;
    StateInfo& ns = states_[sp_];
    ns = prev;
    ns.ep_square = SQ_NONE;
    ns.rule50 = std::uint16_t(prev.rule50 + 1);
    ns.plies_from_null = 0;
    ns.captured = NO_PIECE;
    side_ = ~side_;
    ++game_ply_;
    signatures_[sp_] = k;
    ns.checkers = 0; // a null move is never made in check
}

void Position::unmake_null() {
    side_ = ~side_;
    --game_ply_;
    --sp_;
}

void Position::push_game_move(Move m) {
    if (sp_ + 1 >= MAX_GAME_PLY) drop_oldest_history(sp_ - HISTORY_KEPT);
    make_move(m);
}

// Shifts the stacks down by `plies`: entry i becomes entry i - plies. A
// repetition scan must not run below the new entry 0, hence the clamp.
void Position::drop_oldest_history(int plies) {
    std::copy(states_.begin() + plies, states_.begin() + sp_ + 1, states_.begin());
    std::copy(game_moves_.begin() + plies, game_moves_.begin() + sp_, game_moves_.begin());
    std::copy(signatures_.begin() + plies, signatures_.begin() + sp_ + 1, signatures_.begin());
    sp_ -= plies;
    for (int i = 0; i <= sp_; ++i)
        states_[i].plies_from_null = std::uint16_t(std::min<int>(states_[i].plies_from_null, i));
}

// ---------------------------------------------------------------------------
// Draws
// ---------------------------------------------------------------------------
bool Position::is_repetition(int search_root_ply) const {
    int end = std::min<int>(st().rule50, st().plies_from_null);
    if (end < 4) return false;
    Key k = signatures_[sp_];
    int seen = 0;
    for (int i = sp_ - 4; i >= sp_ - end; i -= 2) {
        if (signatures_[i] != k) continue;
        if (i > search_root_ply) return true; // repeated inside the search tree
        if (++seen == 2) return true;         // three-fold with the game history
    }
    return false;
}

bool Position::has_insufficient_material() const {
    if (pieces(PAWN) || pieces(ROOK) || pieces(QUEEN)) return false;
    Bitboard minors = pieces(KNIGHT, BISHOP);
    if (popcount(minors) <= 1) return true;
    // Only bishops, all on squares of one colour.
    constexpr Bitboard DARK = 0xAA55AA55AA55AA55ULL;
    if (pieces(KNIGHT)) return false;
    return !(pieces(BISHOP) & DARK) || !(pieces(BISHOP) & ~DARK);
}

// ---------------------------------------------------------------------------
// UCI move text
// ---------------------------------------------------------------------------
std::string Position::move_to_uci(Move m) const {
    if (m == Move::none()) return "0000";
    if (m == Move::null()) return "0000";
    Square to = m.to();
    if (m.type() == MoveType::Castling && !chess960_)
        to = castle_king_to(color_of(board_[m.from()]), m.to() > m.from());
    std::string s = square_name(m.from()) + square_name(to);
    if (m.type() == MoveType::Promotion) s += "nbrq"[m.promotion() - KNIGHT];
    return s;
}

std::optional<Move> Position::parse_uci_move(std::string_view text) const {
    if (text.size() < 4 || text.size() > 5) return std::nullopt;
    std::string lower(text);
    for (char& c : lower) c = char(c >= 'A' && c <= 'Z' ? c + 32 : c);
    for (const ScoredMove& sm : MoveList(*this))
        if (move_to_uci(sm.move) == lower) return sm.move;
    return std::nullopt;
}

// ---------------------------------------------------------------------------
// Debug consistency check
// ---------------------------------------------------------------------------
bool Position::is_consistent(std::string* why) const {
    auto fail = [why](const char* msg) {
        if (why) *why = msg;
        return false;
    };
    Bitboard all = 0;
    for (int pt = PAWN; pt <= KING; ++pt) {
        if (all & by_type_[pt]) return fail("piece-type bitboards overlap");
        all |= by_type_[pt];
    }
    if (by_color_[WHITE] & by_color_[BLACK]) return fail("colour bitboards overlap");
    if (all != pieces()) return fail("type and colour bitboards disagree");
    for (int s = 0; s < 64; ++s) {
        Piece p = board_[s];
        bool occupied = all & square_bb(Square(s));
        if ((p != NO_PIECE) != occupied) return fail("mailbox disagrees with bitboards");
        if (p != NO_PIECE && !(pieces(color_of(p), type_of(p)) & square_bb(Square(s))))
            return fail("mailbox piece not on its bitboard");
    }
    if (count(WHITE, KING) != 1 || count(BLACK, KING) != 1) return fail("king count");
    if (key() != compute_key()) return fail("zobrist key differs from recomputed key");
    if (pawn_key() != compute_pawn_key()) return fail("pawn key differs from recomputed key");
    for (Color c : {WHITE, BLACK})
        if (non_pawn_key(c) != compute_non_pawn_key(c))
            return fail("non-pawn key differs from recomputed key");
    if (checkers() != (attackers_to(king_square(side_)) & pieces(~side_))) return fail("checkers");
    return true;
}

} // namespace staccato
