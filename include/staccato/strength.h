// Playing strength limited to an Elo (UCI_LimitStrength + UCI_Elo): the Elo
// becomes a node budget, a number of root moves searched as full lines
// (MultiPV behind the scenes) and the size of a random error in judging
// them; the move played is the candidate that looks best once each score has
// its error added, never one that loses more than a fixed margin against the
// best. Pure functions and a small generator: the search calls them, they
// know nothing of the search.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "staccato/random.h"
#include "staccato/timeman.h"
#include "staccato/types.h"

namespace staccato {

inline constexpr int STRENGTH_ELO_MIN = 1350;
inline constexpr int STRENGTH_ELO_MAX = 2850;
inline constexpr int STRENGTH_MAX_CANDIDATES = 8; // the most root moves any Elo picks among

// What an Elo turns into.
struct StrengthSettings {
    std::uint64_t nodes = 0; // node budget per move, all threads together
    int candidates = 1;      // root moves searched as full lines, the pick among them
    int error_cp = 0;        // standard deviation of the error added to each candidate's score
    int max_loss_cp = 0;     // a candidate this far below the best is never played
};

// The settings for `elo`, clamped to [STRENGTH_ELO_MIN, STRENGTH_ELO_MAX];
// interpolated between the calibration points in src/strength.cpp.
StrengthSettings strength_settings(int elo);

// A strength limit as one search gets it: the settings and the seed of the
// search's random draws.
struct StrengthLimit {
    StrengthSettings settings;
    std::uint64_t seed = 0;
};

// A root move and its score from the last completed iteration.
struct StrengthCandidate {
    Move move;
    Value score = VALUE_NONE;
};

// The move to play among `candidates` (any order, at least one): the one with
// the highest score plus a random error of size s.error_cp, among those at
// most s.max_loss_cp below the best (mate scores count as large cp values).
Move pick_move(std::span<const StrengthCandidate> candidates, const StrengthSettings& s, Rng& rng);

// How long to think before answering when the node budget ends the search
// early under a clock whose soft limit is soft_ms: a random share of it, so
// that the answer is neither instant nor the full allotment.
std::int64_t natural_think_ms(std::int64_t soft_ms, Rng& rng);

// The search's side of the limit. `root_moves`: every root move in the
// search's order, with its score from the last completed iteration
// (-VALUE_INFINITE: not searched in it). Returns the index in root_moves of
// the move to play: pick_move among the s.candidates best of them (0 when
// none has a score).
int strength_pick(std::span<const StrengthCandidate> root_moves, const StrengthSettings& s, Rng& rng);

// Under a clock (`time` enabled): waits until a natural thinking time
// (natural_think_ms of its soft limit) has passed since the search began, or
// stop / quit arrives. `wait_for_stop(ms)` sleeps up to ms milliseconds and
// returns whether stop or quit has arrived (at once if it already has).
void natural_pause(const TimeManager& time, Rng& rng,
                   const std::function<bool(std::int64_t ms)>& wait_for_stop);

} // namespace staccato
