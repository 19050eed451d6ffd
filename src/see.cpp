#include "staccato/see.h"

namespace staccato {

// The swap algorithm, in its "is it at least threshold?" form. `balance` is
// what the side that made the last capture is up, relative to the threshold,
// if the exchange stops now; each side recaptures with its cheapest attacker
// and may stop when continuing cannot help it.
bool see_ge(const Position& pos, Move m, int threshold) {
    if (m.type() == MoveType::Castling) return 0 >= threshold;

    const Square from = m.from(), to = m.to();
    const Color us = pos.side_to_move();
    Bitboard occupied = pos.pieces() ^ square_bb(from);

    int captured_value = 0;
    if (m.type() == MoveType::EnPassant) {
        captured_value = SEE_VALUE[PAWN];
        occupied ^= square_bb(Square(to - pawn_push(us)));
    } else if (!pos.empty(to)) {
        captured_value = SEE_VALUE[type_of(pos.piece_on(to))];
    }
    // The piece standing on `to` after the move (a promoted pawn is a queen,
    // or the chosen piece, and the promotion itself gains material).
    PieceType on_square = type_of(pos.moved_piece(m));
    if (m.type() == MoveType::Promotion) {
        on_square = m.promotion();
        captured_value += SEE_VALUE[on_square] - SEE_VALUE[PAWN];
    }

    int balance = captured_value - threshold;
    if (balance < 0) return false; // even if the opponent can't recapture
    balance -= SEE_VALUE[on_square];
    if (balance >= 0) return true; // even losing the piece keeps us above

    const Bitboard diagonal = pos.pieces(BISHOP, QUEEN);
    const Bitboard straight = pos.pieces(ROOK, QUEEN);
    Bitboard attackers = pos.attackers_to(to, occupied) & occupied;
    Color side = ~us; // the side to capture next

    while (true) {
        Bitboard mine = attackers & pos.pieces(side);
        if (!mine) break; // `side` cannot recapture: it loses the exchange

        // Cheapest attacker first.
        PieceType pt = PAWN;
        while (!(mine & pos.pieces(pt))) pt = PieceType(pt + 1);
        occupied ^= square_bb(lsb(mine & pos.pieces(pt)));

        // Sliders behind the capturer join in (x-rays).
        if (pt == PAWN || pt == BISHOP || pt == QUEEN) attackers |= bishop_attacks(to, occupied) & diagonal;
        if (pt == ROOK || pt == QUEEN) attackers |= rook_attacks(to, occupied) & straight;
        attackers &= occupied;
        side = ~side;

        // Negamax the balance: now the capturer's piece stands en prise.
        // If the capturer stays ahead even when it is lost, the exchange
        // stops here in its favour; a king may not capture onto a square
        // the other side still attacks.
        balance = -balance - 1 - SEE_VALUE[pt];
        if (balance >= 0) {
            if (pt == KING && (attackers & pos.pieces(side))) side = ~side;
            break;
        }
    }
    // `side` is the side that ran out of profitable captures.
    return side != us;
}

} // namespace staccato
