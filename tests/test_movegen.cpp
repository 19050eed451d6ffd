// Move generation by category against itself, against is_legal and
// is_pseudo_legal, against make_move (an independent legality oracle) and
// against count_legal_moves, on every position of both perft suites, a few
// hand-picked positions and positions along random games.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "staccato/movegen.h"
#include "suite.h"

using namespace staccato;
using staccato::test::from_fen;
using staccato::test::suite_fens;

namespace {

using MoveSet = std::set<std::uint16_t>;

// The moves of one category; a duplicate fails the test.
template <GenType T> MoveSet gen(const Position& pos) {
    std::array<ScoredMove, MAX_MOVES> buf;
    ScoredMove* end = generate<T>(pos, buf.data());
    REQUIRE(end - buf.data() <= MAX_MOVES);
    MoveSet s;
    for (ScoredMove* m = buf.data(); m != end; ++m) {
        INFO("duplicate move " << pos.move_to_uci(m->move));
        REQUIRE(s.insert(m->move.raw()).second);
    }
    return s;
}

MoveSet legal_set(const Position& pos) {
    MoveSet s;
    for (const ScoredMove& sm : MoveList(pos)) s.insert(sm.move.raw());
    return s;
}

bool is_queen_promotion(Move m) { return m.type() == MoveType::Promotion && m.promotion() == QUEEN; }

// Legality decided by playing the move: our king must not be attacked
// afterwards. Castling also needs the king's path to be safe, which the
// position after the move cannot show; for it only "legal => safe" is checked.
bool king_safe_after(Position& pos, Move m) {
    const Color us = pos.side_to_move();
    pos.make_move(m);
    const bool safe = !(pos.attackers_to(pos.king_square(us)) & pos.pieces(~us));
    pos.unmake_move(m);
    return safe;
}

// Every property of one position. Returns whether it was in check.
bool check_position(Position& pos) {
    INFO(pos.fen());
    const MoveSet legal = legal_set(pos);
    MoveSet pseudo;
    if (pos.in_check()) {
        pseudo = gen<GenType::Evasions>(pos);
        // Evasions: a superset of the legal moves, and a subset of what the
        // unrestricted generator gives.
        REQUIRE(std::includes(pseudo.begin(), pseudo.end(), legal.begin(), legal.end()));
        const MoveSet all = gen<GenType::NonEvasions>(pos);
        REQUIRE(std::includes(all.begin(), all.end(), pseudo.begin(), pseudo.end()));
        for (auto raw : pseudo) REQUIRE(Move(raw).type() != MoveType::Castling);
    } else {
        const MoveSet caps = gen<GenType::Captures>(pos);
        const MoveSet quiets = gen<GenType::Quiets>(pos);
        MoveSet both;
        std::set_intersection(caps.begin(), caps.end(), quiets.begin(), quiets.end(),
                              std::inserter(both, both.begin()));
        REQUIRE(both.empty()); // the categories are disjoint
        for (auto raw : caps) {
            // Captures: captures (en passant included) and queen promotions.
            Move m(raw);
            INFO(pos.move_to_uci(m));
            REQUIRE((is_queen_promotion(m) || (pos.is_capture(m) && m.type() != MoveType::Promotion)));
        }
        for (auto raw : quiets) {
            // Quiets: non-captures and every under-promotion.
            Move m(raw);
            INFO(pos.move_to_uci(m));
            REQUIRE(!is_queen_promotion(m));
            REQUIRE((m.type() == MoveType::Promotion || !pos.is_capture(m)));
        }
        pseudo = caps;
        pseudo.insert(quiets.begin(), quiets.end());
        REQUIRE(pseudo == gen<GenType::NonEvasions>(pos));
    }

    MoveSet filtered;
    for (auto raw : pseudo) {
        const Move m(raw);
        INFO(pos.move_to_uci(m));
        REQUIRE(pos.is_pseudo_legal(m)); // every generated move passes the check
        const bool legal_move = pos.is_legal(m);
        if (m.type() != MoveType::Castling)
            REQUIRE(legal_move == king_safe_after(pos, m));
        else if (legal_move)
            REQUIRE(king_safe_after(pos, m));
        if (legal_move) filtered.insert(raw);
    }
    REQUIRE(filtered == legal);
    REQUIRE(count_legal_moves(pos) == int(legal.size()));
    return pos.in_check();
}

// Positions that exercise evasions, en passant and castling corner cases.
const char* const SPECIAL[] = {
    // Double check (rook and knight; rook and bishop): only king moves.
    "4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1",
    "4k3/8/8/8/1b6/8/8/r3K3 w - - 0 1",
    // En passant captures the checking pawn.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // En passant would expose the king along the rank, or along a diagonal.
    "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    "8/k7/8/8/3Pp3/8/8/4K1B1 b - d3 0 1",
    // A check elsewhere: en passant does not help.
    "4k3/8/8/3pP3/8/8/8/r3K3 w - d6 0 1",
    // En passant blocks a rook check (set-up position: no legal game
    // reaches it, but set_fen accepts it).
    "4k3/8/r6K/3pP3/8/8/8/8 w - d6 0 1",
    // Promotion out of check by capture and by block.
    "r3k3/1P6/8/8/8/8/8/K7 w - - 0 1",
    "1r2k3/P7/8/8/8/8/8/1K6 w - - 0 1",
    "r6K/2P5/8/8/8/8/8/k7 w - - 0 1",
    // Castling: free, through an attacked square, next to an attacked
    // square (b1 may be attacked), out of check.
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1",
    "4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1",
    "4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1",
    "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
    // Chess960: the castling rook hides an attack on the king's target,
    // king already on its target, a long king walk through an attack.
    "4k3/8/8/8/8/8/8/rR2K3 w B - 0 1",
    "1r2k3/8/8/8/8/8/8/R1K5 w A - 0 1",
    "r3k3/8/8/8/8/8/8/RK6 w A - 0 1",
    "4k3/8/8/8/8/3r4/8/5RK1 w F - 0 1",
    "4k3/8/8/8/8/8/8/5RK1 w F - 0 1",
    // Pinned pawns and pieces.
    "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
    "4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/2b5/r2NK3 w - - 0 1",
    // The most moves known (218).
    "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
};

} // namespace

