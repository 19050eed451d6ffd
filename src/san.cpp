#include "staccato/san.h"

#include "staccato/movegen.h"

namespace staccato {

namespace {

constexpr std::string_view PIECE_LETTERS = "PNBRQK";

PieceType piece_of_letter(char c) {
    const auto i = PIECE_LETTERS.find(c);
    return i == std::string_view::npos || i == 0 ? NO_PIECE_TYPE : PieceType(i);
}

bool king_side(Move m) { return file_of(m.to()) > file_of(m.from()); } // castling: king takes own rook

} // namespace

SanResult parse_san(const Position& pos, std::string_view text) {
    const std::string original(text);
    while (!text.empty() &&
           (text.back() == '+' || text.back() == '#' || text.back() == '!' || text.back() == '?'))
        text.remove_suffix(1);
    const MoveList legal(pos);
    if (text == "O-O" || text == "0-0" || text == "O-O-O" || text == "0-0-0") {
        const bool want_king_side = text.size() == 3;
        for (const ScoredMove& sm : legal)
            if (sm.move.type() == MoveType::Castling && king_side(sm.move) == want_king_side)
                return {sm.move, ""};
        return {std::nullopt, "'" + original + "' is not legal here"};
    }
    PieceType piece = PAWN;
    if (!text.empty() && piece_of_letter(text.front()) != NO_PIECE_TYPE) {
        piece = piece_of_letter(text.front());
        text.remove_prefix(1);
    }
    PieceType promotion = NO_PIECE_TYPE;
    if (text.size() >= 2 && piece_of_letter(text.back()) != NO_PIECE_TYPE &&
        piece_of_letter(text.back()) != KING) {
        promotion = piece_of_letter(text.back());
        text.remove_suffix(1);
        if (!text.empty() && text.back() == '=') text.remove_suffix(1);
    }
    if (text.size() < 2) return {std::nullopt, "'" + original + "' is not a move"};
    const char f = text[text.size() - 2], r = text[text.size() - 1];
    if (f < 'a' || f > 'h' || r < '1' || r > '8')
        return {std::nullopt, "'" + original + "' has no target square"};
    const Square to = make_square(f - 'a', r - '1');
    text.remove_suffix(2);
    if (!text.empty() && (text.back() == 'x' || text.back() == ':')) text.remove_suffix(1);
    int from_file = -1, from_rank = -1;
    for (char c : text) {
        if (c >= 'a' && c <= 'h' && from_file < 0)
            from_file = c - 'a';
        else if (c >= '1' && c <= '8' && from_rank < 0)
            from_rank = c - '1';
        else if (c != '-')
            return {std::nullopt, "'" + original + "' is not SAN"};
    }
    std::optional<Move> found;
    int matches = 0;
    for (const ScoredMove& sm : legal) {
        const Move m = sm.move;
        if (m.type() == MoveType::Castling || type_of(pos.moved_piece(m)) != piece || m.to() != to) continue;
        if ((m.type() == MoveType::Promotion ? m.promotion() : NO_PIECE_TYPE) != promotion) continue;
        if ((from_file >= 0 && file_of(m.from()) != from_file) ||
            (from_rank >= 0 && rank_of(m.from()) != from_rank))
            continue;
        found = m;
        ++matches;
    }
    if (matches == 1) return {found, ""};
    return {std::nullopt, "'" + original + (matches ? "' is ambiguous here" : "' is not legal here")};
}

std::string to_san(const Position& pos, Move m) {
    std::string san;
    if (m.type() == MoveType::Castling)
        san = king_side(m) ? "O-O" : "O-O-O";
    else {
        const PieceType piece = type_of(pos.moved_piece(m));
        const bool capture = pos.is_capture(m);
        if (piece == PAWN) {
            if (capture) san += char('a' + file_of(m.from()));
        } else {
            san += PIECE_LETTERS[piece];
            // Disambiguation: the file if it tells, else the rank, else both.
            bool same_file = false, same_rank = false, other = false;
            for (const ScoredMove& sm : MoveList(pos)) {
                const Move o = sm.move;
                if (o == m || o.to() != m.to() || type_of(pos.moved_piece(o)) != piece ||
                    o.type() == MoveType::Castling)
                    continue;
                other = true;
                same_file |= file_of(o.from()) == file_of(m.from());
                same_rank |= rank_of(o.from()) == rank_of(m.from());
            }
            if (other && (!same_file || same_rank)) san += char('a' + file_of(m.from()));
            if (other && same_file) san += char('1' + rank_of(m.from()));
        }
        if (capture) san += 'x';
        san += char('a' + file_of(m.to()));
        san += char('1' + rank_of(m.to()));
        if (m.type() == MoveType::Promotion) san += std::string("=") + PIECE_LETTERS[m.promotion()];
    }
    Position after = pos;
    after.push_game_move(m);
    if (after.in_check()) san += MoveList(after).size() == 0 ? '#' : '+';
    return san;
}

} // namespace staccato
