// Entry point: no arguments runs the UCI loop; `perft DEPTH [FEN]` and
// `bench [DEPTH]` run from the command line.
#include <charconv>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "staccato/bench.h"
#include "staccato/engine.h"
#include "staccato/perft.h"
#include "staccato/position.h"
#include "staccato/uci.h"

using namespace staccato;

namespace {

std::optional<int> parse_depth(std::string_view d, int max) {
    int depth = 0;
    auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), depth);
    if (ec != std::errc() || p != d.data() + d.size() || depth < 0 || depth > max) return std::nullopt;
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
        if (auto err = pos.set_fen(fen)) {
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

int run_uci() {
    // std::cin is tied to std::cout: every read would flush std::cout from
    // the input thread, outside the mutex, racing with the search thread's
    // writes (seen as a duplicated `bestmove` line). All output goes
    // through the sink below, so nothing needs the tie.
    std::cin.tie(nullptr);
    std::mutex out_mutex;
    Engine::Sink sink = [&out_mutex](std::string_view line) {
        std::lock_guard lock(out_mutex);
        std::cout << line << '\n';
        std::cout.flush();
    };
    Engine engine(sink);
    UciLoop loop(engine, sink);
    loop.run(std::cin);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    if (argc == 1) return run_uci();
    std::string_view command = argv[1];
    if (command == "perft") return run_perft(argc, argv);
    if (command == "bench") return run_bench_command(argc, argv);
    std::cerr << "usage: staccato [perft DEPTH [FEN] | bench [DEPTH]]\n";
    return 2;
}
