// UCI_LimitStrength and UCI_Elo: the Elo -> settings mapping (and the
// README's table of it), the pick among root moves, the engine under the
// limit driven through the UCI loop, and the ladder judged by a deeper search.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "readme_table.h"
#include "staccato/engine.h"
#include "staccato/movegen.h"
#include "staccato/see.h"
#include "staccato/strength.h"
#include "staccato/thread.h"
#include "staccato/tt.h"
#include "staccato/uci.h"
#include "suite.h"
#include "uci_session.h"

using namespace staccato;

namespace {
struct Session : test::UciSession {
    // The move of the last bestmove line.
    std::string bestmove() {
        const std::string l = last_starting("bestmove ");
        return l.empty() ? l : l.substr(9, l.find(' ', 9) - 9);
    }
    // Searches `position` and returns the move played.
    std::string play(const std::string& position, const std::string& go = "go depth 30") {
        send(position);
        send(go);
        engine.wait_until_idle();
        return bestmove();
    }
    void limit(int elo) {
        send("setoption name UCI_LimitStrength value true");
        send("setoption name UCI_Elo value " + std::to_string(elo));
    }
};

// The nodes figure of an info line.
std::string nodes_of(const std::string& info) {
    const auto at = info.find(" nodes ");
    return at == std::string::npos ? std::string() : info.substr(at + 7, info.find(' ', at + 7) - at - 7);
}

constexpr const char* MIDDLEGAME = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
} // namespace

TEST_CASE("strength settings fall with the Elo and keep blunders out from 1800 up", "[strength]") {
    StrengthSettings prev = strength_settings(STRENGTH_ELO_MIN);
    for (int elo = STRENGTH_ELO_MIN + 50; elo <= STRENGTH_ELO_MAX; elo += 50) {
        const StrengthSettings s = strength_settings(elo);
        INFO("elo " << elo);
        CHECK(s.nodes > prev.nodes);
        CHECK(s.error_cp <= prev.error_cp);
        CHECK(s.max_loss_cp <= prev.max_loss_cp);
        CHECK(s.candidates <= prev.candidates);
        CHECK(s.candidates >= 1);
        CHECK(s.candidates <= STRENGTH_MAX_CANDIDATES);
        if (elo >= 1800) CHECK(s.max_loss_cp < SEE_VALUE[KNIGHT]);
        prev = s;
    }
    // Out of range: clamped.
    CHECK(strength_settings(100).nodes == strength_settings(STRENGTH_ELO_MIN).nodes);
    CHECK(strength_settings(9999).nodes == strength_settings(STRENGTH_ELO_MAX).nodes);
}

TEST_CASE("pick_move: the error makes weaker candidates win sometimes, never one past the largest loss",
          "[strength]") {
    const Position pos;
    const Move a = test::uci(pos, "e2e4"), b = test::uci(pos, "d2d4"), c = test::uci(pos, "g2g4");
    const std::vector<StrengthCandidate> candidates = {{a, 50}, {b, 30}, {c, -900}};
    int chosen_b = 0;
    Rng rng(1);
    const StrengthSettings weak = strength_settings(1350);
    for (int i = 0; i < 1000; ++i) {
        const Move m = pick_move(candidates, weak, rng);
        CHECK(m != c);
        chosen_b += m == b;
    }
    CHECK(chosen_b > 100); // 20 cp behind, both with the 1350 error (69 cp): close to a coin toss
    CHECK(chosen_b < 900);

    StrengthSettings exact = weak;
    exact.error_cp = 0;
    for (int i = 0; i < 20; ++i) CHECK(pick_move(candidates, exact, rng) == a);

    // A mate is never given up for material.
    const std::vector<StrengthCandidate> mate = {{b, 900}, {a, mate_in(3)}};
    for (int i = 0; i < 100; ++i) CHECK(pick_move(mate, weak, rng) == a);

    // The same seed, the same draws.
    Rng r1(42), r2(42);
    for (int i = 0; i < 100; ++i) CHECK(pick_move(candidates, weak, r1) == pick_move(candidates, weak, r2));
}

