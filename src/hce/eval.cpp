#include "staccato/hce/eval.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "staccato/attacks.h"
#include "staccato/hce/kpk.h"

namespace staccato::hce {

namespace {

// ---------------------------------------------------------------------------
// Fixed constants (not tuned)
// ---------------------------------------------------------------------------
constexpr int MAX_PHASE = 24;
constexpr std::array<int, PIECE_TYPE_NB> PHASE_WEIGHT = {0, 1, 1, 2, 4, 0};
// King attacks grow faster than linearly with the number of attackers: one
// piece near the king is rarely dangerous, three usually are (percent).
constexpr std::array<int, 8> ATTACKER_SCALE = {0, 30, 100, 150, 180, 200, 210, 220};
// Non-pawn material in pawn units, for the endgame rules.
constexpr std::array<int, PIECE_TYPE_NB> NPM_UNITS = {0, 3, 3, 5, 9, 0};
constexpr int SCALE_NORMAL = 64;
constexpr int KPK_WIN = 800; // a won KPK ending, before the pawn's rank bonus
constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

// The report's rows.
enum Term {
    T_MATERIAL,
    T_PSQT,
    T_MOBILITY,
    T_PAWNS,
    T_PASSED,
    T_PIECES,
    T_THREATS,
    T_KING,
    T_TEMPO,
    TERM_NB
};
constexpr std::array<const char*, TERM_NB> TERM_NAMES = {
    "Material", "Placement", "Mobility", "Pawns", "Passed", "Pieces", "Threats", "King safety", "Tempo"};

// ---------------------------------------------------------------------------
// Bitboard helpers
// ---------------------------------------------------------------------------
constexpr Bitboard adjacent_files(int f) {
    return (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
}
// Ranks strictly in front of s from c's side.
constexpr Bitboard forward_ranks(Color c, Square s) {
    int r = rank_of(s);
    if (c == WHITE) return r == 7 ? 0 : ~Bitboard(0) << (8 * (r + 1));
    return r == 0 ? 0 : ~Bitboard(0) >> (8 * (8 - r));
}
constexpr Bitboard forward_file(Color c, Square s) { return forward_ranks(c, s) & file_bb(file_of(s)); }
// Squares in front of s on the adjacent files: where enemy pawns could attack it from.
constexpr Bitboard attack_span(Color c, Square s) { return forward_ranks(c, s) & adjacent_files(file_of(s)); }
constexpr Bitboard passed_span(Color c, Square s) { return forward_file(c, s) | attack_span(c, s); }

int centre_distance(Square s) { // 0 (d4..e5) to 6 (corners)
    int f = file_of(s), r = rank_of(s);
    return (f < 4 ? 3 - f : f - 4) + (r < 4 ? 3 - r : r - 4);
}
// Index into a folded piece-square table: the files e-h mirror a-d.
int psq_index(Color c, Square s) {
    Square rel = relative_square(c, s);
    int f = file_of(rel);
    return rank_of(rel) * 4 + (f < 4 ? f : 7 - f);
}
// The square of the nearest bit towards c's side (the "first" on a file).
Square nearest(Color c, Bitboard b) { return c == WHITE ? lsb(b) : msb(b); }

int non_pawn_units(const Position& pos, Color c) {
    int n = 0;
    for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) n += NPM_UNITS[pt] * pos.count(c, pt);
    return n;
}

// ---------------------------------------------------------------------------
// The evaluator: one object per call. With Traced, it also records each
// weight's coefficient and the per-term breakdown.
// ---------------------------------------------------------------------------
struct Breakdown {
    std::array<std::array<Score, 2>, TERM_NB> term{};
};

template <bool Traced> class Evaluator {
  public:
    Evaluator(const Position& pos, PawnTable* pawns, Trace* trace, Breakdown* bd)
        : pos_(pos), pawns_(pawns), trace_(trace), bd_(bd) {}

    Value run(); // White's view

  private:
    void add(Color c, Term t, int w, int n = 1) {
        Score s = WEIGHTS[w] * n;
        total_ += c == WHITE ? s : Score{} - s;
        if constexpr (Traced) {
            trace_->coeff[w] += c == WHITE ? n : -n;
            bd_->term[t][c] += s;
        }
    }
    void add_scaled(Color c, Term t, int w, int n, int percent) {
        Score s{WEIGHTS[w].mg * n * percent / 100, WEIGHTS[w].eg * n * percent / 100};
        total_ += c == WHITE ? s : Score{} - s;
        if constexpr (Traced) {
            trace_->coeff[w] += (c == WHITE ? n : -n) * percent / 100.0;
            bd_->term[t][c] += s;
        }
    }

    void init_attacks(Color us);
    void material_and_placement();
    template <Color Us> void pawns(PawnEntry& e);
    template <Color Us, PieceType Pt> void pieces();
    template <Color Us> void passed();
    template <Color Us> void king_attack();
    template <Color Us> void king_shelter();
    template <Color Us> void threats();
    int scale_factor(Color strong) const;
    std::optional<Value> special_rules(int* mop_up);

    const Position& pos_;
    PawnTable* pawns_;
    Trace* trace_;
    Breakdown* bd_;
    Score total_;
    const PawnEntry* pawn_entry_ = nullptr;

    std::array<std::array<Bitboard, PIECE_TYPE_NB>, 2> attacked_by_{};
    std::array<Bitboard, 2> attacked_{}, mobility_area_{}, king_zone_{};
    std::array<int, 2> king_attackers_{};
    std::array<std::array<int, 4>, 2> king_attack_units_{};
};

template <bool Traced> void Evaluator<Traced>::init_attacks(Color us) {
    Color them = ~us;
    Bitboard pawns = pos_.pieces(us, PAWN);
    Bitboard pawn_att = us == WHITE ? pawn_attacks_bb<WHITE>(pawns) : pawn_attacks_bb<BLACK>(pawns);
    Square ksq = pos_.king_square(us);
    attacked_by_[us][PAWN] = pawn_att;
    attacked_by_[us][KING] = king_attacks(ksq);
    attacked_[us] = pawn_att | attacked_by_[us][KING];
    // Mobility counts squares not attacked by enemy pawns and not taken by
    // our king or by our pawns that are blocked or not yet moved past the third rank.
    Bitboard blocked = us == WHITE ? shift<SOUTH>(pos_.pieces()) : shift<NORTH>(pos_.pieces());
    Bitboard low = us == WHITE ? (RANK_2_BB | RANK_3_BB) : (RANK_7_BB | RANK_6_BB);
    Bitboard them_pawns = pos_.pieces(them, PAWN);
    Bitboard them_pawn_att =
        them == WHITE ? pawn_attacks_bb<WHITE>(them_pawns) : pawn_attacks_bb<BLACK>(them_pawns);
    mobility_area_[us] = ~((pawns & (blocked | low)) | pos_.pieces(us, KING) | them_pawn_att);
    // The zone around our king that enemy pieces attack: its neighbourhood and
    // one more rank in front.
    Bitboard zone = king_attacks(ksq) | square_bb(ksq);
    zone |= us == WHITE ? shift<NORTH>(zone) : shift<SOUTH>(zone);
    king_zone_[us] = zone;
}

template <bool Traced> void Evaluator<Traced>::material_and_placement() {
    for (Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt <= KING; ++pt) {
            Bitboard bb = pos_.pieces(c, PieceType(pt));
            if (pt != KING && bb) add(c, T_MATERIAL, MATERIAL.offset + pt, popcount(bb));
            while (bb) add(c, T_PSQT, PSQT.offset + pt * 32 + psq_index(c, pop_lsb(bb)));
        }
}

// Pawn structure, cached: depends on the pawns alone.
template <bool Traced> template <Color Us> void Evaluator<Traced>::pawns(PawnEntry& e) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    const Bitboard ours = pos_.pieces(Us, PAWN), theirs = pos_.pieces(Them, PAWN);
    for (Bitboard bb = ours; bb;) {
        const Square s = pop_lsb(bb);
        const int r = relative_rank(Us, s);
        const Bitboard adj = adjacent_files(file_of(s));
        const bool rear = forward_file(Us, s) & ours; // another of ours is in front
        const bool isolated = !(ours & adj);
        const Bitboard level_or_behind = adj & ~forward_ranks(Us, s);

        if (rear) add(Us, T_PAWNS, PAWN_DOUBLED.offset);
        if (isolated) add(Us, T_PAWNS, PAWN_ISOLATED.offset);
        if (ours & adj & rank_bb(rank_of(s))) add(Us, T_PAWNS, PAWN_PHALANX.offset + r);
        if (ours & pawn_attacks(Them, s)) add(Us, T_PAWNS, PAWN_SUPPORTED.offset + r);
        // Backward: no pawn of ours can ever defend it, and an enemy pawn
        // guards the square in front.
        if (!isolated && !(ours & level_or_behind) && (pawn_attacks(Us, s + Up) & theirs))
            add(Us, T_PAWNS, PAWN_BACKWARD.offset);

        if (rear) continue;
        if (!(theirs & passed_span(Us, s))) {
            e.passed[Us] |= square_bb(s);
        } else if (!(theirs & forward_file(Us, s))) {
            // Candidate: on a half-open file, with at least as many helpers
            // as enemy pawns in the way on the adjacent files.
            int sentries = popcount(theirs & attack_span(Us, s));
            int helpers = popcount(ours & level_or_behind);
            if (helpers >= sentries) add(Us, T_PAWNS, PASSED_CANDIDATE.offset + r);
        }
    }
}

template <bool Traced> template <Color Us, PieceType Pt> void Evaluator<Traced>::pieces() {
    constexpr Color Them = ~Us;
    const Bitboard occ = pos_.pieces();
    const Square ksq = pos_.king_square(Us);
    const Bitboard pinned = pos_.blockers_for_king(Us) & pos_.pieces(Us);
    constexpr WeightGroup mobility = Pt == KNIGHT   ? MOBILITY_KNIGHT
                                     : Pt == BISHOP ? MOBILITY_BISHOP
                                     : Pt == ROOK   ? MOBILITY_ROOK
                                                    : MOBILITY_QUEEN;
    for (Bitboard bb = pos_.pieces(Us, Pt); bb;) {
        const Square s = pop_lsb(bb);
        // Sliders see through our own queen (and rooks through our rooks).
        Bitboard b = Pt == KNIGHT   ? knight_attacks(s)
                     : Pt == BISHOP ? bishop_attacks(s, occ ^ pos_.pieces(Us, QUEEN))
                     : Pt == ROOK   ? rook_attacks(s, occ ^ pos_.pieces(Us, ROOK, QUEEN))
                                    : queen_attacks(s, occ);
        if (pinned & square_bb(s)) b &= line_bb(ksq, s);

        attacked_by_[Us][Pt] |= b;
        attacked_[Us] |= b;
        if (b & king_zone_[Them]) {
            ++king_attackers_[Us];
            king_attack_units_[Us][Pt - KNIGHT] += popcount(b & king_zone_[Them]);
        }
        add(Us, T_MOBILITY, mobility.offset + popcount(b & mobility_area_[Us]));

        if constexpr (Pt == KNIGHT || Pt == BISHOP) {
            const int r = relative_rank(Us, s);
            if (r >= 3 && r <= 5 && (pawn_attacks(Them, s) & pos_.pieces(Us, PAWN)) &&
                !(attack_span(Us, s) & pos_.pieces(Them, PAWN)))
                add(Us, T_PIECES, (Pt == KNIGHT ? KNIGHT_OUTPOST : BISHOP_OUTPOST).offset);
        }
        if constexpr (Pt == ROOK) {
            const Bitboard file = file_bb(file_of(s));
            if (!(file & pos_.pieces(Us, PAWN)))
                add(Us, T_PIECES, (file & pos_.pieces(Them, PAWN) ? ROOK_SEMI_OPEN : ROOK_OPEN).offset);
            if (relative_rank(Us, s) == 6 && ((pos_.pieces(Them, PAWN) & rank_bb(rank_of(s))) ||
                                              relative_rank(Us, pos_.king_square(Them)) == 7))
                add(Us, T_PIECES, ROOK_SEVENTH.offset);
        }
    }
}

template <bool Traced> template <Color Us> void Evaluator<Traced>::passed() {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    for (Bitboard bb = pawn_entry_->passed[Us]; bb;) {
        const Square s = pop_lsb(bb);
        const int r = relative_rank(Us, s);
        const Square block = s + Up;
        add(Us, T_PASSED, PASSED.offset + r);
        add(Us, T_PASSED, PASSED_OWN_KING.offset + r, distance(pos_.king_square(Us), block));
        add(Us, T_PASSED, PASSED_ENEMY_KING.offset + r, distance(pos_.king_square(Them), block));
        const Bitboard path = forward_file(Us, s);
        if (!(path & pos_.pieces()) && !(path & attacked_[Them])) add(Us, T_PASSED, PASSED_FREE.offset + r);
    }
}

// Us attacks the enemy king.
template <bool Traced> template <Color Us> void Evaluator<Traced>::king_attack() {
    constexpr Color Them = ~Us;
    const int percent = ATTACKER_SCALE[std::min(king_attackers_[Us], 7)];
    for (int i = 0; i < 4; ++i)
        if (king_attack_units_[Us][i] && percent)
            add_scaled(Us, T_KING, KING_ATTACK.offset + i, king_attack_units_[Us][i], percent);

    const Square ksq = pos_.king_square(Them);
    const Bitboard occ = pos_.pieces();
    const Bitboard safe = ~attacked_[Them] & ~pos_.pieces(Us);
    const Bitboard bishop_checks = bishop_attacks(ksq, occ) & safe;
    const Bitboard rook_checks = rook_attacks(ksq, occ) & safe;
    const std::array<Bitboard, 4> checks = {
        knight_attacks(ksq) & safe & attacked_by_[Us][KNIGHT], bishop_checks & attacked_by_[Us][BISHOP],
        rook_checks & attacked_by_[Us][ROOK], (bishop_checks | rook_checks) & attacked_by_[Us][QUEEN]};
    for (int i = 0; i < 4; ++i)
        if (checks[i]) add(Us, T_KING, SAFE_CHECK.offset + i, popcount(checks[i]));
}

// Pawns in front of our own king, and open files next to it.
template <bool Traced> template <Color Us> void Evaluator<Traced>::king_shelter() {
    constexpr Color Them = ~Us;
    const Square ksq = pos_.king_square(Us);
    const Bitboard front = forward_ranks(Us, ksq) | rank_bb(rank_of(ksq));
    const int centre = std::clamp(file_of(ksq), 1, 6);
    for (int f = centre - 1; f <= centre + 1; ++f) {
        const Bitboard ours = pos_.pieces(Us, PAWN) & file_bb(f);
        const Bitboard theirs = pos_.pieces(Them, PAWN) & file_bb(f);
        const Bitboard our_front = ours & front, their_front = theirs & front;
        add(Us, T_KING, KING_SHIELD.offset + (our_front ? relative_rank(Us, nearest(Us, our_front)) : 0));
        add(Us, T_KING, KING_STORM.offset + (their_front ? relative_rank(Us, nearest(Us, their_front)) : 0));
        if (!ours) add(Us, T_KING, (theirs ? KING_SEMI_OPEN_FILE : KING_OPEN_FILE).offset);
    }
}

// Us threatens enemy pieces.
template <bool Traced> template <Color Us> void Evaluator<Traced>::threats() {
    constexpr Color Them = ~Us;
    const Bitboard pieces = pos_.pieces(Them) & ~pos_.pieces(PAWN, KING);
    const Bitboard defended = attacked_[Them];
    const Bitboard majors = pos_.pieces(Them, ROOK, QUEEN);
    auto by_victim = [&](Bitboard victims, const WeightGroup& g) {
        while (victims) add(Us, T_THREATS, g.offset + type_of(pos_.piece_on(pop_lsb(victims))) - KNIGHT);
    };
    by_victim(attacked_by_[Us][PAWN] & pieces, THREAT_BY_PAWN);
    by_victim((attacked_by_[Us][KNIGHT] | attacked_by_[Us][BISHOP]) & pieces & (majors | ~defended),
              THREAT_BY_MINOR);
    by_victim(attacked_by_[Us][ROOK] & pieces & (pos_.pieces(Them, QUEEN) | ~defended), THREAT_BY_ROOK);
    if (Bitboard b = pieces & attacked_[Us] & ~defended) add(Us, T_THREATS, HANGING.offset, popcount(b));
    if (Bitboard b = pos_.pieces(Them, PAWN) & attacked_[Us] & ~defended)
        add(Us, T_THREATS, HANGING_PAWN.offset, popcount(b));
}

// How much of the endgame score the stronger side can expect to convert
// (64 = all of it).
template <bool Traced> int Evaluator<Traced>::scale_factor(Color strong) const {
    const Color weak = ~strong;
    const int npm_strong = non_pawn_units(pos_, strong), npm_weak = non_pawn_units(pos_, weak);
    const Bitboard strong_pawns = pos_.pieces(strong, PAWN);
    if (!strong_pawns && npm_strong - npm_weak <= 3) return npm_strong <= 3 ? 0 : 16;
    // Two knights cannot force mate against a bare king.
    if (!strong_pawns && pos_.pieces(strong) == pos_.pieces(strong, KING, KNIGHT) && npm_weak == 0)
        return pos_.pieces(weak, PAWN) ? 16 : 0;

    // Opposite-coloured bishops.
    if (pos_.count(WHITE, BISHOP) == 1 && pos_.count(BLACK, BISHOP) == 1) {
        const Bitboard bishops = pos_.pieces(BISHOP);
        if ((bishops & DARK_SQUARES) && (bishops & ~DARK_SQUARES))
            return npm_strong == 3 && npm_weak == 3 ? 22 : 46;
    }
    // Rook pawns with a bishop of the wrong colour (or no piece at all), the
    // defending king in the corner.
    if (strong_pawns && npm_strong == pos_.count(strong, BISHOP) * 3 && pos_.count(strong, BISHOP) <= 1 &&
        (!(strong_pawns & ~FILE_A_BB) || !(strong_pawns & ~FILE_H_BB))) {
        const Square queening = relative_square(strong, make_square(file_of(lsb(strong_pawns)), 7));
        const bool bishop_helps =
            pos_.count(strong, BISHOP) &&
            bool(pos_.pieces(strong, BISHOP) & DARK_SQUARES) == bool(square_bb(queening) & DARK_SQUARES);
        if (!bishop_helps && distance(pos_.king_square(weak), queening) <= 1) return 0;
    }
    return SCALE_NORMAL;
}

// Endings that rules decide better than weights: KPK by the bitbase, and a
// bare king against mating material (mop-up, returned in *mop_up).
template <bool Traced> std::optional<Value> Evaluator<Traced>::special_rules(int* mop_up) {
    *mop_up = 0;
    const Bitboard all = pos_.pieces();
    if (popcount(all) == 3 && pos_.pieces(PAWN)) {
        const Color strong = color_of(pos_.piece_on(lsb(pos_.pieces(PAWN))));
        const Square psq = lsb(pos_.pieces(PAWN));
        if (!kpk::probe(strong, pos_.king_square(strong), psq, pos_.king_square(~strong),
                        pos_.side_to_move()))
            return VALUE_DRAW;
        const Value v = KPK_WIN + 20 * relative_rank(strong, psq);
        return strong == WHITE ? v : -v;
    }
    for (Color strong : {WHITE, BLACK}) {
        const Color weak = ~strong;
        if (pos_.pieces(weak) != pos_.pieces(weak, KING)) continue;
        const int npm = non_pawn_units(pos_, strong);
        const bool mating =
            pos_.pieces(strong, PAWN) || pos_.pieces(strong, ROOK, QUEEN) ||
            (pos_.count(strong, BISHOP) && pos_.count(strong, KNIGHT)) ||
            ((pos_.pieces(strong, BISHOP) & DARK_SQUARES) && (pos_.pieces(strong, BISHOP) & ~DARK_SQUARES));
        if (!mating || npm == 0) continue;
        // Drive the bare king to the edge, bring ours close; with bishop and
        // knight only, to a corner of the bishop's colour.
        const Square wk = pos_.king_square(weak), sk = pos_.king_square(strong);
        int bonus = 12 * centre_distance(wk) + 6 * (7 - distance(wk, sk));
        if (!pos_.pieces(strong, PAWN, ROOK) && !pos_.pieces(strong, QUEEN) &&
            pos_.count(strong, BISHOP) == 1 && pos_.count(strong, KNIGHT) == 1) {
            const bool dark = pos_.pieces(strong, BISHOP) & DARK_SQUARES;
            const Square c1 = dark ? SQ_A1 : SQ_H1, c2 = dark ? SQ_H8 : SQ_A8;
            bonus += 25 * (7 - std::min(distance(wk, c1), distance(wk, c2)));
        }
        *mop_up = strong == WHITE ? bonus : -bonus;
    }
    return std::nullopt;
}

template <bool Traced> Value Evaluator<Traced>::run() {
    int mop_up = 0;
    if (std::optional<Value> v = special_rules(&mop_up)) {
        if constexpr (Traced) trace_->special = true;
        return *v;
    }

    for (Color c : {WHITE, BLACK}) init_attacks(c);
    material_and_placement();

    // Step: pawn structure, from the pawn table when there is one.
    // A zeroed entry (key 0) is exactly the entry of a position without pawns.
    PawnEntry local;
    PawnEntry* e = (!Traced && pawns_) ? &pawns_->at(pos_.pawn_key()) : &local;
    if (e == &local || e->key != pos_.pawn_key()) {
        *e = PawnEntry{};
        e->key = pos_.pawn_key();
        const Score before = total_;
        pawns<WHITE>(*e);
        pawns<BLACK>(*e);
        e->score = total_ - before;
    } else {
        total_ += e->score;
    }
    pawn_entry_ = e;

    pieces<WHITE, KNIGHT>(), pieces<BLACK, KNIGHT>();
    pieces<WHITE, BISHOP>(), pieces<BLACK, BISHOP>();
    pieces<WHITE, ROOK>(), pieces<BLACK, ROOK>();
    pieces<WHITE, QUEEN>(), pieces<BLACK, QUEEN>();
    if (pos_.count(WHITE, BISHOP) >= 2) add(WHITE, T_PIECES, BISHOP_PAIR.offset);
    if (pos_.count(BLACK, BISHOP) >= 2) add(BLACK, T_PIECES, BISHOP_PAIR.offset);

    passed<WHITE>(), passed<BLACK>();
    king_attack<WHITE>(), king_attack<BLACK>();
    king_shelter<WHITE>(), king_shelter<BLACK>();
    threats<WHITE>(), threats<BLACK>();
    add(pos_.side_to_move(), T_TEMPO, TEMPO.offset);

    int phase = 0;
    for (int pt = KNIGHT; pt <= QUEEN; ++pt) phase += PHASE_WEIGHT[pt] * popcount(pos_.pieces(PieceType(pt)));
    phase = std::min(phase, MAX_PHASE);
    const int scale = scale_factor(total_.eg > 0 ? WHITE : BLACK);
    if constexpr (Traced) {
        trace_->phase = phase;
        trace_->scale = scale;
        trace_->special = mop_up != 0;
    }
    if (scale == 0) return VALUE_DRAW;
    const int v = (total_.mg * phase + total_.eg * (MAX_PHASE - phase) * scale / SCALE_NORMAL) / MAX_PHASE;
    return Value(std::clamp(v + mop_up, -VALUE_MATE_IN_MAX_PLY + 1, VALUE_MATE_IN_MAX_PLY - 1));
}

} // namespace

