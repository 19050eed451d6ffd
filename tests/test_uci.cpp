// The UCI layer driven line by line, as a GUI would, with output captured.
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "staccato/engine.h"
#include "staccato/uci.h"

using namespace staccato;

namespace {
struct Session {
    std::mutex m;
    std::vector<std::string> lines;
    Engine::Sink sink = [this](std::string_view l) {
        std::lock_guard lock(m);
        lines.emplace_back(l);
    };
    Engine engine{sink};
    UciLoop loop{engine, sink};

    bool send(std::string_view line) { return loop.handle_line(line); }
    int count(const std::string& prefix) {
        std::lock_guard lock(m);
        int n = 0;
        for (auto& l : lines) n += l.rfind(prefix, 0) == 0;
        return n;
    }
    std::string last() {
        std::lock_guard lock(m);
        return lines.empty() ? std::string() : lines.back();
    }
};
} // namespace

TEST_CASE("handshake and isready", "[uci]") {
    Session s;
    s.send("uci");
    REQUIRE(s.count("id name Staccato") == 1);
    REQUIRE(s.count("option name Hash type spin") == 1);
    REQUIRE(s.last() == "uciok");
    s.send("isready");
    REQUIRE(s.last() == "readyok");
    REQUIRE(!s.send("quit"));
}

TEST_CASE("setoption parsing and refusals", "[uci]") {
    Session s;
    s.send("setoption name move overhead value 30");
    CHECK(s.engine.options().move_overhead_ms == 30);
    s.send("setoption name Move Overhead value -5");
    CHECK(s.engine.options().move_overhead_ms == 30);
    CHECK(s.last().rfind("info string", 0) == 0);
    s.send("setoption name Hash value 99999999999999999999");
    s.send("setoption name Hash value lots");
    s.send("setoption name Hash");
    CHECK(s.engine.options().hash_mb == 16);
    s.send("setoption name HASH value 8");
    CHECK(s.engine.options().hash_mb == 8);
    s.send("setoption name Threads value 0");
    CHECK(s.engine.options().threads == 1);
    s.send("setoption name UCI_ShowWDL value maybe");
    CHECK(!s.engine.options().show_wdl);
    s.send("setoption name UCI_ShowWDL value true");
    CHECK(s.engine.options().show_wdl);
    s.send("setoption name No Such Option value 1");
    CHECK(s.last().find("unknown option") != std::string::npos);
    s.send("setoption name Clear Hash");
}

TEST_CASE("bad positions leave the previous one in place", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4");
    const std::string fen = s.engine.position().fen();
    for (const char* bad :
         {"position fen 8/8/8/8 w - - 0 1", "position fen", "position startpos moves e7e5 e2e4 e1e3",
          "position startpos moves e2e4 xyz", "position", "position nonsense",
          "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5"}) {
        s.send(bad);
        INFO(bad);
        CHECK(s.last().rfind("info string", 0) == 0);
        CHECK(s.engine.position().fen() == fen);
    }
}

TEST_CASE("garbage input never breaks the loop", "[uci]") {
    Session s;
    s.send("");
    s.send("   ");
    s.send(std::string(100000, 'x'));
    s.send("\xff\xfe\x80 go \x01"); // unknown tokens skipped: a plain go, searches until stop
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s.send("stop");
    s.engine.wait_until_idle();
    s.send("go wtime -5 btime notanumber depth 99999999999999999999999");
    s.engine.wait_until_idle();
    s.send("go depth"); // no usable limit: searches until stop
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s.send("stop");
    s.engine.wait_until_idle();
    s.send("joho debug on");
    s.send("isready");
    CHECK(s.last() == "readyok");
    CHECK(s.count("bestmove") == 3);
}

TEST_CASE("go gives exactly one bestmove and stop ends infinite", "[uci]") {
    Session s;
    s.send("position startpos");
    s.send("go depth 3");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 1);
    s.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(s.count("bestmove") == 1); // infinite never answers by itself
    s.send("isready");
    s.send("go depth 1"); // refused while searching
    s.send("stop");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 2);
    s.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go movetime 100");
    s.engine.wait_until_idle();
    CHECK(s.last() == "bestmove 0000");
}

TEST_CASE("ponder waits for ponderhit", "[uci]") {
    Session s;
    s.send("position startpos");
    s.send("go ponder wtime 100 btime 100");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(s.count("bestmove") == 0);
    s.send("ponderhit");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 1);
}