TEST_CASE("strength_pick: an index among the best-scored root moves, never an unsearched one", "[strength]") {
    const Position pos;
    const Move a = test::uci(pos, "e2e4"), b = test::uci(pos, "d2d4"), c = test::uci(pos, "g1f3"),
               d = test::uci(pos, "g2g4");
    const std::vector<StrengthCandidate> root = {{a, -VALUE_INFINITE}, {b, 30}, {c, 50}, {d, -900}};
    Rng rng(7);
    StrengthSettings exact = strength_settings(1350);
    exact.error_cp = 0;
    for (int i = 0; i < 20; ++i) CHECK(strength_pick(root, exact, rng) == 2);
    const StrengthSettings weak = strength_settings(1350);
    bool picked_b = false;
    for (int i = 0; i < 200; ++i) {
        const int k = strength_pick(root, weak, rng);
        CHECK((k == 1 || k == 2)); // d is past the largest loss, a has no score
        picked_b |= k == 1;
    }
    CHECK(picked_b);
    StrengthSettings one = weak;
    one.candidates = 1; // only the best is a candidate
    for (int i = 0; i < 20; ++i) CHECK(strength_pick(root, one, rng) == 2);
    const std::vector<StrengthCandidate> unsearched = {{a, -VALUE_INFINITE}, {b, -VALUE_INFINITE}};
    CHECK(strength_pick(unsearched, weak, rng) == 0);
}

TEST_CASE("UCI_LimitStrength and UCI_Elo are listed, parsed and bad values refused", "[strength][uci]") {
    Session s;
    s.send("uci");
    CHECK(s.count("option name UCI_LimitStrength type check default false") == 1);
    CHECK(s.count("option name UCI_Elo type spin default 1350 min 1350 max 2850") == 1);
    CHECK(!s.engine.options().limit_strength);
    CHECK(s.engine.options().uci_elo == 1350);

    s.send("setoption name UCI_Elo value 2000");
    CHECK(s.engine.options().uci_elo == 2000);
    for (const char* bad : {"1349", "2851", "-5", "abc", "2000.5", "99999999999999999999", ""}) {
        INFO("value '" << bad << "'");
        s.send(std::string("setoption name UCI_Elo value ") + bad);
        CHECK(s.last().rfind("info string option UCI_Elo", 0) == 0);
        CHECK(s.last().find("keeping the old value") != std::string::npos);
        CHECK(s.engine.options().uci_elo == 2000);
    }
    s.send("setoption name UCI_Elo");
    CHECK(s.engine.options().uci_elo == 2000);
    s.send("setoption name uci_elo value 2850");
    CHECK(s.engine.options().uci_elo == 2850);

    s.send("setoption name UCI_LimitStrength value yes");
    CHECK(s.last().rfind("info string", 0) == 0);
    CHECK(!s.engine.options().limit_strength);
    s.send("setoption name UCI_LimitStrength value TRUE");
    CHECK(s.engine.options().limit_strength);
    s.send("setoption name UCI_LimitStrength value false");
    CHECK(!s.engine.options().limit_strength);
}

TEST_CASE("UCI_Elo alone changes nothing: the full-strength search is untouched", "[strength]") {
    Session full, toggled;
    toggled.limit(1350);
    toggled.send("setoption name UCI_LimitStrength value false");
    for (Session* s : {&full, &toggled}) s->play(MIDDLEGAME, "go depth 8");
    CHECK(full.bestmove() == toggled.bestmove());
    CHECK(toggled.count("info depth 8 ") >= 1);
    const std::string a = full.last_starting("info depth 8 "), b = toggled.last_starting("info depth 8 ");
    CHECK(!nodes_of(a).empty());
    CHECK(nodes_of(a) == nodes_of(b)); // the same search, node for node
}