Value evaluate_traced(const Position& pos, Trace& trace) {
    trace = Trace{};
    Breakdown bd;
    return Evaluator<true>(pos, nullptr, &trace, &bd).run();
}

Value evaluate(const Position& pos, PawnTable* pawns) {
    Value v = Evaluator<false>(pos, pawns, nullptr, nullptr).run();
    return pos.side_to_move() == WHITE ? v : -v;
}

std::string eval_report(const Position& pos) {
    Trace trace;
    Breakdown bd;
    const Value white_view = Evaluator<true>(pos, nullptr, &trace, &bd).run();
    std::ostringstream os;
    char line[160];
    os << "     Term    |    White      |    Black      |    Total\n"
       << "             |   MG     EG   |   MG     EG   |   MG     EG\n"
       << "-------------+---------------+---------------+--------------\n";
    Score sum;
    for (int t = 0; t < TERM_NB; ++t) {
        const Score w = bd.term[t][WHITE], b = bd.term[t][BLACK], d = w - b;
        sum += d;
        std::snprintf(line, sizeof line, "%-12s | %6d %6d | %6d %6d | %6d %6d\n", TERM_NAMES[t], w.mg, w.eg,
                      b.mg, b.eg, d.mg, d.eg);
        os << line;
    }
    os << "-------------+---------------+---------------+--------------\n";
    std::snprintf(line, sizeof line, "%-12s |               |               | %6d %6d\n", "Sum", sum.mg,
                  sum.eg);
    os << line;
    if (trace.special) {
        os << "An endgame rule applies (KPK bitbase, drawn material or mop-up): the terms above are not the "
              "whole "
              "story.\n";
    }
    std::snprintf(line, sizeof line, "Phase %d/%d, endgame scale %d/64\n", trace.phase, MAX_PHASE,
                  trace.scale);
    os << line;
    std::snprintf(line, sizeof line, "Final evaluation: %d cp (White's view), %d cp (side to move)\n",
                  white_view, evaluate(pos));
    os << line;
    return os.str();
}

} // namespace staccato::hce
