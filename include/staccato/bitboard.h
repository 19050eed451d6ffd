// Bitboard primitives: one bit per square, a1 = bit 0.
#pragma once

#include <bit>
#include <string>

#include "staccato/types.h"

namespace staccato {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_2_BB = RANK_1_BB << 8;
constexpr Bitboard RANK_3_BB = RANK_1_BB << 16;
constexpr Bitboard RANK_6_BB = RANK_1_BB << 40;
constexpr Bitboard RANK_7_BB = RANK_1_BB << 48;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(int file) { return FILE_A_BB << file; }
constexpr Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
constexpr Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

// Removes and returns the lowest set square.
constexpr Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}

// Compass directions as square deltas.
enum Direction : int {
    NORTH = 8,
    SOUTH = -8,
    EAST = 1,
    WEST = -1,
    NORTH_EAST = 9,
    NORTH_WEST = 7,
    SOUTH_EAST = -7,
    SOUTH_WEST = -9
};

constexpr Square operator+(Square s, Direction d) { return Square(int(s) + int(d)); }
constexpr Square operator-(Square s, Direction d) { return Square(int(s) - int(d)); }

// Shifts every bit one step in direction D, dropping bits that leave the board.
template <Direction D> constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == NORTH)
        return b << 8;
    else if constexpr (D == SOUTH)
        return b >> 8;
    else if constexpr (D == EAST)
        return (b & ~FILE_H_BB) << 1;
    else if constexpr (D == WEST)
        return (b & ~FILE_A_BB) >> 1;
    else if constexpr (D == NORTH_EAST)
        return (b & ~FILE_H_BB) << 9;
    else if constexpr (D == NORTH_WEST)
        return (b & ~FILE_A_BB) << 7;
    else if constexpr (D == SOUTH_EAST)
        return (b & ~FILE_H_BB) >> 7;
    else
        return (b & ~FILE_A_BB) >> 9;
}

// Squares attacked by all pawns of colour C in b.
template <Color C> constexpr Bitboard pawn_attacks_bb(Bitboard b) {
    if constexpr (C == WHITE)
        return shift<NORTH_WEST>(b) | shift<NORTH_EAST>(b);
    else
        return shift<SOUTH_WEST>(b) | shift<SOUTH_EAST>(b);
}

// An 8x8 picture of the bitboard, for debugging.
std::string bitboard_to_string(Bitboard b);

} // namespace staccato