TEST_CASE("a fixed seed gives the same games, the bestmove is always legal", "[strength]") {
    const std::vector<std::string> positions = {
        "position startpos",
        MIDDLEGAME,
        "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
        "position fen 8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 b - - 0 40",
        "position fen 2r3k1/5ppp/p7/1p6/3n4/P2B4/1P3PPP/2R3K1 w - - 0 25",
    };
    for (int elo : {1350, 1800, 2400}) {
        Session a, b;
        for (Session* s : {&a, &b}) {
            s->limit(elo);
            s->engine.set_strength_seed(12345);
        }
        for (const std::string& p : positions) {
            INFO("elo " << elo << " " << p);
            const std::string ma = a.play(p), mb = b.play(p);
            CHECK(ma == mb);
            REQUIRE(a.engine.position());
            CHECK(a.engine.position()->parse_uci_move(ma).has_value());
        }
        CHECK(a.count("bestmove") == int(positions.size()));
    }
}

TEST_CASE("a low Elo plays other moves than the best sometimes", "[strength]") {
    std::set<std::string> played;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        Session s;
        s.limit(1350);
        s.engine.set_strength_seed(seed);
        played.insert(s.play(MIDDLEGAME));
    }
    CHECK(played.size() >= 2);
}

TEST_CASE("from 1800 up a queen attacked by a pawn is never left hanging", "[strength]") {
    // The queen must move; several squares lose it to a pawn or a minor piece.
    // `go nodes` caps the levels' own budgets (2850's is 1M nodes a move) so
    // that the test also runs in sanitizer builds; the pick among the root
    // moves (candidates, error, largest loss) is each level's own.
    const std::vector<std::string> fens = {
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/3Q4/8/PPP1PPPP/RNB1KBNR w KQkq - 0 1",
        "r1b1kbnr/pppp1ppp/2n5/4p3/2B1P2q/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
        "rnb1kb1r/ppp1pppp/5n2/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3",
    };
    for (int elo : {1800, 2000, 2400, 2850}) {
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            Session s;
            s.limit(elo);
            s.engine.set_strength_seed(seed);
            for (const std::string& fen : fens) {
                const std::string move = s.play("position fen " + fen, "go nodes 200000");
                INFO("elo " << elo << " seed " << seed << " " << fen << " played " << move);
                Position pos = test::from_fen(fen);
                const Color us = pos.side_to_move();
                pos.make_move(test::uci(pos, move));
                REQUIRE(pos.pieces(us, QUEEN));
                const Square queen = lsb(pos.pieces(us, QUEEN));
                // No capture of the queen wins a rook's worth or more.
                for (const ScoredMove& sm : MoveList(pos))
                    if (sm.move.to() == queen) CHECK(!see_ge(pos, sm.move, SEE_VALUE[ROOK]));
            }
        }
    }
}

TEST_CASE("go infinite under the limit answers once, on stop", "[strength][uci]") {
    Session s;
    s.limit(1350);
    s.send(MIDDLEGAME);
    s.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); // the node budget is long spent
    CHECK(s.count("bestmove") == 0);
    s.send("isready");
    CHECK(s.last() == "readyok");
    s.send("stop");
    CHECK(s.count("bestmove") == 1);
    CHECK(s.engine.position()->parse_uci_move(s.bestmove()).has_value());
}

TEST_CASE("ponder under the limit waits for ponderhit", "[strength][uci]") {
    Session s;
    s.limit(1600);
    s.send(MIDDLEGAME);
    s.send("go ponder wtime 2000 btime 2000");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(s.count("bestmove") == 0);
    s.send("ponderhit");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 1);
    s.send("go ponder wtime 2000 btime 2000");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    s.send("stop"); // the ponder move was not played
    CHECK(s.count("bestmove") == 2);
}

