// Attack tables against references written here, independently of the
// constexpr helpers in attacks.h that build the tables.
#include <catch2/catch.hpp>
#include <random>

#include "staccato/attacks.h"

using namespace staccato;

namespace {

Bitboard bb(std::initializer_list<Square> squares) {
    Bitboard b = 0;
    for (Square s : squares) b |= square_bb(s);
    return b;
}

// Walks each direction square by square until the edge or the first
// occupied square (which is included: it may be captured or defended).
Bitboard walk(Square s, Bitboard occupied, const int (*dirs)[2]) {
    Bitboard result = 0;
    for (int d = 0; d < 4; ++d) {
        int f = file_of(s), r = rank_of(s);
        for (;;) {
            f += dirs[d][0];
            r += dirs[d][1];
            if (f < 0 || f > 7 || r < 0 || r > 7) break;
            Square t = make_square(f, r);
            result |= square_bb(t);
            if (occupied & square_bb(t)) break;
        }
    }
    return result;
}

constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Relevant occupancy: the squares of each ray that have a further square
// behind them.
Bitboard ref_mask(Square s, const int (*dirs)[2]) {
    Bitboard result = 0;
    for (int d = 0; d < 4; ++d) {
        int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1];
        for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += dirs[d][0], r += dirs[d][1]) {
            int nf = f + dirs[d][0], nr = r + dirs[d][1];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) result |= square_bb(make_square(f, r));
        }
    }
    return result;
}

Bitboard ref_rook(Square s, Bitboard occ) { return walk(s, occ, ROOK_DIRS); }
Bitboard ref_bishop(Square s, Bitboard occ) { return walk(s, occ, BISHOP_DIRS); }

Bitboard ref_leaper(Square s, std::initializer_list<std::pair<int, int>> deltas) {
    Bitboard result = 0;
    for (auto [df, dr] : deltas) {
        int f = file_of(s) + df, r = rank_of(s) + dr;
        if (f >= 0 && f < 8 && r >= 0 && r < 8) result |= square_bb(make_square(f, r));
    }
    return result;
}

// Squares strictly between a and b when they share a rank, file or diagonal.
Bitboard ref_between(Square a, Square b) {
    int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
    if (a == b || !(df == 0 || dr == 0 || df == dr || df == -dr)) return 0;
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    Bitboard result = 0;
    for (int f = file_of(a) + sf, r = rank_of(a) + sr; make_square(f, r) != b; f += sf, r += sr)
        result |= square_bb(make_square(f, r));
    return result;
}

// The full edge-to-edge line through a and b, or 0.
Bitboard ref_line(Square a, Square b) {
    int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
    if (a == b || !(df == 0 || dr == 0 || df == dr || df == -dr)) return 0;
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    Bitboard result = square_bb(a);
    for (int sign : {1, -1})
        for (int f = file_of(a) + sign * sf, r = rank_of(a) + sign * sr; f >= 0 && f < 8 && r >= 0 && r < 8;
             f += sign * sf, r += sign * sr)
            result |= square_bb(make_square(f, r));
    return result;
}

} // namespace

TEST_CASE("reference walk sanity", "[attacks]") {
    // The reference itself, on hand-checked cases.
    REQUIRE(ref_rook(SQ_A1, 0) == ((FILE_A_BB | RANK_1_BB) & ~square_bb(SQ_A1)));
    REQUIRE(ref_rook(SQ_D4, bb({SQ_D6, SQ_B4})) ==
            bb({SQ_D5, SQ_D6, SQ_D3, SQ_D2, SQ_D1, SQ_C4, SQ_B4, SQ_E4, SQ_F4, SQ_G4, SQ_H4}));
    REQUIRE(ref_bishop(SQ_C1, bb({SQ_E3})) == bb({SQ_B2, SQ_A3, SQ_D2, SQ_E3}));
    REQUIRE(popcount(ref_bishop(SQ_D4, 0)) == 13);
    REQUIRE(popcount(ref_rook(SQ_H8, ~Bitboard(0))) == 2);
}

TEST_CASE("magic slider attacks equal a ray walk for every occupancy subset", "[attacks]") {
    // Every subset of each square's relevant-occupancy mask (all the table
    // entries), with random bits outside the mask added: they must not matter.
    std::mt19937_64 rng(20240601);
    int checked = 0;
    for (int sq = 0; sq < 64; ++sq) {
        Square s = Square(sq);
        for (const auto* magics : {&attacks::BISHOP_MAGICS, &attacks::ROOK_MAGICS}) {
            const bool rook = magics == &attacks::ROOK_MAGICS;
            const Bitboard mask = (*magics)[sq].mask;
            // The mask is the empty-board ray without the last square of each ray.
            REQUIRE(mask == ref_mask(s, rook ? ROOK_DIRS : BISHOP_DIRS));
            Bitboard sub = 0;
            int subsets = 0, bad = 0;
            do {
                Bitboard occ = sub | (rng() & ~mask);
                Bitboard want = rook ? ref_rook(s, occ) : ref_bishop(s, occ);
                Bitboard got = rook ? rook_attacks(s, occ) : bishop_attacks(s, occ);
                if (got != want) ++bad;
                ++subsets;
                sub = (sub - mask) & mask;
            } while (sub);
            INFO((rook ? "rook" : "bishop") << " on square " << sq);
            REQUIRE(bad == 0);
            REQUIRE(subsets == (1 << popcount(mask)));
            checked += subsets;
        }
    }
    REQUIRE(checked == 102400 + 5248); // the sizes of the two tables
}

