// perft over both suites in tests/data/perft.
//
//   [perft]       every depth whose count is at most PERFT_LIMIT (default run)
//   [perft-full]  every depth of every line: hidden ([.perft-full]), run by the
//                 separate ctest test `perft-full` (ctest -L perft-full). It
//                 spreads the work over STACCATO_TEST_THREADS threads (default:
//                 every hardware thread); each job is one (line, depth).
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "staccato/movegen.h"
#include "staccato/perft.h"
#include "suite.h"

using namespace staccato;
using staccato::test::EpdLine;
using staccato::test::from_fen;
using staccato::test::load_epd;

namespace {

// Release: 5.3e8 leaf nodes over both suites, about 1.5 s on one core.
// Without NDEBUG (the Debug + ASan/UBSan CI job) perft runs at ~10M nodes/s,
// so the same limit would take about a minute: there it drops to 1e5, which
// is 2.5e7 nodes and about 3 s.
#ifdef NDEBUG
constexpr std::uint64_t PERFT_LIMIT = 1000000;
#else
constexpr std::uint64_t PERFT_LIMIT = 100000;
#endif

struct Job {
    std::size_t line;
    int depth;
    std::uint64_t expected;
    std::uint64_t got = 0;
    bool restored = false; // perft left the position as it found it
};

unsigned thread_count() {
    if (const char* env = std::getenv("STACCATO_TEST_THREADS")) {
        int n = std::atoi(env);
        if (n > 0) return unsigned(n);
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

// Runs every (line, depth) with expected count <= limit; assertions are
// made afterwards on this thread (Catch2 assertions are not thread-safe).
void run_suite(const char* name, std::uint64_t limit, unsigned threads) {
    const std::vector<EpdLine> lines = load_epd(name);
    for (const EpdLine& e : lines) from_fen(e.fen); // every FEN parses (checked here, on this thread)

    std::vector<Job> jobs;
    for (std::size_t i = 0; i < lines.size(); ++i)
        for (auto [depth, nodes] : lines[i].counts)
            if (nodes <= limit) jobs.push_back({i, depth, nodes});
    REQUIRE(!jobs.empty());
    // Biggest first, so that the threads finish together.
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const Job& a, const Job& b) { return a.expected > b.expected; });

    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t j; (j = next.fetch_add(1)) < jobs.size();) {
            Job& job = jobs[j];
            Position pos;
            if (pos.set_fen(lines[job.line].fen).error) continue; // cannot happen: checked above
            const Key key = pos.key();
            const std::string fen = pos.fen();
            job.got = perft(pos, job.depth);
            job.restored = pos.fen() == fen && pos.key() == key && pos.history_length() == 0;
        }
    };
    threads = std::min<unsigned>(threads, unsigned(jobs.size()));
    if (threads <= 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
        for (std::thread& t : pool) t.join();
    }

    std::uint64_t total = 0;
    for (const Job& job : jobs) {
        INFO(name << ": " << lines[job.line].fen << " depth " << job.depth);
        REQUIRE(job.got == job.expected);
        REQUIRE(job.restored);
        total += job.got;
    }
    // How much was checked, for the log (`-s` shows it).
    std::ostringstream what;
    what << name << ": " << jobs.size() << " (line, depth) pairs, " << total << " leaf nodes";
    SUCCEED(what.str());
}

} // namespace

TEST_CASE("perft standard suite (counts up to the default limit)", "[perft]") {
    run_suite("standard.epd", PERFT_LIMIT, 1);
}

TEST_CASE("perft Chess960 suite (counts up to the default limit)", "[perft]") {
    run_suite("fischer.epd", PERFT_LIMIT, 1);
}

TEST_CASE("perft small depths and divide output", "[perft]") {
    Position pos;
    REQUIRE(perft(pos, 0) == 1);
    REQUIRE(perft(pos, 1) == 20);
    REQUIRE(perft(pos, 2) == 400);
    // A mate: no moves at any depth >= 1.
    Position mate = from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    REQUIRE(perft(mate, 1) == 0);
    REQUIRE(perft(mate, 3) == 0);

    // perft_divide: one "move: count" line per root move, then the total in
    // the "Nodes searched: N" line that bench/perft_vs_stockfish.sh reads.
    std::ostringstream out;
    REQUIRE(perft_divide(pos, 3, out) == 8902);
    std::istringstream in(out.str());
    std::uint64_t sum = 0, reported = 0;
    int moves = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("Nodes searched: ", 0) == 0) {
            reported = std::stoull(line.substr(16));
            continue;
        }
        auto colon = line.find(": ");
        if (colon == 4 || colon == 5) {
            REQUIRE(pos.parse_uci_move(line.substr(0, colon)));
            sum += std::stoull(line.substr(colon + 2));
            ++moves;
        }
    }
    REQUIRE(moves == 20);
    REQUIRE(sum == 8902);
    REQUIRE(reported == 8902);
    REQUIRE(pos.fen() == Position::START_FEN);
}

TEST_CASE("perft standard suite, every depth", "[.perft-full]") {
    run_suite("standard.epd", UINT64_MAX, thread_count());
}

TEST_CASE("perft Chess960 suite, every depth", "[.perft-full]") {
    run_suite("fischer.epd", UINT64_MAX, thread_count());
}
