// Which vector instructions the network's loops use (src/nnue/accumulator.cpp),
// chosen when the engine is compiled from what the target CPU level has:
// AVX-512 (AVX512BW), AVX2, NEON (every 64-bit ARM CPU), or none. A build
// with -DSTACCATO_SIMD=OFF (CMake; it defines STACCATO_NO_SIMD) uses the plain
// loops everywhere, for comparisons. Every path computes the same integers.
#pragma once

#if !defined(STACCATO_NO_SIMD)
#if defined(__AVX512BW__)
#define STACCATO_SIMD_AVX512 1
#elif defined(__AVX2__)
#define STACCATO_SIMD_AVX2 1
#elif defined(__ARM_NEON) && defined(__aarch64__) // GCC defines __ARM_NEON, not __ARM_NEON__
#define STACCATO_SIMD_NEON 1
#endif
#endif
#if defined(STACCATO_SIMD_AVX512) || defined(STACCATO_SIMD_AVX2) || defined(STACCATO_SIMD_NEON)
#define STACCATO_SIMD 1
#endif

namespace staccato::nnue {

// The path's name, as `staccato --version` prints it.
constexpr const char* simd_name() {
#if defined(STACCATO_SIMD_AVX512)
    return "AVX-512";
#elif defined(STACCATO_SIMD_AVX2)
    return "AVX2";
#elif defined(STACCATO_SIMD_NEON)
    return "NEON";
#else
    return "none";
#endif
}

} // namespace staccato::nnue
