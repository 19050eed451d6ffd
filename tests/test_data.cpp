// The data seam (nnue/data.h): every format told by its content whatever the
// file is called, xz-compressed files read through `xz -dc` (a missing `xz`
// a clear error), refusals with the file, the format and the offset, the
// positions before the damage kept; PGN as match runners write it, SAN both
// ways, and a round trip: datagen's games written as PGN with scores read
// back to the same positions, scores and results.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "game_bytes.h"
#include "staccato/datagen.h"
#include "staccato/movegen.h"
#include "staccato/nnue/data.h"
#include "staccato/nnue/games.h"
#include "staccato/san.h"
#include "suite.h"
#include "temp_path.h"

using namespace staccato;
using staccato::test::from_fen;
using staccato::test::game_bytes;
using staccato::test::KEEP_ALL;
using staccato::test::temp_path;
using staccato::test::write_temp;

namespace {

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool same(const std::vector<nnue::PackedPosition>& a, const std::vector<nnue::PackedPosition>& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(),
                      [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; });
}

struct Read {
    std::vector<nnue::PackedPosition> out;
    nnue::DataStats stats;
    std::optional<std::string> error;
};

Read read(const std::string& path, const nnue::GameFilter& filter = KEEP_ALL, bool need_scores = true) {
    Read r;
    r.error = nnue::read_data(path, filter, r.out, r.stats, need_scores);
    return r;
}

std::string record_bytes(const std::vector<nnue::PackedPosition>& records) {
    return {reinterpret_cast<const char*>(records.data()), records.size() * sizeof records[0]};
}

// Compresses `path` into path + ".xz" with the xz program; the tests need it
// (the README's test command installs xz-utils).
std::string xz(const std::string& path) {
    std::filesystem::remove(path + ".xz");
    REQUIRE(std::system(("xz -kq '" + path + "'").c_str()) == 0);
    return path + ".xz";
}

// The small PGN writer of the round trip: a game as fastchess writes it,
// each move's comment "score/depth time" from the mover's view, in pawns.
class PgnWriter : public nnue::GameVisitor {
  public:
    std::string text;

    void start(const Position& pos, int white_result) override {
        result_ = white_result == 2 ? "1-0" : white_result == 0 ? "0-1" : "1/2-1/2";
        text += "[Event \"round trip\"]\n[Result \"" + result_ + "\"]\n[FEN \"" + pos.fen() +
                "\"]\n[SetUp \"1\"]\n\n";
        line_.clear();
    }
    void move(const Position& before, Move m, int white_score, int ply) override {
        const bool white = before.side_to_move() == WHITE;
        const int mover = white ? white_score : -white_score;
        char score[32];
        if (std::abs(mover) > VALUE_MATE_IN_MAX_PLY)
            std::snprintf(score, sizeof score, "%cM%d", mover > 0 ? '+' : '-', VALUE_MATE - std::abs(mover));
        else
            std::snprintf(score, sizeof score, "%+.2f", mover / 100.0);
        std::string word;
        if (white)
            word += std::to_string(before.fullmove_number()) + ". ";
        else if (ply == 0)
            word += std::to_string(before.fullmove_number()) + "... ";
        word += to_san(before, m) + " {" + score + "/" + std::to_string(ply % 20 + 1) + " 0.012s}";
        add(word);
    }
    void end(int) override {
        add(result_);
        text += line_ + "\n\n";
    }

  private:
    void add(const std::string& word) { // lines of at most 80 characters, as PGN asks
        if (!line_.empty() && line_.size() + 1 + word.size() > 80) text += line_ + "\n", line_.clear();
        line_ += (line_.empty() ? "" : " ") + word;
    }
    std::string result_, line_;
};

const std::string PGN_GAMES = R"([Event "match"]
[White "a"]
[Black "b"]
[Result "1-0"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]

1... e5 {book} 2. Nf3 {+0.34/12 0.211s} Nc6 {-0.20/11 0.198s, tl=9.8s} 3. Bb5
{+0.41/13 0.3s} $1 a6 (3... Nf6 {a side line (with parens)} 4. O-O) 4. Ba4 {+0.40/12
0.2s} ; a rest-of-line comment
Nf6 {-0.35/12 0.2s} 5. O-O {+M3/20 0.1s} Be7 {-M2/20 0.1s} 1-0

