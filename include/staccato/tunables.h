// The search's (and the time manager's) tunable constants in one table, one
// row each, for SPSA tuning (.github/CONTRIBUTING.md "SPSA"). The search
// reads a value by its name, tune<"RfpMargin"> (a name not in the table does
// not compile). A normal build compiles every value as a constant:
// `tunable_values` is constexpr and tune<> a constexpr reference into it, so
// nothing changes.
// A tuning build (CMake -DSTACCATO_TUNE=ON, `make TUNE=1`) makes the values
// writable: each is a UCI spin option under its name (src/options.cpp), and
// `spsa` prints the table in the form OpenBench's SPSA page takes
// (`name, int, default, min, max, c_end, r_end`).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string_view>

namespace staccato {

struct Tunable {
    std::string_view name;
    int def, min, max;
    int step; // OpenBench's c_end: the final perturbation
};

// The defaults come from two local SPSA runs over the whole table: the search
// entries first at 20,000 nodes a move (8,000 games), then every entry, the
// time manager's too, at 2+0.02 (1,264 games); each accepted by an SPRT
// against the values before it (bench/results.md, "The whole table tuned by
// one local SPSA run" and "... again at a clock").
// clang-format off
inline constexpr Tunable TUNABLES[] = {
    // name                   default  min    max  c_end
    {"AspirationMinDepth",          3,    1,     8,    1}, // aspiration windows from this depth on,
    {"AspirationDelta",            11,    5,    60,    3}, // first half-width (cp), grown by half
    {"AspirationMaxDelta",       1317,  200,  3000,  100}, // beyond it: the full window
    {"RfpMaxDepth",                 7,    4,    12,    1}, // reverse futility pruning to this depth,
    {"RfpMargin",                  73,   30,   150,    8}, // margin per ply
    {"NmpMinDepth",                 5,    1,     6,    1}, // null-move pruning from this depth on;
    {"NmpBase",                     4,    1,     6,    1}, // reduction: NmpBase + depth / NmpDepthDivisor
    {"NmpDepthDivisor",             3,    2,     8,    1}, //   + min((eval - beta) / NmpEvalDivisor,
    {"NmpEvalDivisor",            242,  100,   400,   20}, //         NmpEvalMax)
    {"NmpEvalMax",                  2,    1,     6,    1},
    {"NmpVerifyDepth",             11,    6,    20,    1}, // cutoffs verified from this depth on
    {"ProbCutMinDepth",             4,    3,    10,    1}, // ProbCut from this depth on,
    {"ProbCutMargin",             235,   80,   400,   15}, //   against beta + this,
    {"ProbCutReduction",            5,    3,     6,    1}, //   verified this many plies shallower
    {"IirMinDepth",                 3,    2,     8,    1}, // internal iterative reduction from here on
    {"LmpMaxDepth",                 6,    4,    12,    1}, // late move pruning to this depth, after
    {"LmpBase",                     5,    0,    10,    1}, //   (this + depth^2) / (improving ? 1 : 2) moves
    {"LmpHistoryDivisor",        8192, 2048, 32768, 1024}, //   + quiet history / this
    {"FutilityMaxDepth",           10,    4,    12,    1}, // futility pruning to this depth,
    {"FutilityBase",              116,   20,   200,   10}, //   margin: base ...
    {"FutilityPerDepth",           63,   30,   200,   10}, //   ... plus this per ply
    {"SeePruneMaxDepth",            6,    4,    12,    1}, // SEE pruning to this depth,
    {"SeeQuietMargin",            -20, -150,   -10,    8}, //   of quiets, per ply
    {"SeeCaptureMargin",          -96, -200,   -20,   10}, //   of captures, per ply
    {"SeMinDepth",                  7,    4,    12,    1}, // singular extensions from this depth on,
    {"SeTtDepthSlack",              2,    1,     6,    1}, //   the hash entry at most this shallower;
    {"SeMarginPerDepth",            2,    1,     6,    1}, //   singular beta = tt score - this * depth
    {"DoubleExtMargin",            14,    0,    60,    4}, // a singular move this far below: +2 plies,
    {"DoubleExtMax",               12,    0,    16,    1}, //   at most this many times a line
    {"HistoryPruneMaxDepth",        3,    1,     8,    1}, // history pruning of late quiets to this depth,
    {"HistoryPruneMargin",       3335, 1000,  8000,  300}, //   those below -this * depth
    {"LmrMinDepth",                 3,    2,     6,    1}, // late move reductions from this depth on,
    {"LmrBase",                    97,    0,   200,   10}, //   in hundredths of a ply: LmrBase
    {"LmrDivisor",                140,  120,   400,   15}, //   + 100 * ln(depth) * ln(move) / LmrDivisor,
    {"LmrHistoryDivisor",        8486, 4096, 32768, 1024}, //   a ply less per this much quiet history
    {"LmrDeeperMargin",            23,   10,   100,    5}, // re-search a ply deeper above alpha + this,
    {"LmrShallowerMargin",         14,    0,    30,    2}, //   a ply shallower below alpha + this
    {"DeltaMargin",               340,   50,   400,   20}, // quiescence delta pruning
    {"HistoryBonusQuadratic",      33,    8,    48,    3}, // history bonus (and malus): this * depth^2
    {"HistoryBonusLinear",         33,    0,    96,    6}, //   + this * depth,
    {"HistoryBonusMax",          2792, 1000,  4000,  150}, //   at most this;
    {"TtCutoffBonusPercent",       50,    0,   200,   15}, //   a quiet hash move's at a hash cutoff: this % of it
    {"CorrectionWeightMax",        19,    4,    64,    4}, // correction history: a result's weight,
                                                           //   depth + 1 of 256, at most this
    {"ContCorrectionWeight",       99,    0,   150,   10}, // the last two moves' correction counts this
                                                           //   many percent (pawn structure's: 100)
    {"PickerMvvWeight",            19,    4,    32,    2}, // captures ordered by victim (SEE cp) times
    {"PickerCaptureHistDivisor",    6,    1,    16,    1}, //   this, plus capture history over this;
    {"PickerQuietCheckBonus",    8192,    0, 24576, 1024}, // quiets: history, plus this for a safe direct check
    // The time manager (src/timeman.cpp); fixed-node tuning leaves these alone.
    {"TmMovesLeft",                22,   15,    60,    3}, // sudden death: moves assumed left,
    {"TmIncrementPercent",         95,   40,   100,    5}, //   plus this much of the increment a move;
    {"TmHardPercent",             542,  200,   800,   40}, // abort at this % of that (<= 3/4 of the clock)
    {"TmUnstableScale",           102,   90,   160,    5}, // another iteration below this % of the soft
    {"TmStablePerIteration",       11,    3,    15,    1}, //   limit, less this per stable iteration (<= 5),
    {"TmScoreUnstableScale",      105,   90,   130,    5}, //   times this % less this per iteration (<= 5)
    {"TmScoreStablePerIteration",   3,    0,    8,    1}, //   whose score stayed within
    {"TmScoreStableWindow",        10,    2,    40,    4}, //   this many cp of the one before,
    {"TmScoreDropDivisor",        132,   50,   400,   20}, //   times 1 + drop (cp, <= 100) / this,
    {"TmNodeShareBase",           144,  100,   200,    5}, //   times this % less TmNodeShareScale % of the
    {"TmNodeShareScale",           35,    0,    80,    5}, //   best move's share of the root's nodes
};
// clang-format on

inline constexpr int TUNE_NB = int(std::size(TUNABLES));

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

// The index of the entry named `name` (exact spelling), if any.
constexpr std::optional<int> find_tunable(std::string_view name) {
    for (int i = 0; i < TUNE_NB; ++i)
        if (TUNABLES[i].name == name) return i;
    return std::nullopt;
}

// A tunable's name as a template argument.
template <std::size_t N> struct TunableName {
    char text[N];
    consteval TunableName(const char (&s)[N]) { std::copy_n(s, N, text); }
    constexpr std::string_view view() const { return {text, N - 1}; }
};

// The index of the entry named N; no entry of that name: a compile error.
template <TunableName N> consteval int tunable_index() {
    const auto i = find_tunable(N.view());
    if (!i) throw "no tunable of that name in TUNABLES";
    return *i;
}

// The value of the entry named N: tune<"RfpMargin">.
template <TunableName N> inline constexpr const int& tune = tunable_values[tunable_index<N>()];

} // namespace staccato
