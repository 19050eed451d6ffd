// `staccato bench [DEPTH]`: a fixed-depth search over built-in positions.
// Its node count is the signature of the search (checked by CI against the
// `Bench: N` line of the latest commit message that has one); it also prints
// the move-ordering figures.
#pragma once

#include <ostream>

namespace staccato {

inline constexpr int BENCH_DEFAULT_DEPTH = 14;

// Runs the bench and prints per-position lines and the summary to `out`.
// Returns the total node count.
unsigned long long run_bench(int depth, std::ostream& out);

} // namespace staccato
