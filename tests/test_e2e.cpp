// End-to-end: starts the built `staccato` binary with pipes on its stdin and
// stdout (posix_spawn) and talks to it as a GUI would.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "staccato/movegen.h"
#include "staccato/position.h"
#include "temp_path.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A deadline is a guard against a hung engine, not a speed test: a sanitized
// build searches many times slower (and more so on loaded cores), so its
// waits for an answer or an exit, and the promptness bounds below, are ten
// times as long.
#ifdef STACCATO_SANITIZED_ENGINE
constexpr long long WAIT_SCALE = 10;
#else
constexpr long long WAIT_SCALE = 1;
#endif
// A promptness bound of `ms` (an answer, a stop, an exit), scaled the same way.
constexpr long long prompt(long long ms) { return ms * WAIT_SCALE; }

long long ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<milliseconds>(Clock::now() - t).count();
}

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// True when a `bestmove` line names a legal move of `pos`.
bool legal_bestmove(const std::string& line, const staccato::Position& pos) {
    const std::string move = line.substr(9, line.find(' ', 9) - 9);
    return starts_with(line, "bestmove ") && pos.parse_uci_move(move).has_value();
}

// Which of the engine's output streams the test reads (the other one goes to
// /dev/null).
enum class Read { Stdout, Stderr };

// One engine process, started with `args`. Every line it writes on the
// stream read is kept in `lines`, in order.
class EngineProcess {
  public:
    explicit EngineProcess(std::vector<std::string> args = {}, Read read = Read::Stdout) {
        std::signal(SIGPIPE, SIG_IGN); // a dead child must fail a check, not kill the tests
        int in[2], out[2];
        REQUIRE(pipe2(in, O_CLOEXEC) == 0);
        REQUIRE(pipe2(out, O_CLOEXEC) == 0);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
        const int read_fd = read == Read::Stdout ? STDOUT_FILENO : STDERR_FILENO;
        posix_spawn_file_actions_adddup2(&fa, out[1], read_fd);
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO + STDERR_FILENO - read_fd, "/dev/null", O_WRONLY,
                                         0);
        std::vector<char*> argv{const_cast<char*>(STACCATO_BINARY)};
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        int rc = posix_spawn(&pid_, STACCATO_BINARY, &fa, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        ::close(in[0]);
        ::close(out[1]);
        to_engine_ = in[1];
        from_engine_ = out[0];
        INFO("binary: " << STACCATO_BINARY);
        REQUIRE(rc == 0);
    }
    ~EngineProcess() {
        close_stdin();
        if (from_engine_ >= 0) ::close(from_engine_);
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            int status;
            ::waitpid(pid_, &status, 0);
        }
    }
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Sends text (one or more lines; a newline is added at the end).
    void send(const std::string& text) {
        std::string data = text + '\n';
        std::size_t done = 0;
        while (done < data.size()) {
            ssize_t n = ::write(to_engine_, data.data() + done, data.size() - done);
            REQUIRE(n > 0);
            done += std::size_t(n);
        }
    }
    void close_stdin() {
        if (to_engine_ >= 0) ::close(to_engine_);
        to_engine_ = -1;
    }

    // Reads until a line starting with `prefix` arrives (returned) or the
    // timeout passes (nullopt).
    std::optional<std::string> wait_for(std::string_view prefix, long long timeout_ms) {
        auto deadline = Clock::now() + milliseconds(prompt(timeout_ms));
        while (true) {
            while (next_ < lines.size()) {
                const std::string& l = lines[next_++];
                if (starts_with(l, prefix)) return l;
            }
            auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
            if (left <= 0 || !read_some(int(left))) return std::nullopt;
        }
    }
    // Reads whatever arrives within `ms`, then counts the lines so far that
    // start with `prefix`.
    int count_after(std::string_view prefix, long long ms) {
        auto deadline = Clock::now() + milliseconds(ms);
        for (auto left = ms; left > 0;
             left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count())
            if (!read_some(int(left))) break;
        int n = 0;
        for (const auto& l : lines) n += starts_with(l, prefix);
        return n;
    }

    // Waits for the process to end; its exit status, or nullopt (killed) on timeout.
    std::optional<int> wait_exit(long long timeout_ms) {
        auto deadline = Clock::now() + milliseconds(prompt(timeout_ms));
        while (true) {
            // Keep draining stdout so the engine never blocks on a full pipe.
            read_some(5);
            int status = 0;
            pid_t r = ::waitpid(pid_, &status, WNOHANG);
            if (r == pid_) {
                exited_ = true;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            if (Clock::now() >= deadline) return std::nullopt;
        }
    }

    void handshake() {
        send("uci");
        REQUIRE(wait_for("uciok", 10000));
        send("isready");
        REQUIRE(wait_for("readyok", 10000));
    }

    std::vector<std::string> lines;

  private:
    // Waits up to `timeout_ms` for output and splits it into lines; false on
    // timeout or end of output.
    bool read_some(int timeout_ms) {
        if (eof_) {
            if (timeout_ms > 0) std::this_thread::sleep_for(milliseconds(std::min(timeout_ms, 5)));
            return false;
        }
        pollfd p{from_engine_, POLLIN, 0};
        if (::poll(&p, 1, timeout_ms) <= 0) return false;
        char buf[65536];
        ssize_t n = ::read(from_engine_, buf, sizeof buf);
        if (n <= 0) {
            eof_ = true;
            return false;
        }
        for (ssize_t i = 0; i < n; ++i) {
            if (buf[i] == '\n') {
                lines.push_back(partial_);
                partial_.clear();
            } else {
                partial_ += buf[i];
            }
        }
        return true;
    }

    pid_t pid_ = -1;
    int to_engine_ = -1, from_engine_ = -1;
    bool exited_ = false, eof_ = false;
    std::string partial_;
    std::size_t next_ = 0;
};

} // namespace

