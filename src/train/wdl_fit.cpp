#include "wdl_fit.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "staccato/position.h"

namespace staccato::train {

WdlObservation observation_of(const nnue::PackedPosition& p) {
    WdlObservation o;
    const int pieces = popcount(p.occupancy);
    for (int i = 0; i < pieces; ++i) o.material += MATERIAL_WORTH[type_of(p.piece(i))];
    const bool white = p.side == 0;
    o.score = white ? p.score : -p.score;
    o.result = white ? p.result : 2 - p.result;
    return o;
}

namespace {

std::size_t cell_index(int material, int score) {
    const int m = std::clamp(material, MATERIAL_MIN, MATERIAL_MAX) - MATERIAL_MIN;
    const int x = std::clamp(score, -WdlCounts::MAX_SCORE, WdlCounts::MAX_SCORE) + WdlCounts::MAX_SCORE;
    return std::size_t(m) * WdlCounts::SCORES + std::size_t(x);
}

} // namespace

void WdlCounts::add(const WdlObservation& o) {
    ++counts_[cell_index(o.material, o.score)][std::size_t(std::clamp(o.result, 0, 2))];
    ++positions_;
}

const std::array<std::uint32_t, 3>& WdlCounts::at(int material, int score) const {
    return counts_[cell_index(material, score)];
}

std::vector<WdlCounts::Cell> WdlCounts::cells() const {
    std::vector<Cell> out;
    for (std::size_t i = 0; i < CELLS; ++i) {
        const auto& c = counts_[i];
        if (c[0] + c[1] + c[2] == 0) continue;
        out.push_back({int(i / SCORES) + MATERIAL_MIN,
                       int(i % SCORES) - MAX_SCORE,
                       {double(c[0]), double(c[1]), double(c[2])}});
    }
    return out;
}

namespace {

constexpr double FLOOR = 1e-9;

// ln(1 / (1 + exp(-z))), without overflow.
double log_sigmoid(double z) { return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z)); }

// The negative log-likelihood of cells under a(m), b(m) given per material
// (indexed from MATERIAL_MIN).
double nll(const std::vector<WdlCounts::Cell>& cells, const std::vector<double>& a,
           const std::vector<double>& b) {
    double sum = 0;
    for (const auto& c : cells) {
        const double am = a[std::size_t(c.material - MATERIAL_MIN)],
                     bm = b[std::size_t(c.material - MATERIAL_MIN)];
        const double zw = (c.score - am) / bm, zl = (-c.score - am) / bm;
        const double w = 1.0 / (1.0 + std::exp(-zw)), l = 1.0 / (1.0 + std::exp(-zl));
        const double d = std::max(1.0 - w - l, FLOOR);
        sum -= c.n[2] * std::max(log_sigmoid(zw), std::log(FLOOR)) + c.n[1] * std::log(d) +
               c.n[0] * std::max(log_sigmoid(zl), std::log(FLOOR));
    }
    return sum;
}

// a(m) and b(m) of `model` at every material, indexed from MATERIAL_MIN, as nll takes them.
void per_material(const WdlModel& model, std::vector<double>& a, std::vector<double>& b) {
    a.resize(WdlCounts::MATERIALS);
    b.resize(WdlCounts::MATERIALS);
    for (int k = MATERIAL_MIN; k <= MATERIAL_MAX; ++k)
        a[std::size_t(k - MATERIAL_MIN)] = model.a_of(k), b[std::size_t(k - MATERIAL_MIN)] = model.b_of(k);
}

// Whether cells hold at least `positions` positions with 20 wins and 20
// losses of the side to move among them: enough for a fit.
bool decided(const std::vector<WdlCounts::Cell>& cells, double positions) {
    double wins = 0, losses = 0, n = 0;
    for (const auto& c : cells) wins += c.n[2], losses += c.n[0], n += c.n[0] + c.n[1] + c.n[2];
    return n >= positions && wins >= 20 && losses >= 20;
}
constexpr const char* UNDECIDED = "fewer than 20 wins or 20 losses for the side to move: cannot fit";

