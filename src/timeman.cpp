#include "staccato/timeman.h"

#include <algorithm>

#include "staccato/tunables.h"

namespace staccato {

void TimeManager::init(const SearchLimits& limits, Color us, int move_overhead_ms, TimePoint start) {
    start_ns_.store(to_ns(start), std::memory_order_relaxed);
    enabled_ = false;
    fixed_ = false;
    if (limits.infinite) return;

    if (limits.movetime >= 0) {
        // Exact move time: think for all of it, minus the overhead.
        enabled_ = true;
        hard_ms_ = std::max<std::int64_t>(1, limits.movetime - move_overhead_ms);
        soft_ms_ = hard_ms_;
        fixed_ = true;
        return;
    }
    if (limits.time[us] < 0) return;

    enabled_ = true;
    std::int64_t available = std::max<std::int64_t>(1, limits.time[us] - move_overhead_ms);
    std::int64_t inc = std::max<std::int64_t>(0, limits.inc[us]);
    // Repeating controls: spread the time over the moves to go (plus one, so
    // the last move before the control never gets everything). Sudden death:
    // assume TmMovesLeft moves remain.
    std::int64_t moves_left = limits.movestogo > 0 ? std::min(limits.movestogo, 50) + 1 : tune<"TmMovesLeft">;
    std::int64_t base = available / moves_left + inc * tune<"TmIncrementPercent"> / 100;
    soft_ms_ = std::max<std::int64_t>(1, std::min(base, available / 2));
    hard_ms_ = std::max(soft_ms_, std::min(soft_ms_ * tune<"TmHardPercent"> / 100, available * 3 / 4));
}

std::int64_t TimeManager::elapsed_ms() const {
    std::int64_t now = to_ns(std::chrono::steady_clock::now());
    return (now - start_ns_.load(std::memory_order_relaxed)) / 1000000;
}

bool TimeManager::should_stop_iterating(const IterationReport& report) const {
    if (!enabled_) return false;
    if (fixed_) return elapsed_ms() >= hard_ms_;
    // A stable best move or score needs less time; a falling score, or a
    // best move that takes few of the nodes (the others look dangerous),
    // needs more.
    double scale =
        (tune<"TmUnstableScale"> - tune<"TmStablePerIteration"> * std::clamp(report.move_stability, 0, 5)) /
        100.0;
    scale *= (tune<"TmScoreUnstableScale"> -
              tune<"TmScoreStablePerIteration"> * std::clamp(report.score_stability, 0, 5)) /
             100.0;
    scale *= 1.0 + std::clamp(report.score_drop, 0, 100) / double(tune<"TmScoreDropDivisor">);
    scale *= (tune<"TmNodeShareBase"> -
              tune<"TmNodeShareScale"> * std::clamp(report.best_move_node_share, 0.0, 1.0)) /
             100.0;
    std::int64_t limit = std::min<std::int64_t>(hard_ms_, std::int64_t(double(soft_ms_) * scale));
    return elapsed_ms() >= limit;
}

} // namespace staccato
