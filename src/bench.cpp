#include "staccato/bench.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "staccato/ordering_stats.h"
#include "staccato/position.h"
#include "staccato/thread.h"
#include "staccato/tt.h"

namespace staccato {

namespace {
// Openings, middlegames (Bratko-Kopec and Win At Chess positions) and
// endgames, so that every part of the search is exercised.
constexpr std::array<std::string_view, 47> BENCH_POSITIONS = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 4 5",
    "rnbqkb1r/ppp1pp1p/5np1/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
    "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
    "5rk1/1b3p1p/pp3p2/3n1N2/1P6/P1qB1PP1/3Q3P/4R1K1 w - - 0 1",
    "r3r2k/2R3pp/pp1q1p2/8/3P3R/7P/PP3PP1/3Q2K1 w - - 0 1",
    "rn1qr1k1/1p2np2/2p3p1/8/1pPb4/7Q/PB1P1PP1/2KR1B1R w - - 0 1",
    "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1",
    "4r1k1/p1qr1p2/2pb1Bp1/1p5p/3P1n1R/1B3P2/PP3PK1/2Q4R w - - 0 1",
    "2rqrn1k/pb4pp/1p2pp2/n2P4/2P3N1/P2B2Q1/1B3PPP/2R1R1K1 w - - 0 1",
    "2b5/1r6/2kBp1p1/p2pP1P1/2pP4/1pP3K1/1R3P2/8 b - - 0 1",
    "2kr4/ppp3Pp/4RP1B/2r5/5P2/1P6/P2p4/3K4 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "8/8/8/8/5k2/8/4KP2/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/3k4/8/8/8/R3K3 w Q - 0 1",
    "2k5/8/1K6/8/8/8/8/7R w - - 0 1",
    "8/6pk/8/8/8/8/6PK/8 w - - 0 1",
    "8/3k4/8/8/3B4/3N4/8/4K3 w - - 0 1",
    "5k2/8/4PK2/8/8/8/8/8 w - - 0 1",
    "8/8/1p3k2/1P6/2P5/5K2/8/8 w - - 0 1",
};
} // namespace

unsigned long long run_bench(int depth, std::ostream& out) {
    TranspositionTable tt(16);
    ThreadPool pool(tt);
    std::uint64_t total = 0;
    OrderingStats sum;
    double log_ebf_sum = 0;
    int ebf_count = 0;
    // Nodes/second counts the searches' time only: clearing the 16 MB table
    // and the histories before each position (about an eighth of the run at
    // the default depth) is set-up, as it is once per game in play.
    auto start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::duration search_time{};
    char line[256];

    int index = 0;
    for (std::string_view fen : BENCH_POSITIONS) {
        ++index;
        Position pos;
        if (auto err = pos.set_fen(fen).error) {
            out << "bench: position " << index << " refused: " << *err << '\n';
            continue;
        }
        tt.clear(); // every position starts from nothing: the same count on every machine
        pool.clear_history();
        SearchLimits limits;
        limits.depth = depth;
        const auto search_start = std::chrono::steady_clock::now();
        const ThreadPool::SyncResult r = pool.search_sync(pos, limits);
        search_time += std::chrono::steady_clock::now() - search_start;
        total += r.nodes;
        sum += r.stats;
        std::snprintf(line, sizeof line, "Position %2d/%zu: %-6s %10llu nodes  %s\n", index,
                      BENCH_POSITIONS.size(), pos.move_to_uci(r.best).c_str(),
                      static_cast<unsigned long long>(r.nodes), std::string(fen).c_str());
        out << line;
        // Effective branching factor: nodes of the last iteration over the one before.
        std::uint64_t last = pool.iteration_nodes(depth), before = pool.iteration_nodes(depth - 1);
        if (last > 0 && before > 0) {
            log_ebf_sum += std::log(double(last) / double(before));
            ++ebf_count;
        }
    }

    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                  .count();
    auto ratio = [](std::uint64_t part, std::uint64_t all) { return all ? double(part) / double(all) : 0.0; };
    auto percent = [&](std::uint64_t part, std::uint64_t all) { return 100.0 * ratio(part, all); };
    double first = percent(sum.first_move_fail_highs, sum.fail_highs);
    double avg = ratio(sum.cutoff_move_number_sum, sum.fail_highs);
    out << "\n===========================\n";
    std::snprintf(line, sizeof line,
                  "first-move cutoffs: %.1f%% of %llu fail-highs (average cutoff move number %.2f)\n", first,
                  static_cast<unsigned long long>(sum.fail_highs), avg);
    out << line;
    const std::uint64_t other = sum.fail_highs - sum.cut_node_fail_highs;
    std::snprintf(line, sizeof line,
                  "  at expected cut nodes: %.1f%% of %llu; at PV and expected all-nodes: %.1f%% of %llu\n",
                  percent(sum.cut_node_first_move_fail_highs, sum.cut_node_fail_highs),
                  static_cast<unsigned long long>(sum.cut_node_fail_highs),
                  percent(sum.first_move_fail_highs - sum.cut_node_first_move_fail_highs, other),
                  static_cast<unsigned long long>(other));
    out << line;
    // Where the cutoffs come from, and which first moves failed to cut.
    auto by_origin = [&](const char* title, const std::array<std::uint64_t, ORIGIN_NB>& counts) {
        std::uint64_t all = 0;
        for (std::uint64_t c : counts) all += c;
        std::string text = title;
        for (int i = 0; i < ORIGIN_NB; ++i) {
            char part[64];
            std::snprintf(part, sizeof part, "%s %s %.1f%%", i ? "," : "", ORIGIN_NAMES[i],
                          percent(counts[i], all));
            text += part;
        }
        out << text << " (of " << all << ")\n";
    };
    by_origin("cutoff moves by stage:", sum.cutoffs_by_origin);
    by_origin("first moves that did not cut, by stage:", sum.first_move_misses_by_origin);
    std::snprintf(line, sizeof line,
                  "effective branching factor: %.2f (depth %d over depth %d, geometric mean)\n",
                  ebf_count ? std::exp(log_ebf_sum / ebf_count) : 0.0, depth, depth - 1);
    out << line;
    const auto search_us = std::chrono::duration_cast<std::chrono::microseconds>(search_time).count();
    const std::uint64_t nps = total * 1000000 / std::uint64_t(search_us > 0 ? search_us : 1);
    out << "Total time (ms) : " << ms << '\n'
        << "Search time (ms): " << search_us / 1000 << '\n'
        << "Nodes searched  : " << total << '\n'
        << "Nodes/second    : " << nps << '\n';
    // Last, for OpenBench's client (Client/bench.py reads the output from the
    // bottom for `<N> nodes` and `<N> nps`): nothing after it names nodes.
    out << total << " nodes " << nps << " nps" << std::endl;
    return total;
}

} // namespace staccato
