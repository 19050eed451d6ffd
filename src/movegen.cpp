#include "staccato/movegen.h"

namespace staccato {

namespace {

template <Color Us> constexpr Direction UP = Us == WHITE ? NORTH : SOUTH;
template <Color Us> constexpr Direction UP_LEFT = Us == WHITE ? NORTH_WEST : SOUTH_EAST;
template <Color Us> constexpr Direction UP_RIGHT = Us == WHITE ? NORTH_EAST : SOUTH_WEST;

// Writes the promotions of one pawn move that belong to generation type T:
// queen promotions are "captures" (they win material), under-promotions quiet.
template <GenType T> ScoredMove* add_promotions(ScoredMove* out, Square from, Square to) {
    constexpr bool queens = T != GenType::Quiets;
    constexpr bool unders = T != GenType::Captures;
    if constexpr (queens) *out++ = Move(from, to, MoveType::Promotion, QUEEN);
    if constexpr (unders) {
        *out++ = Move(from, to, MoveType::Promotion, ROOK);
        *out++ = Move(from, to, MoveType::Promotion, BISHOP);
        *out++ = Move(from, to, MoveType::Promotion, KNIGHT);
    }
    return out;
}

// Pawn moves. `target` limits destinations in evasions (block or capture).
template <Color Us, GenType T> ScoredMove* pawn_moves(const Position& pos, ScoredMove* out, Bitboard target) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = UP<Us>, UpLeft = UP_LEFT<Us>, UpRight = UP_RIGHT<Us>;
    constexpr Bitboard Rank7 = Us == WHITE ? RANK_7_BB : RANK_2_BB;
    constexpr Bitboard Rank3 = Us == WHITE ? RANK_3_BB : RANK_6_BB;
    constexpr bool Evasions = T == GenType::Evasions;

    const Bitboard empty = ~pos.pieces();
    const Bitboard enemies = Evasions ? pos.pieces(Them) & target : pos.pieces(Them);
    const Bitboard pawns = pos.pieces(Us, PAWN) & ~Rank7;
    const Bitboard promoters = pos.pieces(Us, PAWN) & Rank7;

    // Single and double pushes (not promoting).
    if constexpr (T != GenType::Captures) {
        Bitboard one = shift<Up>(pawns) & empty;
        Bitboard two = shift<Up>(one & Rank3) & empty;
        if constexpr (Evasions) {
            one &= target;
            two &= target;
        }
        while (one) {
            Square to = pop_lsb(one);
            *out++ = Move(Square(to - Up), to);
        }
        while (two) {
            Square to = pop_lsb(two);
            *out++ = Move(Square(to - 2 * Up), to);
        }
    }

    // Promotions, by push and by capture.
    if (promoters) {
        Bitboard push = shift<Up>(promoters) & empty;
        if constexpr (Evasions) push &= target;
        Bitboard left = shift<UpLeft>(promoters) & enemies;
        Bitboard right = shift<UpRight>(promoters) & enemies;
        while (push) {
            Square to = pop_lsb(push);
            out = add_promotions<T>(out, Square(to - Up), to);
        }
        while (left) {
            Square to = pop_lsb(left);
            out = add_promotions<T>(out, Square(to - UpLeft), to);
        }
        while (right) {
            Square to = pop_lsb(right);
            out = add_promotions<T>(out, Square(to - UpRight), to);
        }
    }

