// The search's tunable constants in one table, for SPSA tuning
// (.github/CONTRIBUTING.md "SPSA"). A normal build compiles every value as a
// constant: `tunable_values` is constexpr and the search reads it through
// constexpr references, so nothing changes. A tuning build (CMake
// -DSTACCATO_TUNE=ON, `make TUNE=1`) makes the values writable: each is a
// UCI spin option under its name, and `spsa` prints the table in the form
// OpenBench's SPSA page takes (`name, int, default, min, max, c_end, r_end`).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace staccato {

struct Tunable {
    std::string_view name;
    int def, min, max;
    int step; // OpenBench's c_end: the final perturbation
};

enum TuneId : int {
    TUNE_ASPIRATION_DELTA,
    TUNE_RFP_MARGIN,
    TUNE_FUTILITY_BASE,
    TUNE_FUTILITY_PER_DEPTH,
    TUNE_SEE_QUIET_MARGIN,
    TUNE_SEE_CAPTURE_MARGIN,
    TUNE_SE_MARGIN_PER_DEPTH,
    TUNE_LMR_BASE,
    TUNE_LMR_DIVISOR,
    TUNE_LMR_HISTORY_DIVISOR,
    TUNE_DELTA_MARGIN,
    TUNE_HISTORY_BONUS_QUADRATIC,
    TUNE_HISTORY_BONUS_LINEAR,
    TUNE_HISTORY_BONUS_MAX,
    TUNE_NB
};

inline constexpr std::array<Tunable, TUNE_NB> TUNABLES{{
    {"AspirationDelta", 16, 5, 60, 3},         // first aspiration half-width (cp)
    {"RfpMargin", 71, 30, 150, 8},             // reverse futility margin per ply
    {"FutilityBase", 61, 20, 200, 10},         // futility pruning: base ...
    {"FutilityPerDepth", 106, 30, 200, 10},    // ... plus this per ply
    {"SeeQuietMargin", -60, -150, -10, 8},     // SEE pruning of quiets, per ply
    {"SeeCaptureMargin", -100, -200, -20, 10}, // SEE pruning of captures, per ply
    {"SeMarginPerDepth", 2, 1, 6, 1},          // singular beta = tt score - this * depth
    {"LmrBase", 77, 0, 200, 10},               // late move reduction, in hundredths of a ply:
    {"LmrDivisor", 193, 120, 400, 15},         // base + 100 * ln(depth) * ln(move) / divisor
    {"LmrHistoryDivisor", 12288, 4096, 32768, 1024},
    {"DeltaMargin", 200, 50, 400, 20},          // quiescence delta pruning
    {"HistoryBonusQuadratic", 24, 8, 48, 3},    // history bonus: this * depth^2 ...
    {"HistoryBonusLinear", 32, 0, 96, 6},       // ... + this * depth ...
    {"HistoryBonusMax", 2000, 1000, 4000, 150}, // ... at most this
}};

// OpenBench's r_end (the final learning rate), the same for every entry.
inline constexpr double TUNE_R_END = 0.002;

inline constexpr std::array<int, TUNE_NB> TUNABLE_DEFAULTS = [] {
    std::array<int, TUNE_NB> v{};
    for (int i = 0; i < TUNE_NB; ++i) v[i] = TUNABLES[i].def;
    return v;
}();

#ifdef STACCATO_TUNE
inline constexpr bool TUNING_BUILD = true;
inline std::array<int, TUNE_NB> tunable_values = TUNABLE_DEFAULTS; // set by setoption
#else
inline constexpr bool TUNING_BUILD = false;
inline constexpr const std::array<int, TUNE_NB>& tunable_values = TUNABLE_DEFAULTS;
#endif

#ifdef STACCATO_TUNE
// Rebuilds what the search derives from the values (the reduction table);
// setoption calls it after changing one. Defined in src/search.cpp.
void tunables_changed();
#endif

// The entry named `name` (exact spelling), if any.
constexpr std::optional<TuneId> find_tunable(std::string_view name) {
    for (int i = 0; i < TUNE_NB; ++i)
        if (TUNABLES[i].name == name) return TuneId(i);
    return std::nullopt;
}

} // namespace staccato
