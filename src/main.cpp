// Entry point: no arguments runs the UCI loop (after one line naming the
// engine); the tool commands of the command line (`perft DEPTH [FEN]`,
// `bench [DEPTH]`, `datagen out=FILE [key=value ...]`, `tbbench PATH [N]`,
// `genfens ...`, `help`, `--version`, ...: the table in src/uci.cpp) run
// with separate arguments. Otherwise each argument is one line of the UCI loop's commands, run in
// order, and the program exits after the last (`staccato "position startpos"
// "go depth 8"`, `staccato "genfens 8 seed 1 book None" quit`: what OpenBench
// runs).
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "staccato/engine.h"
#include "staccato/uci.h"

using namespace staccato;

namespace {

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
    if (lines || !is_command_line_tool(command)) return run_uci_lines(argc, argv);
    return run_command_line_tool(command, std::vector<std::string_view>(argv + 2, argv + argc));
}
