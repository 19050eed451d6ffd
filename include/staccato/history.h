// Move-ordering memory: the butterfly history of quiet moves (with gravity),
// and the countermove table. Killers live in the search stack (per ply).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "staccato/types.h"

namespace staccato {

// History scores stay within [-HISTORY_MAX, HISTORY_MAX].
inline constexpr int HISTORY_MAX = 16384;

// Bonus for a quiet move that caused a cutoff at `depth` (and the penalty for
// the quiets tried before it): grows with depth, capped.
constexpr int history_bonus(int depth) { return std::min(24 * depth * depth + 32 * depth, 2000); }

// [side to move][from][to] of quiet moves.
class ButterflyHistory {
  public:
    int get(Color c, Move m) const { return table_[c][m.from()][m.to()]; }

    // Gravity: the bonus shrinks as the entry nears the bound, so scores
    // saturate smoothly and recent results outweigh old ones.
    void update(Color c, Move m, int bonus) {
        std::int16_t& e = table_[c][m.from()][m.to()];
        int clamped = std::clamp(bonus, -HISTORY_MAX, HISTORY_MAX);
        e = std::int16_t(e + clamped - e * std::abs(clamped) / HISTORY_MAX);
    }

    // Between searches: old knowledge counts for less.
    void age() {
        for (auto& side : table_)
            for (auto& from : side)
                for (auto& v : from) v = std::int16_t(v / 2);
    }
    void clear() {
        for (auto& side : table_)
            for (auto& from : side) from.fill(0);
    }

  private:
    std::array<std::array<std::array<std::int16_t, 64>, 64>, 2> table_{};
};

// The move that last refuted a move, indexed by that move's piece and target.
class CounterMoves {
  public:
    Move get(Piece p, Square to) const { return table_[p][to]; }
    void set(Piece p, Square to, Move m) { table_[p][to] = m; }
    void clear() {
        for (auto& row : table_) row.fill(Move::none());
    }

  private:
    std::array<std::array<Move, 64>, PIECE_NB> table_{};
};

} // namespace staccato
