#include "staccato/syzygy/root.h"

#include <algorithm>

#include "staccato/bitboard.h"
#include "staccato/movegen.h"
#include "staccato/syzygy/tablebase.h"

namespace staccato::syzygy {

RootFilter filter_root_moves(const Position& pos, const std::vector<Move>& searchmoves,
                             const TablebaseSettings& tb) {
    RootFilter f;
    f.moves = searchmoves;
    f.cardinality = tb.tables ? std::min(tb.probe_limit, tb.tables->max_pieces()) : 0;
    // A limit above the largest tables: those are probed at any depth.
    f.probe_depth = tb.tables && tb.probe_limit > tb.tables->max_pieces() ? 0 : tb.probe_depth;
    if (!f.cardinality || popcount(pos.pieces()) > f.cardinality) return f;

    std::vector<RootRank> ranks;
    for (const ScoredMove& sm : MoveList(pos))
        if (searchmoves.empty() ||
            std::find(searchmoves.begin(), searchmoves.end(), sm.move) != searchmoves.end())
            ranks.push_back({sm.move});
    Position p = pos;
    const auto source = tb.tables->rank_root_moves(p, ranks, tb.rule50);
    if (source == Tablebases::RootSource::None) return f;

    f.moves = best_ranked(ranks);
    const auto it =
        std::find_if(ranks.begin(), ranks.end(), [&](const auto& r) { return r.move == f.moves[0]; });
    int w = int(it->wdl);
    if (!tb.rule50) w = 2 * (w > 0) - 2 * (w < 0);
    f.score = w == 2 ? VALUE_TB : w == -2 ? -VALUE_TB : VALUE_DRAW + 2 * w;
    if (source == Tablebases::RootSource::Dtz || w <= 0) f.cardinality = 0;
    return f;
}

} // namespace staccato::syzygy
