// The trainer (src/train): the packed record and the trainer's features, the
// gradient against finite differences, and its forward pass against the
// engine's integer inference on the same net, and the schedule of learning
// rate and result weight. Reading data files: test_data.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "model.h"
#include "schedule.h"
#include "staccato/nnue/accumulator.h"
#include "suite.h"
#include "temp_path.h"

using namespace staccato;
using staccato::test::from_fen;
using staccato::test::temp_path;

namespace {

std::string first_fields(const std::string& fen, int n) {
    std::istringstream in(fen);
    std::string out, field;
    for (int i = 0; i < n && in >> field; ++i) out += (i ? " " : "") + field;
    return out;
}

} // namespace

TEST_CASE("a packed record keeps the position and its label", "[train]") {
    int checked = 0;
    for (const std::string& fen : test::suite_fens(3)) {
        const Position pos = from_fen(fen);
        const auto p = nnue::PackedPosition::pack(pos, -123, 2);
        INFO(fen);
        REQUIRE(!p.check());
        CHECK(p.score == -123);
        CHECK(p.result == 2);
        // Board and side always; castling letters only where X-FEN names them.
        CHECK(first_fields(p.fen(), 2) == first_fields(pos.fen(), 2));
        if (!pos.is_chess960()) CHECK(first_fields(p.fen(), 4) == first_fields(pos.fen(), 4));
        // The trainer's features are the engine's.
        const train::Features f = train::features_of(p);
        CHECK(f.count == popcount(pos.pieces()));
        std::vector<int> engine, trainer(f.stm.begin(), f.stm.begin() + f.count);
        for (Bitboard b = pos.pieces(); b; b &= b - 1) {
            const Square s = lsb(b);
            engine.push_back(nnue::feature_index(pos.side_to_move(), pos.king_square(pos.side_to_move()),
                                                 pos.piece_on(s), s));
        }
        std::sort(engine.begin(), engine.end());
        std::sort(trainer.begin(), trainer.end());
        CHECK(engine == trainer);
        ++checked;
    }
    CHECK(checked > 300);
}