double positions_of(const std::vector<WdlCounts::Cell>& cells) {
    double n = 0;
    for (const auto& c : cells) n += c.n[0] + c.n[1] + c.n[2];
    return n;
}

// Nelder-Mead from `x` with initial steps `step`; returns the best point's
// value, `x` becomes the point. Deterministic. Counts evaluations in `evals`.
double nelder_mead(const std::function<double(const std::vector<double>&)>& f, std::vector<double>& x,
                   const std::vector<double>& step, int max_evals, int& evals) {
    const std::size_t n = x.size();
    std::vector<std::vector<double>> p(n + 1, x);
    std::vector<double> v(n + 1);
    for (std::size_t i = 0; i < n; ++i) p[i + 1][i] += step[i];
    for (std::size_t i = 0; i <= n; ++i) v[i] = f(p[i]), ++evals;
    std::vector<std::size_t> order(n + 1);
    while (evals < max_evals) {
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t i, std::size_t j) { return v[i] < v[j]; });
        const std::size_t best = order[0], worst = order[n], second = order[n - 1];
        if (std::abs(v[worst] - v[best]) <= 1e-10 * (std::abs(v[best]) + 1e-10)) break;
        std::vector<double> centre(n, 0.0);
        for (std::size_t i = 0; i <= n; ++i)
            if (i != worst)
                for (std::size_t k = 0; k < n; ++k) centre[k] += p[i][k] / double(n);
        auto along = [&](double t) {
            std::vector<double> q(n);
            for (std::size_t k = 0; k < n; ++k) q[k] = centre[k] + t * (p[worst][k] - centre[k]);
            return q;
        };
        const auto reflected = along(-1.0);
        const double vr = f(reflected);
        ++evals;
        if (vr < v[best]) {
            const auto expanded = along(-2.0);
            const double ve = f(expanded);
            ++evals;
            if (ve < vr)
                p[worst] = expanded, v[worst] = ve;
            else
                p[worst] = reflected, v[worst] = vr;
        } else if (vr < v[second]) {
            p[worst] = reflected, v[worst] = vr;
        } else {
            const auto contracted = along(vr < v[worst] ? -0.5 : 0.5);
            const double vc = f(contracted);
            ++evals;
            if (vc < std::min(vr, v[worst])) {
                p[worst] = contracted, v[worst] = vc;
            } else { // shrink towards the best
                for (std::size_t i = 0; i <= n; ++i) {
                    if (i == best) continue;
                    for (std::size_t k = 0; k < n; ++k) p[i][k] = p[best][k] + 0.5 * (p[i][k] - p[best][k]);
                    v[i] = f(p[i]);
                    ++evals;
                }
            }
        }
    }
    const std::size_t best = std::size_t(std::min_element(v.begin(), v.end()) - v.begin());
    x = p[best];
    return v[best];
}

// Solves the 4x4 system m c = y (Gaussian elimination with pivoting).
std::array<double, 4> solve4(std::array<std::array<double, 4>, 4> m, std::array<double, 4> y) {
    for (int col = 0; col < 4; ++col) {
        int pivot = col;
        for (int r = col + 1; r < 4; ++r)
            if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
        std::swap(m[col], m[pivot]);
        std::swap(y[col], y[pivot]);
        for (int r = 0; r < 4; ++r) {
            if (r == col || m[col][col] == 0) continue;
            const double f = m[r][col] / m[col][col];
            for (int k = col; k < 4; ++k) m[r][k] -= f * m[col][k];
            y[r] -= f * y[col];
        }
    }
    std::array<double, 4> c{};
    for (int i = 0; i < 4; ++i) c[i] = m[i][i] == 0 ? 0 : y[i] / m[i][i];
    return c;
}

