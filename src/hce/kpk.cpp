#include "staccato/hce/kpk.h"

#include <cstdint>
#include <mutex>
#include <vector>

#include "staccato/attacks.h"
#include "staccato/bitboard.h"

namespace staccato::kpk {

namespace {

// Positions are normalised to White having the pawn, on files a-d (the board
// is mirrored left-right otherwise). Index: side to move, black king, white
// king, pawn (24 squares: files a-d, ranks 2-7).
constexpr int PAWN_SQUARES = 24;
constexpr int SIZE = 2 * 64 * 64 * PAWN_SQUARES;

enum Result : std::uint8_t { INVALID, UNKNOWN, DRAW, WIN };

int index(Color stm, Square bk, Square wk, Square wp) {
    int p = (rank_of(wp) - 1) * 4 + file_of(wp);
    return int(stm) + 2 * (int(bk) + 64 * (int(wk) + 64 * p));
}

std::vector<std::uint8_t> table;
std::once_flag built;

// The outcome of a position before any search: invalid, decided at once, or
// unknown.
Result initial(Color stm, Square bk, Square wk, Square wp) {
    if (wk == bk || wk == wp || bk == wp || distance(wk, bk) <= 1) return INVALID;
    if (stm == WHITE && (pawn_attacks(WHITE, wp) & square_bb(bk)))
        return INVALID; // Black in check, White to move
    if (stm == WHITE && rank_of(wp) == 6) {
        Square q = wp + NORTH;
        // Promotes safely: the new queen is not taken at once.
        if (q != wk && q != bk && (distance(bk, q) > 1 || distance(wk, q) == 1)) return WIN;
    }
    if (stm == BLACK) {
        Bitboard guarded = king_attacks(wk) | pawn_attacks(WHITE, wp);
        Bitboard moves = king_attacks(bk) & ~guarded;
        if (!moves)
            return DRAW; // stalemate (a pawn check with no escape cannot arise: that is mate, impossible in
                         // KPK)
        if ((moves & square_bb(wp))) return DRAW; // the pawn falls
    }
    return UNKNOWN;
}

Result successor_outcome(Color stm, Square bk, Square wk, Square wp) {
    if (stm == WHITE) {
        // White moves: each move leads to a Black-to-move position.
        bool all_draw = true;
        Bitboard kmoves = king_attacks(wk) & ~king_attacks(bk) & ~square_bb(wp);
        while (kmoves) {
            Result r = Result(table[index(BLACK, bk, pop_lsb(kmoves), wp)]);
            if (r == WIN) return WIN;
            if (r != DRAW) all_draw = false;
        }
        if (rank_of(wp) < 6) {
            Square one = wp + NORTH;
            if (one != wk && one != bk) {
                Result r = Result(table[index(BLACK, bk, wk, one)]);
                if (r == WIN) return WIN;
                if (r != DRAW) all_draw = false;
                Square two = one + NORTH;
                if (rank_of(wp) == 1 && two != wk && two != bk) {
                    r = Result(table[index(BLACK, bk, wk, two)]);
                    if (r == WIN) return WIN;
                    if (r != DRAW) all_draw = false;
                }
            }
        }
        // A promotion that is not safe (handled in initial()) loses the queen: a draw.
        return all_draw ? DRAW : UNKNOWN;
    }
    bool all_win = true;
    Bitboard kmoves = king_attacks(bk) & ~king_attacks(wk) & ~pawn_attacks(WHITE, wp) & ~square_bb(wp);
    while (kmoves) {
        Result r = Result(table[index(WHITE, pop_lsb(kmoves), wk, wp)]);
        if (r == DRAW) return DRAW;
        if (r != WIN) all_win = false;
    }
    return all_win ? WIN : UNKNOWN;
}

void build() {
    table.assign(SIZE, INVALID);
    for (int p = 0; p < PAWN_SQUARES; ++p) {
        Square wp = make_square(p % 4, p / 4 + 1);
        for (int wk = 0; wk < 64; ++wk)
            for (int bk = 0; bk < 64; ++bk)
                for (Color stm : {WHITE, BLACK})
                    table[index(stm, Square(bk), Square(wk), wp)] = initial(stm, Square(bk), Square(wk), wp);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int p = 0; p < PAWN_SQUARES; ++p) {
            Square wp = make_square(p % 4, p / 4 + 1);
            for (int wk = 0; wk < 64; ++wk)
                for (int bk = 0; bk < 64; ++bk)
                    for (Color stm : {WHITE, BLACK}) {
                        std::uint8_t& r = table[index(stm, Square(bk), Square(wk), wp)];
                        if (r != UNKNOWN) continue;
                        Result s = successor_outcome(stm, Square(bk), Square(wk), wp);
                        if (s != UNKNOWN) r = s, changed = true;
                    }
        }
    }
    for (std::uint8_t& r : table)
        if (r == UNKNOWN) r = DRAW; // no forced win found: the weaker side holds
}

} // namespace

void init() { std::call_once(built, build); }

bool probe(Color strong, Square strong_king, Square strong_pawn, Square weak_king, Color stm) {
    init();
    Square wk = strong_king, wp = strong_pawn, bk = weak_king;
    if (strong == BLACK) { // flip the board vertically and swap the colours
        wk = flip_rank(wk), wp = flip_rank(wp), bk = flip_rank(bk);
        stm = ~stm;
    }
    if (file_of(wp) > 3) wk = flip_file(wk), wp = flip_file(wp), bk = flip_file(bk);
    return table[index(stm, bk, wk, wp)] == WIN;
}

} // namespace staccato::kpk