[Event "match"]
[Result "1/2-1/2"]

1. d4 {book} d5 {book} 2. c4 {book} 1/2-1/2

[Event "match"]
[Result "*"]

1. e4 {+0.30/10 0.1s} *

[Event "lichess"]
[Result "0-1"]

1. e4 { [%eval 0.17] } 1... c5 { [%eval 0.19] } 2. Nf3 { [%eval #-3] } 0-1

[Event "match"]
[Result "1-0"]

1. e4 {+0.30/10 0.1s} e5 {-0.30/10 0.1s} 2. Ke3 {+0.1/1 0.1s} 1-0
)";

} // namespace

TEST_CASE("data files are told by their content, whatever they are called", "[data]") {
    const std::string games = game_bytes(std::string(Position::START_FEN), {"e2e4", "e7e5", "g1f3"}, 2);
    const Position pos = from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    const std::string records = record_bytes({nnue::PackedPosition::pack(pos, 900, 2)});
    const std::string text = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0\n";
    const std::string labelled = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 [1.0]\n";
    const std::string epd = "4k3/8/8/8/8/8/8/3QK3 w - - c9 \"1-0\";\n";
    const std::string pgn = "[Result \"1-0\"]\n\n1. e4 {+0.30/10 0.1s} 1-0\n";
    struct Case {
        std::string name, bytes;
        nnue::DataFormat format;
        std::uint64_t kept;
    };
    // Every name is another format's usual one.
    for (const Case& c : {Case{"games.bin", games, nnue::DataFormat::Games, 3},
                          Case{"records.games", records, nnue::DataFormat::Records, 1},
                          Case{"text.pgn", text, nnue::DataFormat::ScoredText, 1},
                          Case{"labelled.games", labelled, nnue::DataFormat::LabelledText, 1},
                          Case{"epd.txt", epd, nnue::DataFormat::LabelledText, 1},
                          Case{"pgn.txt.xz", pgn, nnue::DataFormat::Pgn, 1},
                          Case{"empty.pgn", "", nnue::DataFormat::Empty, 0}}) {
        INFO(c.name);
        const Read r = read(write_temp(c.name, c.bytes), KEEP_ALL, false);
        INFO(r.error.value_or(""));
        CHECK(!r.error);
        CHECK(r.stats.format == c.format);
        CHECK(r.stats.kept == c.kept);
        CHECK(r.out.size() == c.kept);
    }
    SECTION("what is none of them is refused with its name and what it looks like") {
        const std::string prose = write_temp("notes.games", "# my notes\nnothing here\n");
        Read r = read(prose);
        REQUIRE(r.error);
        CHECK_THAT(*r.error, Catch::Contains(prose) && Catch::Contains("not a data file") &&
                                 Catch::Contains("text") && Catch::Contains("# my notes"));
        const std::string junk = write_temp("junk.bin", std::string(40, '\x7f') + std::string(8, '\0'));
        r = read(junk);
        REQUIRE(r.error);
        CHECK_THAT(*r.error, Catch::Contains(junk) && Catch::Contains("binary") && Catch::Contains("7f 7f"));
        r = read(write_temp("short.bin", std::string("\x01\x02\x03", 3)));
        REQUIRE(r.error);
        CHECK_THAT(*r.error, Catch::Contains("3 bytes"));
        r = read(temp_path("no-such-file.games"));
        REQUIRE(r.error);
        CHECK_THAT(*r.error, Catch::Contains("cannot open"));
    }
    SECTION("the trainer refuses positions without scores; the tuner reads them") {
        const std::string path = write_temp("labelled.txt", labelled + epd);
        Read r = read(path);
        REQUIRE(r.error);
        CHECK_THAT(*r.error, Catch::Contains(path) && Catch::Contains("no search scores"));
        r = read(path, KEEP_ALL, false);
        REQUIRE(!r.error);
        REQUIRE(r.out.size() == 2);
        CHECK(r.out[0].result == 2);
        CHECK(r.out[0].score == 0);
    }
}

