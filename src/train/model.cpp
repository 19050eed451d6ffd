#include "model.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "staccato/random.h"

namespace staccato::train {

Features features_of(const nnue::PackedPosition& p, bool mirror) {
    // With mirrored inputs a position and its left-right image have the same
    // features already (every perspective sees its king on a-d): nothing to flip.
    if (nnue::INPUT_KIND == nnue::INPUT_KIND_MIRRORED) mirror = false;
    Features f;
    const Color stm = Color(p.side);
    std::array<Square, COLOR_NB> kings{};
    int i = 0;
    for (std::uint64_t b = p.occupancy; b; b &= b - 1, ++i)
        if (type_of(p.piece(i)) == KING)
            kings[color_of(p.piece(i))] = Square(std::countr_zero(b) ^ (mirror ? 7 : 0));
    i = 0;
    for (std::uint64_t b = p.occupancy; b; b &= b - 1, ++i) {
        const Square s = Square(std::countr_zero(b) ^ (mirror ? 7 : 0));
        const Piece pc = p.piece(i);
        f.stm[i] = std::uint16_t(nnue::feature_index(stm, kings[stm], pc, s));
        f.nstm[i] = std::uint16_t(nnue::feature_index(~stm, kings[~stm], pc, s));
    }
    f.count = i;
    return f;
}

void Model::scale_output(float k) {
    for (std::size_t i = Layout::OUT_WEIGHTS; i < Layout::SIZE; ++i) {
        params[i] *= k;
        if (i < Layout::OUT_BIAS) params[i] = std::clamp(params[i], -WEIGHT_CLIP, WEIGHT_CLIP);
    }
}

void Model::init_random(std::uint64_t seed) {
    Rng rng(seed);
    // Feature transformer: at most MAX_ACTIVE_INPUTS of the INPUTS are
    // active, so a small spread keeps the accumulators inside SCReLU's clip
    // at the start.
    std::normal_distribution<float> ft(0.0f, 1.0f / std::sqrt(float(nnue::MAX_ACTIVE_INPUTS)));
    std::normal_distribution<float> out(0.0f, 1.0f / std::sqrt(float(OUTPUT_INPUTS)));
    for (std::size_t i = Layout::FT_WEIGHTS; i < Layout::FT_BIAS; ++i) params[i] = ft(rng) * 0.5f;
    for (std::size_t i = Layout::FT_BIAS; i < Layout::OUT_WEIGHTS; ++i) params[i] = 0.0f;
    for (std::size_t i = Layout::OUT_WEIGHTS; i < Layout::OUT_BIAS; ++i) params[i] = out(rng);
    for (int b = 0; b < OUTPUT_BUCKETS; ++b) params[Layout::out_bias(b)] = 0.0f;
}

namespace {
std::int16_t quantise_one(float w, int q) {
    return std::int16_t(std::clamp(std::lround(w * float(q)), -32767L, 32767L));
}
} // namespace

nnue::Network Model::quantise() const {
    nnue::Network net;
    for (std::size_t i = 0; i < net.ft_weights.size(); ++i)
        net.ft_weights[i] = quantise_one(params[Layout::FT_WEIGHTS + i], nnue::QA);
    for (int i = 0; i < HIDDEN; ++i) net.ft_bias[i] = quantise_one(params[Layout::FT_BIAS + i], nnue::QA);
    for (std::size_t i = 0; i < net.out_weights.size(); ++i)
        net.out_weights[i] = quantise_one(params[Layout::OUT_WEIGHTS + i], nnue::QB);
    for (std::size_t b = 0; b < net.out_bias.size(); ++b)
        net.out_bias[b] =
            std::int32_t(std::lround(params[Layout::OUT_BIAS + b] * float(nnue::QA * nnue::QB)));
    return net;
}

void Model::dequantise(const nnue::Network& net) {
    for (std::size_t i = 0; i < net.ft_weights.size(); ++i)
        params[Layout::FT_WEIGHTS + i] = float(net.ft_weights[i]) / nnue::QA;
    for (int i = 0; i < HIDDEN; ++i) params[Layout::FT_BIAS + i] = float(net.ft_bias[i]) / nnue::QA;
    for (std::size_t i = 0; i < net.out_weights.size(); ++i)
        params[Layout::OUT_WEIGHTS + i] = float(net.out_weights[i]) / nnue::QB;
    for (std::size_t b = 0; b < net.out_bias.size(); ++b)
        params[Layout::OUT_BIAS + b] = float(net.out_bias[b]) / float(nnue::QA * nnue::QB);
}

namespace {

// The two accumulators of a position.
struct Hidden {
    alignas(64) std::array<float, HIDDEN> stm, nstm;
};

void accumulate(const Model& m, const Features& f, Hidden& h) {
    const float* bias = &m.params[Layout::FT_BIAS];
    std::copy(bias, bias + HIDDEN, h.stm.begin());
    std::copy(bias, bias + HIDDEN, h.nstm.begin());
    for (int k = 0; k < f.count; ++k) {
        const float* ws = &m.params[Layout::FT_WEIGHTS + std::size_t(f.stm[k]) * HIDDEN];
        const float* wn = &m.params[Layout::FT_WEIGHTS + std::size_t(f.nstm[k]) * HIDDEN];
        for (int j = 0; j < HIDDEN; ++j) h.stm[j] += ws[j], h.nstm[j] += wn[j];
    }
}

// Clamped to [0, SCRELU_CLIP]; min and max rather than std::clamp, so that
// the loops below compile to vector instructions.
float crelu(float x) { return std::min(std::max(x, 0.0f), nnue::SCRELU_CLIP); }

// The output layer of the position's bucket. The sum runs in LANES partial
// sums, added at the end: without it the float sum is one chain of
// dependent additions the compiler may not reorder (and cannot vectorise).
float output(const Model& m, const Hidden& h, int bucket) {
    constexpr int LANES = 16;
    static_assert(HIDDEN % LANES == 0);
    const float* w = &m.params[Layout::out_weights(bucket)];
    std::array<float, LANES> lanes{};
    for (int j = 0; j < HIDDEN; j += LANES)
        for (int l = 0; l < LANES; ++l) {
            const float s = crelu(h.stm[j + l]), n = crelu(h.nstm[j + l]);
            lanes[l] += w[j + l] * s * s + w[HIDDEN + j + l] * n * n;
        }
    float sum = m.params[Layout::out_bias(bucket)];
    for (const float x : lanes) sum += x;
    return sum;
}

} // namespace

float Model::forward(const Features& f) const {
    Hidden h;
    accumulate(*this, f, h);
    return output(*this, h, nnue::output_bucket(f.count));
}

float target(const nnue::PackedPosition& p, float wdl) {
    const float white_result = float(p.result) / 2.0f;
    const float result = p.side == WHITE ? white_result : 1.0f - white_result;
    const float score = p.side == WHITE ? float(p.score) : -float(p.score);
    return wdl * result + (1.0f - wdl) * win_probability(score);
}

float accumulate_gradient(const Model& m, const Features& f, float t, std::vector<float>& grad) {
    Hidden h;
    accumulate(m, f, h);
    const int bucket = nnue::output_bucket(f.count);
    const float out = output(m, h, bucket);
    // The net's output is in SCALE-centipawn units: p = sigmoid(out * SCALE / WIN_SCALE).
    const float k = float(nnue::SCALE) / WIN_SCALE;
    const float p = win_probability(out * nnue::SCALE);
    const float diff = p - t;
    const float g = 2.0f * diff * p * (1.0f - p) * k; // d loss / d out

    // The four arrays are computed in one loop without branches, then added
    // to the gradient in a second: a single loop that also wrote the
    // gradient measured about 6% slower (its stores might alias the weights).
    const float* w = &m.params[Layout::out_weights(bucket)];
    alignas(64) std::array<float, HIDDEN> gs_out, gn_out; // d loss / d output weights
    alignas(64) std::array<float, HIDDEN> ds, dn;         // d loss / d accumulator
    for (int j = 0; j < HIDDEN; ++j) {
        const float s = h.stm[j], n = h.nstm[j];
        const float cs = crelu(s), cn = crelu(n);
        gs_out[j] = g * cs * cs;
        gn_out[j] = g * cn * cn;
        // SCReLU's slope, 2x inside (0, SCRELU_CLIP) and zero outside: cs is
        // 0 below, so only the upper end needs a factor.
        const float fs = s < nnue::SCRELU_CLIP ? 2.0f : 0.0f, fn = n < nnue::SCRELU_CLIP ? 2.0f : 0.0f;
        ds[j] = g * w[j] * fs * cs;
        dn[j] = g * w[HIDDEN + j] * fn * cn;
    }
    float* gw = &grad[Layout::out_weights(bucket)];
    float* gb = &grad[Layout::FT_BIAS];
    for (int j = 0; j < HIDDEN; ++j) {
        gw[j] += gs_out[j];
        gw[HIDDEN + j] += gn_out[j];
        gb[j] += ds[j] + dn[j];
    }
    grad[Layout::out_bias(bucket)] += g;
    for (int k2 = 0; k2 < f.count; ++k2) {
        float* gs = &grad[Layout::FT_WEIGHTS + std::size_t(f.stm[k2]) * HIDDEN];
        for (int j = 0; j < HIDDEN; ++j) gs[j] += ds[j];
        float* gn = &grad[Layout::FT_WEIGHTS + std::size_t(f.nstm[k2]) * HIDDEN];
        for (int j = 0; j < HIDDEN; ++j) gn[j] += dn[j];
    }
    return diff * diff;
}

void AdamW::apply(std::vector<float>& params, const std::vector<float>& grad, std::size_t begin,
                  std::size_t end) {
    const float t = float(step + 1);
    const float c1 = 1.0f - std::pow(beta1, t), c2 = 1.0f - std::pow(beta2, t);
    for (std::size_t i = begin; i < end; ++i) {
        const float g = grad[i];
        m[i] = beta1 * m[i] + (1.0f - beta1) * g;
        v[i] = beta2 * v[i] + (1.0f - beta2) * g * g;
        float p = params[i] * (1.0f - lr * decay);
        p -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
        params[i] = std::clamp(p, -WEIGHT_CLIP, WEIGHT_CLIP);
    }
}

namespace {
constexpr char CHECKPOINT_MAGIC[8] = {'S', 'T', 'A', 'C', 'C', 'K', 'P', '2'};
}

std::optional<std::string> save_checkpoint(const std::string& path, const Checkpoint& c) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return "cannot write " + tmp;
        const std::uint64_t size = Layout::SIZE, step = c.adam.step;
        const std::int64_t epoch = c.epoch;
        out.write(CHECKPOINT_MAGIC, sizeof CHECKPOINT_MAGIC);
        out.write(reinterpret_cast<const char*>(&size), sizeof size);
        out.write(reinterpret_cast<const char*>(&epoch), sizeof epoch);
        out.write(reinterpret_cast<const char*>(&step), sizeof step);
        for (const auto* v : {&c.model.params, &c.adam.m, &c.adam.v})
            out.write(reinterpret_cast<const char*>(v->data()), std::streamsize(v->size() * sizeof(float)));
        if (!out) return "write error on " + tmp;
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) return "cannot rename " + tmp + " to " + path;
    return std::nullopt;
}