TEST_CASE("categories, legality and bulk count agree on both perft suites", "[movegen]") {
    int positions = 0, in_check = 0;
    for (const std::string& fen : suite_fens()) {
        Position pos = from_fen(fen);
        in_check += check_position(pos);
        ++positions;
    }
    REQUIRE(positions == 128 + 960);
    REQUIRE(in_check > 0);
}

TEST_CASE("categories, legality and bulk count agree on special positions", "[movegen]") {
    int in_check = 0;
    for (const char* fen : SPECIAL) {
        Position pos = from_fen(fen);
        in_check += check_position(pos);
    }
    REQUIRE(in_check >= 9);
    // Some exact answers.
    auto legal = [](const char* fen) { return MoveList(from_fen(fen)); };
    REQUIRE(legal("4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1").size() == 3); // Kd1, Kd2, Kf1
    REQUIRE(legal("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1").contains(Move(SQ_E4, SQ_D3, MoveType::EnPassant)));
    REQUIRE(!legal("8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1").contains(Move(SQ_E4, SQ_D3, MoveType::EnPassant)));
    REQUIRE(!legal("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").contains(Move(SQ_E5, SQ_D6, MoveType::EnPassant)));
    REQUIRE(!legal("8/k7/8/8/3Pp3/8/8/4K1B1 b - d3 0 1").contains(Move(SQ_E4, SQ_D3, MoveType::EnPassant)));
    REQUIRE(legal("4k3/8/r6K/3pP3/8/8/8/8 w - d6 0 1").size() == 6); // K to g7 h7 g5 h5, e6, exd6
    REQUIRE(legal("4k3/8/r6K/3pP3/8/8/8/8 w - d6 0 1").contains(Move(SQ_E5, SQ_D6, MoveType::EnPassant)));
    REQUIRE(legal("4k3/8/8/3pP3/8/8/8/r3K3 w - d6 0 1").size() == 3);
    REQUIRE(legal("r6K/2P5/8/8/8/8/8/k7 w - - 0 1").contains(Move(SQ_C7, SQ_C8, MoveType::Promotion, ROOK)));
    REQUIRE(!legal("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1").contains(Move(SQ_E1, SQ_H1, MoveType::Castling)));
    REQUIRE(legal("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1").contains(Move(SQ_E1, SQ_A1, MoveType::Castling)));
    REQUIRE(legal("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1").contains(Move(SQ_E1, SQ_A1, MoveType::Castling)));
    REQUIRE(!legal("4k3/8/8/8/8/8/8/rR2K3 w B - 0 1").contains(Move(SQ_E1, SQ_B1, MoveType::Castling)));
    REQUIRE(legal("1r2k3/8/8/8/8/8/8/R1K5 w A - 0 1").contains(Move(SQ_C1, SQ_A1, MoveType::Castling)));
    REQUIRE(!legal("4k3/8/8/8/8/3r4/8/5RK1 w F - 0 1").contains(Move(SQ_G1, SQ_F1, MoveType::Castling)));
    REQUIRE(legal("4k3/8/8/8/8/8/8/5RK1 w F - 0 1").contains(Move(SQ_G1, SQ_F1, MoveType::Castling)));
    REQUIRE(legal("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").size() == 218);
}

