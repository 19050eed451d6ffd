#include "staccato/eval.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace staccato {

namespace {

struct Score {
    int mg = 0, eg = 0;
    constexpr Score operator+(Score o) const { return {mg + o.mg, eg + o.eg}; }
    constexpr Score operator-(Score o) const { return {mg - o.mg, eg - o.eg}; }
    constexpr Score& operator+=(Score o) { return mg += o.mg, eg += o.eg, *this; }
    constexpr Score& operator-=(Score o) { return mg -= o.mg, eg -= o.eg, *this; }
};

constexpr std::array<Score, PIECE_TYPE_NB> MATERIAL = {Score{100, 125}, Score{320, 300},  Score{335, 320},
                                                       Score{480, 540}, Score{960, 1000}, Score{0, 0}};
constexpr std::array<int, PIECE_TYPE_NB> PHASE_WEIGHT = {0, 1, 1, 2, 4, 0};
constexpr int MAX_PHASE = 24;
constexpr Score BISHOP_PAIR{30, 50};
constexpr int TEMPO = 12;

// Distance to the centre in half-files/ranks: 1 (d4..e5) to 7 (corners).
constexpr int centre_distance(int file, int rank) {
    int df = file < 4 ? 3 - file : file - 4;
    int dr = rank < 4 ? 3 - rank : rank - 4;
    return df + dr;
}

// Piece-square bonuses for White (square a1 = 0), built from a few rules of
// thumb rather than typed-in numbers: knights and bishops want the centre,
// pawns want to advance (central ones early), rooks like the seventh rank,
// the king hides in the middlegame and centralises in the endgame.
constexpr Score psq_bonus(PieceType pt, int file, int rank) {
    int cd = centre_distance(file, rank);
    switch (pt) {
    case PAWN: {
        int central = (file == 3 || file == 4) ? 1 : 0;
        int mg =
            (rank - 1) * 4 + central * (rank >= 3 && rank <= 4 ? 18 : 0) - (central && rank == 1 ? 8 : 0);
        return {mg, (rank - 1) * 14};
    }
    case KNIGHT: return {-6 * cd + 14, -5 * cd + 12};
    case BISHOP: return {-3 * cd + 6 - (rank == 0 ? 8 : 0), -3 * cd + 6};
    case ROOK: return {(rank == 6 ? 18 : 0) + ((file == 3 || file == 4) ? 6 : 0), rank == 6 ? 12 : 0};
    case QUEEN: return {-2 * cd + 4 - (rank > 4 ? 6 : 0), -4 * cd + 10};
    case KING: {
        constexpr int back[8] = {22, 32, 12, -4, 0, 8, 34, 24};
        int mg = rank == 0 ? back[file] : rank == 1 ? back[file] / 2 - 12 : -30 * rank;
        return {mg, -10 * cd + 20};
    }
    default: return {};
    }
}

constexpr auto make_psq() {
    std::array<std::array<Score, 64>, PIECE_TYPE_NB> t{};
    for (int pt = PAWN; pt <= KING; ++pt)
        for (int s = 0; s < 64; ++s) t[pt][s] = MATERIAL[pt] + psq_bonus(PieceType(pt), s & 7, s >> 3);
    return t;
}
constexpr auto PSQ = make_psq(); // material included

struct Breakdown {
    Score material[2], placement[2], bishop_pair[2];
    int phase = 0;
};

Breakdown compute(const Position& pos) {
    Breakdown b;
    for (Color c : {WHITE, BLACK}) {
        for (int pt = PAWN; pt <= KING; ++pt) {
            Bitboard bb = pos.pieces(c, PieceType(pt));
            b.phase += PHASE_WEIGHT[pt] * popcount(bb);
            while (bb) {
                Square s = pop_lsb(bb);
                Square rel = relative_square(c, s);
                b.material[c] += MATERIAL[pt];
                b.placement[c] += PSQ[pt][rel] - MATERIAL[pt];
            }
        }
        if (pos.count(c, BISHOP) >= 2) b.bishop_pair[c] += BISHOP_PAIR;
    }
    if (b.phase > MAX_PHASE) b.phase = MAX_PHASE;
    return b;
}

int taper(Score s, int phase) { return (s.mg * phase + s.eg * (MAX_PHASE - phase)) / MAX_PHASE; }

} // namespace

Value evaluate(const Position& pos) {
    Breakdown b = compute(pos);
    Score total = (b.material[WHITE] + b.placement[WHITE] + b.bishop_pair[WHITE]) -
                  (b.material[BLACK] + b.placement[BLACK] + b.bishop_pair[BLACK]);
    int v = taper(total, b.phase);
    return (pos.side_to_move() == WHITE ? v : -v) + TEMPO;
}

std::string eval_report(const Position& pos) {
    Breakdown b = compute(pos);
    std::ostringstream os;
    char line[128];
    auto row = [&](const char* name, Score w, Score bl) {
        Score d = w - bl;
        std::snprintf(line, sizeof line, "%-12s | %6d %6d | %6d %6d | %6d %6d\n", name, w.mg, w.eg, bl.mg,
                      bl.eg, d.mg, d.eg);
        os << line;
    };
    os << "     Term    |    White      |    Black      |    Total\n"
       << "             |   MG     EG   |   MG     EG   |   MG     EG\n"
       << "-------------+---------------+---------------+--------------\n";
    row("Material", b.material[WHITE], b.material[BLACK]);
    row("Placement", b.placement[WHITE], b.placement[BLACK]);
    row("Bishop pair", b.bishop_pair[WHITE], b.bishop_pair[BLACK]);
    Score total = (b.material[WHITE] + b.placement[WHITE] + b.bishop_pair[WHITE]) -
                  (b.material[BLACK] + b.placement[BLACK] + b.bishop_pair[BLACK]);
    os << "-------------+---------------+---------------+--------------\n";
    std::snprintf(line, sizeof line,
                  "Phase %d/%d; tapered total (White's view) %d cp; tempo %d for the side to move\n", b.phase,
                  MAX_PHASE, taper(total, b.phase), TEMPO);
    os << line;
    std::snprintf(line, sizeof line, "Final evaluation (side to move): %d cp\n", evaluate(pos));
    os << line;
    return os.str();
}

} // namespace staccato
