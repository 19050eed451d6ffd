#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "staccato/movegen.h"
#include "staccato/position.h"

using namespace staccato;

namespace {
std::vector<std::string> fens_from(const char* name, int every) {
    std::ifstream in(std::string(STACCATO_SHARED_DATA) + "/perft/" + name);
    REQUIRE(in.good());
    std::vector<std::string> out;
    int i = 0;
    for (std::string line; std::getline(in, line);)
        if (i++ % every == 0) out.push_back(line.substr(0, line.find(" ;")));
    return out;
}

void play_random_games(const std::string& fen, int games, int plies, std::mt19937_64& rng) {
    for (int g = 0; g < games; ++g) {
        Position pos;
        REQUIRE(!pos.set_fen(fen));
        const std::string start_fen = pos.fen();
        const Key start_key = pos.key();
        std::vector<Move> played;
        for (int p = 0; p < plies; ++p) {
            MoveList list(pos);
            if (list.size() == 0) break;
            Move m = list.begin()[rng() % list.size()].move;
            pos.make_move(m);
            played.push_back(m);
            std::string why;
            INFO(pos.fen() << " after " << p << " plies");
            REQUIRE(pos.is_consistent(&why));
            REQUIRE(pos.key() == pos.compute_key());
        }
        while (!played.empty()) {
            pos.unmake_move(played.back());
            played.pop_back();
            REQUIRE(pos.is_consistent());
        }
        REQUIRE(pos.fen() == start_fen);
        REQUIRE(pos.key() == start_key);
    }
}

std::string error_of(std::string_view fen) {
    Position pos;
    auto err = pos.set_fen(fen);
    return err ? *err : std::string();
}
} // namespace