    // Captures, en passant included.
    if constexpr (T != GenType::Quiets) {
        Bitboard left = shift<UpLeft>(pawns) & enemies;
        Bitboard right = shift<UpRight>(pawns) & enemies;
        while (left) {
            Square to = pop_lsb(left);
            *out++ = Move(Square(to - UpLeft), to);
        }
        while (right) {
            Square to = pop_lsb(right);
            *out++ = Move(Square(to - UpRight), to);
        }
        Square ep = pos.ep_square();
        if (ep != SQ_NONE) {
            // In check, en passant helps only by taking the checker or, in a
            // set-up position, by landing between a slider and the king
            // (is_pseudo_legal and count_legal_moves accept both).
            if (Evasions && !(target & (square_bb(Square(ep - Up)) | square_bb(ep)))) return out;
            Bitboard takers = pawns & pawn_attacks(Them, ep);
            while (takers) *out++ = Move(pop_lsb(takers), ep, MoveType::EnPassant);
        }
    }
    return out;
}

template <Color Us, PieceType Pt>
ScoredMove* piece_moves(const Position& pos, ScoredMove* out, Bitboard target) {
    Bitboard pieces = pos.pieces(Us, Pt);
    const Bitboard occ = pos.pieces();
    while (pieces) {
        Square from = pop_lsb(pieces);
        Bitboard b = attacks_bb(Pt, from, occ) & target;
        while (b) *out++ = Move(from, pop_lsb(b));
    }
    return out;
}

template <Color Us, GenType T> ScoredMove* generate_all(const Position& pos, ScoredMove* out) {
    constexpr Color Them = ~Us;
    const Square ksq = pos.king_square(Us);
    Bitboard target;

    if constexpr (T == GenType::Evasions) {
        // King steps first; with two checkers nothing else can help.
        Bitboard k = king_attacks(ksq) & ~pos.pieces(Us);
        while (k) *out++ = Move(ksq, pop_lsb(k));
        Bitboard checkers = pos.checkers();
        if (more_than_one(checkers)) return out;
        target = between_bb(ksq, lsb(checkers)) | checkers;
    } else if constexpr (T == GenType::Captures) {
        target = pos.pieces(Them);
    } else if constexpr (T == GenType::Quiets) {
        target = ~pos.pieces();
    } else {
        target = ~pos.pieces(Us);
    }

    out = pawn_moves<Us, T>(pos, out, target);
    out = piece_moves<Us, KNIGHT>(pos, out, target);
    out = piece_moves<Us, BISHOP>(pos, out, target);
    out = piece_moves<Us, ROOK>(pos, out, target);
    out = piece_moves<Us, QUEEN>(pos, out, target);

    if constexpr (T != GenType::Evasions) {
        Bitboard k = king_attacks(ksq) & target;
        while (k) *out++ = Move(ksq, pop_lsb(k));
    }
    if constexpr (T == GenType::Quiets || T == GenType::NonEvasions) {
        for (bool king_side : {true, false}) {
            int idx = castling_index(Us, king_side);
            if (pos.can_castle(idx) && !pos.castling_blocked(idx))
                *out++ = Move(ksq, pos.castling_rook_square(idx), MoveType::Castling);
        }
    }
    return out;
}

// Exact count of legal moves without writing them: the attacked-square map
// (with our king lifted off the board), pin lines and the check mask decide
// each piece's destinations, and popcount does the rest.
template <Color Us> int count_legal(const Position& pos) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = UP<Us>, UpLeft = UP_LEFT<Us>, UpRight = UP_RIGHT<Us>;
    constexpr Bitboard Rank3 = Us == WHITE ? RANK_3_BB : RANK_6_BB;
    constexpr Bitboard Rank8 = Us == WHITE ? RANK_8_BB : RANK_1_BB;

    const Bitboard us = pos.pieces(Us), them = pos.pieces(Them), occ = pos.pieces();
    const Square ksq = pos.king_square(Us);
    const Bitboard checkers = pos.checkers();

    // Squares the king may not step to.
    const Bitboard danger = pos.attacks_by(Them, occ ^ square_bb(ksq));

    int n = popcount(king_attacks(ksq) & ~us & ~danger);
    if (more_than_one(checkers)) return n;

    const Bitboard mask = checkers ? between_bb(ksq, lsb(checkers)) | checkers : ~us;
    const Bitboard pinned = pos.blockers_for_king(Us) & us;

