// The tablebases at the root of a search: the options the search probes
// them with (UCI SyzygyPath and co.), and the root filter that keeps only the
// root moves that hold the tables' best result.
#pragma once

#include <vector>

#include "staccato/position.h"

namespace staccato::syzygy {

class Tablebases;

// The tablebase options (UCI SyzygyPath and co.): the tables, or null.
struct TablebaseSettings {
    const Tablebases* tables = nullptr;
    int probe_depth = 1; // SyzygyProbeDepth: probe below the root from this depth on
    int probe_limit = 7; // SyzygyProbeLimit: at most this many pieces
    bool rule50 = true;  // Syzygy50MoveRule: cursed wins and blessed losses are draws
};

// What the tables make of one search's root.
struct RootFilter {
    std::vector<Move> moves;  // the root moves to search (empty: all)
    Value score = VALUE_NONE; // the root's tablebase score; VALUE_NONE: the moves were not filtered
    int cardinality = 0;      // the search probes positions of at most this many pieces (0: never)
    int probe_depth = 1;      // at `cardinality` pieces, from this depth on; fewer are probed at any depth
};

// Filters the root moves of `pos` (those in `searchmoves`; empty: all) by
// the tables of `tb` when the root is in them, and says how the search below
// probes. Only the moves that keep the best result are searched. With DTZ
// they also keep the win under the 50-move rule, and the search needs no
// probes (it finds the mates); with WDL only, a win is searched with probes
// so that it heads for the tables' wins.
RootFilter filter_root_moves(const Position& pos, const std::vector<Move>& searchmoves,
                             const TablebaseSettings& tb);

} // namespace staccato::syzygy
