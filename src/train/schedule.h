// staccato-train's schedule: what changes from one epoch to the next. The
// learning rate falls along a cosine from --lr to --lr times --final-lr; the
// result's weight in the target (model.h, target()) moves in a straight line
// from --wdl at the first epoch to --wdl-end at the last (the same weight
// throughout unless --wdl-end is given). Both depend on the epoch alone, so a
// run resumed from a checkpoint carries on where it stopped.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>

namespace staccato::train {

struct Schedule {
    int epochs = 15;
    double lr = 0.001, final_lr_ratio = 0.003;
    float wdl = 0.1f;
    std::optional<float> wdl_end; // absent: wdl at every epoch

    // How far through the run epoch (0-based) is: 0 at the first, 1 at the
    // last (0 when there is one), and 1 past it (a finished run resumed
    // from its checkpoint reports its loss at the last epoch's weight).
    double progress(int epoch) const {
        return epochs > 1 ? std::min(1.0, double(epoch) / double(epochs - 1)) : 0.0;
    }

    double learning_rate(int epoch) const {
        const double pi = std::acos(-1.0);
        return lr * (final_lr_ratio + (1 - final_lr_ratio) * 0.5 * (1 + std::cos(pi * progress(epoch))));
    }

    float result_weight(int epoch) const {
        if (!wdl_end) return wdl;
        return float(double(wdl) + (double(*wdl_end) - double(wdl)) * progress(epoch));
    }
};

} // namespace staccato::train