TEST_CASE("e2e: handshake, isready and stop during go infinite", "[e2e]") {
    EngineProcess e;
    e.send("uci");
    const auto id = e.wait_for("id name Staccato", 10000);
    REQUIRE(id);
    CHECK(*id == "id name Staccato " STACCATO_VERSION); // the version CMake found
    CHECK(std::string_view(STACCATO_VERSION).starts_with(STACCATO_PROJECT_VERSION));
    REQUIRE(e.wait_for("uciok", 2000));
    CHECK(e.count_after("option name", 0) == 16); // 12, and the 4 Syzygy options
    e.send("isready");
    REQUIRE(e.wait_for("readyok", 2000));

    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    std::this_thread::sleep_for(milliseconds(200));
    auto t = Clock::now();
    e.send("isready");
    REQUIRE(e.wait_for("readyok", 1000)); // answered while searching
    CHECK(ms_since(t) < prompt(500));
    CHECK(e.count_after("bestmove", 100) == 0); // infinite never answers by itself
    t = Clock::now();
    e.send("stop");
    auto best = e.wait_for("bestmove", 2000);
    REQUIRE(best);
    CHECK(ms_since(t) < prompt(1000));
    CHECK(best->size() >= 13); // "bestmove g1f3"
    e.send("isready");
    REQUIRE(e.wait_for("readyok", 1000));
    CHECK(e.count_after("bestmove", 100) == 1);
    e.send("quit");
    CHECK(e.wait_exit(2000) == 0);
}

TEST_CASE("e2e: no legal move gives bestmove 0000", "[e2e]") {
    EngineProcess e;
    e.handshake();
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"); // mated
    e.send("go depth 5");
    REQUIRE(e.wait_for("bestmove", 2000).value_or("none") == "bestmove 0000");
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"); // stalemate
    e.send("go wtime 1000 btime 1000");
    REQUIRE(e.wait_for("bestmove", 2000).value_or("none") == "bestmove 0000");
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go infinite"); // still only after stop
    CHECK(e.count_after("bestmove", 200) == 2);
    e.send("stop");
    REQUIRE(e.wait_for("bestmove", 2000).value_or("none") == "bestmove 0000");
    e.send("quit");
    CHECK(e.wait_exit(2000) == 0);
}

TEST_CASE("e2e: go ponder answers only after ponderhit", "[e2e]") {
    EngineProcess e;
    e.handshake();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves d2d4 d7d5");
    e.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    // Far beyond the time this clock allows for one move: still pondering.
    CHECK(e.count_after("bestmove", 600) == 0);
    auto t = Clock::now();
    e.send("ponderhit");
    REQUIRE(e.wait_for("bestmove", 2000));
    CHECK(ms_since(t) < prompt(1000));
    CHECK(e.count_after("bestmove", 100) == 1);

    // Ponder miss: stop, then the real position, all in one burst.
    e.send("position startpos moves d2d4 d7d5 c2c4");
    e.send("go ponder wtime 1000 btime 1000");
    std::this_thread::sleep_for(milliseconds(100));
    e.send("stop\nposition startpos moves d2d4 d7d5 c2c4 e7e6\ngo depth 3");
    REQUIRE(e.wait_for("bestmove", 2000)); // the pondering search
    auto best = e.wait_for("bestmove", 5000);
    REQUIRE(best); // the real one, not refused as "still searching"
    for (const auto& l : e.lines) CHECK(l.find("ignored") == std::string::npos);
    e.send("quit");
    CHECK(e.wait_exit(2000) == 0);
}

