// What a score means: the win/draw/loss model that turns the search's
// internal score into a chance to win and into the centipawns a GUI shows.
//
//   win(x, m)  = 1 / (1 + exp(-(x - a(m)) / b(m)))
//   loss(x, m) = win(-x, m)
//   draw(x, m) = 1 - win - loss
//
// x is the internal score from the side to move's view (the network's
// output scale, which changes from net to net), m the material on the board,
// P + 3N + 3B + 5R + 9Q of both sides, clamped to [the model's
// material_min, MATERIAL_MAX] and divided by MATERIAL_REFERENCE, and a(m),
// b(m) are cubics in m. a(m) is the score at which the side to move wins
// half its games, so the printed score is 100 x / a(m): +100 ("one pawn")
// means a 50% chance to win at that material, whichever net searched. The
// constants are fitted to a net's own games by maximum likelihood
// (`staccato-train wdl`) and travel in its file (nnue/arch.h); the search
// itself only ever sees x.
#pragma once

#include <array>
#include <string>

#include "staccato/types.h"

namespace staccato {

class Position;

// The lowest material a model's cubics are read at (fewer reads as this):
// models fitted since 2026-12-05 go down to 4; the first ones, like
// Stockfish's, stopped at 17, which lumped every ending of a rook or less
// into a(17) and bent the cubic above it (bench/results.md, "Where the four
// bins miss"). The net file says which (nnue/arch.h).
constexpr int MATERIAL_MIN = 4;
constexpr int MATERIAL_MIN_FIRST = 17; // the first models' floor
constexpr int MATERIAL_MAX = 78;       // the start position's material
constexpr int MATERIAL_REFERENCE = 58; // m = 1: where +100 means exactly a 50% win chance

// What each piece type counts in the material (the king nothing).
constexpr std::array<int, PIECE_TYPE_NB> MATERIAL_WORTH = {1, 3, 3, 5, 9, 0};

// P + 3N + 3B + 5R + 9Q over both sides (kings and the side to move aside).
int material_of(const Position& pos);

struct WdlModel {
    // a(m) = ((a[0] m + a[1]) m + a[2]) m + a[3], b(m) likewise, m scaled.
    std::array<double, 4> a{}, b{};
    int material_min = MATERIAL_MIN; // MATERIAL_MIN or MATERIAL_MIN_FIRST

    // m as the cubics take it: material clamped to [material_min,
    // MATERIAL_MAX] and divided by MATERIAL_REFERENCE.
    double scaled(int material) const;
    double a_of(int material) const;
    double b_of(int material) const;
    // The chance that the side to move wins, and that it loses.
    double win(double x, int material) const;
    double loss(double x, int material) const { return win(-x, material); }
    // A model whose a(m) is not positive, or whose b(m) is not, somewhere in
    // its material range, or whose floor is neither of the two, turns no
    // score into a chance: what is wrong, or nothing.
    std::string check() const;
    bool operator==(const WdlModel&) const = default;
};

// The fixed formula scores were shown with before the model (and still are
// for a net without one, and the hand-crafted evaluation): a 150, b 90 at
// every material.
constexpr WdlModel ROUGH_WDL_MODEL = {{0, 0, 0, 150}, {0, 0, 0, 90}, MATERIAL_MIN};

// The score a GUI is shown: 100 x / a(m) rounded, for a score that is no
// mate and no tablebase result (those stay as they are: score_text() prints
// them as mates, and a tablebase win far beyond any centipawn score).
Value to_printed_cp(const WdlModel& model, Value v, int material);

// Win, draw and loss in permille (summing to 1000) for a score that is no
// mate or tablebase result.
std::array<int, 3> wdl_permille(const WdlModel& model, Value v, int material);

} // namespace staccato