TEST_CASE("FEN round trips", "[position]") {
    for (const char* name : {"standard.epd", "fischer.epd"})
        for (const std::string& fen : fens_from(name, 5)) {
            Position pos;
            REQUIRE(!pos.set_fen(fen));
            Position again;
            REQUIRE(!again.set_fen(pos.fen()));
            REQUIRE(again.fen() == pos.fen());
            REQUIRE(again.key() == pos.key());
        }
    Position pos;
    REQUIRE(pos.fen() == Position::START_FEN);
    REQUIRE(!pos.set_fen("rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3"));
    REQUIRE(pos.fen() == "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3");
    REQUIRE(!pos.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    REQUIRE(pos.ep_square() == SQ_NONE); // no black pawn can take: not kept
}

TEST_CASE("bad FENs are refused with a specific message", "[position]") {
    CHECK(error_of("8/8/8 w - - 0 1").find("fewer than 8 ranks") != std::string::npos);
    CHECK(error_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0").empty()); // 5 fields: ok
    CHECK(error_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w").find("fields") != std::string::npos);
    CHECK(error_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x y").find("fields") !=
          std::string::npos);
    CHECK(error_of("rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").find("bad piece letter") !=
          std::string::npos);
    CHECK(
        error_of("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").find("does not have 8 squares") !=
        std::string::npos);
    CHECK(error_of("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").find("more than 8 squares") !=
          std::string::npos);
    CHECK(error_of("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1").find("one black king") !=
          std::string::npos);
    CHECK(error_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1").find("one white king") !=
          std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1").empty());
    CHECK(error_of("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1").find("not to move is in check") != std::string::npos);
    CHECK(error_of("P3k3/8/8/8/8/8/8/4K3 w - - 0 1").find("first or last rank") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/p3K3 w - - 0 1").find("first or last rank") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 x - - 0 1").find("side to move") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K3 w K - 0 1").find("no matching rook") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2R w Z - 0 1").find("bad letter") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2R w - e9 0 1").find("not a square") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2R w - e3 0 1").find("wrong rank") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2R w - e6 0 1").find("double pawn push") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2R w - - x 1").find("halfmove clock") != std::string::npos);
    CHECK(error_of("4k3/8/8/8/8/8/8/4K2R w - - 0 -3").find("fullmove") != std::string::npos);
    CHECK(error_of("QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/4K3 b - - 0 1").find("too many") != std::string::npos);
    CHECK(error_of("").find("fields") != std::string::npos);

    Position pos;
    REQUIRE(!pos.set_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
    std::string before = pos.fen();
    REQUIRE(pos.set_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1"));
    REQUIRE(pos.fen() == before); // a refused FEN changes nothing
}

TEST_CASE("Chess960 castling letters", "[position]") {
    Position a, b;
    REQUIRE(!a.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    REQUIRE(!b.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"));
    REQUIRE(!a.is_chess960());
    REQUIRE(b.is_chess960()); // Shredder letters switch Chess960 on
    REQUIRE(a.key() == b.key());
    REQUIRE(MoveList(a).size() == MoveList(b).size());
    Position c;
    REQUIRE(!c.set_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"));
    REQUIRE(c.is_chess960()); // rooks off the corner files
    REQUIRE(c.fen() == "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
}

TEST_CASE("make/unmake restores everything along random games", "[position]") {
    std::mt19937_64 rng(99);
    play_random_games(std::string(Position::START_FEN), 60, 200, rng);
    for (const char* name : {"standard.epd", "fischer.epd"})
        for (const std::string& fen : fens_from(name, 16)) play_random_games(fen, 2, 80, rng);
}

TEST_CASE("null move", "[position]") {
    Position pos;
    REQUIRE(!pos.set_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"));
    pos.make_move(*pos.parse_uci_move("f7f5"));
    std::string fen = pos.fen();
    Key key = pos.key();
    REQUIRE(pos.ep_square() == SQ_F6);
    pos.make_null();
    REQUIRE(pos.side_to_move() == BLACK);
    REQUIRE(pos.ep_square() == SQ_NONE);
    REQUIRE(pos.key() == pos.compute_key());
    pos.unmake_null();
    REQUIRE(pos.fen() == fen);
    REQUIRE(pos.key() == key);
}

TEST_CASE("repetition, fifty moves, insufficient material", "[position]") {
    Position pos;
    const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (const char* m : cycle) REQUIRE(pos.push_game_move(*pos.parse_uci_move(m)));
    REQUIRE(!pos.is_repetition(pos.history_length())); // twice only: no three-fold yet
    REQUIRE(!pos.is_repetition(0));                    // the earlier occurrence is the root itself: not yet
    REQUIRE(pos.push_game_move(*pos.parse_uci_move("g1f3")));
    REQUIRE(pos.is_repetition(0)); // a repetition after the root counts at once
    REQUIRE(!pos.is_repetition(pos.history_length()));
    for (const char* m : {"g8f6", "f3g1", "f6g8"}) REQUIRE(pos.push_game_move(*pos.parse_uci_move(m)));
    REQUIRE(pos.is_repetition(pos.history_length())); // three-fold
    pos.make_move(*pos.parse_uci_move("e2e4"));
    REQUIRE(!pos.is_repetition(0)); // irreversible move: the scan stops

    REQUIRE(!pos.set_fen("4k3/8/8/8/8/8/8/4K2R w - - 99 80"));
    REQUIRE(!pos.is_fifty_move_draw());
    pos.make_move(*pos.parse_uci_move("h1h2"));
    REQUIRE(pos.is_fifty_move_draw());

    auto insufficient = [](const char* fen) {
        Position p;
        REQUIRE(!p.set_fen(fen));
        return p.has_insufficient_material();
    };
    REQUIRE(insufficient("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    REQUIRE(insufficient("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
    REQUIRE(insufficient("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
    REQUIRE(insufficient("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"));   // same-coloured bishops
    REQUIRE(!insufficient("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1")); // opposite colours
    REQUIRE(!insufficient("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"));
    REQUIRE(!insufficient("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
}

TEST_CASE("UCI move text", "[position]") {
    Position pos;
    REQUIRE(!pos.set_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    REQUIRE(pos.parse_uci_move("e1g1"));
    REQUIRE(pos.move_to_uci(*pos.parse_uci_move("e1g1")) == "e1g1");
    REQUIRE(pos.parse_uci_move("e1c1")->type() == MoveType::Castling);
    REQUIRE(pos.parse_uci_move("b7a8q")->promotion() == QUEEN);
    REQUIRE(pos.parse_uci_move("b7b8N")->promotion() == KNIGHT); // upper case accepted
    REQUIRE(!pos.parse_uci_move("b7b8"));                        // promotion piece missing
    REQUIRE(!pos.parse_uci_move("e1e3"));
    REQUIRE(!pos.parse_uci_move("zz"));
    REQUIRE(!pos.parse_uci_move("e1g1xx"));
    Position c960;
    REQUIRE(!c960.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"));
    REQUIRE(c960.parse_uci_move("e1h1"));
    REQUIRE(!c960.parse_uci_move("e1g1"));
    REQUIRE(c960.move_to_uci(*c960.parse_uci_move("e1a1")) == "e1a1");
}

TEST_CASE("game list capacity is checked", "[position]") {
    Position pos;
    const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    int played = 0;
    while (pos.push_game_move(*pos.parse_uci_move(cycle[played % 4]))) ++played;
    REQUIRE(played == MAX_GAME_PLY - 1);
    REQUIRE(pos.is_consistent());
}