TEST_CASE("xz-compressed files read as they decompress, and a damaged one is refused", "[data]") {
    std::string bytes;
    for (int i = 0; i < 200; ++i)
        bytes +=
            game_bytes(std::string(Position::START_FEN), {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}, i % 3);
    const std::string plain = write_temp("many.games", bytes);
    const Read whole = read(plain);
    REQUIRE(!whole.error);
    REQUIRE(whole.out.size() == 1000);
    const std::string packed = xz(plain);
    const Read r = read(packed);
    INFO(r.error.value_or(""));
    REQUIRE(!r.error);
    CHECK(r.stats.compressed);
    CHECK(r.stats.format == nnue::DataFormat::Games);
    CHECK(same(r.out, whole.out));

    SECTION("cut off: xz's failure names the file, and the games before the cut stay") {
        const std::string compressed = file_bytes(packed);
        const std::string cut = write_temp("cut.games.xz", compressed.substr(0, compressed.size() - 40));
        const Read c = read(cut);
        REQUIRE(c.error);
        CHECK_THAT(*c.error, Catch::Contains(cut) && Catch::Contains("xz failed"));
        CHECK(c.out.size() % 5 == 0); // whole games only
        CHECK(c.out.size() == 5 * c.stats.games);
    }
    SECTION("no xz on the PATH: a clear error") {
        const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
        setenv("PATH", temp_path("empty-bin").c_str(), 1);
        const Read m = read(packed);
        setenv("PATH", old_path.c_str(), 1);
        REQUIRE(m.error);
        CHECK_THAT(*m.error, Catch::Contains(packed) && Catch::Contains("`xz` program was not found"));
        CHECK(m.out.empty());
    }
}

