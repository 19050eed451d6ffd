// The start-up CPU check (include/staccato/cpu.h): what a build needs, what
// it says on a CPU that lacks some of it, and which release file it names.
#include <catch2/catch.hpp>

#include "staccato/cpu.h"
#include "staccato/nnue/simd.h"
#include "staccato/uci.h"

using namespace staccato;
using namespace staccato::cpu;

namespace {
constexpr unsigned V3 = POPCNT | SSE4_2 | AVX | AVX2 | BMI1 | BMI2 | FMA;
}

TEST_CASE("cpu: the engine needs what this file's flags let the compiler use", "[cpu]") {
    // One set of flags for every file of the engine: the set the check
    // compares with is the one compiled here.
    CHECK(BUILD_FEATURES == compiled_features());
#if defined(__x86_64__)
    // This CPU runs this build (else the tests would not have started).
    CHECK((BUILD_FEATURES & ~cpu_features()) == 0u);
    CHECK(!mismatch(BUILD_FEATURES, cpu_features()));
#if defined(__AVX2__)
    CHECK((BUILD_FEATURES & AVX2) != 0u);
#endif
#else
    CHECK(BUILD_FEATURES == 0u);
    CHECK(cpu_features() == 0u);
#endif
}

TEST_CASE("cpu: feature names as /proc/cpuinfo writes them, in order", "[cpu]") {
    CHECK(feature_names(0) == "");
    CHECK(feature_names(BMI2 | POPCNT | AVX2) == "popcnt avx2 bmi2");
    CHECK(feature_names(AVX512BW | AVX512F) == "avx512f avx512bw");
}

TEST_CASE("cpu: the release level that runs on a CPU", "[cpu]") {
    CHECK(fitting_level(V3 | AVX512F | AVX512BW) == "x86-64-bmi2");
    CHECK(fitting_level(V3) == "x86-64-bmi2");
    CHECK(fitting_level(V3 & ~BMI2) == "x86-64-avx2");              // Excavator-like: AVX2 without BMI2
    CHECK(fitting_level(POPCNT | SSE4_2 | AVX) == "x86-64-popcnt"); // Sandy Bridge
    CHECK(fitting_level(POPCNT | SSE4_2) == "x86-64-popcnt");
    CHECK(fitting_level(SSE4_2).empty()); // no POPCNT: no release file
    CHECK(fitting_level(0).empty());
}

TEST_CASE("cpu: a CPU lacking the build's features is told what is missing and what to take", "[cpu]") {
    CHECK(!mismatch(V3, V3));
    CHECK(!mismatch(POPCNT, V3 | AVX512F));
    CHECK(!mismatch(0, 0));

    const auto avx2_cpu = mismatch(V3, V3 & ~BMI2);
    REQUIRE(avx2_cpu);
    CHECK(*avx2_cpu ==
          "this engine was built for a CPU with popcnt sse4_2 avx avx2 bmi1 bmi2 fma; this one lacks "
          "bmi2: take the x86-64-avx2 release file (README, Download), or build it from source");
    const auto old_cpu = mismatch(V3, POPCNT | SSE4_2);
    REQUIRE(old_cpu);
    CHECK(old_cpu->find("this one lacks avx avx2 bmi1 bmi2 fma: take the x86-64-popcnt release file") !=
          std::string::npos);
    const auto no_popcnt = mismatch(POPCNT, 0);
    REQUIRE(no_popcnt);
    CHECK(no_popcnt->ends_with(
        "this one lacks popcnt: no release file runs here, build it from source (README, "
        "Build)"));
}

TEST_CASE("cpu: --version names the CPU, the network's SIMD path and the sliders", "[cpu]") {
    const std::string text = build_description();
#if defined(__x86_64__)
    CHECK(text.starts_with("x86-64"));
#elif defined(__aarch64__)
    CHECK(text.starts_with("aarch64"));
#endif
    CHECK(text.find(std::string("network SIMD: ") + nnue::simd_name()) != std::string::npos);
}