TEST_CASE("e2e: go movetime keeps to the time", "[e2e]") {
    EngineProcess e;
    e.handshake();
    e.send("position startpos");
    auto t = Clock::now();
    e.send("go movetime 500");
    REQUIRE(e.wait_for("bestmove", 3000));
    auto ms = ms_since(t);
    CHECK(ms >= 400);
    CHECK(ms <= prompt(1500));
    e.send("quit");
    CHECK(e.wait_exit(2000) == 0);
}

TEST_CASE("e2e: end of input exits cleanly", "[e2e]") {
    SECTION("idle") {
        EngineProcess e;
        e.handshake();
        auto t = Clock::now();
        e.close_stdin();
        CHECK(e.wait_exit(1000) == 0);
        CHECK(ms_since(t) < prompt(1000));
    }
    SECTION("while searching") {
        EngineProcess e;
        e.handshake();
        e.send("go infinite");
        std::this_thread::sleep_for(milliseconds(100));
        auto t = Clock::now();
        e.close_stdin();
        CHECK(e.wait_exit(1000) == 0);
        CHECK(ms_since(t) < prompt(1000));
        CHECK(e.count_after("bestmove", 0) == 1);
    }
    SECTION("garbage, then end of input") {
        EngineProcess e;
        e.handshake();
        e.send(std::string(100000, 'z') +
               "\n\xff\xfe\x80\r\nposition fen bad\ngo depth 99999999999999999999 nodes -1\n");
        REQUIRE(e.wait_for("bestmove", 5000));
        e.close_stdin();
        CHECK(e.wait_exit(1000) == 0);
    }
}

TEST_CASE("e2e: every go gets one legal bestmove for the position the GUI meant", "[e2e]") {
    using staccato::Position;
    EngineProcess e;
    e.handshake();
    int gos = 0;

    // A 10,000-ply game.
    std::string moves;
    Position game;
    for (int i = 0; i < 10000; ++i) {
        static const char* const cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
        const char* text = i < 9996 ? cycle[i % 4] : std::array{"e2e4", "e7e5", "g1f3", "b8c6"}[i - 9996];
        moves += ' ';
        moves += text;
        game.push_game_move(*game.parse_uci_move(text));
    }
    e.send("position startpos moves" + moves);
    e.send("d");
    REQUIRE(e.wait_for("Fen: ", 5000).value_or("none") == "Fen: " + game.fen());
    e.send("go depth 4");
    ++gos;
    auto best = e.wait_for("bestmove", 5000);
    REQUIRE(best);
    CHECK(legal_bestmove(*best, game));

    // Lenient FENs: the impossible part dropped, the rest searched.
    const struct {
        const char* fen;
        const char* warning;
        const char* normalised;
        const char* unmeant; // the move only the dropped part would allow
    } lenient[] = {
        {"2rkr3/2p1p3/8/8/8/8/8/4K2R w KQ - 0 1",
         "info string FEN castling 'Q' has no matching rook: right dropped",
         "2rkr3/2p1p3/8/8/8/8/8/4K2R w K - 0 1", "bestmove e1c1"},
        {"6k1/8/8/3Pq3/8/8/8/6K1 w - e6 0 1",
         "info string FEN en-passant square e6 does not follow a double pawn push: cleared",
         "6k1/8/8/3Pq3/8/8/8/6K1 w - - 0 1", "bestmove d5e6"},
    };
    for (const auto& l : lenient) {
        INFO(l.fen);
        e.send(std::string("position fen ") + l.fen);
        e.send("go depth 6");
        ++gos;
        REQUIRE(e.wait_for(l.warning, 2000));
        best = e.wait_for("bestmove", 5000);
        REQUIRE(best);
        Position meant;
        REQUIRE(!meant.set_fen(l.normalised).error);
        CHECK(legal_bestmove(*best, meant));
        CHECK(!starts_with(*best, l.unmeant));
    }

    // A refused position: no move from an older one, at once.
    e.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    auto t = Clock::now();
    e.send("go depth 5");
    ++gos;
    REQUIRE(e.wait_for("info string no position to search", 1000));
    CHECK(e.wait_for("bestmove", 1000).value_or("none") == "bestmove 0000");
    CHECK(ms_since(t) < prompt(1000));

    // Malformed and oversized limits: a search, and one legal bestmove.
    e.send("position startpos moves e2e4 c7c5");
    Position sicilian;
    for (const char* m : {"e2e4", "c7c5"}) sicilian.push_game_move(*sicilian.parse_uci_move(m));
    e.send("go nodes 99999999999999999999");
    ++gos;
    REQUIRE(e.wait_for("info string go: nodes '99999999999999999999' read as", 1000));
    CHECK(e.count_after("bestmove", 300) == gos - 1); // effectively no limit: runs until stop
    e.send("stop");
    best = e.wait_for("bestmove", 2000);
    REQUIRE(best);
    CHECK(legal_bestmove(*best, sicilian));
    for (const char* go : {"go wtime 1000.5 btime 1000.5", "go wtime +1000 btime +1000", "go depth 2x"}) {
        INFO(go);
        t = Clock::now();
        e.send(go);
        ++gos;
        best = e.wait_for("bestmove", 2000);
        REQUIRE(best);
        CHECK(ms_since(t) < prompt(1500));
        CHECK(legal_bestmove(*best, sicilian));
    }
    CHECK(e.count_after("info string go: wtime '1000.5' read as 1000", 0) == 1);
    CHECK(e.count_after("info string go: btime '+1000' read as 1000", 0) == 1);
    CHECK(e.count_after("info string go: no usable limit left", 0) == 1);
    e.send("isready");
    REQUIRE(e.wait_for("readyok", 2000));
    CHECK(e.count_after("bestmove", 200) == gos); // exactly one per go
    e.send("quit");
    CHECK(e.wait_exit(2000) == 0);
}