TEST_CASE("the gradient matches finite differences", "[train]") {
    train::Model m;
    m.init_random(3);
    const auto p = nnue::PackedPosition::pack(
        from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3"), 40, 2);
    const train::Features f = train::features_of(p);
    const float t = train::target(p, 0.3f);
    std::vector<float> grad(train::Layout::SIZE);
    train::accumulate_gradient(m, f, t, grad);
    auto loss = [&](const train::Model& model) {
        const float q = train::win_probability(model.forward(f) * nnue::SCALE);
        return double(q - t) * double(q - t);
    };
    // One weight of an active feature per neuron group, hidden biases, output
    // weights and the output bias.
    const int bucket = nnue::output_bucket(f.count);
    REQUIRE(bucket == nnue::output_bucket(32));
    const std::size_t out_weights = train::Layout::out_weights(bucket);
    std::vector<std::size_t> params = {train::Layout::out_bias(bucket)};
    for (int j = 0; j < 8; ++j) {
        params.push_back(train::Layout::FT_WEIGHTS + std::size_t(f.stm[j % f.count]) * train::HIDDEN +
                         31 * j);
        params.push_back(train::Layout::FT_BIAS + 29 * j);
        params.push_back(out_weights + 61 * j);
    }
    int compared = 0;
    for (std::size_t i : params) {
        const float h = 1e-3f;
        train::Model plus = m, minus = m;
        plus.params[i] += h;
        minus.params[i] -= h;
        const double numeric = (loss(plus) - loss(minus)) / (2 * h);
        INFO("parameter " << i << " analytic " << grad[i] << " numeric " << numeric);
        CHECK(std::abs(grad[i] - numeric) <= 1e-4 + 0.02 * std::abs(numeric));
        compared += grad[i] != 0;
    }
    CHECK(compared > 10);
    // The other buckets' output layers take no part in this position.
    for (std::size_t i = train::Layout::OUT_WEIGHTS; i < train::Layout::SIZE; ++i)
        if ((i < out_weights || i >= out_weights + 2 * train::HIDDEN) && i != train::Layout::out_bias(bucket))
            REQUIRE(grad[i] == 0.0f);
}

TEST_CASE("the trainer's forward pass matches the engine's inference on the same net", "[train]") {
    train::Model m;
    m.dequantise(nnue::default_network());
    int compared = 0, max_diff = 0;
    for (const std::string& fen : test::suite_fens(2)) {
        const Position pos = from_fen(fen);
        const float trainer =
            m.forward(train::features_of(nnue::PackedPosition::pack(pos, 0, 1))) * nnue::SCALE;
        const Value engine = nnue::evaluate(nnue::default_network(), pos);
        if (std::abs(engine) >= VALUE_MATE_IN_MAX_PLY - 1) continue; // clamped by the engine
        INFO(fen << ": trainer " << trainer << ", engine " << engine);
        CHECK(std::abs(trainer - float(engine)) <= 2.0f + 0.01f * std::abs(trainer));
        max_diff = std::max(max_diff, int(std::abs(trainer - float(engine))));
        ++compared;
    }
    CHECK(compared > 500);
    // And the quantised model writes the same net back (without its WDL
    // model, which the trainer never writes: `staccato-train wdl` fits one).
    auto weights_only = std::make_unique<nnue::Network>(nnue::default_network());
    weights_only->wdl.reset();
    CHECK(nnue::serialize(m.quantise()) == nnue::serialize(*weights_only));
}

TEST_CASE("scaling the output layer scales every output, and the spread finds the factor", "[train]") {
    train::Model m;
    m.dequantise(nnue::default_network());
    train::Model half = m;
    half.scale_output(0.5f);
    std::vector<nnue::PackedPosition> positions;
    for (const std::string& fen : test::suite_fens(3)) {
        const auto p = nnue::PackedPosition::pack(from_fen(fen), 0, 1);
        const auto f = train::features_of(p);
        CHECK(half.forward(f) == Approx(0.5f * m.forward(f)).margin(1e-6));
        positions.push_back(p);
    }
    REQUIRE(positions.size() > 100);
    CHECK(train::spread(half, &m, positions).ratio() == Approx(2.0).epsilon(1e-4));
    CHECK(train::spread(m, &half, positions).ratio() == Approx(0.5).epsilon(1e-4));
    CHECK(train::spread(m, &m, positions).ratio() == Approx(1.0));
    CHECK(train::spread(m, &m, {}).ratio() == 1.0);
    // Alone (--scale-rms): the model's RMS in centipawns over the positions
    // it scores under 1000 cp, worked out here by hand.
    double squares = 0;
    int counted = 0;
    for (const auto& p : positions) {
        const double cp = m.forward(train::features_of(p)) * nnue::SCALE;
        if (std::abs(cp) < 1000) squares += cp * cp, ++counted;
    }
    REQUIRE(counted > 50);
    const train::Spread alone = train::spread(m, nullptr, positions);
    CHECK(alone.model == Approx(std::sqrt(squares / counted)).epsilon(1e-6));
    CHECK(alone.model > 10);
    CHECK(alone.reference == 0);
}

TEST_CASE("the schedule: a cosine learning rate and a straight result-weight ramp", "[train]") {
    train::Schedule s;
    s.epochs = 11;
    s.lr = 0.002;
    s.final_lr_ratio = 0.01;
    s.wdl = 0.1f;
    CHECK(s.learning_rate(0) == Approx(0.002));
    CHECK(s.learning_rate(5) == Approx(0.002 * (0.01 + 0.99 * 0.5)));
    CHECK(s.learning_rate(10) == Approx(0.002 * 0.01));
    for (int e = 1; e < 11; ++e) CHECK(s.learning_rate(e) < s.learning_rate(e - 1));
    // No ramp: the same weight at every epoch.
    for (int e = 0; e < 11; ++e) CHECK(s.result_weight(e) == 0.1f);
    // A ramp, upwards and downwards, from the first epoch to the last.
    s.wdl = 0.0f;
    s.wdl_end = 0.5f;
    CHECK(s.result_weight(0) == 0.0f);
    CHECK(s.result_weight(2) == Approx(0.1f));
    CHECK(s.result_weight(10) == Approx(0.5f));
    s.wdl = 0.4f;
    s.wdl_end = 0.0f;
    CHECK(s.result_weight(5) == Approx(0.2f));
    CHECK(s.result_weight(10) == Approx(0.0f).margin(1e-7));
    // Past the last epoch (a finished run resumed): the last epoch's values.
    CHECK(s.result_weight(11) == Approx(0.0f).margin(1e-7));
    CHECK(s.learning_rate(11) == Approx(0.002 * 0.01));
    // One epoch: the start values.
    s.epochs = 1;
    CHECK(s.learning_rate(0) == Approx(0.002));
    CHECK(s.result_weight(0) == 0.4f);
}
