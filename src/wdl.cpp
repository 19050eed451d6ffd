#include "staccato/wdl.h"

#include <algorithm>
#include <cmath>

#include "staccato/position.h"

namespace staccato {

int material_of(const Position& pos) {
    int m = 0;
    for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN})
        m += MATERIAL_WORTH[pt] * popcount(pos.pieces(pt));
    return m;
}

double WdlModel::scaled(int material) const {
    return double(std::clamp(material, material_min, MATERIAL_MAX)) / MATERIAL_REFERENCE;
}

namespace {
double cubic(const std::array<double, 4>& c, double m) { return ((c[0] * m + c[1]) * m + c[2]) * m + c[3]; }
} // namespace

double WdlModel::a_of(int material) const { return cubic(a, scaled(material)); }
double WdlModel::b_of(int material) const { return cubic(b, scaled(material)); }

double WdlModel::win(double x, int material) const {
    return 1.0 / (1.0 + std::exp(-(x - a_of(material)) / b_of(material)));
}

std::string WdlModel::check() const {
    if (material_min != MATERIAL_MIN && material_min != MATERIAL_MIN_FIRST)
        return "its lowest material " + std::to_string(material_min) + " is neither " +
               std::to_string(MATERIAL_MIN) + " nor " + std::to_string(MATERIAL_MIN_FIRST);
    for (int m = material_min; m <= MATERIAL_MAX; ++m) {
        if (!(a_of(m) >= 1.0) || !std::isfinite(a_of(m)))
            return "a(" + std::to_string(m) + ") = " + std::to_string(a_of(m)) + " is not a score";
        if (!(b_of(m) >= 1.0) || !std::isfinite(b_of(m)))
            return "b(" + std::to_string(m) + ") = " + std::to_string(b_of(m)) + " is not a spread";
    }
    return {};
}

Value to_printed_cp(const WdlModel& model, Value v, int material) {
    if (std::abs(v) >= VALUE_TB_WIN_IN_MAX_PLY) return v;
    const double cp = std::round(100.0 * v / model.a_of(material));
    // Far beyond any real score, but below the tablebase and mate ranges.
    return Value(std::clamp(cp, double(-VALUE_TB_WIN_IN_MAX_PLY + 1), double(VALUE_TB_WIN_IN_MAX_PLY - 1)));
}

std::array<int, 3> wdl_permille(const WdlModel& model, Value v, int material) {
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return {1000, 0, 0};
    if (v <= VALUE_TB_LOSS_IN_MAX_PLY) return {0, 0, 1000};
    const int w = int(std::lround(1000 * model.win(v, material)));
    const int l = std::min(int(std::lround(1000 * model.loss(v, material))), 1000 - w);
    return {w, 1000 - w - l, l};
}

} // namespace staccato