TEST_CASE("e2e: help prints the usage on stdout, an unknown command on stderr", "[e2e]") {
    for (const char* help : {"help", "--help", "-h"}) {
        EngineProcess e({help});
        INFO(help);
        REQUIRE(e.wait_exit(10000) == 0);
        REQUIRE(!e.lines.empty());
        CHECK(starts_with(e.lines[0], "usage: staccato"));
        int commands = 0;
        for (const std::string& l : e.lines)
            for (std::string_view c :
                 {"  (no command)", "  perft DEPTH", "  bench [DEPTH]", "  datagen out=FILE"})
                commands += starts_with(l, c);
        CHECK(commands == 4);
        CHECK(e.lines.back().find("README.md") != std::string::npos);
    }
    EngineProcess quiet({"frobnicate"});
    REQUIRE(quiet.wait_exit(10000) == 2);
    CHECK(quiet.lines.empty()); // nothing on stdout
    EngineProcess loud({"frobnicate"}, Read::Stderr);
    REQUIRE(loud.wait_exit(10000) == 2);
    REQUIRE(loud.lines.size() >= 2);
    CHECK(loud.lines[0] == "staccato: unknown command 'frobnicate'");
    CHECK(starts_with(loud.lines[1], "usage: staccato"));
}

TEST_CASE("e2e: --version and -v print the version line and exit 0", "[e2e]") {
    for (const char* version : {"--version", "-v"}) {
        INFO(version);
        EngineProcess e({version});
        REQUIRE(e.wait_exit(10000) == 0);
        REQUIRE(e.lines.size() == 1);
        // The version, then the build: its CPU, the network's SIMD path, the sliders.
        CHECK(starts_with(e.lines[0], "Staccato " STACCATO_VERSION " ("));
        CHECK(e.lines[0].find(", network SIMD: ") != std::string::npos);
        CHECK(e.lines[0].find(", sliders: ") != std::string::npos);
        CHECK(e.lines[0].ends_with(")"));
    }
}

TEST_CASE("e2e: the UCI loop names the engine in one line at startup, help answers inside it", "[e2e]") {
    EngineProcess e;
    const auto hello = e.wait_for("Staccato", 10000);
    REQUIRE(hello);
    CHECK(*hello == "Staccato " STACCATO_VERSION " by the Staccato developers");
    e.send("help");
    REQUIRE(e.wait_for("usage: staccato", 2000));
    REQUIRE(e.wait_for("More in README.md", 2000));
    e.send("uci");
    REQUIRE(e.wait_for("uciok", 2000)); // the loop goes on after help
    e.send("quit");
    CHECK(e.wait_exit(2000) == 0);
    CHECK(e.lines[0] == *hello); // before anything else
}

