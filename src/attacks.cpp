#include "staccato/attacks.h"

#include <vector>

#include "staccato/random.h"

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

// The magics that a search found (with the xorshift64* generator the search
// used then), kept so that start-up only has to verify them (a few ms
// instead of ~150 ms of search). Any entry that fails verification is
// searched for again, with the shared generator and a fixed seed, so that
// start-up stays deterministic.
constexpr std::array<Bitboard, 64> BISHOP_FOUND = {
    0xC011012208034100ULL, 0x2188024092020000ULL, 0x0908520410200100ULL, 0x0008060440418024ULL,
    0x0004042000000000ULL, 0x1001040240000060ULL, 0x0004108A09200014ULL, 0xA004120821041000ULL,
    0x01000A0210040904ULL, 0x0800108400CC0040ULL, 0x006404280200400DULL, 0x0000208903020019ULL,
    0x09260C052008A000ULL, 0xC990084402201010ULL, 0x0040C20082219000ULL, 0x104200820110AA28ULL,
    0x8010006024210801ULL, 0x00844030010A0400ULL, 0x0008021000401022ULL, 0x1000880802044048ULL,
    0x0044002080E00A20ULL, 0x000080091000A000ULL, 0x100D000201012106ULL, 0x0004402111082104ULL,
    0x0420208810040100ULL, 0x000A18202008208AULL, 0x0224500460410040ULL, 0x0004004004010102ULL,
    0x2000404014010040ULL, 0x0408048000B00400ULL, 0x002081000A011048ULL, 0x0000802004840408ULL,
    0x1410107000455408ULL, 0x0080900800058802ULL, 0x0003104800100081ULL, 0x4008C00820020200ULL,
    0x0140010012010040ULL, 0x4114208200008811ULL, 0x00012105080A0820ULL, 0x9012089100002C11ULL,
    0x1204022010018400ULL, 0x0000461084005060ULL, 0x4006001A48028C02ULL, 0x0004002204208800ULL,
    0x0018012011000200ULL, 0x0020020042400204ULL, 0x0050814801008080ULL, 0x2018510A64800201ULL,
    0x0000841002108188ULL, 0x2400211402600008ULL, 0x000B088C48280082ULL, 0x4400600210440C00ULL,
    0x00000410020A2020ULL, 0x500108505000820AULL, 0x0053103010828000ULL, 0x0144080081020304ULL,
    0x2001402404024100ULL, 0x0000104042082140ULL, 0x0200A00045044100ULL, 0x0800244008420200ULL,
    0x4008000020052C00ULL, 0x0180002044018200ULL, 0x000208E004008216ULL, 0x0002100142040040ULL,
};
constexpr std::array<Bitboard, 64> ROOK_FOUND = {
    0x0080002040008010ULL, 0x0180104002802002ULL, 0x0200204200088010ULL, 0x0880100104800800ULL,
    0x0200200804100200ULL, 0x0200081004810200ULL, 0x0300010054008200ULL, 0x0200002400408102ULL,
    0x2025800220844001ULL, 0x0340400020005004ULL, 0x0204801000802000ULL, 0x4082001040240A00ULL,
    0x9A40800400080080ULL, 0x0404800400804200ULL, 0x0B15004100142200ULL, 0x0102001042010084ULL,
    0x0880084000200044ULL, 0x0420404010002000ULL, 0x0020420022008011ULL, 0x0002020010200844ULL,
    0x0008008008040080ULL, 0x4008808002000400ULL, 0x8000010100040200ULL, 0x4252020000508124ULL,
    0x2070400880078460ULL, 0x901002444001200CULL, 0x20A0004140100801ULL, 0x2000210100100008ULL,
    0x0180080080800400ULL, 0x4000040080020080ULL, 0x0401000900020024ULL, 0x8800A42200008041ULL,
    0x0080002000400040ULL, 0x0010002000404000ULL, 0x0820801000802002ULL, 0x000C080080801001ULL,
    0x0088008901000510ULL, 0x000E000802001004ULL, 0x0000010804001002ULL, 0x4800408306000044ULL,
    0x0000802040008000ULL, 0x0041008040010020ULL, 0x0820001000848020ULL, 0x0001002010010008ULL,
    0x000A040801010011ULL, 0x0200200440080110ULL, 0x0088020190440008ULL, 0x0000004400820001ULL,
    0x0090220080410200ULL, 0x4000400020008080ULL, 0x0022002080104200ULL, 0x0408120008402200ULL,
    0x0848040080980180ULL, 0x6001004400023900ULL, 0x8000100842010400ULL, 0x10808409A0530200ULL,
    0x0244104021020482ULL, 0x4008801040010021ULL, 0x0400200100081241ULL, 0x0001002104100009ULL,
    0x044100100428001BULL, 0xA002008104081002ULL, 0x1001000200188421ULL, 0x800C082104004092ULL,
};