// The cubic (coefficients, highest power first) through values at NODES.
constexpr std::array<int, 4> NODES = {MATERIAL_MIN, 37, MATERIAL_REFERENCE, MATERIAL_MAX};
std::array<double, 4> cubic_through(const double* values) {
    std::array<std::array<double, 4>, 4> m{};
    std::array<double, 4> y{};
    for (int i = 0; i < 4; ++i) {
        const double t = WdlModel{}.scaled(NODES[i]);
        m[i] = {t * t * t, t * t, t, 1.0};
        y[i] = values[i];
    }
    return solve4(m, y);
}

// The weighted least-squares cubic through (scaled material, value) points.
std::array<double, 4> cubic_fit(const std::vector<double>& t, const std::vector<double>& y,
                                const std::vector<double>& w) {
    std::array<std::array<double, 4>, 4> m{};
    std::array<double, 4> r{};
    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::array<double, 4> powers = {t[i] * t[i] * t[i], t[i] * t[i], t[i], 1.0};
        for (int j = 0; j < 4; ++j) {
            for (int k = 0; k < 4; ++k) m[j][k] += w[i] * powers[j] * powers[k];
            r[j] += w[i] * powers[j] * y[i];
        }
    }
    return solve4(m, r);
}

// a(m) and b(m) at least 5 over the whole range: valid (WdlModel::check)
// with room for the net file's rounding to floats.
bool sane(const WdlModel& m) {
    for (int k = MATERIAL_MIN; k <= MATERIAL_MAX; ++k)
        if (!(m.a_of(k) >= 5 && m.b_of(k) >= 5 && std::isfinite(m.a_of(k)) && std::isfinite(m.b_of(k))))
            return false;
    return true;
}

double cubic_at(const std::array<double, 4>& c, double t) {
    return ((c[0] * t + c[1]) * t + c[2]) * t + c[3];
}

} // namespace

double log_loss(const WdlModel& model, const WdlCounts& counts) {
    const auto cells = counts.cells();
    std::vector<double> a, b;
    per_material(model, a, b);
    const double n = positions_of(cells);
    return n > 0 ? nll(cells, a, b) / n : 0.0;
}