namespace {

// The bench result as OpenBench's client reads it (Client/bench.py): the
// output's lines from the last, non-alphanumerics (space aside) turned into
// spaces, the first `<digits> nodes` and `<digits> nps` found, any case.
std::pair<std::optional<long long>, std::optional<long long>>
client_bench(const std::vector<std::string>& lines) {
    std::optional<long long> nodes, nps;
    const std::regex nodes_re(R"((\d+)\s+nodes)", std::regex::icase),
        nps_re(R"((\d+)\s+nps)", std::regex::icase);
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        std::string line = *it;
        for (char& c : line)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != ' ') c = ' ';
        std::smatch m;
        if (!nps && std::regex_search(line, m, nps_re)) nps = std::stoll(m[1]);
        if (!nodes && std::regex_search(line, m, nodes_re)) nodes = std::stoll(m[1]);
    }
    return {nodes, nps};
}

std::vector<std::string> genfens_lines(const std::vector<std::string>& lines) {
    std::vector<std::string> out;
    for (const std::string& l : lines)
        if (starts_with(l, "info string genfens ")) out.push_back(l.substr(20));
    return out;
}

} // namespace

TEST_CASE("e2e: bench as OpenBench's client reads it, two copies at once", "[e2e][openbench]") {
    EngineProcess a({"bench"}), b({"bench"});
    REQUIRE(a.wait_exit(120000) == 0);
    REQUIRE(b.wait_exit(120000) == 0);
    REQUIRE(!a.lines.empty());
    // The last line is `<N> nodes <M> nps`, and N is the `Nodes searched` figure.
    CHECK(std::regex_match(a.lines.back(), std::regex(R"(\d+ nodes \d+ nps)")));
    const auto [nodes_a, nps_a] = client_bench(a.lines);
    const auto [nodes_b, nps_b] = client_bench(b.lines);
    REQUIRE(nodes_a);
    REQUIRE(nps_a);
    CHECK(*nps_a > 0);
    CHECK(nodes_a == nodes_b);
    const auto searched = std::find_if(a.lines.begin(), a.lines.end(), [](const std::string& l) {
        return starts_with(l, "Nodes searched  : ");
    });
    REQUIRE(searched != a.lines.end());
    CHECK(std::to_string(*nodes_a) == searched->substr(18));
}

TEST_CASE("e2e: each argument is a line of the UCI loop", "[e2e][openbench]") {
    EngineProcess perft({"perft 3", "quit"});
    REQUIRE(perft.wait_exit(10000) == 0);
    CHECK(std::count(perft.lines.begin(), perft.lines.end(), "Nodes searched: 8902") == 1);
    EngineProcess separate({"perft", "3"}); // the separate-argument form stays
    REQUIRE(separate.wait_exit(10000) == 0);
    CHECK(std::count(separate.lines.begin(), separate.lines.end(), "Nodes searched: 8902") == 1);
    // A search with a limit is waited for after the last argument.
    EngineProcess go({"position startpos moves e2e4", "go depth 4"});
    REQUIRE(go.wait_exit(10000) == 0);
    REQUIRE(!go.lines.empty());
    staccato::Position pos;
    pos.push_game_move(*pos.parse_uci_move("e2e4"));
    CHECK(legal_bestmove(go.lines.back(), pos));
    EngineProcess infinite({"go infinite"}); // stopped, not waited for
    REQUIRE(infinite.wait_exit(10000) == 0);
    CHECK(starts_with(infinite.lines.back(), "bestmove "));
}

TEST_CASE("e2e: genfens prints N playable FENs, the same for the same seed", "[e2e][openbench]") {
    auto run = [](const std::string& command) {
        EngineProcess e({command, "quit"});
        REQUIRE(e.wait_exit(30000) == 0);
        return genfens_lines(e.lines);
    };
    const auto first = run("genfens 12 seed 5 book None "); // the client's trailing space
    REQUIRE(first.size() == 12);
    for (const std::string& fen : first) {
        INFO(fen);
        staccato::Position pos;
        const auto result = pos.set_fen(fen);
        CHECK(!result.error);
        CHECK(result.warnings.empty());
        CHECK(pos.fen() == fen);
        CHECK(std::count(fen.begin(), fen.end(), ' ') == 5);
        CHECK(staccato::count_legal_moves(pos) > 0);
    }
    CHECK(run("genfens 12 seed 5 book None") == first);
    CHECK(run("genfens 12 seed 6 book None") != first);
    CHECK(run("genfens 12 seed 5 book None 0").size() == 12); // PLIES 0: the start position
}