TEST_CASE("under a clock the limited engine thinks, but not for its whole allotment", "[strength]") {
    Session s;
    s.limit(1350);
    s.send(MIDDLEGAME);
    const auto t0 = std::chrono::steady_clock::now();
    s.send("go wtime 10000 btime 10000");
    s.engine.wait_until_idle();
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    // Soft limit (10000 - 30) / 35 = 284 ms; the answer comes after 30% to 80% of it.
    CHECK(ms >= 80);
    CHECK(ms < 1000);
    CHECK(s.count("bestmove") == 1);
    // A stop during that pause answers at once.
    s.send("go wtime 100000 btime 100000");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto t1 = std::chrono::steady_clock::now();
    s.send("stop");
    CHECK(std::chrono::steady_clock::now() - t1 < std::chrono::milliseconds(500));
    CHECK(s.count("bestmove") == 2);
}

TEST_CASE("the limit with Threads 2, MultiPV and Chess960", "[strength][threads]") {
    Session s;
    s.send("setoption name Threads value 2");
    s.send("setoption name MultiPV value 2");
    s.send("setoption name UCI_Chess960 value true");
    s.limit(1400); // six candidates searched, two lines shown
    const std::string fen = "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    for (int i = 0; i < 4; ++i) {
        const std::string move = s.play(fen);
        CHECK(s.engine.position()->parse_uci_move(move).has_value());
    }
    CHECK(s.count("bestmove") == 4);
    CHECK(s.count_containing(" multipv 2 ") >= 1);
    CHECK(s.count_containing(" multipv 3 ") == 0);
    // Castling in Chess960 notation is a candidate like any other move.
    const std::string move = s.play("position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    CHECK(s.engine.position()->is_chess960());
    CHECK(s.engine.position()->parse_uci_move(move).has_value());
}