TEST_CASE("magic slider attacks equal a ray walk for random occupancies", "[attacks]") {
    std::mt19937_64 rng(7);
    for (int sq = 0; sq < 64; ++sq) {
        Square s = Square(sq);
        int bad = 0;
        for (int i = 0; i < 1000; ++i) {
            // Dense, medium and sparse boards.
            Bitboard occ = i % 3 == 0 ? rng() | rng() : i % 3 == 1 ? rng() : rng() & rng() & rng();
            if (i & 1) occ |= square_bb(s); // the slider's own square must not matter either
            bad += bishop_attacks(s, occ) != ref_bishop(s, occ);
            bad += rook_attacks(s, occ) != ref_rook(s, occ);
            bad += queen_attacks(s, occ) != (ref_bishop(s, occ) | ref_rook(s, occ));
            bad += attacks_bb(ROOK, s, occ) != ref_rook(s, occ);
            bad += attacks_bb(BISHOP, s, occ) != ref_bishop(s, occ);
            bad += detail::slider_attacks_slow(ROOK, s, occ) != ref_rook(s, occ);
            bad += detail::slider_attacks_slow(BISHOP, s, occ) != ref_bishop(s, occ);
        }
        INFO("square " << sq);
        REQUIRE(bad == 0);
    }
    // Hand-checked: a rook on e4 among blockers.
    Bitboard occ = bb({SQ_E7, SQ_E2, SQ_B4, SQ_G4, SQ_A1});
    REQUIRE(rook_attacks(SQ_E4, occ) ==
            bb({SQ_E5, SQ_E6, SQ_E7, SQ_E3, SQ_E2, SQ_D4, SQ_C4, SQ_B4, SQ_F4, SQ_G4}));
    REQUIRE(bishop_attacks(SQ_A1, bb({SQ_C3})) == bb({SQ_B2, SQ_C3}));
}

TEST_CASE("the PEXT and the magic slider paths give the same attacks", "[attacks]") {
    // A PEXT build (BMI2, STACCATO_PEXT) checks its tables against a second,
    // magic-indexed set; a magic build checks its tables against themselves,
    // and the tests above against the ray walk. Every subset of every mask,
    // with random bits outside it, and random boards.
    INFO("this build's sliders: " << (attacks::USES_PEXT ? "PEXT" : "magic"));
    std::mt19937_64 rng(45);
    long compared = 0, bad = 0;
    for (int sq = 0; sq < 64; ++sq) {
        const Square s = Square(sq);
        for (PieceType pt : {BISHOP, ROOK}) {
            const Bitboard mask = (pt == ROOK ? attacks::ROOK_MAGICS : attacks::BISHOP_MAGICS)[sq].mask;
            Bitboard sub = 0;
            do {
                const Bitboard occ = sub | (rng() & ~mask);
                bad += attacks::magic_slider_attacks(pt, s, occ) != attacks_bb(pt, s, occ);
                ++compared;
                sub = (sub - mask) & mask;
            } while (sub);
            for (int i = 0; i < 200; ++i) {
                const Bitboard occ = i % 2 ? rng() : rng() & rng();
                bad += attacks::magic_slider_attacks(pt, s, occ) != attacks_bb(pt, s, occ);
                ++compared;
            }
        }
    }
    REQUIRE(bad == 0);
    REQUIRE(compared == 102400 + 5248 + 64 * 2 * 200);
}