TEST_CASE("e2e: genfens from a book, bad lines counted on stderr", "[e2e][openbench]") {
    const std::string path = staccato::test::temp_path("genfens-book.epd");
    const std::string book = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c0 \"Ruy\";\n"
                             "not a position\n"
                             "\n"
                             "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2\n";
    REQUIRE(std::ofstream(path) << book);
    EngineProcess e({std::string("genfens 6 seed 1 book ") + path, "quit"});
    REQUIRE(e.wait_exit(30000) == 0);
    CHECK(genfens_lines(e.lines).size() == 6);
    EngineProcess err({std::string("genfens 6 seed 1 book ") + path, "quit"}, Read::Stderr);
    REQUIRE(err.wait_exit(30000) == 0);
    REQUIRE(!err.lines.empty());
    CHECK(starts_with(err.lines[0], "genfens: skipped 1 book line"));
}

TEST_CASE("e2e: genfens with bad input answers at once", "[e2e][openbench]") {
    for (const char* command : {"genfens", "genfens x seed 1 book None", "genfens 0 seed 1 book None",
                                "genfens -3 seed 1 book None", "genfens 4", "genfens 4 seed",
                                "genfens 4 seed x book None", "genfens 4 seed 1", "genfens 4 seed 1 book",
                                "genfens 4 seed 1 book /nonexistent/book.epd", "genfens 4 seed 1 book None x",
                                "genfens 4 seed 1 book None 99", "genfens 4 seed 1 book /dev/null"}) {
        INFO(command);
        EngineProcess e({command, "quit"});
        REQUIRE(e.wait_exit(10000) == 1); // a refused genfens fails the script that ran it
        CHECK(genfens_lines(e.lines).empty());
        CHECK(std::count_if(e.lines.begin(), e.lines.end(), [](const std::string& l) {
                  return starts_with(l, "info string genfens: ");
              }) == 1);
    }
}

TEST_CASE("e2e: a refused bench or perft on the command line exits with status 1", "[e2e][openbench]") {
    for (const char* command : {"bench x", "bench 0", "bench 65", "perft -1", "perft 21", "perft x"}) {
        INFO(command);
        EngineProcess e({command, "quit"});
        REQUIRE(e.wait_exit(10000) == 1);
        REQUIRE(e.lines.size() == 1);
        CHECK(starts_with(e.lines[0], "info string "));
    }
    EngineProcess fine({"perft 1", "quit"});
    CHECK(fine.wait_exit(10000) == 0);
}

TEST_CASE("e2e: a command-line tool refuses bad arguments with status 2, why and its usage on stderr",
          "[e2e]") {
    const std::vector<std::vector<std::string>> refused = {{"perft"},
                                                           {"perft", "21"},
                                                           {"perft", "1", "8/8/8/8/8/8/8/8 w - - 0 1"},
                                                           {"bench", "x"},
                                                           {"bench", "0"},
                                                           {"datagen", "bad"},
                                                           {"datagen"},
                                                           {"tbbench"},
                                                           {"genfens", "2", "seed"},
                                                           {"datagen", "out=refused.games", "hash=0"}};
    for (const auto& args : refused) {
        INFO(args[0] << ' ' << args.size());
        EngineProcess out(args);
        REQUIRE(out.wait_exit(10000) == 2);
        CHECK(out.lines.empty()); // nothing on stdout
        EngineProcess err(args, Read::Stderr);
        REQUIRE(err.wait_exit(10000) == 2);
        REQUIRE(err.lines.size() >= 2);
        CHECK(starts_with(err.lines[0], args[0] + ": "));
        CHECK(starts_with(err.lines[1], "usage: staccato " + args[0]));
    }
    // The same tools with good arguments: one table runs them all.
    EngineProcess perft({"perft", "2"});
    REQUIRE(perft.wait_exit(10000) == 0);
    CHECK(std::find(perft.lines.begin(), perft.lines.end(), "Nodes searched: 400") != perft.lines.end());
    EngineProcess genfens({"genfens", "2", "seed", "1", "book", "None"});
    REQUIRE(genfens.wait_exit(10000) == 0);
    CHECK(genfens.lines.size() == 2);
    EngineProcess spsa({"spsa"});
    REQUIRE(spsa.wait_exit(10000) == 0);
    CHECK(!spsa.lines.empty());
}
