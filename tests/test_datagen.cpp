// Self-play data generation: what it writes (whole games that replay legally,
// labelled with the result), that a seed reproduces a run and a run appended
// to a file does not repeat its games, that a book supplies the openings,
// that a soft node limit completes its iteration, and that bad options are
// refused without writing anything.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "game_bytes.h"
#include "staccato/datagen.h"
#include "staccato/nnue/games.h"
#include "staccato/nnue/manifest.h"
#include "staccato/nnue/packed.h"
#include "staccato/position.h"
#include "staccato/thread.h"
#include "staccato/tt.h"
#include "temp_path.h"

using namespace staccato;
using staccato::test::KEEP_ALL;
using staccato::test::temp_path;
using staccato::test::write_temp;

namespace {

bool same(const std::vector<nnue::PackedPosition>& a, const std::vector<nnue::PackedPosition>& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(),
                      [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; });
}

// Runs datagen into a fresh file and returns the positions `filter` keeps.
std::vector<nnue::PackedPosition> generate(DatagenOptions o, const std::string& name, DatagenSummary& sum,
                                           const nnue::GameFilter& filter = KEEP_ALL) {
    o.out = temp_path(name + ".games");
    o.manifest = false;
    std::filesystem::remove(o.out);
    std::ostringstream log;
    const auto err = run_datagen(o, log, &sum);
    INFO(err.value_or(""));
    REQUIRE(!err);
    std::vector<nnue::PackedPosition> lines;
    nnue::DataStats stats;
    const auto read_error = nnue::read_data(o.out, filter, lines, stats);
    INFO(read_error.value_or(""));
    REQUIRE(!read_error); // whole games whose every move is legal
    CHECK(stats.games == std::uint64_t(sum.games));
    CHECK(stats.plies == sum.positions);
    std::filesystem::remove(o.out);
    return lines;
}

} // namespace

TEST_CASE("datagen writes whole games, and the reader keeps quiet positions labelled with the result",
          "[datagen]") {
    DatagenOptions o;
    o.games = 3;
    o.nodes = 300;
    o.seed = 5;
    DatagenSummary sum;
    const auto lines = generate(o, "a", sum);
    CHECK(sum.games == 3);
    CHECK(sum.white_wins + sum.draws + sum.black_wins == 3);
    REQUIRE(sum.positions == lines.size());
    REQUIRE(!lines.empty());
    const auto quiet = generate(o, "a2", sum, nnue::GameFilter{});
    CHECK(quiet.size() < lines.size());
    REQUIRE(!quiet.empty());
    for (const nnue::PackedPosition& r : quiet) {
        INFO(r.fen());
        REQUIRE(!r.check());
        CHECK(r.result <= 2);
        CHECK(std::abs(r.score) < 1500);
        Position pos;
        REQUIRE(!pos.set_fen(r.fen()).error);
        CHECK(!pos.in_check());
    }

    SECTION("the same seed plays the same games; another seed others") {
        DatagenSummary again;
        CHECK(same(generate(o, "b", again), lines));
        o.seed = 6;
        CHECK(!same(generate(o, "c", again), lines));
    }
    SECTION("a run appended to a file plays new games, not the ones already there") {
        o.out = temp_path("append.games");
        o.manifest = false;
        std::filesystem::remove(o.out);
        std::ostringstream log;
        DatagenSummary first, second;
        REQUIRE(!run_datagen(o, log, &first));
        CHECK(log.str().find("appending") == std::string::npos);
        REQUIRE(!run_datagen(o, log, &second)); // the same command again
        CHECK(log.str().find("appending to") != std::string::npos);
        std::vector<nnue::PackedPosition> all;
        nnue::DataStats stats;
        REQUIRE(!nnue::read_data(o.out, KEEP_ALL, all, stats));
        std::filesystem::remove(o.out);
        CHECK(stats.games == 6);
        REQUIRE(all.size() == first.positions + second.positions);
        const std::vector<nnue::PackedPosition> head(all.begin(),
                                                     all.begin() + std::ptrdiff_t(first.positions)),
            tail(all.begin() + std::ptrdiff_t(first.positions), all.end());
        CHECK(same(head, lines)); // the first run is the fresh file's
        CHECK(!same(tail, lines));
    }
    SECTION("threads share the games out") {
        o.threads = 2;
        DatagenSummary two;
        const auto both = generate(o, "e", two);
        CHECK(two.games == 3);
        CHECK(two.positions == both.size());
    }
}

