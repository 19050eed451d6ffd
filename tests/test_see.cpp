// SEE against hand-worked exchanges: for each case the exact exchange value v
// is worked out in the comment, and see_ge must hold at v and fail at v + 1.
#include <catch2/catch.hpp>
#include <string>

#include "staccato/movegen.h"
#include "staccato/see.h"
#include "suite.h"

using namespace staccato;

namespace {
struct SeeCase {
    const char* fen;
    const char* move;
    int value;
};

// P=100 N=320 B=330 R=500 Q=950 K=20000
constexpr SeeCase CASES[] = {
    {"4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320},      // PxN, undefended
    {"4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 220},    // PxN +320, pxP -100
    {"4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", -220},   // NxP +100, pxN -320
    {"4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100},       // RxP, undefended
    {"3rk3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 0},        // RxR, rxR
    {"3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},    // RxP, rxR, RxR (x-ray)
    {"4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -850},    // QxP +100, pxQ -950
    {"4k3/8/2p5/3n4/8/1B6/Q7/4K3 w - - 0 1", "b3d5", 90},    // BxN, pxB, QxP (queen behind bishop)
    {"4k3/8/2p5/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5", 850},    // PxQ +950, pxP -100
    {"4k3/5b2/8/3r4/8/4N3/8/4K3 w - - 0 1", "e3d5", 180},    // NxR +500, bxN -320
    {"4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", 100},        // KxP, undefended
    {"8/8/8/3pk3/8/8/8/3QK3 w - - 0 1", "d1d5", -850},       // QxP, KxQ
    {"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 850},        // promotion: +950 -100
    {"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", -100},     // promotes, rxQ: +850 -950
    {"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", 1350},     // PxR=Q: +500 +850
    {"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", 720},      // PxR=N: +500 +220
    {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},      // en passant
    {"4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0},      // en passant, pxP
    {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a5", 0},           // quiet move, safe
    {"4k3/8/1p6/8/8/8/8/R3K3 w - - 0 1", "a1a5", -500},      // quiet move into a pawn
    {"4k3/8/8/8/4p3/8/8/4K1N1 w - - 0 1", "g1f3", -320},     // Nf3, exf3
    {"4k3/8/8/8/4p3/8/6P1/4K1N1 w - - 0 1", "g1f3", -220},   // Nf3, exf3, gxf3
    {"3qk3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", -400},     // RxP, qxR
    {"3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", -400}, // doubled rooks on both sides
    {"4k3/8/1n6/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", -80},   // RxP, nxR, QxN
    {"8/8/8/3pk3/8/8/8/3RK3 w - - 0 1", "d1d5", -400},       // RxP, KxR
    {"8/8/8/3pk3/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},      // RxP, king can't retake (x-ray rook)
    {"4k3/8/2p5/3p4/8/5B2/8/4K3 w - - 0 1", "f3d5", -230},   // BxP, pxB
    {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0},           // castling
    {"4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0},      // NxN, pxN
    {"4k3/8/8/4b3/8/2r5/8/Q3K3 w - - 0 1", "a1c3", -450},    // QxR, bxQ
    {"4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5", 950},       // RxQ, undefended
    {"4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1", "d5e4", 100},      // black: pxP
};
} // namespace

TEST_CASE("see_ge on hand-worked exchanges", "[see]") {
    for (const SeeCase& c : CASES) {
        Position pos;
        REQUIRE(!pos.set_fen(c.fen).error);
        auto m = pos.parse_uci_move(c.move);
        INFO(c.fen << " " << c.move << " expected " << c.value);
        REQUIRE(m);
        CHECK(see_ge(pos, *m, c.value));
        CHECK(!see_ge(pos, *m, c.value + 1));
    }
}

TEST_CASE("see_ge is monotone in the threshold over the perft suite", "[see]") {
    for (const std::string& line : test::data_lines("perft/standard.epd")) {
        Position pos;
        REQUIRE(!pos.set_fen(line.substr(0, line.find(" ;"))).error);
        for (const ScoredMove& sm : MoveList(pos)) {
            if (!pos.is_capture_or_promotion(sm.move)) continue;
            // Binary search for the exact value, then check around it.
            int lo = -21000, hi = 22000;
            while (lo < hi) {
                int mid = lo + (hi - lo + 1) / 2;
                if (see_ge(pos, sm.move, mid))
                    lo = mid;
                else
                    hi = mid - 1;
            }
            REQUIRE(lo > -20000 - 1000);
            REQUIRE(lo <= 20000 + 950);
            for (int t : {-1000, -300, -1, 0, 1, 300}) REQUIRE(see_ge(pos, sm.move, lo + t) == (t <= 0));
        }
    }
}
