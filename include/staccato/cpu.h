// What an x86-64 build needs of the CPU it runs on, and the start-up check:
// a binary built for AVX2 or BMI2 (a release level, or -march=native) that
// starts on a CPU without them says which release file to take and exits
// with status 1, instead of stopping at the first instruction it lacks
// (src/cpu.cpp, compiled for any x86-64 so that the check itself runs
// everywhere). The features below cover the release levels (x86-64-v3's
// LZCNT, MOVBE and F16C come with AVX2, BMI2 and FMA on every CPU) and
// AVX-512F/BW; a -march=native build moved to another CPU may still need
// something else its compiler chose. On other targets every set is 0.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace staccato::cpu {

// The features a build may use, as bits; their names as /proc/cpuinfo
// writes them (the README tells users to look there).
enum Feature : unsigned {
    POPCNT = 1u << 0,
    SSE4_2 = 1u << 1,
    AVX = 1u << 2,
    AVX2 = 1u << 3,
    BMI1 = 1u << 4,
    BMI2 = 1u << 5,
    FMA = 1u << 6,
    AVX512F = 1u << 7,
    AVX512BW = 1u << 8,
};
inline constexpr std::array<const char*, 9> FEATURE_NAMES = {"popcnt", "sse4_2", "avx",     "avx2",    "bmi1",
                                                             "bmi2",   "fma",    "avx512f", "avx512bw"};

// The features the compiler may use under the flags of the file this is
// evaluated in (consteval: never code that runs).
consteval unsigned compiled_features() {
    unsigned f = 0;
#if defined(__x86_64__) || defined(_M_X64)
#ifdef __POPCNT__
    f |= POPCNT;
#endif
#ifdef __SSE4_2__
    f |= SSE4_2;
#endif
#ifdef __AVX__
    f |= AVX;
#endif
#ifdef __AVX2__
    f |= AVX2;
#endif
#ifdef __BMI__
    f |= BMI1;
#endif
#ifdef __BMI2__
    f |= BMI2;
#endif
#ifdef __FMA__
    f |= FMA;
#endif
#ifdef __AVX512F__
    f |= AVX512F;
#endif
#ifdef __AVX512BW__
    f |= AVX512BW;
#endif
#endif
    return f;
}

// What the engine was compiled to use (defined in src/uci.cpp, compiled with
// the build's flags): the start-up check's `needs`.
extern const unsigned BUILD_FEATURES;

// What this CPU has (x86-64: cpuid; elsewhere 0).
unsigned cpu_features();

// "popcnt avx2 bmi2": the names of the set's features, in FEATURE_NAMES' order.
std::string feature_names(unsigned set);

// The release level (README, Download) that runs on a CPU with `has`:
// "x86-64-bmi2", "x86-64-avx2", "x86-64-popcnt", or "" for none.
std::string fitting_level(unsigned has);

// The line to stop with when `has` lacks some of `needs`; nullopt when
// nothing is missing.
std::optional<std::string> mismatch(unsigned needs, unsigned has);

} // namespace staccato::cpu
