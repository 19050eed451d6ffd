#include "staccato/strength.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace staccato {

namespace {

// The calibration points: each Elo's node budget, candidate count, error
// size and largest loss allowed (README.md says which games fixed each);
// Elos between two points are interpolated (the node budget geometrically,
// the rest linearly). From 1800 up the largest loss stays under a minor
// piece, so a move that hangs the queen (or a piece) is never played when
// the search has seen it.
struct Anchor {
    int elo;
    double nodes;
    int candidates, error_cp, max_loss_cp;
};
constexpr std::array<Anchor, 7> ANCHORS{{
    {1350, 1000, 5, 78, 470},
    {1800, 11002, 4, 39, 177},
    {2000, 39246, 3, 26, 129},
    {2200, 100000, 2, 15, 80},
    {2400, 264575, 2, 10, 60},
    {2600, 850000, 2, 4, 30},
    {2850, 1000000, 1, 2, 20},
}};
static_assert(ANCHORS.front().elo == STRENGTH_ELO_MIN && ANCHORS.back().elo == STRENGTH_ELO_MAX);
static_assert([] {
    for (const Anchor& a : ANCHORS)
        if (a.candidates < 1 || a.candidates > STRENGTH_MAX_CANDIDATES) return false;
    return true;
}());

// Mate scores enter the comparison as this many centipawns (less the
// distance to mate), so that a mate is always far better than any material.
constexpr int MATE_AS_CP = 3000;

int comparable(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return MATE_AS_CP + (v - VALUE_MATE_IN_MAX_PLY);
    if (v <= VALUE_MATED_IN_MAX_PLY) return -MATE_AS_CP + (v - VALUE_MATED_IN_MAX_PLY);
    return std::clamp<int>(v, -MATE_AS_CP + 1, MATE_AS_CP - 1);
}

} // namespace

StrengthSettings strength_settings(int elo) {
    elo = std::clamp(elo, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX);
    std::size_t i = 1;
    while (i + 1 < ANCHORS.size() && ANCHORS[i].elo < elo) ++i;
    const Anchor& a = ANCHORS[i - 1];
    const Anchor& b = ANCHORS[i];
    const double t = double(elo - a.elo) / double(b.elo - a.elo);
    auto lerp = [t](int x, int y) { return int(std::lround(x + (y - x) * t)); };
    StrengthSettings s;
    s.nodes = std::uint64_t(std::llround(a.nodes * std::pow(b.nodes / a.nodes, t)));
    s.candidates = lerp(a.candidates, b.candidates);
    s.error_cp = lerp(a.error_cp, b.error_cp);
    s.max_loss_cp = lerp(a.max_loss_cp, b.max_loss_cp);
    return s;
}

Move pick_move(std::span<const StrengthCandidate> candidates, const StrengthSettings& s, Rng& rng) {
    int best = -2 * MATE_AS_CP;
    for (const StrengthCandidate& c : candidates) best = std::max(best, comparable(c.score));
    Move chosen = candidates.empty() ? Move::none() : candidates.front().move;
    double chosen_value = -1e9;
    for (const StrengthCandidate& c : candidates) {
        const int score = comparable(c.score);
        // The draw is made for every candidate, allowed or not, so that the
        // sequence does not depend on which ones are.
        const double perceived = score + s.error_cp * rng.normal();
        if (best - score > s.max_loss_cp) continue;
        if (perceived > chosen_value) {
            chosen_value = perceived;
            chosen = c.move;
        }
    }
    return chosen;
}

std::int64_t natural_think_ms(std::int64_t soft_ms, Rng& rng) {
    return std::int64_t(double(std::max<std::int64_t>(soft_ms, 0)) * (0.3 + 0.5 * rng.uniform()));
}

int strength_pick(std::span<const StrengthCandidate> root_moves, const StrengthSettings& s, Rng& rng) {
    // The best `candidates` moves of the last completed iteration, best first.
    std::array<StrengthCandidate, STRENGTH_MAX_CANDIDATES> candidates{};
    std::array<int, STRENGTH_MAX_CANDIDATES> index{};
    const int wanted = std::min(s.candidates, STRENGTH_MAX_CANDIDATES);
    int n = 0;
    for (; n < wanted; ++n) {
        int top = -1;
        for (int i = 0; i < int(root_moves.size()); ++i) {
            if (root_moves[i].score == -VALUE_INFINITE ||
                std::find(index.begin(), index.begin() + n, i) != index.begin() + n)
                continue;
            if (top < 0 || root_moves[i].score > root_moves[top].score) top = i;
        }
        if (top < 0) break;
        index[n] = top;
        candidates[n] = root_moves[top];
    }
    if (n == 0) return 0;
    const Move m = pick_move(std::span(candidates.data(), std::size_t(n)), s, rng);
    for (int k = 0; k < n; ++k)
        if (candidates[k].move == m) return index[k];
    return index[0];
}

void natural_pause(const TimeManager& time, Rng& rng,
                   const std::function<bool(std::int64_t ms)>& wait_for_stop) {
    if (!time.enabled()) return;
    const std::int64_t target = natural_think_ms(time.soft_ms(), rng);
    for (;;) {
        const std::int64_t left = target - time.elapsed_ms();
        if (left <= 0 || wait_for_stop(left)) return;
    }
}

} // namespace staccato
