#include <catch2/catch.hpp>
#include <random>

#include "staccato/attacks.h"

using namespace staccato;

TEST_CASE("magic slider attacks equal a ray walk", "[attacks]") {
    std::mt19937_64 rng(7);
    for (int s = 0; s < 64; ++s) {
        for (int i = 0; i < 300; ++i) {
            Bitboard occ = rng() & rng();
            REQUIRE(bishop_attacks(Square(s), occ) == detail::slider_attacks_slow(BISHOP, Square(s), occ));
            REQUIRE(rook_attacks(Square(s), occ) == detail::slider_attacks_slow(ROOK, Square(s), occ));
        }
    }
}

TEST_CASE("leaper tables", "[attacks]") {
    REQUIRE(popcount(knight_attacks(SQ_A1)) == 2);
    REQUIRE(knight_attacks(SQ_A1) == (square_bb(SQ_B3) | square_bb(SQ_C2)));
    REQUIRE(popcount(knight_attacks(SQ_D4)) == 8);
    REQUIRE(popcount(king_attacks(SQ_H8)) == 3);
    REQUIRE(pawn_attacks(WHITE, SQ_E4) == (square_bb(SQ_D5) | square_bb(SQ_F5)));
    REQUIRE(pawn_attacks(BLACK, SQ_A5) == square_bb(SQ_B4));
}

TEST_CASE("between and line tables", "[attacks]") {
    REQUIRE(between_bb(SQ_A1, SQ_D4) == (square_bb(SQ_B2) | square_bb(SQ_C3)));
    REQUIRE(between_bb(SQ_A1, SQ_A2) == 0);
    REQUIRE(between_bb(SQ_A1, SQ_B3) == 0);
    REQUIRE(line_bb(SQ_A1, SQ_C3) == 0x8040201008040201ULL);
    REQUIRE(line_bb(SQ_E1, SQ_E5) == file_bb(4));
    REQUIRE(line_bb(SQ_A1, SQ_B3) == 0);
    REQUIRE(aligned(SQ_B2, SQ_G7, SQ_H8));
    REQUIRE(!aligned(SQ_B2, SQ_G7, SQ_H7));
}