// Relevant occupancy: the rays without their last square (an edge square
// never blocks anything behind it).
Bitboard relevant_mask(PieceType pt, Square s) {
    Bitboard edges =
        ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s))) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
    return detail::slider_attacks_slow(pt, s, 0) & ~edges;
}

// Fills magics[] and table[] for one slider type: PEXT indexes the table
// (Pext, only in a build with BMI2), or magic numbers do.
template <bool Pext>
void init_slider(PieceType pt, std::array<Magic, 64>& magics, Bitboard* table,
                 [[maybe_unused]] const std::array<Bitboard, 64>& found) {
    [[maybe_unused]] Rng rng{0x9E3779B97F4A7C15ULL + pt};
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

        if constexpr (Pext) {
            for (int i = 0; i < size; ++i) next_free[m.index(occupancy[i])] = reference[i];
        } else {
            // Try the stored magic first, then sparse random numbers, until
            // one maps the subsets without a destructive collision.
            bool tried_found = false;
            for (int i = 0; i < size;) {
                if (!tried_found) {
                    m.magic = found[sq];
                    tried_found = true;
                } else {
                    do m.magic = rng.sparse();
                    while (popcount((m.mask * m.magic) >> 56) < 6);
                }
                ++attempt;
                for (i = 0; i < size; ++i) {
                    unsigned idx = m.magic_index(occupancy[i]);
                    if (epoch[idx] < attempt) {
                        epoch[idx] = attempt;
                        next_free[idx] = reference[i];
                    } else if (next_free[idx] != reference[i]) {
                        break;
                    }
                }
            }
        }
        next_free += size;
    }
}

} // namespace

void init() {
    static bool done = false;
    if (done) return;
    done = true;
    init_slider<USES_PEXT>(BISHOP, BISHOP_MAGICS, bishop_table.data(), BISHOP_FOUND);
    init_slider<USES_PEXT>(ROOK, ROOK_MAGICS, rook_table.data(), ROOK_FOUND);
}

Bitboard magic_slider_attacks(PieceType pt, Square s, Bitboard occupied) {
    if constexpr (!USES_PEXT) {
        return pt == ROOK ? rook_attacks(s, occupied) : bishop_attacks(s, occupied);
    } else {
        static const struct MagicTables {
            std::array<Magic, 64> bishop, rook;
            std::vector<Bitboard> bishop_table = std::vector<Bitboard>(5248),
                                  rook_table = std::vector<Bitboard>(102400);
            MagicTables() {
                init_slider<false>(BISHOP, bishop, bishop_table.data(), BISHOP_FOUND);
                init_slider<false>(ROOK, rook, rook_table.data(), ROOK_FOUND);
            }
        } tables;
        const Magic& m = (pt == ROOK ? tables.rook : tables.bishop)[s];
        return m.table[m.magic_index(occupied)];
    }
}

namespace {
// Runs init() during static initialisation, before main() and the tests.
const struct Initializer {
    Initializer() { init(); }
} initializer;
} // namespace

} // namespace attacks
} // namespace staccato
