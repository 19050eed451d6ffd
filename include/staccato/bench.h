// `staccato bench [DEPTH]`: a fixed-depth search over built-in positions.
// Its node count is the signature of the search (checked by CI against the
// `Bench: N` line of the latest commit message that has one); it also prints
// the move-ordering figures.
#pragma once

#include <ostream>

namespace staccato {

// Chosen so that the default bench takes 3-10 s: depth 11 searches about 4.3 M
// nodes, about 4 s at the 1.1 M nodes/s of the reference 2-core machine
// (depth 12 took 10.5 s once singular extensions landed).
inline constexpr int BENCH_DEFAULT_DEPTH = 11;

// Runs the bench and prints per-position lines and the summary to `out`.
// Returns the total node count.
unsigned long long run_bench(int depth, std::ostream& out);

} // namespace staccato