std::string fit_wdl(const WdlCounts& counts, WdlFit& fit) {
    const auto cells = counts.cells();
    const double total = positions_of(cells);
    if (total < 1000)
        return "too few positions to fit (" + std::to_string(std::uint64_t(total)) + ", need 1000)";
    int evals = 0;

    // 1. a and b at each material with enough positions of both outcomes
    //    (all materials pooled when none has them).
    std::vector<double> ts, as, bs, ws;
    auto fit_two = [&](const std::vector<WdlCounts::Cell>& mine) {
        std::vector<double> x = {200.0, 100.0};
        auto f = [&](const std::vector<double>& p) {
            if (!(p[0] > 1 && p[1] > 1)) return std::numeric_limits<double>::max();
            const std::vector<double> a(WdlCounts::MATERIALS, p[0]), b(WdlCounts::MATERIALS, p[1]);
            return nll(mine, a, b);
        };
        nelder_mead(f, x, {60.0, 40.0}, 600, evals);
        return x;
    };
    for (int m = MATERIAL_MIN; m <= MATERIAL_MAX; ++m) {
        std::vector<WdlCounts::Cell> mine;
        for (const auto& c : cells)
            if (c.material == m) mine.push_back(c);
        if (!decided(mine, 500)) continue;
        const auto x = fit_two(mine);
        ts.push_back(WdlModel{}.scaled(m));
        as.push_back(x[0]);
        bs.push_back(x[1]);
        ws.push_back(positions_of(mine));
    }
    if (ts.empty()) {
        if (!decided(cells, 1000)) return UNDECIDED;
        const auto x = fit_two(cells);
        ts.push_back(1.0);
        as.push_back(x[0]);
        bs.push_back(x[1]);
        ws.push_back(total);
    }

    // 2. Cubics through them (a constant where too few materials fit).
    WdlModel start;
    if (ts.size() >= 6) {
        start.a = cubic_fit(ts, as, ws);
        start.b = cubic_fit(ts, bs, ws);
    } else {
        const double wsum = std::accumulate(ws.begin(), ws.end(), 0.0);
        double am = 0, bm = 0;
        for (std::size_t i = 0; i < ts.size(); ++i) am += ws[i] * as[i] / wsum, bm += ws[i] * bs[i] / wsum;
        start.a = {0, 0, 0, am};
        start.b = {0, 0, 0, bm};
    }
    if (!sane(start)) { // a wild cubic at the ends: start flat instead
        start.a = {0, 0, 0, cubic_at(start.a, 1.0) > 1 ? cubic_at(start.a, 1.0) : 200.0};
        start.b = {0, 0, 0, cubic_at(start.b, 1.0) > 1 ? cubic_at(start.b, 1.0) : 100.0};
    }

    // 3. All eight together, as the cubics' values at NODES.
    std::vector<double> x(8);
    for (int i = 0; i < 4; ++i)
        x[std::size_t(i)] = start.a_of(NODES[i]), x[std::size_t(4 + i)] = start.b_of(NODES[i]);
    std::vector<double> a(WdlCounts::MATERIALS), b(WdlCounts::MATERIALS);
    auto model_of = [](const std::vector<double>& p) {
        WdlModel m;
        m.a = cubic_through(p.data());
        m.b = cubic_through(p.data() + 4);
        return m;
    };
    auto f = [&](const std::vector<double>& p) {
        const WdlModel m = model_of(p);
        if (!sane(m)) return std::numeric_limits<double>::max();
        per_material(m, a, b);
        return nll(cells, a, b);
    };
    double best = f(x);
    for (int round = 0; round < 6; ++round) {
        std::vector<double> step(8);
        for (std::size_t i = 0; i < 8; ++i) step[i] = std::max(1.0, 0.1 * std::abs(x[i]));
        const double v = nelder_mead(f, x, step, 3000, evals);
        const bool settled = best - v <= 1e-7 * std::abs(best);
        best = std::min(best, v);
        if (settled) break;
    }
    fit.model = model_of(x);
    fit.log_loss = best / total;
    fit.evaluations = evals;
    return {};
}

WdlObservation internal_of(WdlObservation printed, const WdlModel* printed_with) {
    if (printed_with)
        printed.score = int(std::lround(printed.score * printed_with->a_of(printed.material) / 100.0));
    return printed;
}

std::string fit_wdl_scale(const WdlModel& base, const WdlCounts& counts, WdlScaleFit& fit) {
    if (const std::string why = base.check(); !why.empty()) return "the model to scale: " + why;
    const auto cells = counts.cells();
    const double total = positions_of(cells);
    if (total < 1000)
        return "too few positions to fit a scale (" + std::to_string(std::uint64_t(total)) + ", need 1000)";
    if (!decided(cells, 1000)) return UNDECIDED;
    std::vector<double> a0, b0;
    per_material(base, a0, b0);
    std::vector<double> a(a0.size()), b(b0.size());
    auto f = [&](const std::vector<double>& p) {
        if (!(p[0] >= 0.2 && p[0] <= 5 && p[1] >= 0.2 && p[1] <= 5))
            return std::numeric_limits<double>::max();
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = p[0] * a0[i], b[i] = p[1] * b0[i];
        return nll(cells, a, b);
    };
    std::vector<double> x = {1.0, 1.0};
    int evals = 0;
    double best = 0;
    for (int round = 0; round < 3; ++round) best = nelder_mead(f, x, {0.1, 0.1}, 1000, evals);
    WdlModel scaled = base;
    for (double& c : scaled.a) c *= x[0];
    for (double& c : scaled.b) c *= x[1];
    if (const std::string why = scaled.check(); !why.empty()) return "the scaled model: " + why;
    fit = {x[0], x[1], scaled, best / total};
    return {};
}

