// The compact game format (nnue/games.h): the bytes of a known game, moves of
// every type and castling rights surviving the round trip, the load-time
// filter, and the refusal of damaged files with the file and byte offset,
// keeping the games read before the damage.
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "game_bytes.h"
#include "staccato/nnue/data.h"
#include "staccato/nnue/games.h"
#include "staccato/position.h"
#include "suite.h"
#include "temp_path.h"

using namespace staccato;
using staccato::test::from_fen;
using staccato::test::game_bytes;
using staccato::test::KEEP_ALL;
using staccato::test::temp_path;
using staccato::test::write_temp;

TEST_CASE("a game's bytes: the start board, a pair per move, four zero bytes", "[games]") {
    const std::string bytes = game_bytes(std::string(Position::START_FEN), {"e2e4", "e7e5"}, 2);
    REQUIRE(bytes.size() == 32 + 2 * 4 + 4);
    auto byte = [&](std::size_t i) { return int(static_cast<unsigned char>(bytes[i])); };
    // Occupancy of the start position: ranks 1, 2, 7 and 8.
    CHECK(byte(0) == 0xFF);
    CHECK(byte(1) == 0xFF);
    CHECK(byte(6) == 0xFF);
    CHECK(byte(7) == 0xFF);
    // a1 rook with its castling right (6), b1 knight (1): low nibble first.
    CHECK(byte(8) == 0x16);
    CHECK(byte(24) == 64); // White to move, no en-passant square
    CHECK(byte(30) == 2);  // White won
    // e2e4: from 12, to 28 -> 12 | 28 << 6 = 0x070C; score 10.
    CHECK(byte(32) == 0x0C);
    CHECK(byte(33) == 0x07);
    CHECK(byte(34) == 10);
    CHECK(bytes.substr(bytes.size() - 4) == std::string(4, '\0'));
}

TEST_CASE("every move type and the castling rights survive the round trip", "[games]") {
    // Castling both ways, en passant, promotions with and without capture.
    const std::string fen = "r3k2r/P5P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 30";
    const std::vector<std::string> moves = {"e5d6", "e8c8", "e1g1", "d8d6", "g7h8n", "c8b7", "a7a8q", "b7b6"};
    const std::string path = write_temp("moves.games", game_bytes(fen, moves, 1));
    std::vector<nnue::PackedPosition> out;
    nnue::DataStats stats;
    const auto error = nnue::read_data(path, KEEP_ALL, out, stats);
    INFO(error.value_or(""));
    REQUIRE(!error);
    REQUIRE(out.size() == moves.size());
    CHECK(stats.games == 1);
    CHECK(out[0].fen() == "r3k2r/P5P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    CHECK(out[1].fen() == "r3k2r/P5P1/3P4/8/8/8/8/R3K2R b KQkq - 0 1");
    CHECK(out[2].fen() == "2kr3r/P5P1/3P4/8/8/8/8/R3K2R w KQ - 1 1");
    CHECK(out[3].fen() == "2kr3r/P5P1/3P4/8/8/8/8/R4RK1 b - - 2 1");
    CHECK(out[7].fen() == "Q6N/1k6/3r4/8/8/8/8/R4RK1 b - - 0 1"); // in check: b7b6
    CHECK(out[0].score == 10);
    CHECK(out[7].score == 80);
    CHECK(out[0].result == 1);
    std::filesystem::remove(path);
}

TEST_CASE("the filter decides at load time which positions train", "[games]") {
    // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2: a capture, a check.
    const std::vector<std::string> moves = {"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "f1e2"};
    const std::string path =
        write_temp("filter.games", game_bytes(std::string(Position::START_FEN), moves, 0));
    std::vector<nnue::PackedPosition> all, quiet, late;
    nnue::DataStats stats;
    REQUIRE(!nnue::read_data(path, KEEP_ALL, all, stats));
    CHECK(all.size() == 7);
    nnue::GameFilter f{};
    f.min_ply = 0;
    REQUIRE(!nnue::read_data(path, f, quiet, stats));
    CHECK(quiet.size() == 4); // not exd5 or Qxd5 (captures), not the check's answer Be2
    f.min_ply = 4;
    f.max_score = 60; // scores are 10, 20, ... 70: the last is dropped
    REQUIRE(!nnue::read_data(path, f, late, stats));
    CHECK(late.size() == 1); // Nc3 (ply 4, score 50); Qe5+ is ply 5 (quiet, 60: at the bound)
    std::vector<nnue::PackedPosition> early;
    f = KEEP_ALL;
    f.max_ply = 3; // plies 0, 1, 2
    REQUIRE(!nnue::read_data(path, f, early, stats));
    REQUIRE(early.size() == 3);
    CHECK(early[2].score == all[2].score);
    std::filesystem::remove(path);
}

TEST_CASE("a damaged game file is refused with its offset, and earlier games stay", "[games]") {
    const std::string good = game_bytes(std::string(Position::START_FEN), {"e2e4", "e7e5", "g1f3"}, 1);
    const std::size_t second = good.size();
    auto refused = [&](const std::string& name, const std::string& bytes, const std::string& why) {
        const std::string path = write_temp(name, bytes);
        std::vector<nnue::PackedPosition> out(5); // what the caller already had
        nnue::DataStats stats;
        const auto error = nnue::read_data(path, KEEP_ALL, out, stats);
        std::filesystem::remove(path);
        REQUIRE(error);
        INFO(*error);
        CHECK(error->find(path) != std::string::npos);
        CHECK(error->find("game 2 at byte " + std::to_string(second)) != std::string::npos);
        CHECK(error->find("(read as games)") != std::string::npos);
        CHECK(error->find(why) != std::string::npos);
        CHECK(out.size() == 5 + 3); // the first game was kept
        CHECK(stats.games == 1);
    };
    SECTION("cut off") {
        refused("cut.games", good + good.substr(0, good.size() - 3), "cut off");
        refused("cut2.games", good + good.substr(0, 20), "cut off in its start board");
    }
    SECTION("a move that is not legal") {
        std::string bad = good;
        bad[32] = 0; // e2e4 becomes a1e4 (a rook through its own pawns)
        refused("illegal.games", good + bad, "not legal");
    }
    SECTION("an impossible score or result, a bad board") {
        std::string bad = good;
        bad[34] = char(0xFF), bad[35] = char(0x7F); // 32767
        refused("score.games", good + bad, "beyond a mate score");
        bad = good;
        bad[30] = 3;
        refused("result.games", good + bad, "bad result");
        bad = good;
        bad[8] = char(0x77); // piece type 7
        refused("board.games", good + bad, "bad start board");
    }
    SECTION("an unknown file is not read") {
        std::vector<nnue::PackedPosition> out;
        nnue::DataStats stats;
        CHECK(nnue::read_data(temp_path("missing.games"), KEEP_ALL, out, stats));
    }
}
