#include "staccato/nnue/report.h"

#include <bit>
#include <cstdio>
#include <sstream>

#include "staccato/nnue/accumulator.h"

namespace staccato::nnue {

namespace {

// The evaluation from White's view with the piece on `s` taken off.
Value without_piece(const Network& net, const Position& pos, const Accumulator& full, Square s) {
    Accumulator acc = full;
    remove_piece(net, pos, s, acc);
    const Value v = evaluate(net, acc, pos.side_to_move(), popcount(pos.pieces()) - 1);
    return pos.side_to_move() == WHITE ? v : -v;
}

std::string pawns(Value cp) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%+.2f", double(cp) / 100.0);
    return buf;
}

} // namespace

std::string eval_report(const Network& net, const Position& pos) {
    Accumulator acc;
    refresh(net, pos, acc);
    const Value stm = evaluate(net, acc, pos.side_to_move(), popcount(pos.pieces()));
    const Value white = pos.side_to_move() == WHITE ? stm : -stm;
    // Shown on the scale the search's scores are shown on (uci_output.h):
    // normalised by the net's WDL model at this material, or raw.
    const int material = material_of(pos);
    auto shown = [&](Value v) { return net.wdl ? to_printed_cp(*net.wdl, v, material) : v; };

    std::ostringstream os;
    os << "NNUE piece values (pawns, White's view: the evaluation minus the evaluation without the piece)\n";
    const std::string rule = "+-------+-------+-------+-------+-------+-------+-------+-------+\n";
    for (int rank = 7; rank >= 0; --rank) {
        os << rule;
        std::string pieces = "|", values = "|";
        for (int file = 0; file < 8; ++file) {
            const Square s = make_square(file, rank);
            const Piece pc = pos.piece_on(s);
            std::string p = "       ", v = "       ";
            if (pc != NO_PIECE) {
                p[3] = "PNBRQK??pnbrqk"[pc];
                if (type_of(pc) != KING) {
                    const std::string text = pawns(shown(white - without_piece(net, pos, acc, s)));
                    v.replace(std::size_t(7 - int(text.size())) / 2, text.size(), text);
                }
            }
            pieces += p + "|";
            values += v + "|";
        }
        os << pieces << ' ' << char('1' + rank) << '\n' << values << '\n';
    }
    os << rule;
    os << "    a       b       c       d       e       f       g       h\n\n";
    os << "NNUE evaluation: " << shown(white) << " cp (White's view), " << shown(stm)
       << " cp (side to move)\n";
    if (net.wdl) {
        const auto wdl = wdl_permille(*net.wdl, stm, material);
        os << "normalised by the net's WDL model (+100 cp: a 50% chance to win at material " << material
           << "): win " << wdl[0] << ", draw " << wdl[1] << ", loss " << wdl[2] << " permille; raw " << stm
           << " (side to move)\n";
    } else {
        os << "raw network units (this net carries no WDL model)\n";
    }
    return os.str();
}

} // namespace staccato::nnue