namespace {

// The ladder test's positions: middlegames and endgames with a choice to
// make, none of them a forced line. From 2200 up a level picks the same move
// with every seed on nearly all of them (its candidates lie further apart
// than its error), so the positions, not the seeds, are what tells two
// high levels apart.
constexpr const char* LADDER_FENS[] = {
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "2r3k1/5ppp/p7/1p6/3n4/P2B4/1P3PPP/2R3K1 w - - 0 25",
    // The Strategic Test Suite's (STS1-STS15, fsmosca/STS-Rating) lines 13,
    // 88, 163, ... (every 75th): quiet positions from games, one or two of
    // each of its fifteen themes; copied here, so no file is read.
    "1r3rk1/3n1pbp/1q1pp1p1/p1p5/2PnPP2/PPB1N1PP/6B1/1R1Q1RK1 b - - 0 1",
    "r3r1k1/1pq2pbp/p1ppbnp1/4n3/2P1PB2/1NN2P2/PP1Q2PP/R3RBK1 w - - 0 1",
    "6k1/1q5p/5np1/pb1pNp2/3P1B1P/1Q6/1P2PP2/6K1 w - - 0 1",
    "3rr1k1/pb1n1pp1/2q2b1p/2p5/2P1p2N/1P2B1P1/P1QR1PBP/3R2K1 b - - 0 1",
    "4r1rk/pp6/5q2/3pNp1P/2pPnQ2/2P1P2P/P6K/R5R1 w - - 0 1",
    "4r1k1/1rp2ppp/p3b3/1n1p4/1q1P1B2/1P3P1P/P1Q3P1/3RRNK1 w - - 0 1",
    "8/5p1k/2p3pp/2p1p3/2P2nPP/2Q2P2/1P1B1K2/q7 w - - 0 1",
    "2rr4/1pqb1ppk/p1Nppn1p/4n3/2P1P3/2N3P1/PP1QB1PP/R3BRK1 b - - 0 1",
    "1r4k1/4qpp1/r1b4p/pp1pPB2/n1pP3P/2P2N2/R1P3P1/R3Q1K1 b - - 0 1",
    "r2r2k1/1q3pbp/p3b3/2pPN3/2p1RB2/7P/PP3PP1/R2Q2K1 w - - 0 1",
    "8/3qpk2/1p3r1p/p1pPRp2/2P2P2/P4KPP/4Q3/8 w - - 0 1",
    "3r1nk1/pp2q2p/2p3p1/2NnPp2/5P2/1Q6/PP1rNRPP/2R3K1 b - - 0 1",
    "1r1r2k1/6pp/1b2p2q/3b1p2/1BB1n3/P3PN1P/2Q2PP1/2R2RK1 w - - 0 1",
    "r2r2k1/4qp2/p5p1/2p4p/5P2/3RP1K1/PPQ4P/3R4 b - - 0 1",
    "4rrk1/7p/pn1p1npb/N2P4/1P6/5BP1/PB6/3R1RK1 w - - 0 1",
    "3r1r2/2n3kp/1pp1p1p1/p2nP3/P7/2NR2PB/1P3P1P/3R2K1 w - - 0 1",
    "1r2r2k/5pp1/1n2qn1p/3p4/p1pR4/Q3PBNP/PP3PP1/3R2K1 w - - 0 1",
    "r2r4/2q1bp1k/1nb1p1pp/p1ppP3/P1P2P2/1P3BPP/1N2QB2/2RR2K1 b - - 0 1",
    "6k1/1b2bp2/p3p2p/4P1p1/1pr5/4BP1P/PP2N1P1/3R2K1 b - - 0 1",
    "8/3r2k1/p1rPp1p1/1q5p/p3NPnP/6PK/1P1RQ3/3R4 w - - 0 1",
};

// Centipawns a score stands for in the ladder's sums: mates as +-2000.
int ladder_cp(Value v) { return std::clamp<int>(v, -2000, 2000); }

// The referee: the same engine's deeper search, scoring a root move as the
// only move searched (searchmoves) at `nodes`, from a cleared table and
// histories each time, so that a score does not depend on what was asked
// before it.
class Referee {
  public:
    explicit Referee(std::uint64_t nodes) : nodes_(nodes) {}
    // The score of `m` at the root of `pos` (Move::none(): of the best move).
    int score(const Position& pos, Move m) {
        const auto key = std::make_pair(pos.key(), m.raw());
        if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
        tt_.clear();
        pool_.clear_history();
        SearchLimits limits;
        limits.nodes = nodes_;
        if (m) limits.searchmoves = {m};
        const int cp = ladder_cp(pool_.search_sync(pos, limits).score);
        cache_.emplace(key, cp);
        return cp;
    }
    // What playing `m` loses against the best move, in centipawns (>= 0).
    int loss(const Position& pos, Move m) { return std::max(0, score(pos, Move::none()) - score(pos, m)); }