TEST_CASE("records and text are refused where they break, and what came before stays", "[data]") {
    const Position start;
    const auto good = nnue::PackedPosition::pack(start, 10, 1);
    auto bad = good;
    bad.pieces[0] = 0x77; // piece code 7: no such piece
    const std::string records = write_temp("damaged.bin", record_bytes({good, good, bad, good}));
    Read r = read(records);
    REQUIRE(r.error);
    CHECK_THAT(*r.error, Catch::Contains(records) && Catch::Contains("record 2 (byte 64)") &&
                             Catch::Contains("(read as records)"));
    CHECK(r.out.size() == 2);
    CHECK(r.out[0].fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");

    const std::string cut = write_temp("cut.bin", record_bytes({good, good}) + "xyz");
    r = read(cut);
    REQUIRE(r.error);
    CHECK_THAT(*r.error, Catch::Contains("record 2 (byte 64) is cut off after 3 of its 32 bytes"));
    CHECK(r.out.size() == 2);

    const std::string lines = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -25 | 0.5\n"
                              "\n"
                              "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0\n"
                              "8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 1.0\n" // no kings
                              "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0\n";
    const std::string text = write_temp("text.txt", lines);
    r = read(text);
    REQUIRE(r.error);
    const std::string where = "line 4 (byte " + std::to_string(lines.find("8/8/8/8/8/8/8/8")) + ")";
    CHECK_THAT(*r.error, Catch::Contains(text) && Catch::Contains(where) && Catch::Contains("bad FEN") &&
                             Catch::Contains("(read as scored text)"));
    REQUIRE(r.out.size() == 2);
    CHECK(r.out[0].score == -25); // White's view, as the file says
    CHECK(r.out[0].result == 1);
    CHECK(r.out[0].side == BLACK);
    CHECK(r.out[1].result == 2);
    r = read(write_temp("result.txt", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 2.0\n"));
    REQUIRE(r.error);
    CHECK_THAT(*r.error, Catch::Contains("line 1 (byte 0): bad result '2.0'"));
}

TEST_CASE("SAN: every legal move of the suites written and read back", "[data]") {
    int moves = 0;
    for (const std::string& fen : test::suite_fens(4)) {
        const Position pos = from_fen(fen);
        for (const ScoredMove& sm : MoveList(pos)) {
            const std::string san = to_san(pos, sm.move);
            const SanResult back = parse_san(pos, san);
            INFO(fen << " " << pos.move_to_uci(sm.move) << " " << san << " " << back.error);
            REQUIRE(back.move);
            CHECK(*back.move == sm.move);
            ++moves;
        }
    }
    CHECK(moves > 5000);
    const Position pos = from_fen("r3k2r/1P6/8/3pP3/8/2N3N1/8/R3K2R w KQkq d6 0 1");
    auto uci = [&](std::string_view san) {
        const SanResult r = parse_san(pos, san);
        return r.move ? pos.move_to_uci(*r.move) : "none: " + r.error;
    };
    CHECK(uci("exd6") == "e5d6");    // en passant
    CHECK(uci("bxa8=Q") == "b7a8q"); // capture and promotion
    CHECK(uci("b8N") == "b7b8n");    // promotion without '='
    CHECK(uci("O-O-O") == "e1c1");   // castling (the engine writes king to c1 in standard chess)
    CHECK(uci("0-0+") == "e1g1");    // zeros, a check mark
    CHECK(uci("Nce4") == "c3e4");    // file disambiguation
    CHECK(uci("Nc3e4!?") == "c3e4"); // more than needed, annotated
    CHECK_THAT(uci("Ne4"), Catch::Contains("ambiguous"));
    CHECK_THAT(uci("Qd1"), Catch::Contains("not legal"));
    CHECK_THAT(uci("Zz9"), Catch::StartsWith("none"));
    CHECK(to_san(pos, *pos.parse_uci_move("c3e4")) == "Nce4");
    CHECK(to_san(pos, *pos.parse_uci_move("b7a8q")) == "bxa8=Q+");
}

TEST_CASE("PGN as match runners write it: scores, books, mates, skipped and broken games", "[data]") {
    const std::string path = write_temp("match.pgn", PGN_GAMES);
    nnue::GameFilter filter = KEEP_ALL;
    const Read r = read(path, filter);
    REQUIRE(r.error); // game 5: Ke3 is not legal
    CHECK_THAT(*r.error, Catch::Contains(path) && Catch::Contains("game 5 (line 28)") &&
                             Catch::Contains("2. 'Ke3' is not legal") && Catch::Contains("(read as PGN)"));
    // Game 1: 9 moves, book e5 and the mates not under the filter's bound;
    // game 2 has no score (skipped), game 3 no result (skipped), game 4 is
    // lichess's [%eval] (White's view).
    CHECK(r.stats.games == 2);
    CHECK(r.stats.skipped == 2);
    REQUIRE(r.out.size() == 7 + 3);
    // 2. Nf3 {+0.34}: White's view +34; ... Nc6 {-0.20} by Black: White's +20.
    CHECK(r.out[0].fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    CHECK(r.out[0].score == 34);
    CHECK(r.out[1].score == 20);
    CHECK(r.out[0].result == 2);
    CHECK(r.out[2].score == 41);             // Bb5, the variation skipped
    CHECK(r.out[3].score == 40);             // Ba4 {+0.40/12 0.2s}, the comment over two lines
    CHECK(r.out[4].score == 35);             // ... Nf6 -0.35 for Black
    CHECK(r.out[5].score == VALUE_MATE - 3); // O-O +M3
    CHECK(r.out[6].score == VALUE_MATE - 2); // ... Be7 -M2 for Black
    CHECK(r.out[7].score == 17);
    CHECK(r.out[8].score == 19); // [%eval] is White's view already
    CHECK(r.out[9].score == -(VALUE_MATE - 3));
    CHECK(r.out[9].result == 0);

    filter = nnue::GameFilter{};           // the default: from ply 8, |score| < 1500, quiet, not in check
    CHECK(read(path, filter).out.empty()); // only ... Be7 is at ply 8, and it is mate-scored
    filter.min_ply = 2;
    CHECK(read(path, filter).out.size() == 4); // Nc6, Bb5, Ba4, Nf6 (a6 has no score)
}

TEST_CASE("Chess960 PGN: castling as O-O from the FEN's rooks", "[data]") {
    const std::string pgn =
        "[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 9\"]\n"
        "[SetUp \"1\"]\n[Result \"0-1\"]\n\n9. O-O {+0.10/5 0.1s} O-O {-0.10/5 0.1s} 0-1\n\n"
        "[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\n1. e4 {+0.10/5 0.1s} 1-0\n";
    const Read r = read(write_temp("frc.pgn", pgn));
    INFO(r.error.value_or(""));
    REQUIRE(!r.error);
    CHECK(r.stats.games == 1);
    CHECK(r.stats.skipped == 1); // another variant
    REQUIRE(r.out.size() == 2);
    Position after = from_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 9");
    after.push_game_move(*parse_san(after, "O-O").move);
    CHECK(r.out[1].occupancy == after.pieces());
    CHECK(r.out[1].score == 10);
}

TEST_CASE("datagen's games written as PGN read back to the same positions, scores and results", "[data]") {
    DatagenOptions o;
    o.out = temp_path("trip.games");
    o.manifest = false;
    o.games = 6;
    o.nodes = 400;
    o.seed = 11;
    std::ostringstream log;
    REQUIRE(!run_datagen(o, log));
    nnue::ByteSource src;
    REQUIRE(!src.open(o.out));
    PgnWriter writer;
    std::uint64_t games = 0;
    REQUIRE(!nnue::walk_games(src, writer, games));
    CHECK(games == 6);
    const std::string pgn = write_temp("trip.pgn", writer.text);
    for (const nnue::GameFilter& filter : {KEEP_ALL, nnue::GameFilter{}}) {
        const Read a = read(o.out, filter), b = read(pgn, filter);
        INFO(b.error.value_or(""));
        REQUIRE(!a.error);
        REQUIRE(!b.error);
        CHECK(b.stats.format == nnue::DataFormat::Pgn);
        CHECK(b.stats.games == 6);
        CHECK(b.stats.plies == a.stats.plies);
        CHECK(b.out.size() > 0);
        CHECK(same(a.out, b.out));
    }
}

TEST_CASE("PGN with a player named: that engine's scores alone, games it did not play skipped", "[data]") {
    const std::string pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
                            "1. e4 {+0.30/10 0.1s} e5 {-0.20/10 0.1s} 2. Nf3 {+0.40/10 0.1s} 1-0\n\n"
                            "[White \"B\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n"
                            "1. d4 {+0.10/9 0.1s} d5 {-0.50/9 0.1s} 0-1\n\n"
                            "[White \"C\"]\n[Black \"D\"]\n[Result \"1/2-1/2\"]\n\n"
                            "1. c4 {+0.05/8 0.1s} c5 {-0.05/8 0.1s} 1/2-1/2\n";
    const std::string path = write_temp("players.pgn", pgn);
    const Read all = read(path);
    INFO(all.error.value_or(""));
    REQUIRE(!all.error);
    CHECK(all.out.size() == 7);
    nnue::GameFilter filter = KEEP_ALL;
    filter.player = "A";
    const Read a = read(path, filter);
    REQUIRE(!a.error);
    CHECK(a.stats.games == 2);
    CHECK(a.stats.skipped == 1); // C against D
    REQUIRE(a.out.size() == 3);
    CHECK(a.out[0].score == 30); // 1. e4 by A
    CHECK(a.out[1].score == 40); // 2. Nf3 by A; ... e5 was B's
    CHECK(a.out[2].score == 50); // ... d5 by A as Black: -0.50 its view, +50 White's
    CHECK(a.out[2].result == 0);
    filter.player = "B";
    const Read b = read(path, filter);
    REQUIRE(!b.error);
    REQUIRE(b.out.size() == 2);
    CHECK(b.out[0].score == 20); // ... e5 by B as Black
    CHECK(b.out[1].score == 10); // 1. d4 by B
    filter.player = "nobody";
    const Read none = read(path, filter);
    REQUIRE(!none.error);
    CHECK(none.out.empty());
    CHECK(none.stats.skipped == 3);
}

TEST_CASE("a real fastchess match's PGN reads", "[data]") {
    for (const char* name : {"pgn/fastchess-10.pgn", "pgn/fastchess-frc.pgn"}) {
        const Read r = read(std::string(STACCATO_TEST_DATA) + "/" + name);
        INFO(name << " " << r.error.value_or(""));
        REQUIRE(!r.error);
        CHECK(r.stats.format == nnue::DataFormat::Pgn);
        CHECK(r.stats.games + r.stats.skipped ==
              (std::string(name).find("frc") != std::string::npos ? 2u : 10u));
        CHECK(r.stats.games > 0);
        CHECK(r.stats.kept > 50);
    }
}
