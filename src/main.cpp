// Entry point: no arguments runs the UCI loop; `perft DEPTH [FEN]` and
// `bench [DEPTH]` run from the command line.
#include <charconv>
#include <iostream>
#include <string>
#include <string_view>

#include "staccato/perft.h"
#include "staccato/position.h"

using namespace staccato;

namespace {

int run_perft(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: staccato perft DEPTH [FEN]\n";
        return 2;
    }
    int depth = 0;
    std::string_view d = argv[2];
    auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), depth);
    if (ec != std::errc() || p != d.data() + d.size() || depth < 0 || depth > 20) {
        std::cerr << "perft: DEPTH must be a number from 0 to 20\n";
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
    perft_divide(pos, depth, std::cout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    if (argc >= 2 && std::string_view(argv[1]) == "perft") return run_perft(argc, argv);
    std::cerr << "usage: staccato [perft DEPTH [FEN] | bench [DEPTH]]\n";
    return 2;
}