std::optional<std::string> load_checkpoint(const std::string& path, Checkpoint& c) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open checkpoint " + path;
    char magic[8];
    std::uint64_t size = 0, step = 0;
    std::int64_t epoch = 0;
    in.read(magic, sizeof magic);
    in.read(reinterpret_cast<char*>(&size), sizeof size);
    in.read(reinterpret_cast<char*>(&epoch), sizeof epoch);
    in.read(reinterpret_cast<char*>(&step), sizeof step);
    if (!in || std::memcmp(magic, CHECKPOINT_MAGIC, sizeof magic) != 0 || size != Layout::SIZE)
        return path + " is not a checkpoint of this architecture";
    Checkpoint fresh;
    for (auto* v : {&fresh.model.params, &fresh.adam.m, &fresh.adam.v})
        in.read(reinterpret_cast<char*>(v->data()), std::streamsize(v->size() * sizeof(float)));
    if (!in) return path + " is truncated";
    fresh.epoch = int(epoch);
    fresh.adam.step = step;
    fresh.adam.lr = c.adam.lr;
    fresh.adam.decay = c.adam.decay;
    c = std::move(fresh);
    return std::nullopt;
}

Spread spread(const Model& m, const Model* reference, const std::vector<nnue::PackedPosition>& data) {
    double rr = 0, nn = 0;
    std::size_t count = 0;
    for (const auto& p : data) {
        const Features f = features_of(p);
        const double n = m.forward(f) * nnue::SCALE,
                     r = reference ? reference->forward(f) * nnue::SCALE : 0.0;
        if (std::abs(r) >= 1000 || std::abs(n) >= 1000) continue;
        rr += r * r;
        nn += n * n;
        ++count;
    }
    if (count == 0) return {};
    return {std::sqrt(nn / double(count)), std::sqrt(rr / double(count))};
}

} // namespace staccato::train
