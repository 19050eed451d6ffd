// Time management: turns the clock parameters of `go` into a soft limit (do
// not start another iteration) and a hard limit (abort the search), and
// stretches or shrinks the soft limit as the search goes.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "staccato/types.h"

namespace staccato {

// Everything `go` can ask for. Times in milliseconds; -1 = not given.
struct SearchLimits {
    std::array<std::int64_t, 2> time{-1, -1};
    std::array<std::int64_t, 2> inc{0, 0};
    int movestogo = 0;
    int depth = 0;                // 0 = no limit
    std::uint64_t nodes = 0;      // 0 = no limit
    std::uint64_t soft_nodes = 0; // no new iteration once this many are searched (0 = none)
    int mate = 0;                 // mate in N moves, 0 = not asked
    std::int64_t movetime = -1;
    bool infinite = false;
    bool ponder = false;
    std::vector<Move> searchmoves; // empty = all legal moves

    bool uses_clock() const { return time[WHITE] >= 0 || time[BLACK] >= 0; }
    // True when something besides `stop` ends a search with `us` to move
    // (only the clock of the side to move counts).
    bool bounded(Color us) const {
        return time[us] >= 0 || depth > 0 || nodes > 0 || mate > 0 || movetime >= 0;
    }
};

using TimePoint = std::chrono::steady_clock::time_point;

// What a finished iteration tells the time manager about how settled the
// search is.
struct IterationReport {
    int move_stability = 0;            // iterations the best move stayed the same
    int score_stability = 0;           // iterations the score stayed within TmScoreStableWindow
    int score_drop = 0;                // how far the score fell against the previous iteration (cp, >= 0)
    double best_move_node_share = 1.0; // the best move's share of the root's nodes (0-1)
};

class TimeManager {
  public:
    // Sets the limits for a search starting at `start` with `us` to move.
    void init(const SearchLimits& limits, Color us, int move_overhead_ms, TimePoint start);

    std::int64_t elapsed_ms() const;
    bool enabled() const { return enabled_; }
    std::int64_t soft_ms() const { return soft_ms_; }
    std::int64_t hard_ms() const { return hard_ms_; }

    // Called after each iteration: should another one start?
    bool should_stop_iterating(const IterationReport& report) const;
    // Called every few thousand nodes: must the search abort now?
    bool hard_limit_reached() const { return enabled_ && elapsed_ms() >= hard_ms_; }

    // Pondering: the clock only starts counting at ponderhit (called from
    // the input thread while the search runs, hence the atomic).
    void restart(TimePoint now) { start_ns_.store(to_ns(now), std::memory_order_relaxed); }

  private:
    static std::int64_t to_ns(TimePoint t) {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
    }
    std::atomic<std::int64_t> start_ns_{0};
    bool enabled_ = false;
    bool fixed_ = false; // movetime: use all of it
    std::int64_t soft_ms_ = 0;
    std::int64_t hard_ms_ = 0;
};

} // namespace staccato
