// Pre-computed attack tables: the "pre-processed move database" done with
// bitboards. Leapers and the between/line tables are built at compile time;
// slider tables (magic bitboards, or PEXT when the build has BMI2) are filled
// once at start-up by attacks::init(), which runs before main().
#pragma once

#include <array>

#include "staccato/bitboard.h"

// PEXT indexes the slider tables when the build has BMI2, unless the build
// defines STACCATO_NO_PEXT: AMD CPUs before Zen 3 run PEXT in microcode, many
// times slower than a magic multiply (CMakeLists.txt, STACCATO_PEXT).
#if defined(__BMI2__) && !defined(STACCATO_NO_PEXT)
#include <immintrin.h>
#define STACCATO_USE_PEXT 1
#endif

namespace staccato {

namespace detail {

// Walks from s in (df, dr) steps until the edge or an occupied square (included).
constexpr Bitboard ray_attacks(Square s, int df, int dr, Bitboard occupied) {
    Bitboard result = 0;
    int f = file_of(s) + df, r = rank_of(s) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
        Bitboard b = square_bb(make_square(f, r));
        result |= b;
        if (occupied & b) break;
        f += df;
        r += dr;
    }
    return result;
}

constexpr Bitboard slider_attacks_slow(PieceType pt, Square s, Bitboard occupied) {
    constexpr int dirs[2][4][2] = {{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
    Bitboard result = 0;
    for (const auto& d : dirs[pt == ROOK ? 1 : 0]) result |= ray_attacks(s, d[0], d[1], occupied);
    return result;
}

constexpr Bitboard leaper_attacks(Square s, const int (&deltas)[8][2]) {
    Bitboard result = 0;
    for (const auto& d : deltas) {
        int f = file_of(s) + d[0], r = rank_of(s) + d[1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) result |= square_bb(make_square(f, r));
    }
    return result;
}

constexpr int KNIGHT_DELTAS[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int KING_DELTAS[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

constexpr auto make_leaper_table(const int (&deltas)[8][2]) {
    std::array<Bitboard, 64> t{};
    for (int s = 0; s < 64; ++s) t[s] = leaper_attacks(Square(s), deltas);
    return t;
}

constexpr auto make_pawn_table() {
    std::array<std::array<Bitboard, 64>, 2> t{};
    for (int s = 0; s < 64; ++s) {
        t[WHITE][s] = pawn_attacks_bb<WHITE>(square_bb(Square(s)));
        t[BLACK][s] = pawn_attacks_bb<BLACK>(square_bb(Square(s)));
    }
    return t;
}

// between[a][b]: squares strictly between a and b on a shared line (else 0).
// line[a][b]: the whole line through a and b, edge to edge (else 0).
struct LineTables {
    std::array<std::array<Bitboard, 64>, 64> between{};
    std::array<std::array<Bitboard, 64>, 64> line{};
};

constexpr LineTables make_line_tables() {
    LineTables t{};
    for (int a = 0; a < 64; ++a) {
        for (PieceType pt : {BISHOP, ROOK}) {
            Bitboard empty_att = slider_attacks_slow(pt, Square(a), 0);
            for (int b = 0; b < 64; ++b) {
                if (!(empty_att & square_bb(Square(b)))) continue;
                t.line[a][b] = (empty_att & slider_attacks_slow(pt, Square(b), 0)) | square_bb(Square(a)) |
                               square_bb(Square(b));
                t.between[a][b] = slider_attacks_slow(pt, Square(a), square_bb(Square(b))) &
                                  slider_attacks_slow(pt, Square(b), square_bb(Square(a)));
            }
        }
    }
    return t;
}

} // namespace detail

namespace attacks {

inline constexpr auto KNIGHT = detail::make_leaper_table(detail::KNIGHT_DELTAS);
inline constexpr auto KING = detail::make_leaper_table(detail::KING_DELTAS);
inline constexpr auto PAWN = detail::make_pawn_table();
extern const detail::LineTables LINES;

// One magic entry per square and slider type.
struct Magic {
    Bitboard mask = 0;
    Bitboard magic = 0;
    const Bitboard* table = nullptr;
    unsigned shift = 0;

    unsigned magic_index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
    // The index the engine's tables use.
    unsigned index(Bitboard occupied) const {
#ifdef STACCATO_USE_PEXT
        return unsigned(_pext_u64(occupied, mask));
#else
        return magic_index(occupied);
#endif
    }
};

// Whether the engine's slider lookups use PEXT (else magic multiplication).
#ifdef STACCATO_USE_PEXT
inline constexpr bool USES_PEXT = true;
#else
inline constexpr bool USES_PEXT = false;
#endif

extern std::array<Magic, 64> BISHOP_MAGICS;
extern std::array<Magic, 64> ROOK_MAGICS;

// A bishop's or rook's attacks by magic multiplication whatever the build
// uses: a PEXT build fills a second, magic-indexed set of tables on the first
// call (for the test that both slider paths agree); a magic build looks up
// its own tables.
Bitboard magic_slider_attacks(PieceType pt, Square s, Bitboard occupied);

// Fills the slider tables. Idempotent; called automatically at start-up.
void init();

} // namespace attacks

inline Bitboard pawn_attacks(Color c, Square s) { return attacks::PAWN[c][s]; }
inline Bitboard knight_attacks(Square s) { return attacks::KNIGHT[s]; }
inline Bitboard king_attacks(Square s) { return attacks::KING[s]; }

inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    const attacks::Magic& m = attacks::BISHOP_MAGICS[s];
    return m.table[m.index(occupied)];
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    const attacks::Magic& m = attacks::ROOK_MAGICS[s];
    return m.table[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}

// Attacks of a non-pawn piece type from s.
inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
    case KNIGHT: return knight_attacks(s);
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return king_attacks(s);
    default: return 0;
    }
}

inline Bitboard between_bb(Square a, Square b) { return attacks::LINES.between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return attacks::LINES.line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

} // namespace staccato