    for (Bitboard b = pos.pieces(Us, KNIGHT) & ~pinned; b;) n += popcount(knight_attacks(pop_lsb(b)) & mask);
    for (Bitboard b = pos.pieces(Us, BISHOP, QUEEN); b;) {
        Square s = pop_lsb(b);
        Bitboard att = bishop_attacks(s, occ) & mask;
        if (pinned & square_bb(s)) att &= line_bb(ksq, s);
        n += popcount(att);
    }
    for (Bitboard b = pos.pieces(Us, ROOK, QUEEN); b;) {
        Square s = pop_lsb(b);
        Bitboard att = rook_attacks(s, occ) & mask;
        if (pinned & square_bb(s)) att &= line_bb(ksq, s);
        n += popcount(att);
    }

    // Unpinned pawns in bulk.
    const Bitboard pawns = pos.pieces(Us, PAWN);
    const Bitboard free = pawns & ~pinned;
    Bitboard one = shift<Up>(free) & ~occ;
    Bitboard two = shift<Up>(one & Rank3) & ~occ & mask;
    one &= mask;
    n += popcount(one & ~Rank8) + 4 * popcount(one & Rank8) + popcount(two);
    Bitboard left = shift<UpLeft>(free) & them & mask;
    Bitboard right = shift<UpRight>(free) & them & mask;
    n += popcount(left & ~Rank8) + 4 * popcount(left & Rank8);
    n += popcount(right & ~Rank8) + 4 * popcount(right & Rank8);

    // Pinned pawns one by one, moving only along the pin line.
    for (Bitboard b = pawns & pinned; b;) {
        Square s = pop_lsb(b);
        Bitboard allowed = line_bb(ksq, s) & mask;
        Bitboard to = shift<Up>(square_bb(s)) & ~occ;
        Bitboard dbl = shift<Up>(to & Rank3) & ~occ;
        Bitboard moves = ((to | dbl) & allowed) | (pawn_attacks(Us, s) & them & allowed);
        n += popcount(moves & ~Rank8) + 4 * popcount(moves & Rank8);
    }

    // En passant: rare, so the full legality test.
    Square ep = pos.ep_square();
    if (ep != SQ_NONE) {
        Square capsq = Square(ep - Up);
        if (!checkers || (checkers & square_bb(capsq)) || (mask & square_bb(ep))) {
            for (Bitboard b = pawns & pawn_attacks(Them, ep); b;)
                n += pos.is_legal(Move(pop_lsb(b), ep, MoveType::EnPassant));
        }
    }

    // Castling.
    if (!checkers) {
        for (bool king_side : {true, false}) {
            int idx = castling_index(Us, king_side);
            if (pos.can_castle(idx) && !pos.castling_blocked(idx))
                n += pos.is_legal(Move(ksq, pos.castling_rook_square(idx), MoveType::Castling));
        }
    }
    return n;
}

} // namespace

template <GenType T> ScoredMove* generate(const Position& pos, ScoredMove* out) {
    return pos.side_to_move() == WHITE ? generate_all<WHITE, T>(pos, out) : generate_all<BLACK, T>(pos, out);
}

template ScoredMove* generate<GenType::Captures>(const Position&, ScoredMove*);
template ScoredMove* generate<GenType::Quiets>(const Position&, ScoredMove*);
template ScoredMove* generate<GenType::Evasions>(const Position&, ScoredMove*);
template ScoredMove* generate<GenType::NonEvasions>(const Position&, ScoredMove*);

ScoredMove* generate_legal(const Position& pos, ScoredMove* out) {
    ScoredMove* end =
        pos.in_check() ? generate<GenType::Evasions>(pos, out) : generate<GenType::NonEvasions>(pos, out);
    const Square ksq = pos.king_square(pos.side_to_move());
    const Bitboard pinned = pos.blockers_for_king(pos.side_to_move()) & pos.pieces(pos.side_to_move());
    ScoredMove* keep = out;
    for (ScoredMove* m = out; m != end; ++m) {
        Move mv = m->move;
        bool needs_test =
            (pinned & square_bb(mv.from())) || mv.from() == ksq || mv.type() == MoveType::EnPassant;
        if (!needs_test || pos.is_legal(mv)) *keep++ = *m;
    }
    return keep;
}

int count_legal_moves(const Position& pos) {
    return pos.side_to_move() == WHITE ? count_legal<WHITE>(pos) : count_legal<BLACK>(pos);
}

} // namespace staccato
