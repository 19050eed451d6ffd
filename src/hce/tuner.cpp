// staccato-tune: a Texel tuner for the evaluation weights (a separate program,
// not linked into the engine).
//
//   staccato-tune [options] FILE...
//
// FILE: any file of the data seam (nnue/data.h), told by its content:
// positions labelled with the game result ("FEN [1.0]" lines, White's result,
// or EPD with c9 "1-0" etc.), scored text, datagen's games, 32-byte records or
// match runners' PGN, any of them xz-compressed. Only the results are used.
//
// 1. Every position is resolved by a small quiescence search (captures with
//    SEE >= 0) and the quiet leaf at the end of its principal variation is
//    traced: the evaluation is a linear function of the weights there
//    (hce::Trace). Positions in check, or decided by an endgame rule, are
//    dropped.
// 2. The logistic scaling constant K of  result ~ 1 / (1 + 10^(-K * eval / 400))
//    is fitted to the current weights (golden-section search).
// 3. Adam, full batch, minimises the mean squared error over the weights.
// 4. The weights are written as a C++ source file (default
//    src/hce/eval_weights.cpp) that the engine compiles in.
//
// Every tenth position is held out and its error printed too, so that
// over-fitting shows.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "staccato/attacks.h"
#include "staccato/hce/eval.h"
#include "staccato/movegen.h"
#include "staccato/nnue/data.h"
#include "staccato/parse.h"
#include "staccato/see.h"

using namespace staccato;
using hce::NUM_WEIGHTS;

