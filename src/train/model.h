// staccato-train's model: the engine's network (nnue/arch.h says what it is)
// in floating point, with its forward and backward passes and the AdamW
// optimiser.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "staccato/nnue/network.h"
#include "staccato/nnue/packed.h"

namespace staccato::train {

using nnue::HIDDEN;
using nnue::INPUTS;
using nnue::OUTPUT_BUCKETS;
using nnue::OUTPUT_INPUTS;

// All parameters in one flat array, so that the optimiser, the gradient sums
// and the checkpoints treat them alike.
struct Layout {
    static constexpr std::size_t FT_WEIGHTS = 0;
    static constexpr std::size_t FT_BIAS = FT_WEIGHTS + std::size_t(INPUTS) * HIDDEN;
    static constexpr std::size_t OUT_WEIGHTS = FT_BIAS + HIDDEN;
    static constexpr std::size_t OUT_BIAS = OUT_WEIGHTS + OUTPUT_BUCKETS * OUTPUT_INPUTS;
    static constexpr std::size_t SIZE = OUT_BIAS + OUTPUT_BUCKETS;
    // Where one bucket's output layer (OUTPUT_INPUTS weights) and bias lie.
    static constexpr std::size_t out_weights(int bucket) {
        return OUT_WEIGHTS + std::size_t(bucket) * OUTPUT_INPUTS;
    }
    static constexpr std::size_t out_bias(int bucket) { return OUT_BIAS + std::size_t(bucket); }
};

// Weights are kept where quantisation cannot overflow (arch.h).
using nnue::WEIGHT_CLIP;

// The features of one position: both perspectives' active inputs.
struct Features {
    int count = 0;
    std::array<std::uint16_t, nnue::MAX_ACTIVE_INPUTS> stm{}, nstm{}; // side to move's view, the other side's
};
// With `mirror`, files a..h become h..a: a position without castling rights
// is as good a training example mirrored (chess is left-right symmetric then).
// With mirrored inputs (arch.h) that changes nothing, so it is not done: a
// position and its image already have the same features.
Features features_of(const nnue::PackedPosition& p, bool mirror = false);

struct Model {
    std::vector<float> params = std::vector<float>(Layout::SIZE);

    void init_random(std::uint64_t seed);
    // The quantised net this model is written as, and back.
    nnue::Network quantise() const;
    void dequantise(const nnue::Network& net);

    // Multiplies the output layers (weights and biases) by k, so that every
    // output is k times what it was (clipped to WEIGHT_CLIP, for k <= 1 a no-op).
    void scale_output(float k);

    // The output before any sigmoid, in units of nnue::SCALE centipawns
    // (multiply by SCALE for centipawns, side to move's view).
    float forward(const Features& f) const;
};

// The training target: a blend of the search score's win probability and the
// game's result, both from the side to move's view. `wdl` weights the result.
float target(const nnue::PackedPosition& p, float wdl);
// sigmoid of centipawns: the expected score 1 / (1 + e^(-cp / WIN_SCALE)).
// WIN_SCALE is the data's centipawn scale, not the net's (nnue::SCALE).
constexpr float WIN_SCALE = 400.0f;
inline float win_probability(float cp) { return 1.0f / (1.0f + std::exp(-cp / WIN_SCALE)); }

// Adds the loss gradient of one position to `grad` (same layout as params);
// returns the position's loss (sigmoid(out) - target)^2.
float accumulate_gradient(const Model& m, const Features& f, float target, std::vector<float>& grad);

struct AdamW {
    float lr = 0.001f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, decay = 0.01f;
    std::uint64_t step = 0;
    std::vector<float> m = std::vector<float>(Layout::SIZE), v = std::vector<float>(Layout::SIZE);

    // Applies the mean gradient `grad` (already divided by the batch size) to
    // params[begin, end); the step counter advances once per batch (bump()).
    void apply(std::vector<float>& params, const std::vector<float>& grad, std::size_t begin,
               std::size_t end);
    void bump() { ++step; }
};

// Checkpoints: model and optimiser state, and how far training got.
struct Checkpoint {
    Model model;
    AdamW adam;
    int epoch = 0; // epochs completed
};
std::optional<std::string> save_checkpoint(const std::string& path, const Checkpoint& c);
std::optional<std::string> load_checkpoint(const std::string& path, Checkpoint& c);

// The spread of `m`'s outputs on `data`, and of `reference`'s when given:
// their root mean squares in centipawns over the positions that both score
// under 1000 cp (0 when none does). ratio() is the factor k that gives `m`
// the reference's spread: what --scale-to multiplies the output layer by
// (--scale-rms names the reference's spread as a number instead, for a
// reference of another width that this build cannot load). A net trained on
// deeper searches' scores drifts to a larger scale than the net whose games
// it learnt from, while the search's margins (and the WDL model, wdl.h) were
// set in that net's units. (A least-squares fit of one on the other would
// shrink k by their disagreement, so the spreads are compared instead.)
struct Spread {
    double model = 0, reference = 0;
    double ratio() const { return model > 0 ? reference / model : 1.0; }
};
Spread spread(const Model& m, const Model* reference, const std::vector<nnue::PackedPosition>& data);

} // namespace staccato::train
