// The search's reports as UCI text: the info lines (score, bounds, WDL,
// nodes, PV), the current-move line and the bestmove line. The search and
// the thread pool gather the figures (search.h: SearchInfo); this module
// only writes them the way the protocol spells them.
#pragma once

#include <array>
#include <string>

#include "staccato/position.h"
#include "staccato/wdl.h"

namespace staccato {

struct SearchInfo;

namespace uci {

// What a score is shown as (wdl.h): with the net's WDL model, `cp` is the
// normalised score (+100: a 50% chance to win at the root's material) and
// `wdl` the model's chances; without one (a net file with no model, the
// hand-crafted evaluation), `cp` is the raw score and `wdl` a fixed rough
// logistic (150 cp to win half, spread 90).
struct ScoreScale {
    const WdlModel* model = nullptr;
    int material = MATERIAL_REFERENCE; // the root's (material_of)
};

// Win/draw/loss chances in permille for a score.
std::array<int, 3> wdl_from_score(Value v, const ScoreScale& scale = {});

// `cp N` or `mate N` (negative: the side to move is mated).
std::string score_text(Value v, const ScoreScale& scale = {});

// `info depth ... pv ...` for one root move. The PV is replayed on a copy
// of the root, so that every move printed is legal; when none is, the root
// move alone.
std::string info_line(const SearchInfo& info);

// `info depth D currmove M currmovenumber N`.
std::string currmove_line(int depth, const Position& pos, Move m, int number);

// The line of a root with no legal move: `info depth 0 score mate 0` in
// check, `... cp 0` in stalemate.
std::string no_moves_line(bool in_check);

// `bestmove M [ponder P]` (P only when it is legal after M; no move:
// `bestmove 0000`).
std::string bestmove_line(const Position& root, Move best, Move ponder);

} // namespace uci

} // namespace staccato
