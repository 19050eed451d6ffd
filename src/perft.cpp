#include "staccato/perft.h"

#include <array>
#include <chrono>

#include "staccato/movegen.h"

namespace staccato {

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return std::uint64_t(count_legal_moves(pos));

    std::array<ScoredMove, MAX_MOVES> moves;
    ScoredMove* end = generate_legal(pos, moves.data());
    std::uint64_t nodes = 0;
    for (ScoredMove* m = moves.data(); m != end; ++m) {
        pos.make_move(m->move);
        nodes += depth == 2 ? std::uint64_t(count_legal_moves(pos)) : perft(pos, depth - 1);
        pos.unmake_move(m->move);
    }
    return nodes;
}

std::uint64_t perft_divide(Position& pos, int depth, std::ostream& out) {
    auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    if (depth >= 1) {
        for (const ScoredMove& m : MoveList(pos)) {
            pos.make_move(m.move);
            std::uint64_t n = perft(pos, depth - 1);
            pos.unmake_move(m.move);
            out << pos.move_to_uci(m.move) << ": " << n << '\n';
            total += n;
        }
    } else {
        total = 1;
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                  .count();
    out << "\nNodes searched: " << total << '\n'
        << "Time (ms): " << ms << '\n'
        << "Nodes/second: " << (total * 1000 / std::uint64_t(ms > 0 ? ms : 1)) << '\n';
    out.flush();
    return total;
}

} // namespace staccato
