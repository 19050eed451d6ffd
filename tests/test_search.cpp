#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "staccato/bench.h"
#include "staccato/engine.h"
#include "staccato/parse.h"

using namespace staccato;

namespace {
struct Capture {
    std::mutex m;
    std::vector<std::string> lines;
    Engine::Sink sink() {
        return [this](std::string_view l) {
            std::lock_guard lock(m);
            lines.emplace_back(l);
        };
    }
    std::string last_starting(const std::string& prefix) {
        std::lock_guard lock(m);
        for (auto it = lines.rbegin(); it != lines.rend(); ++it)
            if (it->rfind(prefix, 0) == 0) return *it;
        return {};
    }
    int count_starting(const std::string& prefix) {
        std::lock_guard lock(m);
        int n = 0;
        for (auto& l : lines) n += l.rfind(prefix, 0) == 0;
        return n;
    }
};

std::string search(const char* fen, SearchLimits limits, Capture& cap) {
    Engine engine(cap.sink());
    REQUIRE(!engine.set_position(fen, {}).error);
    REQUIRE(!engine.go(limits));
    engine.wait_until_idle();
    return cap.last_starting("bestmove");
}

// The text of `line` between `from` and the next `to` (the rest of the line
// when `to` is empty); empty when `from` is missing.
std::string field(const std::string& line, const std::string& from, const std::string& to) {
    const std::size_t a = line.find(from);
    if (a == std::string::npos) return std::string();
    const std::size_t b = to.empty() ? line.size() : line.find(to, a + from.size());
    return line.substr(a + from.size(), b == std::string::npos ? line.npos : b - a - from.size());
}
} // namespace

