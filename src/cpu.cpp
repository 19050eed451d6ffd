// The start-up CPU check (include/staccato/cpu.h). CMake compiles this file
// for plain x86-64 whatever the build's level, so that none of it, nor the
// constructor below that runs before anything else of the engine, uses an
// instruction the CPU may lack.
#include "staccato/cpu.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace staccato::cpu {

unsigned cpu_features() {
    unsigned f = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init(); // needed when called before the constructors (below)
    const bool has[] = {
        __builtin_cpu_supports("popcnt") != 0,   __builtin_cpu_supports("sse4.2") != 0,
        __builtin_cpu_supports("avx") != 0,      __builtin_cpu_supports("avx2") != 0,
        __builtin_cpu_supports("bmi") != 0,      __builtin_cpu_supports("bmi2") != 0,
        __builtin_cpu_supports("fma") != 0,      __builtin_cpu_supports("avx512f") != 0,
        __builtin_cpu_supports("avx512bw") != 0,
    };
    static_assert(std::size(has) == FEATURE_NAMES.size());
    for (unsigned i = 0; i < std::size(has); ++i)
        if (has[i]) f |= 1u << i;
#endif
    return f;
}

namespace {

// Plain C text into `out`, so that the start-up check calls no template code
// another file may have compiled with the build's instructions.
void append(char* out, std::size_t size, const char* text) {
    const std::size_t used = std::strlen(out);
    std::snprintf(out + used, size - used, "%s", text);
}

void append_names(char* out, std::size_t size, unsigned set) {
    bool first = true;
    for (unsigned i = 0; i < FEATURE_NAMES.size(); ++i)
        if (set & (1u << i)) {
            if (!first) append(out, size, " ");
            append(out, size, FEATURE_NAMES[i]);
            first = false;
        }
}

const char* level_for(unsigned has) {
    // The release levels' sets (CMakeLists.txt, STACCATO_CPU_LEVEL): x86-64-v3
    // is AVX, AVX2, BMI1, BMI2, FMA and the SSE4.2 generation with POPCNT.
    const unsigned v3 = POPCNT | SSE4_2 | AVX | AVX2 | BMI1 | BMI2 | FMA;
    if ((has & v3) == v3) return "x86-64-bmi2";
    if ((has & (v3 & ~BMI2)) == (v3 & ~BMI2)) return "x86-64-avx2";
    if (has & POPCNT) return "x86-64-popcnt";
    return "";
}

// The mismatch line into `out` (empty when nothing is missing).
void describe(unsigned needs, unsigned has, char* out, std::size_t size) {
    out[0] = '\0';
    const unsigned missing = needs & ~has;
    if (!missing) return;
    append(out, size, "this engine was built for a CPU with ");
    append_names(out, size, needs);
    append(out, size, "; this one lacks ");
    append_names(out, size, missing);
    const char* level = level_for(has);
    if (*level) {
        append(out, size, ": take the ");
        append(out, size, level);
        append(out, size, " release file (README, Download), or build it from source");
    } else {
        append(out, size, ": no release file runs here, build it from source (README, Build)");
    }
}

constexpr std::size_t LINE = 512;

} // namespace

std::string feature_names(unsigned set) {
    char line[LINE] = "";
    append_names(line, sizeof line, set);
    return line;
}

std::string fitting_level(unsigned has) { return level_for(has); }

std::optional<std::string> mismatch(unsigned needs, unsigned has) {
    char line[LINE];
    describe(needs, has, line, sizeof line);
    if (!*line) return std::nullopt;
    return line;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
namespace {

// Before every other constructor (priority 101 is the first a program may
// use) and before main: the engine's own code may use the build's
// instructions anywhere.
#if defined(__APPLE__)
// Mach-O takes no constructor priorities (GCC refuses them there).
__attribute__((constructor)) void check_at_start() {
#else
__attribute__((constructor(101))) void check_at_start() {
#endif
    char why[LINE];
    describe(BUILD_FEATURES, cpu_features(), why, sizeof why);
    if (!*why) return;
    std::fprintf(stdout, "info string %s\n", why);
    std::fflush(stdout);
    std::fprintf(stderr, "staccato: %s\n", why);
    std::_Exit(1);
}

} // namespace
#endif

} // namespace staccato::cpu
