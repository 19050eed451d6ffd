// The one pseudo-random generator of the engine and its tools: splitmix64,
// which gives a usable stream from any seed (0 included) and the same stream
// on every machine. Self-play openings (datagen, genfens), the strength
// limit's draws, the magic-number search, the tablebase benchmark's positions
// and the trainer (initial weights, shuffling) all draw from it. It is a
// standard UniformRandomBitGenerator, so std::shuffle and <random>'s
// distributions take it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace staccato {

class Rng {
  public:
    using result_type = std::uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }

    explicit Rng(std::uint64_t seed = 0) : state_(seed) {}

    result_type operator()() { return next(); }

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // 0 .. n-1 (n > 0).
    std::size_t below(std::size_t n) { return std::size_t(next() % n); }
    // [0, 1)
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    // About N(0, 1): four uniforms (mean 2, variance 4/12), rescaled.
    double normal() {
        double sum = 0;
        for (int i = 0; i < 4; ++i) sum += uniform();
        return (sum - 2.0) * std::sqrt(3.0);
    }
    // Few bits set: candidates for magic numbers.
    std::uint64_t sparse() { return next() & next() & next(); }

  private:
    std::uint64_t state_;
};

} // namespace staccato