TEST_CASE("finds mates and reports them", "[search]") {
    SearchLimits limits;
    limits.depth = 6;
    Capture a;
    CHECK(search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", limits, a).rfind("bestmove d1d8", 0) == 0);
    CHECK(a.last_starting("info depth").find("score mate 1") != std::string::npos);
    Capture b; // Rh8 mates: the white king covers a7 and b7
    CHECK(search("k7/8/1K6/8/8/8/8/7R w - - 0 1", limits, b).rfind("bestmove h1h8", 0) == 0);
    Capture c; // being mated: score is negative mate
    limits.depth = 4;
    search("k7/8/1K6/8/8/8/8/7R b - - 0 1", limits, c);
    CHECK(c.last_starting("info depth").find("score mate -1") != std::string::npos);
}

TEST_CASE("mate on the 100th ply beats the fifty-move rule", "[search]") {
    SearchLimits limits;
    limits.depth = 4;
    Capture cap;
    std::string best = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80", limits, cap);
    CHECK(best.rfind("bestmove d1d8", 0) == 0);
    CHECK(cap.last_starting("info depth").find("score mate 1") != std::string::npos);
}

TEST_CASE("no legal move: bestmove 0000", "[search]") {
    SearchLimits limits;
    limits.depth = 3;
    Capture mate, stalemate;
    CHECK(search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", limits, mate) == "bestmove 0000");
    CHECK(search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", limits, stalemate) == "bestmove 0000");
}

TEST_CASE("node and depth limits end the search with one bestmove", "[search]") {
    SearchLimits limits;
    limits.nodes = 20000;
    Capture cap;
    std::string best = search(std::string(Position::START_FEN).c_str(), limits, cap);
    CHECK(best.rfind("bestmove ", 0) == 0);
    CHECK(cap.count_starting("bestmove") == 1);
    std::string info = cap.last_starting("info depth");
    auto pos = info.find(" nodes ");
    REQUIRE(pos != std::string::npos);
    // One thread: the node limit is checked at every node, so it is exact.
    CHECK(std::stoull(info.substr(pos + 7)) == 20000);
}

TEST_CASE("an instant stop still announces a searched move", "[search]") {
    // `go nodes 1` ends at once, but depth 1 is always finished first: the
    // final info line has a real depth, score and PV starting with bestmove.
    SearchLimits limits;
    limits.nodes = 1;
    Capture cap;
    std::string best =
        search("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", limits, cap);
    REQUIRE(best.rfind("bestmove ", 0) == 0);
    std::string info = cap.last_starting("info depth");
    CHECK(info.rfind("info depth 1 ", 0) == 0);
    std::string move = best.substr(9, best.find(' ', 9) - 9);
    CHECK(info.find(" pv " + move) != std::string::npos);
}

TEST_CASE("searchmoves restricts the root", "[search]") {
    Capture cap;
    Engine engine(cap.sink());
    REQUIRE(!engine.set_position("", {}).error);
    SearchLimits limits;
    limits.depth = 5;
    limits.searchmoves = {*engine.position()->parse_uci_move("a2a3")};
    REQUIRE(!engine.go(limits));
    engine.wait_until_idle();
    CHECK(cap.last_starting("bestmove").rfind("bestmove a2a3", 0) == 0);
}

TEST_CASE("bench is deterministic", "[search]") {
    std::ostringstream a, b;
    auto n1 = run_bench(5, a);
    auto n2 = run_bench(5, b);
    REQUIRE(n1 == n2);
    REQUIRE(n1 > 1000);
    REQUIRE(a.str().find("first-move cutoffs") != std::string::npos);
    REQUIRE(a.str().find("Nodes searched  : ") != std::string::npos);

    // The split of the fail highs into expected cut nodes and the rest:
    // both kinds occur, the cut-node count is a part of the whole (bench
    // prints the rest as the difference), and the overall rate lies between
    // the two rates, as a weighted mean of them must.
    unsigned long long all = 0, cut = 0, other = 0;
    double first = 0, cut_first = 0, other_first = 0, avg = 0;
    const std::string text = a.str();
    const auto at = text.find("first-move cutoffs");
    REQUIRE(std::sscanf(text.c_str() + at,
                        "first-move cutoffs: %lf%% of %llu fail-highs (average cutoff move number %lf)\n"
                        "  at expected cut nodes: %lf%% of %llu; at PV and expected all-nodes: %lf%% of %llu",
                        &first, &all, &avg, &cut_first, &cut, &other_first, &other) == 7);
    REQUIRE(all > 0);
    REQUIRE(cut < all);
    REQUIRE(cut > 0);
    REQUIRE(other > 0);
    REQUIRE(cut_first > other_first); // a predicted cutoff comes on the first move more often
    REQUIRE(first >= std::min(cut_first, other_first) - 0.1);
    REQUIRE(first <= std::max(cut_first, other_first) + 0.1);

    // The split by stage: every fail high is counted once under its cutoff
    // move's stage, and every one that did not come first once under the
    // first move's stage. The main stages all produce cutoffs.
    auto stage_line = [&](const std::string& title, unsigned long long& total) {
        std::vector<double> shares;
        const auto from = text.find(title);
        REQUIRE(from != std::string::npos);
        const std::string line = text.substr(from, text.find('\n', from) - from);
        for (std::size_t p = line.find('%'); p != std::string::npos; p = line.find('%', p + 1)) {
            std::size_t q = line.find_last_of(' ', p);
            const auto share = parse_number<double>(line.substr(q + 1, p - q - 1));
            REQUIRE(share);
            shares.push_back(*share);
        }
        REQUIRE(std::sscanf(line.c_str() + line.rfind("(of "), "(of %llu)", &total) == 1);
        return shares;
    };
    unsigned long long cutoffs = 0, misses = 0;
    const auto by_stage = stage_line("cutoff moves by stage:", cutoffs);
    const auto missed = stage_line("first moves that did not cut, by stage:", misses);
    REQUIRE(by_stage.size() == 7);
    REQUIRE(missed.size() == 7);
    CHECK(cutoffs == all);
    CHECK(std::abs(double(misses) - double(all) * (100.0 - first) / 100.0) <= double(all) * 0.001);
    double sum_cut = 0, sum_missed = 0;
    for (double v : by_stage) sum_cut += v;
    for (double v : missed) sum_missed += v;
    CHECK(std::abs(sum_cut - 100.0) < 0.5);
    CHECK(std::abs(sum_missed - 100.0) < 0.5);
    for (int stage : {0, 1, 2, 4}) CHECK(by_stage[stage] > 0.0); // hash, good captures, killers, quiets
}

TEST_CASE("MultiPV sends one line per pv, together", "[search]") {
    Capture cap;
    Engine engine(cap.sink());
    engine.set_multipv(3);
    SearchLimits limits;
    limits.depth = 4;
    REQUIRE(!engine.go(limits));
    engine.wait_until_idle();
    CHECK(cap.count_starting("info depth 4 ") >= 3);
    bool seen3 = false;
    for (auto& l : cap.lines) seen3 |= l.find(" multipv 3 ") != std::string::npos;
    CHECK(seen3);
}

TEST_CASE("MultiPV prints each depth's lines best first", "[search]") {
    // A later line can score above an earlier one (here: a capture found
    // only as the second line); the root moves are sorted before the
    // report, so multipv 1 is always the best line of its depth, and the
    // move a strength-limited pick plays has its own line.
    const char* fens[] = {
        "r1br2k1/pp2bppp/2nppn2/8/2P1PB2/2N2P2/PqN1B1PP/R2Q1R1K w - - 0 1",
        "3r1r1k/1p4pp/p4p2/8/1PQR4/6Pq/P3PP2/2R3K1 b - - 0 1",
        "2r5/2rk2pp/1pn1pb2/pN1p4/P2P4/1N2B3/nPR1KPPP/3R4 b - - 0 1",
        "4k3/p4prp/1p6/2b5/8/2Q3P1/P2R1PKP/4q3 w - - 0 1",
    };
    int blocks = 0;
    for (const char* fen : fens) {
        Capture cap;
        Engine engine(cap.sink());
        engine.set_multipv(4);
        REQUIRE(!engine.set_position(fen, {}).error);
        SearchLimits limits;
        limits.depth = 6;
        REQUIRE(!engine.go(limits));
        engine.wait_until_idle();
        // depth -> the exact cp scores of its lines, by multipv number
        std::vector<std::vector<std::pair<int, int>>> by_depth(limits.depth + 1);
        for (const std::string& l : cap.lines) {
            if (l.rfind("info depth ", 0) != 0 || l.find(" score cp ") == std::string::npos ||
                l.find("bound") != std::string::npos)
                continue;
            const int depth = std::stoi(field(l, "info depth ", " "));
            const int number = std::stoi(field(l, " multipv ", " "));
            const int cp = std::stoi(field(l, " score cp ", " "));
            if (depth >= 1 && depth <= limits.depth) by_depth[depth].emplace_back(number, cp);
        }
        for (auto& lines : by_depth) {
            if (lines.size() < 2) continue;
            std::sort(lines.begin(), lines.end());
            ++blocks;
            for (std::size_t i = 1; i < lines.size(); ++i) {
                INFO(fen << " multipv " << lines[i].first);
                CHECK(lines[i - 1].second >= lines[i].second);
            }
        }
    }
    CHECK(blocks >= 16); // the check above ran on most depths
}

TEST_CASE("the final info line never contradicts the last iteration's line for its depth", "[search]") {
    // Node limits stop the search at many points inside an iteration; the
    // line printed after the search (when there is one) either repeats the
    // last iteration's depth with its score and PV or names the newer depth
    // its figures come from. Its PV starts with the bestmove.
    // Several positions: the stop must sometimes fall in a fail high's
    // re-search, which runs a ply shallower than its iteration.
    int repeated = 0;
    for (const char* fen : {"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"})
        for (std::uint64_t nodes = 500; nodes < 400000; nodes = nodes * 3 / 2) {
            SearchLimits limits;
            limits.nodes = nodes;
            Capture cap;
            const std::string best = search(fen, limits, cap);
            std::vector<std::string> infos;
            for (const std::string& l : cap.lines)
                if (l.rfind("info depth ", 0) == 0 && l.find(" pv ") != std::string::npos) infos.push_back(l);
            REQUIRE(!infos.empty());
            if (infos.size() < 2) continue; // a limit inside depth 1 or 2: nothing to compare
            const std::string& last = infos.back();
            const std::string& before = infos[infos.size() - 2];
            INFO(fen << ", nodes " << nodes << "\n" << before << "\n" << last << "\n" << best);
            CHECK(field(last, " pv ", " ").rfind(field(best, "bestmove ", " "), 0) == 0);
            const int d_last = std::stoi(field(last, "info depth ", " ")),
                      d_before = std::stoi(field(before, "info depth ", " "));
            CHECK(d_last >= d_before);
            if (d_last == d_before) {
                CHECK(field(last, " score ", " nodes ") == field(before, " score ", " nodes "));
                CHECK(field(last, " pv ", "") == field(before, " pv ", ""));
                CHECK(field(last, " seldepth ", " ") == field(before, " seldepth ", " "));
                ++repeated;
            }
        }
    CHECK(repeated > 0);
}
