// The UCI layer driven line by line, as a GUI would, with output captured.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <limits>
#include <locale>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "staccato/engine.h"
#include "staccato/parse.h"
#include "staccato/uci.h"
#include "uci_session.h"

using namespace staccato;

namespace {
using Session = test::UciSession;
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
    s.send("setoption name move overhead value 40");
    CHECK(s.engine.options().move_overhead_ms == 40);
    s.send("setoption name Move Overhead value -5");
    CHECK(s.engine.options().move_overhead_ms == 40);
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

TEST_CASE("a refused position leaves none: go answers bestmove 0000 at once", "[uci]") {
    Session s;
    for (const char* bad :
         {"position fen 8/8/8/8 w - - 0 1", "position fen", "position startpos moves e7e5 e2e4 e1e3",
          "position startpos moves e2e4 xyz", "position", "position nonsense",
          "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5"}) {
        INFO(bad);
        s.send("position startpos moves e2e4");
        REQUIRE(s.engine.position());
        s.send(bad);
        CHECK(s.last().rfind("info string", 0) == 0);
        CHECK(s.last().find("(no position until the next valid one)") != std::string::npos);
        CHECK(!s.engine.position());
        const int answered = s.count("bestmove");
        s.send("go depth 5");
        CHECK(!s.engine.searching()); // answered at once, nothing to stop
        CHECK(s.count("bestmove") == answered + 1);
        CHECK(s.last() == "bestmove 0000");
        std::lock_guard lock(s.m);
        CHECK(s.lines[s.lines.size() - 2].rfind("info string no position to search", 0) == 0);
    }
    // d, eval and go perft say so too; go infinite and go ponder answer at once.
    s.send("d");
    CHECK(s.last().rfind("info string no position to search", 0) == 0);
    s.send("eval");
    CHECK(s.last().rfind("info string no position to search", 0) == 0);
    const int answered = s.count("bestmove");
    for (const char* go : {"go infinite", "go ponder wtime 1000 btime 1000", "go perft 2", "go nodes 2x"})
        s.send(go);
    CHECK(s.count("bestmove 0000") == answered + 4);
    CHECK(!s.engine.searching());
    // The next valid position is searched as usual.
    s.send("position startpos moves e2e4");
    s.send("go depth 2");
    s.engine.wait_until_idle();
    CHECK(s.last() != "bestmove 0000");
    CHECK(s.engine.position()->parse_uci_move(s.last().substr(9, 4)).has_value());
}

TEST_CASE("garbage input never breaks the loop", "[uci]") {
    Session s;
    s.send("");
    s.send("   ");
    s.send(std::string(100000, 'x'));
    s.send("\xff\xfe\x80 go \x01"); // unknown tokens skipped: nothing usable left, a short search
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s.send("stop");
    s.engine.wait_until_idle();
    s.send("go wtime -5 btime notanumber depth 99999999999999999999999");
    s.engine.wait_until_idle();
    s.send("go depth"); // its only limit has no value: a short search, which ends by itself
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
    for (int d = 1; d <= 3; ++d) // ended on its limit: no repeated final line
        CHECK(s.count("info depth " + std::to_string(d) + " ") == 1);
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

TEST_CASE("stop right after go: bestmove of a finished depth 1", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    s.send("go infinite");
    s.send("stop");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 1);
    CHECK(s.count("info depth 1 ") >= 1);
    CHECK(s.count("info depth 0") == 0);
}

TEST_CASE("UCI_Chess960 off goes back to standard castling notation", "[uci]") {
    Session s;
    const char* open_castle = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    s.send("setoption name UCI_Chess960 value true");
    s.send(open_castle);
    CHECK(s.engine.position()->move_to_uci(*s.engine.position()->parse_uci_move("e1h1")) == "e1h1");
    s.send("setoption name UCI_Chess960 value false");
    CHECK(s.engine.position()->move_to_uci(*s.engine.position()->parse_uci_move("e1g1")) == "e1g1");
    // Rights that only Chess960 can express keep its notation.
    s.send("position fen 1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
    s.send("setoption name UCI_Chess960 value false");
    CHECK(s.engine.position()->is_chess960());
}

TEST_CASE("Threads 2: helpers share the table, one bestmove per go", "[uci][threads]") {
    Session s;
    s.send("setoption name Threads value 2");
    REQUIRE(s.engine.options().threads == 2);
    s.send("setoption name Hash value 8");
    s.send("ucinewgame");
    s.send("position startpos moves d2d4 g8f6 c2c4 e7e6");
    s.send("go depth 9");
    s.engine.wait_until_idle();
    s.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s.send("isready");
    s.send("stop");
    s.engine.wait_until_idle();
    s.send("ucinewgame");
    s.send("go nodes 30000");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 3);
    CHECK(s.count("readyok") == 1);
    // All three searched the same position: each move must be legal there.
    const Position& pos = *s.engine.position();
    std::lock_guard lock(s.m);
    for (const std::string& l : s.lines)
        if (l.rfind("bestmove", 0) == 0) {
            const std::string move = l.substr(9, l.find(' ', 9) - 9);
            CHECK(pos.parse_uci_move(move).has_value());
        }
}

TEST_CASE("Threads: the threads serve search after search, are remade on a change and joined at the end",
          "[uci][threads]") {
    {
        Session s;
        s.send("position startpos moves e2e4 c7c5");
        int searches = 0;
        for (int threads : {3, 3, 1, 4, 2}) {
            s.send("setoption name Threads value " + std::to_string(threads));
            REQUIRE(s.engine.options().threads == threads);
            for (int i = 0; i < 4; ++i, ++searches) {
                s.send(i % 2 ? "go depth 4" : "go nodes 2000");
                s.engine.wait_until_idle();
                CHECK(!s.engine.searching());
            }
            s.send("go infinite"); // ended by stop
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            s.send("stop");
            s.engine.wait_until_idle();
            ++searches;
        }
        CHECK(s.count("bestmove") == searches);
        s.send("setoption name Threads value 3");
        s.send("go infinite"); // left running: the engine's end stops it and joins every thread
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    SUCCEED();
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

TEST_CASE("go before position searches the start position", "[uci]") {
    Session s;
    s.send("go depth 2");
    s.engine.wait_until_idle();
    REQUIRE(s.count("bestmove") == 1);
    std::string move = s.last().substr(9, 4);
    Position start;
    CHECK(start.parse_uci_move(move).has_value());
}

TEST_CASE("position accepts 4-field FENs, moves and CRLF line ends", "[uci]") {
    Session s;
    s.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3\r");
    CHECK(s.engine.position()->fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    s.send("position startpos moves e2e4 e7e5 g1f3\r");
    CHECK(s.engine.position()->fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    s.send("  position\tstartpos   moves  e2e4 ");
    CHECK(s.engine.position()->fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    s.send("position startpos moves");
    CHECK(s.engine.position()->fen() == Position().fen());
}

TEST_CASE("bad FEN is refused with the reason from set_fen", "[uci]") {
    Session s;
    s.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    CHECK(s.last().rfind("info string FEN must have exactly one white king", 0) == 0);
    CHECK(!s.engine.position());
    s.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR " + std::string(100000, 'w') +
           " KQkq - 0 1");
    CHECK(s.last().rfind("info string FEN side to move", 0) == 0);
    CHECK(s.last().size() < 400); // the echo of untrusted input is cut short
    s.send("go depth 1");
    CHECK(s.last() == "bestmove 0000");
    CHECK(s.count("info string no position to search (the last position command was refused: FEN side") == 1);
    std::lock_guard lock(s.m);
    for (const std::string& l : s.lines) CHECK(l.size() < 400);
}

TEST_CASE("lenient FEN: an impossible castling right or en-passant square is dropped with a warning",
          "[uci]") {
    Session s;
    s.send("position fen 2rkr3/2p1p3/8/8/8/8/8/4K2R w KQ - 0 1");
    CHECK(s.count("info string FEN castling 'Q' has no matching rook: right dropped") == 1);
    CHECK(s.engine.position()->fen() == "2rkr3/2p1p3/8/8/8/8/8/4K2R w K - 0 1");
    s.send("go depth 3");
    s.engine.wait_until_idle();
    CHECK(s.engine.position()->parse_uci_move(s.last().substr(9, s.last().find(' ', 9) - 9)).has_value());
    s.send("position fen 6k1/8/8/3Pq3/8/8/8/6K1 w - e6 0 1");
    CHECK(s.count("info string FEN en-passant square e6 does not follow a double pawn push: cleared") == 1);
    CHECK(s.engine.position()->fen() == "6k1/8/8/3Pq3/8/8/8/6K1 w - - 0 1");
    s.send("go depth 3");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 2);
    const std::string move = s.last().substr(9, s.last().find(' ', 9) - 9);
    CHECK(move != "d5e6"); // the en-passant capture the FEN could not have meant
    CHECK(s.engine.position()->parse_uci_move(move).has_value());
}

TEST_CASE("unknown commands and leading junk", "[uci]") {
    Session s;
    s.send("joho");
    CHECK(s.last() == "info string unknown command: joho");
    s.send("\xc3\x28 \xa0\xa1");
    CHECK(s.last().rfind("info string unknown command: ", 0) == 0);
    for (unsigned char c : s.last()) CHECK((c >= 32 && c < 127));
    s.send("joho isready");
    CHECK(s.last() == "readyok");
    s.send("debug on");
    s.send("debug off");
    s.send("xyzzy uci");
    CHECK(s.last() == "uciok");
    s.send("position startpos moves e2e4");
    s.send("d");
    CHECK(s.count("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") == 1);
    s.send("eval");
    CHECK(s.last().size() > 0);
    std::size_t before = s.lines.size();
    s.send("");
    s.send("\r");
    s.send(" \t ");
    CHECK(s.lines.size() == before); // blank lines: no answer
}

TEST_CASE("help inside the loop prints the usage, naming every command", "[uci]") {
    Session s;
    s.send("help");
    std::vector<std::string> usage;
    for (std::string_view rest = usage_text(); !rest.empty();) {
        const std::size_t end = rest.find('\n');
        usage.emplace_back(rest.substr(0, end));
        rest.remove_prefix(end == rest.npos ? rest.size() : end + 1);
    }
    REQUIRE(s.lines == usage); // the same text as `staccato help`, line by line
    CHECK(s.lines.front().rfind("usage: staccato", 0) == 0);
    // Each command as a whole word somewhere in the text: the loop's and
    // the command line's own.
    std::string text = " ";
    for (const std::string& l : s.lines) text += l + ' ';
    for (char& c : text)
        if (c == ',' || c == ':' || c == '(' || c == ')') c = ' ';
    std::vector<std::string_view> commands = UciLoop::commands();
    for (std::string_view c : {"datagen", "tbbench", "--help", "-h", "--version", "-v"})
        commands.push_back(c);
    CHECK(commands.size() >= 24);
    for (std::string_view c : commands) {
        INFO(c);
        CHECK(text.find(' ' + std::string(c) + ' ') != std::string::npos);
    }
    // It leaves the loop as it was.
    s.send("isready");
    CHECK(s.last() == "readyok");
}

TEST_CASE("go perft prints the divide", "[uci]") {
    Session s;
    s.send("position startpos");
    s.send("go perft 3");
    bool found = false;
    for (auto& l : s.lines) found |= l.find("8902") != std::string::npos;
    CHECK(found);
    s.send("go perft -1");
    CHECK(s.last().rfind("info string", 0) == 0);
    s.send("go perft 99999999999999999999999");
    CHECK(s.last().rfind("info string", 0) == 0);
    CHECK(s.count("bestmove") == 0);
}

TEST_CASE("go searchmoves restricts the root, illegal ones are dropped", "[uci]") {
    Session s;
    s.send("position startpos");
    s.send("go depth 4 searchmoves a2a3 e2e5 zz");
    s.engine.wait_until_idle();
    CHECK(s.count("info string go searchmoves: illegal or malformed move 'e2e5' dropped") == 1);
    CHECK(s.count("info string go searchmoves: illegal or malformed move 'zz' dropped") == 1);
    CHECK(s.last().rfind("bestmove a2a3", 0) == 0);
    s.send("go searchmoves h2h4 depth 3");
    s.engine.wait_until_idle();
    CHECK(s.last().rfind("bestmove h2h4", 0) == 0);
    s.send("go searchmoves e1e2 depth 1"); // nothing legal: all moves
    s.engine.wait_until_idle();
    CHECK(s.count("info string go searchmoves: no legal move given") == 1);
    CHECK(s.count("bestmove") == 3);
}

TEST_CASE("go values never swallow a keyword, and overflow is clamped", "[uci]") {
    Session s;
    s.send("go depth infinite");
    CHECK(s.count("info string go: missing value for depth") == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(s.count("bestmove") == 0); // infinite was kept
    s.send("stop");
    CHECK(s.count("bestmove") == 1); // stop returns after bestmove
    s.send("go nodes 18446744073709551616 depth 2");
    s.engine.wait_until_idle();
    CHECK(s.count("info string go: nodes '18446744073709551616' read as 1125899906842624") == 1);
    s.send("go movetime -100000000000000000 wtime 9223372036854775807 btime -9223372036854775808 movestogo "
           "-1 depth 1");
    s.engine.wait_until_idle();
    CHECK(s.count("info string go: movetime '-100000000000000000' read as 1") == 1);
    CHECK(s.count("info string go: wtime '9223372036854775807' read as 1099511627776") == 1);
    CHECK(s.count("info string go: btime '-9223372036854775808' read as 0") == 1);
    CHECK(s.count("info string go: movestogo '-1' read as 0") == 1);
    CHECK(s.count("bestmove") == 3);
}

TEST_CASE("parse_lenient_integer reads what a GUI clearly meant", "[uci]") {
    const struct {
        const char* text;
        std::int64_t value;
        bool exact;
    } good[] = {
        {"1000", 1000, true},
        {"-5", -5, true},
        {"+1000", 1000, false},
        {"1000.5", 1000, false},
        {"1000.", 1000, false},
        {"+7.25", 7, false},
        {"-0.5", 0, false},
        {"99999999999999999999", std::numeric_limits<std::int64_t>::max(), false},
        {"9223372036854775808", std::numeric_limits<std::int64_t>::max(), false},
        {"9223372036854775807", std::numeric_limits<std::int64_t>::max(), true},
        {"-99999999999999999999", std::numeric_limits<std::int64_t>::min(), false},
    };
    for (const auto& g : good) {
        INFO(g.text);
        const auto v = parse_lenient_integer(g.text);
        REQUIRE(v);
        CHECK(v->value == g.value);
        CHECK(v->exact == g.exact);
    }
    for (const char* bad :
         {"", "+", "-", ".", ".5", "2x", "+-1", "--1", "1e3", "1.5x", "1..5", " 1", "0x10"}) {
        INFO(bad);
        CHECK(!parse_lenient_integer(bad));
    }
}

TEST_CASE("parse_number reads plain decimals as floating point", "[uci][parse]") {
    CHECK(parse_number<double>("0.5") == 0.5);
    CHECK(parse_number<double>("-1.25e-3") == -1.25e-3);
    CHECK(parse_number<double>("3") == 3.0);
    CHECK(parse_number<double>("1E2") == 100.0);
    CHECK(parse_number<double>("1e+2") == 100.0);
    CHECK(parse_number<double>("0.1") == 0.1); // correctly rounded, as the compiler reads it
    CHECK(parse_number<float>("0.1") == 0.1f);
    // A point needs a digit on one side only, as with from_chars.
    CHECK(parse_number<double>("1.") == 1.0);
    CHECK(parse_number<double>(".5") == 0.5);
    CHECK(parse_number<double>("-.5") == -0.5);
    // The largest double, and a subnormal, are in range.
    CHECK(parse_number<double>("1.7976931348623157e308") == std::numeric_limits<double>::max());
    CHECK(parse_number<double>("4.9e-324") == std::numeric_limits<double>::denorm_min());
    CHECK(parse_number<double>("0e999") == 0.0);
}

TEST_CASE("parse_number refuses floating-point text that is not a plain decimal in range", "[uci][parse]") {
    for (const char* bad :
         {"",      "0,5",  "+1",    " 1",   "1 ",       "1\n",   ".",      "-",       "-.",
          "--1",   "inf",  "-inf",  "nan",  "infinity", "1e",    "1e+",    "1e-",     "e5",
          "1e5.5", "1.5.", "0x1p3", "0x10", "1f",       "1e999", "-1e999", "1.8e308", "1e-400"}) {
        INFO("'" << bad << "'");
        CHECK(!parse_number<double>(bad));
    }
    CHECK(!parse_number<float>("1e39")); // beyond float, within double
    CHECK(parse_number<double>("1e39"));
}

namespace {
// A decimal comma, as some national locales write numbers.
struct CommaDecimal : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
};

// Makes `l` the global C++ locale while it lives, then restores the one before.
class GlobalLocale {
  public:
    explicit GlobalLocale(const std::locale& l) : old_(std::locale::global(l)) {}
    ~GlobalLocale() { std::locale::global(old_); }
    GlobalLocale(const GlobalLocale&) = delete;
    GlobalLocale& operator=(const GlobalLocale&) = delete;

  private:
    std::locale old_;
};
} // namespace

TEST_CASE("parse_number reads a decimal point whatever the global locale", "[uci][parse]") {
    const std::locale before;
    {
        GlobalLocale comma(std::locale(std::locale::classic(), new CommaDecimal));
        // The locale is in force: a plain stream writes and reads a comma.
        std::ostringstream out;
        out << 0.5;
        REQUIRE(out.str() == "0,5");
        double streamed = 0;
        std::istringstream("0,5") >> streamed;
        REQUIRE(streamed == 0.5);

        CHECK(parse_number<double>("0.5") == 0.5);
        CHECK(parse_number<double>("-1.25e-3") == -1.25e-3);
        CHECK(parse_number<float>("0.5") == 0.5f);
        CHECK(!parse_number<double>("0,5"));
        CHECK(!parse_number<float>("0,5"));
    }
    CHECK(std::locale() == before);
}

// The move of the last `bestmove` line, which must be legal in `pos`.
std::string last_bestmove(Session& s, const Position& pos) {
    std::lock_guard lock(s.m);
    auto line = std::find_if(s.lines.rbegin(), s.lines.rend(),
                             [](const std::string& l) { return l.rfind("bestmove ", 0) == 0; });
    REQUIRE(line != s.lines.rend());
    const std::string move = line->substr(9, line->find(' ', 9) - 9);
    INFO(pos.fen() << " bestmove " << move);
    CHECK(pos.parse_uci_move(move).has_value());
    return move;
}

TEST_CASE("a go whose limits are malformed still answers after a short search", "[uci]") {
    Session s;
    s.send("position startpos moves e2e4");
    const Position pos = *s.engine.position();
    for (const char* go : {"go depth 2x", "go depth", "go dpeth 5", "go nodes lots movetime 1e3",
                           "go wtime 1000 winc 10" /* only White's clock, Black to move */}) {
        INFO(go);
        const int answered = s.count("bestmove");
        const int fallbacks = s.count("info string go: no usable limit left, searching 100 ms");
        const auto start = std::chrono::steady_clock::now();
        s.send(go);
        s.engine.wait_until_idle();
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
        CHECK(s.count("info string go: no usable limit left, searching 100 ms") == fallbacks + 1);
        CHECK(s.count("bestmove") == answered + 1);
        last_bestmove(s, pos);
    }
    CHECK(s.count("info string go: bad value for depth: '2x'") == 1);
    CHECK(s.count("info string go: missing value for depth") == 1);
    CHECK(s.count("info string go: unknown token 'dpeth' skipped") == 1);
    // Another limit still bounds the search: the bad one is only skipped.
    s.send("go depth 2 nodes lots");
    s.engine.wait_until_idle();
    CHECK(s.count("info string go: bad value for nodes: 'lots'") == 2);
    CHECK(s.count("info string go: no usable limit left") == 5);
    CHECK(s.count("bestmove") == 6);
    // go infinite stays infinite, whatever else was malformed.
    s.send("go infinite depth 2x");
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    CHECK(s.engine.searching());
    s.send("stop");
    CHECK(s.count("bestmove") == 7);
}

TEST_CASE("go numbers: +1000 and 1000.5 read as 1000, values of 2^63 and over clamped", "[uci]") {
    Session s;
    s.send("position startpos moves d2d4");
    const Position pos = *s.engine.position();
    for (const char* go : {"go wtime 1000.5 btime 1000.5", "go wtime +1000 btime +1000"}) {
        INFO(go);
        const int answered = s.count("bestmove");
        const auto start = std::chrono::steady_clock::now();
        s.send(go);
        s.engine.wait_until_idle();
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1500));
        CHECK(s.count("bestmove") == answered + 1);
        last_bestmove(s, pos);
    }
    CHECK(s.count("info string go: wtime '1000.5' read as 1000") == 1);
    CHECK(s.count("info string go: btime '1000.5' read as 1000") == 1);
    CHECK(s.count("info string go: wtime '+1000' read as 1000") == 1);
    CHECK(s.count("info string go: btime '+1000' read as 1000") == 1);
    CHECK(s.count("info string go: no usable limit") == 0);

    // Too large for any field: effectively no limit, so the search runs
    // until stop, which brings exactly one bestmove.
    const struct {
        const char* go;
        const char* warning;
    } huge[] = {
        {"go nodes 99999999999999999999",
         "info string go: nodes '99999999999999999999' read as 1125899906842624"},
        {"go movetime 9223372036854775808",
         "info string go: movetime '9223372036854775808' read as 1099511627776"},
        {"go depth 9223372036854775808", "info string go: depth '9223372036854775808' read as 124"},
        {"go wtime 9223372036854775808 btime 9223372036854775808",
         "info string go: btime '9223372036854775808' read as 1099511627776"},
        {"go wtime 1000 btime 1000 binc 99999999999999999999 movestogo 1e30",
         "info string go: binc '99999999999999999999' read as 1099511627776"},
    };
    for (const auto& h : huge) {
        INFO(h.go);
        const int answered = s.count("bestmove");
        s.send(h.go);
        CHECK(s.count(h.warning) == 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        CHECK(s.engine.searching());
        s.send("stop");
        CHECK(s.count("bestmove") == answered + 1);
        last_bestmove(s, pos);
    }
    CHECK(s.count("info string go: bad value for movestogo: '1e30'") == 1);
}

TEST_CASE("stop, position and go in one burst are all honoured", "[uci]") {
    Session s;
    s.send("position startpos");
    s.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    s.send("stop");
    s.send("position startpos moves e2e4");
    s.send("go depth 2");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 2);
    CHECK(s.count("info string") == 0);
    CHECK(s.engine.position()->fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST_CASE("commands refused while searching", "[uci]") {
    Session s;
    s.send("go infinite");
    s.send("setoption name Hash value 32");
    CHECK(s.last().find("ignored while searching") != std::string::npos);
    s.send("setoption name threads value 2");
    CHECK(s.last().find("ignored while searching") != std::string::npos);
    s.send("position startpos moves e2e4");
    CHECK(s.last().rfind("info string position ignored", 0) == 0);
    s.send("ucinewgame");
    CHECK(s.last().rfind("info string ucinewgame ignored", 0) == 0);
    s.send("go depth 1");
    CHECK(s.last().rfind("info string go ignored", 0) == 0);
    s.send("isready");
    CHECK(s.last() == "readyok");
    s.send("setoption name MultiPV value 2"); // affects the next search only
    CHECK(s.engine.options().multipv == 2);
    CHECK(!s.send("quit"));
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 1);
    CHECK(s.engine.options().hash_mb == 16);
    CHECK(s.engine.options().threads == 1);
    CHECK(!s.engine.position()); // the position refused while searching left none
}

TEST_CASE("every option by name, any case, with spaces", "[uci]") {
    Session s;
    s.send("setoption name threads value 2");
    CHECK(s.engine.options().threads == 2);
    s.send("setoption name MULTIPV value 3");
    CHECK(s.engine.options().multipv == 3);
    s.send("setoption name MultiPV value 257");
    CHECK(s.engine.options().multipv == 3);
    s.send("setoption name Ponder value TRUE");
    CHECK(s.engine.options().ponder);
    s.send("setoption name uci_chess960 value true");
    CHECK(s.engine.options().chess960);
    s.send("setoption name UCI_Chess960 value false");
    CHECK(!s.engine.options().chess960);
    s.send("setoption name Move   Overhead value 0");
    CHECK(s.engine.options().move_overhead_ms == 0);
    s.send("setoption name Move Overhead value 5001");
    s.send("setoption name Move Overhead value 2147483648");
    s.send("setoption name Move Overhead value 1e3");
    s.send("setoption name Move Overhead value +7");
    s.send("setoption name Move Overhead value");
    CHECK(s.engine.options().move_overhead_ms == 0);
    s.send("setoption name Hash value 0");
    s.send("setoption name Hash value 65537");
    CHECK(s.engine.options().hash_mb == 16);
    s.send("setoption name Hash value 1");
    CHECK(s.engine.options().hash_mb == 1);
    s.send("setoption name Clear Hash");
    s.send("setoption name");
    s.send("setoption");
    CHECK(s.last().rfind("info string setoption: missing option name", 0) == 0);
    s.send("go depth 3");
    s.engine.wait_until_idle();
    CHECK(s.count("bestmove") == 1);
    CHECK(s.count("info depth 3 seldepth") >= 1);
}

TEST_CASE("a long line of junk arguments does not flood the output", "[uci]") {
    Session s;
    std::string line = "go depth 1 searchmoves";
    for (int i = 0; i < 20000; ++i) line += " zz";
    s.send(line);
    s.engine.wait_until_idle();
    CHECK(s.count("info string go searchmoves: illegal") == 8);
    CHECK(s.count("info string go: 19992 more problems not shown") == 1);
    CHECK(s.count("bestmove") == 1);
    std::string moves = "position startpos moves";
    for (int i = 0; i < 2500; ++i) moves += " g1f3 g8f6 f3g1 f6g8";
    s.send(moves); // 10000 legal plies: a game of any length is accepted
    CHECK(s.engine.position()->fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10000 5001");
    s.send("d");
    CHECK(s.count("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10000 5001") == 1);
}