TEST_CASE("leaper tables", "[attacks]") {
    for (int sq = 0; sq < 64; ++sq) {
        Square s = Square(sq);
        INFO("square " << sq);
        REQUIRE(knight_attacks(s) ==
                ref_leaper(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}));
        REQUIRE(king_attacks(s) ==
                ref_leaper(s, {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}));
        REQUIRE(pawn_attacks(WHITE, s) == ref_leaper(s, {{-1, 1}, {1, 1}}));
        REQUIRE(pawn_attacks(BLACK, s) == ref_leaper(s, {{-1, -1}, {1, -1}}));
        REQUIRE(attacks_bb(KNIGHT, s, ~Bitboard(0)) == knight_attacks(s));
        REQUIRE(attacks_bb(KING, s, ~Bitboard(0)) == king_attacks(s));
    }
    REQUIRE(knight_attacks(SQ_A1) == bb({SQ_B3, SQ_C2}));
    REQUIRE(knight_attacks(SQ_G7) == bb({SQ_E8, SQ_E6, SQ_F5, SQ_H5}));
    REQUIRE(popcount(knight_attacks(SQ_D4)) == 8);
    REQUIRE(king_attacks(SQ_H8) == bb({SQ_G8, SQ_G7, SQ_H7}));
    REQUIRE(popcount(king_attacks(SQ_E4)) == 8);
    REQUIRE(pawn_attacks(WHITE, SQ_E4) == bb({SQ_D5, SQ_F5}));
    REQUIRE(pawn_attacks(WHITE, SQ_H2) == bb({SQ_G3}));
    REQUIRE(pawn_attacks(BLACK, SQ_A5) == bb({SQ_B4}));
    REQUIRE(pawn_attacks(WHITE, SQ_C8) == 0);
    REQUIRE(pawn_attacks_bb<WHITE>(bb({SQ_A2, SQ_H2})) == bb({SQ_B3, SQ_G3}));
    REQUIRE(pawn_attacks_bb<BLACK>(bb({SQ_A7, SQ_H7})) == bb({SQ_B6, SQ_G6}));
}

TEST_CASE("between and line tables", "[attacks]") {
    // Hand examples.
    REQUIRE(between_bb(SQ_A1, SQ_D4) == bb({SQ_B2, SQ_C3}));
    REQUIRE(between_bb(SQ_D4, SQ_A1) == bb({SQ_B2, SQ_C3}));
    REQUIRE(between_bb(SQ_E1, SQ_E8) == bb({SQ_E2, SQ_E3, SQ_E4, SQ_E5, SQ_E6, SQ_E7}));
    REQUIRE(between_bb(SQ_H1, SQ_A8) == bb({SQ_G2, SQ_F3, SQ_E4, SQ_D5, SQ_C6, SQ_B7}));
    REQUIRE(between_bb(SQ_B1, SQ_G1) == bb({SQ_C1, SQ_D1, SQ_E1, SQ_F1}));
    REQUIRE(between_bb(SQ_A1, SQ_A2) == 0); // adjacent
    REQUIRE(between_bb(SQ_A1, SQ_B3) == 0); // not aligned
    REQUIRE(between_bb(SQ_C3, SQ_C3) == 0);
    REQUIRE(line_bb(SQ_A1, SQ_C3) == 0x8040201008040201ULL);
    REQUIRE(line_bb(SQ_E1, SQ_E5) == file_bb(4));
    REQUIRE(line_bb(SQ_B4, SQ_G4) == rank_bb(3));
    REQUIRE(line_bb(SQ_C1, SQ_D2) == bb({SQ_C1, SQ_D2, SQ_E3, SQ_F4, SQ_G5, SQ_H6}));
    REQUIRE(line_bb(SQ_H6, SQ_C1) == line_bb(SQ_C1, SQ_D2));
    REQUIRE(line_bb(SQ_A1, SQ_B3) == 0);
    REQUIRE(line_bb(SQ_D4, SQ_D4) == 0);
    REQUIRE(aligned(SQ_B2, SQ_G7, SQ_H8));
    REQUIRE(aligned(SQ_B2, SQ_G7, SQ_A1));
    REQUIRE(!aligned(SQ_B2, SQ_G7, SQ_H7));
    REQUIRE(!aligned(SQ_A1, SQ_B3, SQ_C5));

    // Every pair against the reference.
    int bad = 0;
    for (int a = 0; a < 64; ++a)
        for (int b = 0; b < 64; ++b) {
            bad += between_bb(Square(a), Square(b)) != ref_between(Square(a), Square(b));
            bad += line_bb(Square(a), Square(b)) != ref_line(Square(a), Square(b));
        }
    REQUIRE(bad == 0);
}

TEST_CASE("bitboard helpers", "[attacks]") {
    REQUIRE(shift<EAST>(FILE_H_BB) == 0);
    REQUIRE(shift<WEST>(FILE_A_BB) == 0);
    REQUIRE(shift<NORTH>(RANK_8_BB) == 0);
    REQUIRE(shift<NORTH_EAST>(bb({SQ_H4, SQ_D4})) == bb({SQ_E5}));
    REQUIRE(shift<SOUTH_WEST>(bb({SQ_A4, SQ_D4})) == bb({SQ_C3}));
    Bitboard b = bb({SQ_C2, SQ_F7, SQ_H8});
    REQUIRE(lsb(b) == SQ_C2);
    REQUIRE(msb(b) == SQ_H8);
    REQUIRE(pop_lsb(b) == SQ_C2);
    REQUIRE(b == bb({SQ_F7, SQ_H8}));
    REQUIRE(more_than_one(b));
    REQUIRE(!more_than_one(bb({SQ_F7})));
    REQUIRE(popcount(b) == 2);
}
