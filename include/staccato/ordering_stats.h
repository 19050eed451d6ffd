// Move-ordering statistics of the search: how often the first move searched
// causes the cutoff, and which picker stages the cutoff moves come from.
// Each Worker counts its own; `bench` sums them over its positions and prints
// them (src/bench.cpp).
#pragma once

#include <array>
#include <cstdint>

#include "staccato/movepick.h"

namespace staccato {

// Move-ordering quality, counted at every fail high of the main search (not
// the root, not quiescence). Positions count moves searched: a move skipped by
// pruning or illegal is not "the first move".
struct OrderingStats {
    std::uint64_t fail_highs = 0;
    std::uint64_t first_move_fail_highs = 0;
    std::uint64_t cutoff_move_number_sum = 0; // 1-based position of the cutoff move among those searched
    // The same two counts at expected cut nodes only (the others are PV and
    // expected all-nodes, where a fail high was not predicted).
    std::uint64_t cut_node_fail_highs = 0;
    std::uint64_t cut_node_first_move_fail_highs = 0;
    // Fail highs by the stage of the cutoff move, and first moves that did
    // not cut (where a later move did) by their stage: where ordering misses.
    std::array<std::uint64_t, ORIGIN_NB> cutoffs_by_origin{};
    std::array<std::uint64_t, ORIGIN_NB> first_move_misses_by_origin{};

    // A fail high on the `searched`-th move searched, whose stage was
    // `cutoff`; `first` is the stage of the first move searched.
    void record(int searched, bool cut_node, Origin cutoff, Origin first) {
        ++fail_highs;
        first_move_fail_highs += searched == 1;
        cutoff_move_number_sum += std::uint64_t(searched);
        cut_node_fail_highs += cut_node;
        cut_node_first_move_fail_highs += cut_node && searched == 1;
        ++cutoffs_by_origin[int(cutoff)];
        if (searched > 1) ++first_move_misses_by_origin[int(first)];
    }

    OrderingStats& operator+=(const OrderingStats& o) {
        for (int i = 0; i < ORIGIN_NB; ++i) {
            cutoffs_by_origin[i] += o.cutoffs_by_origin[i];
            first_move_misses_by_origin[i] += o.first_move_misses_by_origin[i];
        }
        fail_highs += o.fail_highs;
        first_move_fail_highs += o.first_move_fail_highs;
        cutoff_move_number_sum += o.cutoff_move_number_sum;
        cut_node_fail_highs += o.cut_node_fail_highs;
        cut_node_first_move_fail_highs += o.cut_node_first_move_fail_highs;
        return *this;
    }
};

} // namespace staccato
