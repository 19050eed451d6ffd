// Self-play data generation: what it writes (labelled, quiet, legal
// positions), that a seed reproduces a run, that a book supplies the
// openings, and that bad options are refused without writing anything.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "staccato/datagen.h"
#include "staccato/nnue/packed.h"
#include "staccato/position.h"
#include "temp_path.h"

using namespace staccato;
using staccato::test::temp_path;

namespace {

bool same(const std::vector<nnue::PackedPosition>& a, const std::vector<nnue::PackedPosition>& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(),
                      [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; });
}

// Runs datagen into a fresh file and returns its records.
std::vector<nnue::PackedPosition> generate(DatagenOptions o, const std::string& name, DatagenSummary& sum) {
    o.out = temp_path(name);
    std::filesystem::remove(o.out);
    std::ostringstream log;
    const auto err = run_datagen(o, log, &sum);
    INFO(err.value_or(""));
    REQUIRE(!err);
    std::vector<nnue::PackedPosition> lines;
    const auto read_error = nnue::read_records(o.out, lines);
    INFO(read_error.value_or(""));
    REQUIRE(!read_error); // whole, well-formed records only
    std::filesystem::remove(o.out);
    return lines;
}

} // namespace

TEST_CASE("datagen writes quiet positions labelled with the game result", "[datagen]") {
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
    for (const nnue::PackedPosition& r : lines) {
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
    SECTION("threads share the games out") {
        o.threads = 2;
        DatagenSummary two;
        const auto both = generate(o, "e", two);
        CHECK(two.games == 3);
        CHECK(two.positions == both.size());
    }
}

TEST_CASE("datagen starts from the book's positions", "[datagen]") {
    const std::string book = temp_path("book.epd");
    {
        std::ofstream out(book);
        out << "not a position\n"
            << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n";
    }
    DatagenOptions o;
    o.games = 1;
    o.nodes = 300;
    o.book = book;
    o.random_plies = 0;
    DatagenSummary sum;
    const auto lines = generate(o, "d", sum);
    std::filesystem::remove(book);
    REQUIRE(!lines.empty());
    // The start position has no capture, so its best move is quiet: it is written.
    CHECK(lines[0].fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
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
    bad.book = temp_path("no-such-book");
    CHECK(refused(bad));
    bad = o;
    bad.out.clear();
    CHECK(refused(bad));
    CHECK(!std::filesystem::exists(o.out));
}