  private:
    std::uint64_t nodes_;
    TranspositionTable tt_{16};
    ThreadPool pool_{tt_};
    std::map<std::pair<Key, std::uint16_t>, int> cache_;
};

// A level's average loss over the ladder's positions, `seeds` moves each
// (the strength limit's seeds 1..seeds, from a new game every time): `elo`
// under the limit, or with `elo` 0 full strength at `full_nodes` a move.
double average_loss(int elo, int seeds, Referee& referee, std::uint64_t full_nodes = 0) {
    long total = 0, moves = 0;
    for (const char* fen : LADDER_FENS) {
        for (int seed = 1; seed <= seeds; ++seed) {
            Session s;
            if (elo) {
                s.limit(elo);
                s.engine.set_strength_seed(std::uint64_t(seed));
            }
            const std::string go = elo ? "go" : "go nodes " + std::to_string(full_nodes);
            const std::string played = s.play(std::string("position fen ") + fen, go);
            Position pos;
            REQUIRE(!pos.set_fen(fen).error);
            const auto m = pos.parse_uci_move(played);
            INFO(fen << " elo " << elo << " seed " << seed << " bestmove " << played);
            REQUIRE(m);
            total += referee.loss(pos, *m);
            ++moves;
        }
    }
    return double(total) / double(moves);
}

// Plays `levels` (and full strength when `full_nodes` is not 0) and checks
// that no level loses more on average than the one below it.
void check_ladder(const std::vector<int>& levels, std::uint64_t referee_nodes, std::uint64_t full_nodes) {
    Referee referee(referee_nodes);
    std::vector<double> losses;
    for (int elo : levels) {
        losses.push_back(average_loss(elo, 4, referee));
        std::printf("ladder: UCI_Elo %d loses %.1f cp a move on average\n", elo, losses.back());
    }
    if (full_nodes) {
        losses.push_back(average_loss(0, 1, referee, full_nodes)); // one move each: no random draws
        std::printf("ladder: full strength (%llu nodes a move) loses %.1f cp a move on average\n",
                    static_cast<unsigned long long>(full_nodes), losses.back());
    }
    for (std::size_t i = 1; i < losses.size(); ++i) {
        INFO("step " << i << ": " << losses[i - 1] << " cp, then " << losses[i] << " cp");
        CHECK(losses[i] <= losses[i - 1]);
    }
    CHECK(losses.front() > 0); // the weakest level does give something away
}

} // namespace

TEST_CASE("the ladder: a higher UCI_Elo loses no more centipawns on average than a lower one", "[strength]") {
    // Each level's moves over fixed positions and seeds, judged by a search
    // of the same engine far deeper than the levels' budgets. Only the
    // cheap levels here; the whole ladder is the strength-full suite below.
    const std::vector<int> levels = {1350, 1800};
    check_ladder(levels, std::max<std::uint64_t>(100'000, 8 * strength_settings(levels.back()).nodes), 0);
}

TEST_CASE("the whole ladder, 1350 to 2850, then full strength", "[.strength-full]") {
    // Every calibration point, then the engine without the limit at four
    // times 2850's node budget (what the clock gives it at 10+0.1 on the
    // development machine and more), judged at four times that again.
    const std::vector<int> levels = {1350, 1800, 2200, 2600, 2850};
    const std::uint64_t full = 4 * strength_settings(STRENGTH_ELO_MAX).nodes;
    check_ladder(levels, 4 * full, full);
}

TEST_CASE("README's UCI_Elo table gives the settings the engine plays with", "[strength][docs]") {
    // Every row's settings (its first five cells) are strength_settings(its
    // Elo), and the rows reach from the lowest Elo to the highest.
    const auto rows = test::readme_table(
        STACCATO_README, "| UCI_Elo | Node budget | Candidates | Error (cp, s.d.) | Largest loss (cp) "
                         "| Against Stockfish 15.1 at the same `UCI_Elo` |");
    REQUIRE(rows); // the header is there
    std::set<int> elos;
    for (const test::TableRow& row : *rows) {
        INFO((row.empty() ? std::string() : row[0]));
        REQUIRE(row.size() >= 5);
        std::vector<long> cells; // the first five cells as numbers, commas dropped
        for (std::size_t i = 0; i < 5; ++i) {
            std::string digits;
            for (const char c : row[i]) {
                if (std::isdigit(static_cast<unsigned char>(c)))
                    digits += c;
                else
                    REQUIRE(c == ',');
            }
            REQUIRE(!digits.empty());
            cells.push_back(std::stol(digits));
        }
        const StrengthSettings s = strength_settings(int(cells[0]));
        CHECK(cells[1] == long(s.nodes));
        CHECK(cells[2] == s.candidates);
        CHECK(cells[3] == s.error_cp);
        CHECK(cells[4] == s.max_loss_cp);
        elos.insert(int(cells[0]));
    }
    CHECK(elos.count(STRENGTH_ELO_MIN) == 1);
    CHECK(elos.count(STRENGTH_ELO_MAX) == 1);
}