namespace {

struct Sample {
    std::uint32_t begin, end; // slice of the coefficient arrays
    float result;             // White's score: 1, 0.5, 0
    std::uint8_t phase;       // 0..24
    std::uint8_t scale;       // 0..64
};

struct Dataset {
    std::vector<Sample> samples;
    std::vector<std::uint16_t> index;
    std::vector<float> coeff;
};

// ---------------------------------------------------------------------------
// Loading and resolving positions
// ---------------------------------------------------------------------------
constexpr int QS_MAX_PLY = 16;

// Captures-only quiescence search that remembers its principal variation.
Value qsearch(Position& pos, Value alpha, Value beta, int ply,
              std::array<std::array<Move, QS_MAX_PLY>, QS_MAX_PLY>& pv, std::array<int, QS_MAX_PLY>& pv_len) {
    pv_len[ply] = 0;
    const bool in_check = pos.in_check();
    Value stand = in_check ? -VALUE_MATE + ply : hce::evaluate(pos);
    if (ply >= QS_MAX_PLY - 1 || stand >= beta) return in_check ? hce::evaluate(pos) : stand;
    alpha = std::max(alpha, stand);
    // In check every evasion is searched (a capture that ignores the check
    // would be illegal); otherwise captures only.
    std::array<ScoredMove, MAX_MOVES> moves;
    ScoredMove* end = in_check ? generate<GenType::Evasions>(pos, moves.data())
                               : generate<GenType::Captures>(pos, moves.data());
    for (ScoredMove* m = moves.data(); m != end; ++m) {
        Piece victim = pos.piece_on(m->move.to());
        m->score = (victim == NO_PIECE ? 0 : 10 * type_of(victim)) - type_of(pos.moved_piece(m->move));
    }
    std::sort(moves.data(), end, [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
    Value best = stand;
    for (ScoredMove* m = moves.data(); m != end; ++m) {
        if (!pos.is_legal(m->move) || (!in_check && !see_ge(pos, m->move, 0))) continue;
        pos.make_move(m->move);
        Value v = -qsearch(pos, -beta, -alpha, ply + 1, pv, pv_len);
        pos.unmake_move(m->move);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                pv[ply][0] = m->move;
                for (int i = 0; i < pv_len[ply + 1]; ++i) pv[ply][i + 1] = pv[ply + 1][i];
                pv_len[ply] = pv_len[ply + 1] + 1;
                if (v >= beta) break;
            }
        }
    }
    return best;
}

struct LoadStats {
    long lines = 0, bad = 0, in_check = 0, special = 0, kept = 0;
    double model_error = 0; // sum of |linear model - engine evaluation|, a check on the trace
};

void add_position(const std::string& fen, float result, Dataset& data, LoadStats& st) {
    Position pos;
    if (pos.set_fen(fen).error) {
        ++st.bad;
        return;
    }
    if (pos.in_check()) {
        ++st.in_check;
        return;
    }
    std::array<std::array<Move, QS_MAX_PLY>, QS_MAX_PLY> pv;
    std::array<int, QS_MAX_PLY> pv_len{};
    qsearch(pos, -VALUE_INFINITE, VALUE_INFINITE, 0, pv, pv_len);
    for (int i = 0; i < pv_len[0]; ++i) pos.make_move(pv[0][i]);
    hce::Trace t;
    const Value engine_value = hce::evaluate_traced(pos, t);
    if (t.special) {
        ++st.special;
        return;
    }
    double mg = 0, eg = 0;
    for (int i = 0; i < NUM_WEIGHTS; ++i)
        mg += t.coeff[i] * hce::WEIGHTS[i].mg, eg += t.coeff[i] * hce::WEIGHTS[i].eg;
    st.model_error += std::abs((mg * t.phase + eg * (24 - t.phase) * t.scale / 64.0) / 24.0 - engine_value);
    Sample s;
    s.begin = std::uint32_t(data.index.size());
    for (int i = 0; i < NUM_WEIGHTS; ++i)
        if (t.coeff[i] != 0) data.index.push_back(std::uint16_t(i)), data.coeff.push_back(float(t.coeff[i]));
    s.end = std::uint32_t(data.index.size());
    s.result = result;
    s.phase = std::uint8_t(t.phase);
    s.scale = std::uint8_t(t.scale);
    data.samples.push_back(s);
    ++st.kept;
}

// Every position of `path` that the data seam keeps (nnue/data.h), with its
// game result. Whole blocks of 100 positions are held out: positions of one
// game sit together, and a held-out set that shares games with the training
// set would hide over-fitting.
bool load_file(const std::string& path, Dataset& train, Dataset& test, LoadStats& st, long limit) {
    std::vector<nnue::PackedPosition> records;
    nnue::DataStats stats;
    nnue::GameFilter filter;
    filter.max_score = 1 << 20; // the scores are not used
    const auto error = nnue::read_data(path, filter, records, stats, /*need_scores=*/false);
    std::cerr << "tuner: " << path << ": " << nnue::format_name(stats.format) << ", " << stats.kept
              << " positions\n";
    if (error) {
        std::cerr << "tuner: " << *error << "\n";
        if (records.empty()) return false;
        std::cerr << "tuner: kept the " << records.size() << " positions read before that\n";
    }
    if (limit && records.size() > std::size_t(limit)) records.resize(std::size_t(limit));
    for (const nnue::PackedPosition& r : records) {
        ++st.lines;
        add_position(r.fen(), float(r.result) / 2.0f, (st.lines / 100 % 10 == 0) ? test : train, st);
    }
    return true;
}

// ---------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------
struct Params {
    std::vector<double> mg, eg;
};

double linear_eval(const Dataset& d, const Sample& s, const Params& p) {
    double mg = 0, eg = 0;
    for (std::uint32_t i = s.begin; i < s.end; ++i) {
        mg += p.mg[d.index[i]] * d.coeff[i];
        eg += p.eg[d.index[i]] * d.coeff[i];
    }
    return (mg * s.phase + eg * (24 - s.phase) * s.scale / 64.0) / 24.0;
}

double sigmoid(double k, double e) { return 1.0 / (1.0 + std::pow(10.0, -k * e / 400.0)); }

double mse(const Dataset& d, const Params& p, double k) {
    double sum = 0;
    for (const Sample& s : d.samples) {
        double err = s.result - sigmoid(k, linear_eval(d, s, p));
        sum += err * err;
    }
    return sum / double(d.samples.size());
}

double fit_k(const Dataset& d, const Params& p) {
    double lo = 0.1, hi = 3.0;
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 40; ++i) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (mse(d, p, a) < mse(d, p, b))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

// Adam on  MSE + l2 * sum((w - w0)^2): the penalty keeps weights that the
// data hardly constrains (rare features) near their starting values.
void adam(const Dataset& d, const Dataset& test, Params& p, double k, int epochs, double rate, double l2) {
    const Params start = p;
    const std::size_t n = NUM_WEIGHTS;
    std::vector<double> gm(n), ge(n), m1(2 * n, 0), m2(2 * n, 0);
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const double c = std::log(10.0) * k / 400.0;
    for (int epoch = 1; epoch <= epochs; ++epoch) {
        std::fill(gm.begin(), gm.end(), 0);
        std::fill(ge.begin(), ge.end(), 0);
        for (const Sample& s : d.samples) {
            double e = linear_eval(d, s, p);
            double sg = sigmoid(k, e);
            // d(err^2)/dE = -2 (r - s) s (1 - s) c
            double de = -2.0 * (s.result - sg) * sg * (1 - sg) * c;
            double dmg = de * s.phase / 24.0, deg = de * (24 - s.phase) * s.scale / (64.0 * 24.0);
            for (std::uint32_t i = s.begin; i < s.end; ++i) {
                gm[d.index[i]] += dmg * d.coeff[i];
                ge[d.index[i]] += deg * d.coeff[i];
            }
        }
        const double inv = 1.0 / double(d.samples.size());
        const double corr1 = 1 - std::pow(b1, epoch), corr2 = 1 - std::pow(b2, epoch);
        for (std::size_t j = 0; j < 2 * n; ++j) {
            double grad = (j < n ? gm[j] : ge[j - n]) * inv;
            grad += 2 * l2 * (j < n ? p.mg[j] - start.mg[j] : p.eg[j - n] - start.eg[j - n]);
            m1[j] = b1 * m1[j] + (1 - b1) * grad;
            m2[j] = b2 * m2[j] + (1 - b2) * grad * grad;
            double step = rate * (m1[j] / corr1) / (std::sqrt(m2[j] / corr2) + eps);
            (j < n ? p.mg[j] : p.eg[j - n]) -= step;
        }
        if (epoch % 100 == 0 || epoch == epochs)
            std::printf("epoch %5d  train MSE %.6f  held-out MSE %.6f\n", epoch, mse(d, p, k),
                        mse(test, p, k));
        std::fflush(stdout);
    }
}

bool write_weights(const std::string& path, const Params& p, const std::string& summary) {
    std::ofstream out(path);
    if (!out) return false;
    out << "// Generated by staccato-tune (src/hce/tuner.cpp); do not edit by hand.\n";
    out << "// " << summary << "\n";
    out << "#include \"staccato/eval_weights.h\"\n\nnamespace staccato::hce {\n\n";
    out << "// clang-format off\nconst Weights WEIGHTS = {{\n";
    for (const hce::WeightGroup& g : hce::WEIGHT_GROUPS) {
        out << "    // " << g.name << "\n   ";
        for (int i = 0; i < g.size; ++i) {
            int j = g.offset + i;
            out << " {" << std::lround(p.mg[j]) << ", " << std::lround(p.eg[j]) << "},";
            if (i % 8 == 7 && i + 1 < g.size) out << "\n   ";
        }
        out << "\n";
    }
    out << "}};\n// clang-format on\n\n} // namespace staccato::hce\n";
    return bool(out);
}

int usage() {
    std::fprintf(stderr,
                 "usage: staccato-tune [--epochs N] [--rate R] [--l2 L] [--limit N] [--out FILE] FILE...\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    attacks::init();
    int epochs = 2000;
    double rate = 1.0;
    double l2 = 1e-9;
    long limit = 0;
    std::string out = "src/hce/eval_weights.cpp";
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (!a.empty() && a[0] == '-') {
            if (i + 1 >= argc) return usage();
            const char* v = argv[++i];
            // Every number whole and in range, read without the locale.
            auto bad = [&] {
                std::fprintf(stderr, "bad value for %s: '%s'\n", a.c_str(), sanitize(v).c_str());
                return usage();
            };
            if (a == "--epochs") {
                const auto n = parse_number<int>(v);
                if (!n || *n < 0) return bad();
                epochs = *n;
            } else if (a == "--rate" || a == "--l2") {
                const std::optional<double> d = parse_number<double>(v);
                if (!d) return bad();
                if (a == "--rate")
                    rate = *d;
                else
                    l2 = *d;
            } else if (a == "--limit") {
                const auto n = parse_number<long>(v);
                if (!n || *n < 0) return bad();
                limit = *n;
            } else if (a == "--out")
                out = v;
            else
                return usage();
        } else {
            files.push_back(a);
        }
    }
    if (files.empty() || epochs < 0) return usage();

    auto t0 = std::chrono::steady_clock::now();
    Dataset train, test;
    LoadStats st;
    for (const std::string& f : files) {
        if (!load_file(f, train, test, st, limit)) {
            std::fprintf(stderr, "cannot read %s\n", f.c_str());
            return 1;
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "lines %ld, unparsable %ld, in check %ld, rule-decided %ld, kept %ld (train %zu, held out %zu) "
        "in %.1f s\n",
        st.lines, st.bad, st.in_check, st.special, st.kept, train.samples.size(), test.samples.size(), secs);
    if (train.samples.empty() || test.samples.empty()) return 1;
    std::printf("linear model vs engine evaluation: mean |difference| %.2f cp\n",
                st.model_error / double(st.kept));

    Params p;
    p.mg.resize(NUM_WEIGHTS), p.eg.resize(NUM_WEIGHTS);
    for (int i = 0; i < NUM_WEIGHTS; ++i) p.mg[i] = hce::WEIGHTS[i].mg, p.eg[i] = hce::WEIGHTS[i].eg;

    double k = fit_k(train, p);
    double before = mse(train, p, k), before_test = mse(test, p, k);
    std::printf("K = %.4f  MSE before: train %.6f  held-out %.6f\n", k, before, before_test);
    adam(train, test, p, k, epochs, rate, l2);
    double after = mse(train, p, k), after_test = mse(test, p, k);
    std::printf("MSE after: train %.6f  held-out %.6f\n", after, after_test);

    char summary[256];
    std::snprintf(
        summary, sizeof summary,
        "%zu training positions, K %.4f, %d epochs, l2 %g;\n// MSE %.6f -> %.6f (held-out %.6f -> %.6f)",
        train.samples.size(), k, epochs, l2, before, after, before_test, after_test);
    if (!write_weights(out, p, summary)) {
        std::fprintf(stderr, "cannot write %s\n", out.c_str());
        return 1;
    }
    std::printf("wrote %s\n", out.c_str());
    return 0;
}
