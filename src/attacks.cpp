#include "staccato/attacks.h"

#include <vector>

namespace staccato {

std::string bitboard_to_string(Bitboard b) {
    std::string s;
    for (int r = 7; r >= 0; --r) {
        for (int f = 0; f < 8; ++f) s += (b & square_bb(make_square(f, r))) ? "X " : ". ";
        s += '\n';
    }
    return s;
}

namespace attacks {

constinit const detail::LineTables LINES = detail::make_line_tables();

std::array<Magic, 64> BISHOP_MAGICS;
std::array<Magic, 64> ROOK_MAGICS;

namespace {

// Fixed-size storage for every slider lookup: 4096 rook entries per square
// at most, 512 bishop entries.
std::array<Bitboard, 102400> rook_table;
std::array<Bitboard, 5248> bishop_table;

// xorshift64* generator; magics are searched with a fixed seed so start-up is
// deterministic.
struct Prng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    std::uint64_t sparse() { return next() & next() & next(); }
};

// Relevant occupancy: the rays without their last square (an edge square
// never blocks anything behind it).
Bitboard relevant_mask(PieceType pt, Square s) {
    Bitboard edges =
        ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s))) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
    return detail::slider_attacks_slow(pt, s, 0) & ~edges;
}

void init_slider(PieceType pt, std::array<Magic, 64>& magics, Bitboard* table) {
    [[maybe_unused]] Prng rng{0x9E3779B97F4A7C15ULL + pt};
    std::vector<Bitboard> occupancy(4096), reference(4096);
    std::vector<int> epoch(4096, 0);
    [[maybe_unused]] int attempt = 0;
    Bitboard* next_free = table;

    for (int sq = 0; sq < 64; ++sq) {
        Square s = Square(sq);
        Magic& m = magics[sq];
        m.mask = relevant_mask(pt, s);
        m.shift = unsigned(64 - popcount(m.mask));
        m.table = next_free;

        // Enumerate every subset of the mask (Carry-Rippler trick).
        int size = 0;
        Bitboard b = 0;
        do {
            occupancy[size] = b;
            reference[size] = detail::slider_attacks_slow(pt, s, b);
            ++size;
            b = (b - m.mask) & m.mask;
        } while (b);

#ifdef STACCATO_USE_PEXT
        for (int i = 0; i < size; ++i) next_free[m.index(occupancy[i])] = reference[i];
#else
        // Try sparse random numbers until one maps the subsets without a
        // destructive collision.
        for (int i = 0; i < size;) {
            do m.magic = rng.sparse();
            while (popcount((m.mask * m.magic) >> 56) < 6);
            ++attempt;
            for (i = 0; i < size; ++i) {
                unsigned idx = m.index(occupancy[i]);
                if (epoch[idx] < attempt) {
                    epoch[idx] = attempt;
                    next_free[idx] = reference[i];
                } else if (next_free[idx] != reference[i]) {
                    break;
                }
            }
        }
#endif
        next_free += size;
    }
}

} // namespace

void init() {
    static bool done = false;
    if (done) return;
    done = true;
    init_slider(BISHOP, BISHOP_MAGICS, bishop_table.data());
    init_slider(ROOK, ROOK_MAGICS, rook_table.data());
}

namespace {
// Runs init() during static initialisation, before main() and the tests.
const struct Initializer {
    Initializer() { init(); }
} initializer;
} // namespace

} // namespace attacks
} // namespace staccato