TEST_CASE("categories and counts agree along random games", "[movegen]") {
    std::mt19937_64 rng(5);
    int positions = 0, in_check = 0;
    auto play = [&](const std::string& fen, int games, int plies) {
        for (int g = 0; g < games; ++g) {
            Position pos = from_fen(fen);
            for (int p = 0; p < plies; ++p) {
                in_check += check_position(pos);
                ++positions;
                MoveList list(pos);
                if (list.size() == 0) break;
                pos.make_move(list.begin()[rng() % list.size()].move);
            }
        }
    };
    // About 0.3 s in Release, 5 s under ASan/UBSan.
    play(std::string(Position::START_FEN), 30, 200);
    for (const std::string& fen : suite_fens(48)) play(fen, 1, 100);
    REQUIRE(positions > 5000);
    REQUIRE(in_check > 100);
}

TEST_CASE("count_legal_moves equals the legal list along random games", "[movegen]") {
    // Cheaper than the full check above, so more games.
    std::mt19937_64 rng(11);
    int positions = 0;
    for (const std::string& fen : suite_fens(8)) {
        for (int g = 0; g < 3; ++g) {
            Position pos = from_fen(fen);
            for (int p = 0; p < 150; ++p) {
                MoveList list(pos);
                INFO(pos.fen());
                REQUIRE(count_legal_moves(pos) == list.size());
                ++positions;
                if (list.size() == 0) break;
                pos.make_move(list.begin()[rng() % list.size()].move);
            }
        }
    }
    REQUIRE(positions > 20000);
}

TEST_CASE("is_pseudo_legal agrees with generation for every 16-bit move", "[movegen]") {
    // The sample: some suite positions, the special ones, and positions from
    // random games that are in check or have an en-passant square.
    std::vector<std::string> sample = suite_fens(24);
    for (const char* fen : SPECIAL) sample.emplace_back(fen);
    std::mt19937_64 rng(17);
    int checks = 0, eps = 0;
    for (int g = 0; g < 400 && (checks < 25 || eps < 25); ++g) {
        Position pos;
        for (int p = 0; p < 120; ++p) {
            MoveList list(pos);
            if (list.size() == 0) break;
            pos.make_move(list.begin()[rng() % list.size()].move);
            if (pos.in_check() && checks < 25 && p % 3 == 0) {
                sample.push_back(pos.fen());
                ++checks;
            } else if (pos.ep_square() != SQ_NONE && eps < 25) {
                sample.push_back(pos.fen());
                ++eps;
            }
        }
    }
    REQUIRE(checks == 25);
    REQUIRE(eps == 25);

    for (const std::string& fen : sample) {
        Position pos = from_fen(fen);
        const MoveSet pseudo = pos.in_check() ? gen<GenType::Evasions>(pos) : gen<GenType::NonEvasions>(pos);
        const MoveSet legal = legal_set(pos);
        // Plain loops, one assertion per position: 65536 REQUIREs each would
        // be slow under the sanitizers.
        std::vector<std::uint16_t> pseudo_mismatch, legal_mismatch;
        int accepted = 0;
        for (std::uint32_t raw = 0; raw < 65536; ++raw) {
            const Move m{std::uint16_t(raw)};
            const bool ok = pos.is_pseudo_legal(m);
            accepted += ok;
            if (ok != (pseudo.count(std::uint16_t(raw)) > 0)) pseudo_mismatch.push_back(std::uint16_t(raw));
            if ((ok && pos.is_legal(m)) != (legal.count(std::uint16_t(raw)) > 0))
                legal_mismatch.push_back(std::uint16_t(raw));
        }
        INFO(fen);
        INFO("first pseudo-legal mismatch: raw "
             << (pseudo_mismatch.empty() ? -1 : pseudo_mismatch[0]) << " = "
             << (pseudo_mismatch.empty() ? "" : pos.move_to_uci(Move(pseudo_mismatch[0]))));
        INFO("first legal mismatch: raw " << (legal_mismatch.empty() ? -1 : legal_mismatch[0]));
        REQUIRE(pseudo_mismatch.empty());
        REQUIRE(legal_mismatch.empty());
        REQUIRE(accepted == int(pseudo.size()));
    }
}