double half_win_score(const WdlModel* model, const std::vector<WdlObservation>& observations) {
    // Counted by printed score: wins and the rest.
    std::vector<std::array<double, 2>> n(2001);
    double wins = 0, others = 0;
    for (const WdlObservation& o : observations) {
        const int shown = model ? to_printed_cp(*model, Value(o.score), o.material) : o.score;
        if (std::abs(shown) > 1000) continue;
        n[std::size_t(shown + 1000)][o.result == 2 ? 0 : 1] += 1;
        (o.result == 2 ? wins : others) += 1;
    }
    if (wins == 0 || others == 0) return std::nan("");
    auto f = [&](const std::vector<double>& p) {
        if (!(p[1] > 1)) return std::numeric_limits<double>::max();
        double sum = 0;
        for (int s = -1000; s <= 1000; ++s) {
            const auto& c = n[std::size_t(s + 1000)];
            if (c[0] + c[1] == 0) continue;
            const double z = (s - p[0]) / p[1];
            sum -= c[0] * log_sigmoid(z) + c[1] * log_sigmoid(-z);
        }
        return sum;
    };
    std::vector<double> x = {100.0, 100.0};
    int evals = 0;
    for (int round = 0; round < 3; ++round) nelder_mead(f, x, {50.0, 30.0}, 1000, evals);
    return x[0];
}

void WdlShares::add(const WdlModel& model, const WdlObservation& o) {
    ++positions;
    measured[std::size_t(std::clamp(o.result, 0, 2))] += 1;
    const double w = model.win(o.score, o.material), l = model.loss(o.score, o.material);
    predicted[0] += l;
    predicted[1] += 1 - w - l;
    predicted[2] += w;
}

void WdlShares::finish() {
    if (positions == 0) return;
    for (std::size_t k = 0; k < 3; ++k) {
        measured[k] /= double(positions);
        predicted[k] /= double(positions);
    }
}

std::vector<WdlBin> calibration(const WdlModel& model, const std::vector<WdlObservation>& observations,
                                int bin_cp, int max_cp) {
    std::vector<WdlBin> bins;
    for (int low = -max_cp; low < max_cp; low += bin_cp) {
        WdlBin& bin = bins.emplace_back();
        bin.low = low, bin.high = low + bin_cp;
    }
    for (const WdlObservation& o : observations) {
        const int shown = to_printed_cp(model, Value(o.score), o.material);
        if (shown < -max_cp || shown >= max_cp) continue;
        bins[std::size_t((shown + max_cp) / bin_cp)].add(model, o);
    }
    for (WdlBin& bin : bins) bin.finish();
    return bins;
}

std::vector<WdlMaterialBin> calibration_by_material(const WdlModel& model,
                                                    const std::vector<WdlObservation>& observations,
                                                    int low_cp, int high_cp, const std::vector<int>& edges) {
    std::vector<WdlMaterialBin> bins;
    for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
        WdlMaterialBin& bin = bins.emplace_back();
        bin.low = edges[i], bin.high = edges[i + 1];
    }
    for (WdlObservation o : observations) {
        int shown = to_printed_cp(model, Value(o.score), o.material);
        if (shown < 0) { // the other side's view: its score, its result
            o.score = -o.score;
            o.result = 2 - std::clamp(o.result, 0, 2);
            shown = -shown;
        }
        if (shown < low_cp || shown >= high_cp) continue;
        const auto bin = std::find_if(bins.begin(), bins.end(), [&](const WdlMaterialBin& b) {
            return o.material >= b.low && o.material < b.high;
        });
        if (bin != bins.end()) bin->add(model, o);
    }
    for (WdlMaterialBin& bin : bins) bin.finish();
    return bins;
}

} // namespace staccato::train