TEST_CASE("datagen starts from the book's positions", "[datagen]") {
    const std::string book =
        write_temp("book.epd", "not a position\n"
                               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n");
    DatagenOptions o;
    o.games = 1;
    o.nodes = 300;
    o.book = book;
    o.random_plies = 0;
    DatagenSummary sum;
    const auto lines = generate(o, "d", sum);
    std::filesystem::remove(book);
    REQUIRE(!lines.empty());
    // Every game starts from the book's one position.
    CHECK(lines[0].fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

TEST_CASE("a soft node limit completes the iteration that passes it", "[datagen]") {
    TranspositionTable tt(16);
    ThreadPool pool(tt);
    pool.set_network(nullptr);
    Position pos;
    SearchLimits soft;
    soft.soft_nodes = 2000;
    soft.nodes = 20000;
    const ThreadPool::SyncResult s = pool.search_sync(pos, soft);
    CHECK(s.nodes >= 2000);
    CHECK(s.nodes < 20000);
    // The last iteration was whole: a fresh search to that depth spends the
    // same nodes.
    tt.clear();
    pool.clear_history();
    SearchLimits to_depth;
    to_depth.depth = s.depth;
    CHECK(pool.search_sync(pos, to_depth).nodes == s.nodes);
    tt.clear();
    pool.clear_history();
    SearchLimits hard;
    hard.nodes = 2000;
    CHECK(pool.search_sync(pos, hard).nodes == 2000);
}

TEST_CASE("datagen refuses bad options and writes nothing", "[datagen]") {
    std::ostringstream log;
    DatagenOptions o;
    o.out = temp_path("refused");
    std::filesystem::remove(o.out);
    auto refused = [&](DatagenOptions bad) { return run_datagen(bad, log).has_value(); };
    DatagenOptions bad = o;
    bad.games = 0;
    CHECK(refused(bad));
    bad = o;
    bad.nodes = 0;
    CHECK(refused(bad));
    bad = o;
    bad.threads = 0;
    CHECK(refused(bad));
    bad = o;
    bad.hash_mb = 0;
    CHECK(refused(bad));
    bad = o;
    bad.hash_mb = 1025;
    CHECK(refused(bad));
    bad = o;
    bad.threads = 256;
    bad.hash_mb = 1024; // 256 GB of tables
    if (const auto memory = physical_memory(); memory && *memory < (std::uint64_t(512) << 30))
        CHECK(refused(bad));
    bad = o;
    bad.book = temp_path("no-such-book");
    CHECK(refused(bad));
    bad = o;
    bad.out.clear();
    CHECK(refused(bad));
    CHECK(!std::filesystem::exists(o.out));
}

TEST_CASE("datagen's arguments set its options", "[datagen]") {
    const auto o = parse_datagen_args({"out=x.games", "hash=4", "threads=2", "nodes=300", "limit=hard"});
    REQUIRE(std::holds_alternative<DatagenOptions>(o));
    const DatagenOptions& set = std::get<DatagenOptions>(o);
    CHECK(set.out == "x.games");
    CHECK(set.hash_mb == 4);
    CHECK(set.threads == 2);
    CHECK(set.nodes == 300);
    CHECK(!set.soft);
    CHECK(std::get<DatagenOptions>(parse_datagen_args({"out=y"})).hash_mb == 2);
    for (const std::string_view bad : {"hash=", "hash=x", "hash=4MB", "hash", "size=4"})
        CHECK(std::get<std::string>(parse_datagen_args({"out=y", bad})) ==
              "datagen: bad argument '" + std::string(bad) + "'");
}

TEST_CASE("datagen cuts a torn last game off before appending and keeps the manifest", "[datagen]") {
    const std::string dir = temp_path("data-folder");
    std::filesystem::create_directories(dir);
    DatagenOptions o;
    o.games = 2;
    o.nodes = 300;
    o.seed = 7;
    std::ostringstream log;
    o.out = dir + "/a.games";
    REQUIRE(!run_datagen(o, log));
    o.out = dir + "/b.games";
    o.seed = 8;
    REQUIRE(!run_datagen(o, log));
    std::ofstream(o.out, std::ios::binary | std::ios::app).write("torn game", 9); // a killed run's last bytes
    REQUIRE(!run_datagen(o, log));
    CHECK(log.str().find("torn game: cut back to its last whole game (9 bytes removed)") !=
          std::string::npos);
    std::vector<nnue::PackedPosition> all;
    nnue::DataStats stats;
    const auto error = nnue::read_data(o.out, KEEP_ALL, all, stats);
    INFO(error.value_or(""));
    REQUIRE(!error);
    CHECK(stats.games == 4);
    const auto lines = nnue::read_manifest(nnue::manifest_path(o.out));
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].file == "a.games");
    CHECK(lines[0].seeds == "7");
    CHECK(lines[0].games == 2);
    CHECK(lines[1].file == "b.games");
    CHECK(lines[1].seeds == "8,8"); // two runs, the second appended
    CHECK(lines[1].games == 4);
    CHECK(lines[1].positions == stats.plies);
    CHECK(lines[1].bytes == std::filesystem::file_size(o.out));
    CHECK(lines[1].nets.starts_with("net-"));
    CHECK(!lines[1].commits.empty());
}

TEST_CASE("a signal stops datagen at a game boundary", "[datagen]") {
    DatagenOptions o;
    o.out = temp_path("signalled.games");
    o.manifest = false;
    o.games = 100000;
    o.nodes = 300;
    std::ostringstream log;
    DatagenSummary sum;
    std::optional<std::string> error;
    std::thread run([&] { error = run_datagen(o, log, &sum); });
    // Without datagen's handler SIGTERM would end the test process here.
    for (int i = 0; i < 3000 && !(std::filesystem::exists(o.out) && std::filesystem::file_size(o.out) > 0);
         ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::raise(SIGTERM);
    run.join();
    CHECK(!error);
    CHECK(log.str().find("stopped by a signal") != std::string::npos);
    CHECK(sum.games >= 1);
    CHECK(sum.games < 100000);
    std::vector<nnue::PackedPosition> all;
    nnue::DataStats stats;
    const auto read_error = nnue::read_data(o.out, KEEP_ALL, all, stats);
    INFO(read_error.value_or(""));
    REQUIRE(!read_error); // whole games only
    CHECK(stats.games == std::uint64_t(sum.games));
}
