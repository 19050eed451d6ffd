// Entry point: no arguments runs the UCI loop (after one line naming the
// engine); `perft DEPTH [FEN]`, `bench [DEPTH]`, `datagen out=FILE
// [key=value ...]` and `tbbench PATH [N]` run from the command line; `help`
// (`--help`, `-h`) prints the usage, `--version` (`-v`) the version line.
// Otherwise each argument is one line of the UCI loop's commands, run in
// order, and the program exits after the last (`staccato "position startpos"
// "go depth 8"`, `staccato "genfens 8 seed 1 book None" quit`: what OpenBench
// runs).
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "staccato/bench.h"
#include "staccato/datagen.h"
#include "staccato/engine.h"
#include "staccato/parse.h"
#include "staccato/perft.h"
#include "staccato/position.h"
#include "staccato/syzygy/tbbench.h"
#include "staccato/uci.h"

using namespace staccato;

namespace {

std::optional<int> parse_depth(std::string_view d, int max) {
    auto depth = parse_number<int>(d);
    if (!depth || *depth < 0 || *depth > max) return std::nullopt;
    return depth;
}

int run_perft(int argc, char** argv) {
    std::optional<int> depth = argc >= 3 ? parse_depth(argv[2], 20) : std::nullopt;
    if (!depth) {
        std::cerr << "usage: staccato perft DEPTH [FEN]   (DEPTH 0..20)\n";
        return 2;
    }
    Position pos;
    if (argc > 3) {
        std::string fen;
        for (int i = 3; i < argc; ++i) fen += std::string(i > 3 ? " " : "") + argv[i];
        if (auto err = pos.set_fen(fen).error) {
            std::cerr << "perft: " << *err << '\n';
            return 2;
        }
    }
    perft_divide(pos, *depth, std::cout);
    return 0;
}

int run_bench_command(int argc, char** argv) {
    std::optional<int> depth = argc >= 3 ? parse_depth(argv[2], 64) : BENCH_DEFAULT_DEPTH;
    if (!depth || *depth < 1) {
        std::cerr << "usage: staccato bench [DEPTH]   (DEPTH 1..64)\n";
        return 2;
    }
    run_bench(*depth, std::cout);
    return 0;
}

constexpr const char* DATAGEN_USAGE =
    "usage: staccato datagen out=FILE.games [games=N] [nodes=N] [limit=soft|hard] [threads=N] [seed=N] "
    "[book=FILE] [random=N] [eval=hce|nnue]\n"
    "  self-play at N nodes a move (soft: the iteration that passes N completes, capped at 10 N; hard:\n"
    "  the exact count); appends whole games (start position, moves and scores, result) for\n"
    "  staccato-train (eval=hce: the hand-crafted evaluation plays, else the embedded network)\n";

int run_datagen_command(int argc, char** argv) {
    DatagenOptions o;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const std::size_t eq = arg.find('=');
        const std::string_view key = arg.substr(0, eq), value = eq == arg.npos ? "" : arg.substr(eq + 1);
        bool ok = eq != arg.npos;
        auto read_number = [&value](auto& field) {
            auto v = parse_number<std::remove_reference_t<decltype(field)>>(value);
            if (v) field = *v;
            return v.has_value();
        };
        if (key == "out")
            o.out = value;
        else if (key == "book")
            o.book = value;
        else if (key == "games")
            ok = ok && read_number(o.games);
        else if (key == "nodes")
            ok = ok && read_number(o.nodes);
        else if (key == "limit")
            ok = ok && (value == "soft" || value == "hard") && ((o.soft = value == "soft"), true);
        else if (key == "threads")
            ok = ok && read_number(o.threads);
        else if (key == "seed")
            ok = ok && read_number(o.seed);
        else if (key == "random")
            ok = ok && read_number(o.random_plies);
        else if (key == "eval")
            ok = ok && (value == "hce" || value == "nnue") && ((o.nnue = value == "nnue"), true);
        else
            ok = false;
        if (!ok) {
            std::cerr << "datagen: bad argument '" << arg << "'\n" << DATAGEN_USAGE;
            return 2;
        }
    }
    if (auto err = run_datagen(o, std::cerr)) {
        std::cerr << *err << '\n' << DATAGEN_USAGE;
        return 2;
    }
    return 0;
}

// `staccato tbbench PATH [POSITIONS]`: tablebase probes per second.
int run_tb_bench_command(int argc, char** argv) {
    const std::optional<int> positions = argc >= 4 ? parse_depth(argv[3], 10000000) : 100000;
    if (argc < 3 || argc > 4 || !positions || *positions < 1) {
        std::cerr << "usage: staccato tbbench PATH [POSITIONS]   (default 100000 positions)\n";
        return 2;
    }
    return syzygy::run_tb_bench(argv[2], *positions, std::cout) ? 0 : 1;
}

// Every output line whole on stdout, flushed at once: the search threads
// write through it too, so `out_mutex` keeps their lines apart.
Engine::Sink stdout_sink(std::mutex& out_mutex) {
    return [&out_mutex](std::string_view line) {
        std::lock_guard lock(out_mutex);
        std::cout << line << '\n';
        std::cout.flush();
    };
}

// `staccato "LINE" ...`: the lines through the loop, then exit (a search with
// a limit is waited for).
int run_uci_lines(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (!UciLoop::knows(argv[i])) {
            std::cerr << "staccato: unknown command '" << argv[i] << "'\n" << usage_text();
            return 2;
        }
    std::mutex out_mutex;
    const Engine::Sink sink = stdout_sink(out_mutex);
    Engine engine(sink);
    UciLoop loop(engine, sink);
    for (int i = 1; i < argc; ++i)
        if (!loop.handle_line(argv[i])) break;
    loop.finish();
    return loop.refused_tools() ? 1 : 0; // scripts (OpenBench) see a refused bench or genfens
}

int run_uci() {
    // std::cin is tied to std::cout: every read would flush std::cout from
    // the input thread, outside the mutex, racing with the search thread's
    // writes (seen as a duplicated `bestmove` line). All output goes
    // through the sink below, so nothing needs the tie.
    std::cin.tie(nullptr);
    std::mutex out_mutex;
    const Engine::Sink sink = stdout_sink(out_mutex);
    Engine engine(sink);
    UciLoop loop(engine, sink);
    sink(std::string(engine_name()) + " by the Staccato developers"); // as Stockfish does; GUIs skip it
    loop.run(std::cin);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    if (argc == 1) return run_uci();
    std::string_view command = argv[1];
    // The separate-argument forms (`staccato perft 5`, `staccato datagen
    // out=FILE games=N`, `staccato perft 3 "FEN"`): one of their words
    // alone first, no closing `quit`. Anything else is lines for the loop.
    const bool lines = command.find_first_of(" \t") != command.npos ||
                       (argc > 2 && std::string_view(argv[argc - 1]) == "quit");
    const bool separate = command == "perft" || command == "bench" || command == "datagen" ||
                          command == "tbbench" || command == "help" || command == "--help" ||
                          command == "-h" || command == "--version" || command == "-v";
    if (lines || !separate) return run_uci_lines(argc, argv);
    if (command == "perft") return run_perft(argc, argv);
    if (command == "bench") return run_bench_command(argc, argv);
    if (command == "datagen") return run_datagen_command(argc, argv);
    if (command == "tbbench") return run_tb_bench_command(argc, argv);
    if (command == "--version" || command == "-v") {
        std::cout << engine_name() << '\n';
        return 0;
    }
    std::cout << usage_text(); // help, --help, -h
    return 0;
}
