#include "staccato/uci_output.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "staccato/search.h"

namespace staccato::uci {

std::array<int, 3> wdl_from_score(Value v, const ScoreScale& scale) {
    return wdl_permille(scale.model ? *scale.model : ROUGH_WDL_MODEL, v, scale.material);
}

std::string score_text(Value v, const ScoreScale& scale) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return "mate " + std::to_string((VALUE_MATE - v + 1) / 2);
    if (v <= VALUE_MATED_IN_MAX_PLY) return "mate " + std::to_string(-(VALUE_MATE + v) / 2);
    return "cp " + std::to_string(scale.model ? to_printed_cp(*scale.model, v, scale.material) : v);
}

std::string info_line(const SearchInfo& info) {
    const ScoreScale scale{info.wdl, info.root ? material_of(*info.root) : MATERIAL_REFERENCE};
    std::ostringstream os;
    os << "info depth " << std::max(1, info.depth) << " seldepth " << std::max(info.seldepth, 1)
       << " multipv " << info.multipv << " score " << score_text(info.score, scale);
    if (info.lower_bound)
        os << " lowerbound";
    else if (info.upper_bound)
        os << " upperbound";
    if (info.show_wdl) {
        auto wdl = wdl_from_score(info.score, scale);
        os << " wdl " << wdl[0] << ' ' << wdl[1] << ' ' << wdl[2];
    }
    const std::uint64_t n = info.nodes;
    os << " nodes " << n << " nps " << (n * 1000 / std::uint64_t(std::max<std::int64_t>(info.time_ms, 1)))
       << " hashfull " << info.hashfull;
    if (info.tb_hits) os << " tbhits " << *info.tb_hits;
    os << " time " << info.time_ms << " pv";
    const Position& root = *info.root;
    Position p = root;
    int shown = 0;
    for (int k = 0; k < info.pv_length; ++k) {
        Move m = info.pv[k];
        if (!p.is_pseudo_legal(m) || !p.is_legal(m)) break;
        os << ' ' << p.move_to_uci(m);
        p.make_move(m);
        ++shown;
    }
    if (shown == 0) os << ' ' << root.move_to_uci(info.move);
    return os.str();
}

std::string currmove_line(int depth, const Position& pos, Move m, int number) {
    return "info depth " + std::to_string(depth) + " currmove " + pos.move_to_uci(m) + " currmovenumber " +
           std::to_string(number);
}

std::string no_moves_line(bool in_check) {
    return std::string("info depth 0 score ") + (in_check ? "mate 0" : "cp 0");
}

std::string bestmove_line(const Position& root, Move best, Move ponder) {
    if (!best) return "bestmove 0000";
    std::string line = "bestmove " + root.move_to_uci(best);
    if (!ponder) return line;
    Position after = root;
    after.make_move(best);
    if (after.is_pseudo_legal(ponder) && after.is_legal(ponder))
        line += " ponder " + after.move_to_uci(ponder);
    return line;
}

} // namespace staccato::uci
