// `staccato-train wdl`: fits the win/draw/loss model of wdl.h to games by
// maximum likelihood. Each scored position of a game is one observation:
// its score x and material m (side to move's view), and whether the side
// to move went on to win, draw or lose. The model gives
// P(win) = win(x, m), P(loss) = win(-x, m), and a draw the rest.
//
// The observations are counted by (material, score), so that a fit over
// millions of positions costs a few thousand passes over at most
// WdlCounts::CELLS cells. The fit: a(m), b(m) by material alone, where a
// material has enough positions; cubics through those, weighted by their
// counts; then all eight constants together (Nelder-Mead on the cubics'
// values at four materials, which keeps the search well scaled), from there.
// Everything is deterministic: the same counts give the same constants.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "staccato/nnue/packed.h"
#include "staccato/wdl.h"

namespace staccato::train {

// One scored position from the side to move's view: the score (internal
// units), the material (material_of) and the game's result, 0 loss, 1 draw, 2 win.
struct WdlObservation {
    int score = 0;
    int material = 0;
    int result = 1;
};
WdlObservation observation_of(const nnue::PackedPosition& p);

class WdlCounts {
  public:
    static constexpr int MAX_SCORE = 2000; // scores beyond are counted at +-MAX_SCORE
    static constexpr int MATERIALS = MATERIAL_MAX - MATERIAL_MIN + 1;
    static constexpr int SCORES = 2 * MAX_SCORE + 1;
    static constexpr std::size_t CELLS = std::size_t(MATERIALS) * SCORES;

    void add(const WdlObservation& o);
    std::uint64_t positions() const { return positions_; }
    // [loss, draw, win] at a material (clamped to the model's range) and score.
    const std::array<std::uint32_t, 3>& at(int material, int score) const;

    // The cells that hold any observation, for the fit's passes.
    struct Cell {
        int material, score;
        std::array<double, 3> n; // loss, draw, win
    };
    std::vector<Cell> cells() const;

  private:
    std::vector<std::array<std::uint32_t, 3>> counts_ = std::vector<std::array<std::uint32_t, 3>>(CELLS);
    std::uint64_t positions_ = 0;
};

// The mean negative log-likelihood (natural log) of the counted results
// under `model`: lower is better. Probabilities are kept above 1e-9.
double log_loss(const WdlModel& model, const WdlCounts& counts);

struct WdlFit {
    WdlModel model;
    double log_loss = 0; // on the counts it was fitted to
    int evaluations = 0; // likelihood passes the fit took
};
// Why not, when the counts cannot determine a model (too few positions, no
// win or no loss at any material); `fit` is then left as it is.
std::string fit_wdl(const WdlCounts& counts, WdlFit& fit);

// Games at a clock (match runners' PGN) carry the score a GUI was shown:
// printed by the net that played under its own model (to_printed_cp), or
// raw when it had none (null). The observation back in internal units.
WdlObservation internal_of(WdlObservation printed, const WdlModel* printed_with);

// `base` with a(m) scaled by one factor and b(m) by another, both fitted by
// maximum likelihood to `counts`: the model's shape from many cheap games
// (datagen's), its scale from fewer games at a clock, where a deeper search
// makes the same score more decisive. Factors stay within [0.2, 5].
struct WdlScaleFit {
    double a = 1, b = 1; // the factors
    WdlModel model;      // base scaled by them
    double log_loss = 0; // on the counts it was fitted to
};
// Why not (too few positions, no win or no loss); `fit` is then left as it is.
std::string fit_wdl_scale(const WdlModel& base, const WdlCounts& counts, WdlScaleFit& fit);

// The measured results of some observations and the model's chances for
// them: counts while adding, shares (summing to 1) after finish().
struct WdlShares {
    std::uint64_t positions = 0;
    std::array<double, 3> measured{}, predicted{}; // loss, draw, win
    void add(const WdlModel& model, const WdlObservation& o);
    void finish();
};

// The measured and the predicted shares of a set of observations, binned by
// the score a GUI is shown (to_printed_cp under `model`), for the report.
struct WdlBin : WdlShares {
    int low = 0, high = 0; // printed centipawns, [low, high)
};
std::vector<WdlBin> calibration(const WdlModel& model, const std::vector<WdlObservation>& observations,
                                int bin_cp = 50, int max_cp = 400);

// The same by material, for one band of printed scores: the observations
// printed at [low_cp, high_cp), and those at (-high_cp, -low_cp] seen from
// the other side (a loss there counts as a win here, which the model's
// symmetry allows), in each material band [edges[i], edges[i + 1]). Shows
// where a miss in one score band sits, since a(m) and b(m) are cubics.
struct WdlMaterialBin : WdlShares {
    int low = 0, high = 0; // material, [low, high)
};
std::vector<WdlMaterialBin> calibration_by_material(const WdlModel& model,
                                                    const std::vector<WdlObservation>& observations,
                                                    int low_cp, int high_cp, const std::vector<int>& edges);

// The printed score from which the side to move wins half its games: the
// centre c of the logistic P(win) = 1 / (1 + exp(-(s - c) / w)) fitted by
// maximum likelihood to the observations' wins (against draws and losses)
// on their printed scores s (to_printed_cp under `model`; null: the raw
// scores), those within +-1000 printed. The user's reading of +1.00 is
// right when c is near 100. NaN when there are no wins or no other results.
double half_win_score(const WdlModel* model, const std::vector<WdlObservation>& observations);

} // namespace staccato::train
