// The search, top down: iterative deepening and aspiration windows, the
// root, search() in named steps with a helper per step, quiescence, and the
// figures of the info lines the GUI reads (their text: uci_output.h; the
// plan: search.h).
#include "staccato/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "staccato/hce/eval.h"
#include "staccato/movegen.h"
#include "staccato/see.h"
#include "staccato/syzygy/tablebase.h"
#include "staccato/tunables.h"
#include "staccato/uci_output.h"

namespace staccato {

namespace {

// The search's constants are the tunable ones, read as tune<"Name">
// (staccato/tunables.h: constants, or UCI options in a tuning build).
constexpr int TIME_CHECK_INTERVAL = 1024; // nodes between clock reads

// Late move reductions: LmrBase / 100 + ln(depth) * ln(move number) /
// (LmrDivisor / 100) plies, from a table. A normal build computes it once
// from the constants; a tuning build again whenever setoption changes one.
using LmrTable = std::array<std::array<int, 64>, 64>;

LmrTable compute_lmr_table() {
    const double base = tune<"LmrBase"> / 100.0;
    const double divisor = tune<"LmrDivisor"> / 100.0;
    LmrTable t{};
    for (int d = 1; d < 64; ++d)
        for (int m = 1; m < 64; ++m) t[d][m] = int(base + std::log(d) * std::log(m) / divisor);
    return t;
}

#ifdef STACCATO_TUNE
LmrTable LMR_TABLE = compute_lmr_table();
#else
const LmrTable LMR_TABLE = compute_lmr_table();
#endif

// A hash entry's score settles the node when it is exact or a bound on the
// far side of the window.
bool bound_settles(Bound bound, Value score, Value alpha, Value beta) {
    return bound == Bound::Exact || (bound == Bound::Lower && score >= beta) ||
           (bound == Bound::Upper && score <= alpha);
}

int late_move_count(int depth, bool improving) {
    return (tune<"LmpBase"> + depth * depth) / (improving ? 1 : 2);
}

bool has_non_pawn_material(const Position& pos, Color c) { return pos.pieces(c) & ~pos.pieces(PAWN, KING); }

} // namespace

#ifdef STACCATO_TUNE
void tunables_changed() { LMR_TABLE = compute_lmr_table(); }
#endif

// ---------------------------------------------------------------------------
// Worker
// ---------------------------------------------------------------------------
Worker::Worker(int id, SearchShared& shared) : id_(id), shared_(shared) {}

void Worker::clear_history() { histories_.clear(); }

void Worker::prepare(const Position& root, const std::vector<Move>& searchmoves) {
    pos_ = root;
    root_sp_ = pos_.history_length();
    if (shared_.net) {
        nnue::refresh(*shared_.net, pos_, accumulators_[0]);
        refresh_cache_.clear(*shared_.net); // this search's net may be another
    }
    root_moves_.clear();
    for (const ScoredMove& sm : MoveList(pos_))
        if (searchmoves.empty() ||
            std::find(searchmoves.begin(), searchmoves.end(), sm.move) != searchmoves.end())
            root_moves_.push_back(RootMove{sm.move});
    for (StackEntry& e : stack_) e = StackEntry{};
    nodes_.store(0, std::memory_order_relaxed);
    tb_hits_.store(0, std::memory_order_relaxed);
    completed_depth_ = root_depth_ = seldepth_ = 0;
    reported_nodes_ = 0;
    stability_ = 0;
    score_stability_ = 0;
    previous_best_ = VALUE_NONE;
    previous_best_move_ = Move::none();
    nmp_min_ply_ = 0;
    check_counter_ = 0;
    ordering_ = OrderingStats{};
    iteration_nodes_.fill(0);
}

bool Worker::should_abort() {
    if (is_main()) {
        // `go nodes`: the main worker's own count is checked at every node, so
        // that with one thread the search stops on the exact number.
        const std::uint64_t limit = shared_.limits.nodes;
        if (limit && nodes() >= limit) shared_.stop = true;
        if (++check_counter_ % TIME_CHECK_INTERVAL == 0) check_time();
    }
    return stopped();
}

// The stop flag as this worker obeys it. The main worker always finishes
// depth 1 (a fraction of a millisecond), so that the move it announces has
// been searched and its score and PV are real even after an instant `stop`.
bool Worker::stopped() const {
    return shared_.stop.load(std::memory_order_relaxed) && (completed_depth_ > 0 || !is_main());
}

void Worker::check_time() {
    const SearchLimits& lim = shared_.limits;
    if (lim.nodes && shared_.total_nodes() >= lim.nodes) shared_.stop = true;
    if (!shared_.pondering.load(std::memory_order_relaxed) && shared_.time.hard_limit_reached())
        shared_.stop = true;
}

void Worker::update_pv(int ply, Move m) {
    StackEntry& ss = stack_[ply];
    const StackEntry& child = stack_[ply + 1];
    ss.pv[0] = m;
    std::copy_n(child.pv.begin(), child.pv_length, ss.pv.begin() + 1);
    ss.pv_length = child.pv_length + 1;
}

// Records the move about to be played at `ply` (for countermoves and the
// continuation history of the plies below).
void Worker::set_current_move(int ply, Move m) {
    StackEntry& ss = stack_[ply];
    ss.current_move = m;
    ss.moved_piece = pos_.moved_piece(m);
    ss.continuation = &histories_.continuation.at(ss.moved_piece, m.to());
}

// The continuation table of the move played `back` plies above `ply` (null
// at the root's edge or after a null move).
PieceToHistory* Worker::continuation(int ply, int back) {
    return ply >= back ? stack_[ply - back].continuation : nullptr;
}

// The continuation correction's key at `ply`: the last two moves (none
// within two plies of the root or right after a null move).
std::size_t Worker::continuation_correction_key(int ply) const {
    if (ply < 2) return ContinuationCorrectionHistory::NONE;
    const StackEntry &before = stack_[ply - 2], &last = stack_[ply - 1];
    if (!before.continuation || !last.continuation) return ContinuationCorrectionHistory::NONE;
    return ContinuationCorrectionHistory::key(before.moved_piece, before.current_move.to(), last.moved_piece,
                                              last.current_move.to());
}

// The start of every search() and qsearch() node: counts it and answers the
// nodes that need no search: the stop flag, draws by rule (mate on the 100th
// ply beats the 50-move rule) and the ply limit. VALUE_NONE: search on.
Value Worker::enter_node(int ply, bool in_check) {
    stack_[ply].pv_length = 0;
    if (should_abort()) return VALUE_ZERO;
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    seldepth_ = std::max(seldepth_, ply);
    if (pos_.is_repetition(root_sp_) || pos_.has_insufficient_material()) return draw_value();
    if (pos_.rule50() >= 100 && (!in_check || count_legal_moves(pos_) > 0)) return draw_value();
    if (ply >= MAX_PLY - 1) return in_check ? draw_value() : eval_at(ply);
    return VALUE_NONE;
}

// The static evaluation before correction: the hash entry's if it has one,
// else a fresh one (the table stores it raw, so it never drifts).
Value Worker::raw_static_eval(bool tt_hit, const TTData& tte, int ply) {
    return tt_hit && tte.eval != VALUE_NONE ? tte.eval : eval_at(ply);
}

// The network's accumulator follows the position: the next ply's is this
// ply's with the moved pieces' rows added and taken away (a half whose king
// crossed the d/e line rebuilt from the refresh cache).
void Worker::make_move(int ply, Move m) {
    if (!shared_.net) return pos_.make_move(m);
    const nnue::DirtyPieces dirty = nnue::dirty_pieces(pos_, m);
    pos_.make_move(m);
    nnue::apply(*shared_.net, pos_, accumulators_[ply], dirty, accumulators_[ply + 1], refresh_cache_);
}

// The child's moves start at `child_move_start` in the shared move array
// (past this node's own); a double extension on the way down counts toward
// the line's cap.
void Worker::enter_child(int ply, Move m, int child_move_start, bool double_extended) {
    shared_.tt->prefetch(pos_.key_after(m)); // the memory loads while the move is made
    set_current_move(ply, m);
    StackEntry& child = stack_[ply + 1];
    child.move_start = child_move_start;
    child.double_extensions = stack_[ply].double_extensions + int(double_extended);
    make_move(ply, m);
}

void Worker::make_null(int ply) {
    pos_.make_null();
    if (shared_.net) accumulators_[ply + 1] = accumulators_[ply];
}

Value Worker::corrected(Value raw, int ply) const {
    const Color us = pos_.side_to_move();
    const Value v = raw + histories_.correction.get(us, pos_.pawn_key()) +
                    (histories_.non_pawn_correction[WHITE].get(us, pos_.non_pawn_key(WHITE)) +
                     histories_.non_pawn_correction[BLACK].get(us, pos_.non_pawn_key(BLACK))) /
                        2 +
                    histories_.continuation_correction.get(continuation_correction_key(ply)) *
                        tune<"ContCorrectionWeight"> / 100;
    return std::clamp(v, VALUE_TB_LOSS_IN_MAX_PLY + 1, VALUE_TB_WIN_IN_MAX_PLY - 1);
}

// The node's ordering inputs; stack_[ply].threats must be this node's.
OrderingView Worker::ordering_view(int ply) {
    OrderingView view{histories_, {}, stack_[ply].threats};
    for (std::size_t i = 0; i < CONTINUATION_PLIES.size(); ++i)
        view.continuation[i] = continuation(ply, CONTINUATION_PLIES[i]);
    return view;
}

// ---------------------------------------------------------------------------
// Iterative deepening
// ---------------------------------------------------------------------------
void Worker::iterative_deepening() {
    if (root_moves_.empty()) return;
    const SearchLimits& lim = shared_.limits;
    int max_depth = lim.depth > 0 && !lim.infinite ? std::min(lim.depth, MAX_PLY - 4) : MAX_PLY - 4;

    for (root_depth_ = 1; root_depth_ <= max_depth; ++root_depth_) {
        // Lazy SMP: odd helpers skip every other depth so threads spread out.
        if (!is_main() && (id_ % 2 == 1) && root_depth_ > 2 && root_depth_ % 2 == 0) continue;
        std::uint64_t before = nodes();
        int lines = std::min<int>(shared_.multipv, int(root_moves_.size()));
        for (pv_index_ = 0; pv_index_ < lines; ++pv_index_) {
            seldepth_ = 0;
            aspiration(root_depth_, root_moves_[pv_index_].previous_score);
            if (stopped()) break;
        }
        if (stopped()) break;

        completed_depth_ = root_depth_;
        iteration_nodes_[root_depth_] = nodes() - before;
        for (RootMove& rm : root_moves_) rm.previous_score = rm.score;
        // Sorted before the report: with MultiPV a later line can beat an
        // earlier one, and the lines are printed best first.
        sort_root_moves();
        if (is_main() && !shared_.silent) report_iteration(root_depth_);

        if (is_main() && time_to_stop_iterating(root_depth_)) {
            if (shared_.pondering.load())
                shared_.stop_on_ponderhit = true;
            else
                shared_.stop = true;
        }
        if (is_main() && lim.soft_nodes && shared_.total_nodes() >= lim.soft_nodes) shared_.stop = true;
        Value best = root_moves_[0].score;
        if (lim.mate > 0 && best >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - best <= 2 * lim.mate)
            shared_.stop = true;
        if (stopped()) break;
    }
}

// Root order for the next iteration: the best lines first (by score), then
// the other moves by the size of their subtrees in this iteration.
void Worker::sort_root_moves() {
    int lines = std::min<int>(shared_.multipv, int(root_moves_.size()));
    std::stable_sort(root_moves_.begin(), root_moves_.begin() + lines,
                     [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
    std::stable_sort(root_moves_.begin() + lines, root_moves_.end(),
                     [](const RootMove& a, const RootMove& b) { return a.nodes > b.nodes; });
}

bool Worker::time_to_stop_iterating(int depth) {
    if (!shared_.time.enabled()) return false;
    const RootMove& best = root_moves_[0];
    stability_ = (best.move == previous_best_move_ && depth > 1) ? stability_ + 1 : 0;
    bool had_score = previous_best_ != VALUE_NONE;
    score_stability_ = had_score && std::abs(best.score - previous_best_) <= tune<"TmScoreStableWindow">
                           ? score_stability_ + 1
                           : 0;
    IterationReport report;
    report.move_stability = stability_;
    report.score_stability = score_stability_;
    report.score_drop = had_score ? std::max(0, previous_best_ - best.score) : 0;
    std::uint64_t total = 0;
    for (const RootMove& rm : root_moves_) total += rm.nodes;
    report.best_move_node_share = total ? double(best.nodes) / double(total) : 1.0;
    previous_best_ = best.score;
    previous_best_move_ = best.move;
    return shared_.time.should_stop_iterating(report);
}

Value Worker::aspiration(int depth, Value previous) {
    Value delta = tune<"AspirationDelta">;
    Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
    bool windowed = depth >= tune<"AspirationMinDepth"> && previous != -VALUE_INFINITE &&
                    std::abs(previous) < VALUE_TB_WIN_IN_MAX_PLY;
    if (windowed) {
        alpha = std::max(previous - delta, -VALUE_INFINITE);
        beta = std::min(previous + delta, VALUE_INFINITE);
    }
    int search_depth = depth; // one ply less after each fail high: the score is proven cheaper
    while (true) {
        Value v = search_root(alpha, beta, search_depth);
        std::stable_sort(root_moves_.begin() + pv_index_, root_moves_.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        if (stopped()) return v;
        if (v <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = std::max(v - delta, -VALUE_INFINITE);
            search_depth = depth;
        } else if (v >= beta) {
            beta = std::min(v + delta, VALUE_INFINITE);
            search_depth = std::max(1, search_depth - 1);
        } else {
            return v;
        }
        delta += delta / 2;
        if (delta > tune<"AspirationMaxDelta">) alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
    }
}

// The root: moves come from root_moves_ in their current order.
Value Worker::search_root(Value alpha, Value beta, int depth) {
    StackEntry& ss = stack_[0];
    ss.pv_length = 0;
    ss.static_eval = pos_.in_check() ? VALUE_NONE : corrected(eval_at(0), 0);
    stack_[1].killers = {};
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    Value best = -VALUE_INFINITE;
    const Value original_alpha = alpha;

    for (int i = pv_index_; i < int(root_moves_.size()); ++i) {
        RootMove& rm = root_moves_[i];
        Move m = rm.move;
        std::uint64_t before = nodes();
        if (is_main() && !shared_.silent && shared_.time.elapsed_ms() > 1000)
            shared_.sink(uci::currmove_line(depth, pos_, m, i + 1));

        int new_depth = depth - 1 + (pos_.gives_check(m) ? 1 : 0);
        enter_child(0, m, 0); // the root's moves are not in the shared array
        Value v = -VALUE_INFINITE;
        if (i == pv_index_) {
            v = -search(-beta, -alpha, new_depth, 1, true, false);
        } else {
            v = -search(-alpha - 1, -alpha, new_depth, 1, false, true);
            if (v > alpha && v < beta) v = -search(-beta, -alpha, new_depth, 1, true, false);
        }
        leave_child(m);
        rm.nodes = nodes() - before;
        if (stopped()) {
            // This pass's moves from here on were not searched to the end:
            // scores they keep from an earlier pass or iteration must not
            // outrank what this pass found (a stale second-best could
            // otherwise pass the best move's fail low and be played).
            for (int j = i == pv_index_ ? i + 1 : i; j < int(root_moves_.size()); ++j)
                root_moves_[j].score = -VALUE_INFINITE;
            break;
        }

        if (i == pv_index_ || v > alpha) {
            rm.score = v;
            rm.depth = root_depth_; // the iteration's, also after a fail high re-searched a ply shallower
            rm.seldepth = seldepth_;
            rm.lower_bound = v >= beta;
            rm.upper_bound = v <= original_alpha;
            rm.pv[0] = m;
            std::copy_n(stack_[1].pv.begin(), stack_[1].pv_length, rm.pv.begin() + 1);
            rm.pv_length = stack_[1].pv_length + 1;
        } else {
            rm.score = -VALUE_INFINITE;
        }
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    ss.current_move = Move::none();
    return best;
}

// ---------------------------------------------------------------------------
// The main search
// ---------------------------------------------------------------------------
Value Worker::search(Value alpha, Value beta, int depth, int ply, bool pv_node, bool cut_node) {
    if (depth <= 0) return qsearch(alpha, beta, ply, pv_node);
    StackEntry& ss = stack_[ply];
    const bool in_check = pos_.in_check();

    // Step 1. Draws and the ply limit (and the stop flag).
    if (Value v = enter_node(ply, in_check); v != VALUE_NONE) return v;

    // Step 2. Mate distance pruning: no line from here beats a shorter mate.
    alpha = std::max(alpha, mated_in(ply));
    beta = std::min(beta, mate_in(ply + 1));
    if (alpha >= beta) return alpha;

    // Step 3. Transposition table: a deep enough bound ends non-PV nodes.
    TTData tte;
    const bool tt_hit = shared_.tt->probe(pos_.key(), tte);
    const Value tt_score = tt_hit ? value_from_tt(tte.score, ply) : VALUE_NONE;
    const Move tt_move = tt_hit ? tte.move : Move::none();
    if (!pv_node && !ss.excluded && tt_hit && tte.depth >= depth && tt_score != VALUE_NONE &&
        pos_.rule50() < 90 && bound_settles(tte.bound, tt_score, alpha, beta)) {
        if (tt_score >= beta) update_tt_cutoff_stats(ply, tt_move, depth);
        return tt_score;
    }

    // Step 3b. Tablebases: an exact result, or a bound past the window, ends
    // the node; at PV nodes a bound narrows the result instead.
    Value tb_floor = -VALUE_INFINITE, tb_ceiling = VALUE_INFINITE;
    if (!ss.excluded && shared_.tb_cardinality) {
        const TbProbe tb = probe_tablebases(depth, ply);
        if (tb.value != VALUE_NONE) {
            if (tb.bound == Bound::Exact ||
                (tb.bound == Bound::Lower ? tb.value >= beta : tb.value <= alpha)) {
                shared_.tt->store(pos_.key(), Move::none(), value_to_tt(tb.value, ply), VALUE_NONE,
                                  std::min(MAX_PLY - 1, depth + 6), tb.bound);
                return tb.value;
            }
            if (pv_node && tb.bound == Bound::Lower) {
                tb_floor = tb.value;
                alpha = std::max(alpha, tb.value);
            } else if (pv_node) {
                tb_ceiling = tb.value;
            }
        }
    }

    // Step 4. Static evaluation, sharpened by the table's bound.
    Value eval = VALUE_NONE, raw_eval = VALUE_NONE;
    ss.static_eval = VALUE_NONE;
    if (!in_check) {
        raw_eval = raw_static_eval(tt_hit, tte, ply);
        ss.static_eval = eval = corrected(raw_eval, ply);
        if (tt_score != VALUE_NONE && ((tte.bound == Bound::Lower && tt_score > eval) ||
                                       (tte.bound == Bound::Upper && tt_score < eval)))
            eval = tt_score;
    }
    const bool improving = !in_check && ply >= 2 && stack_[ply - 2].static_eval != VALUE_NONE &&
                           ss.static_eval > stack_[ply - 2].static_eval;
    stack_[ply + 1].killers = {}; // killers are per node: reset for the children

    if (!pv_node && !in_check && !ss.excluded) {
        // Step 5. Reverse futility pruning: far above beta at low depth, a
        // quiet move is unlikely to drop below it.
        if (depth <= tune<"RfpMaxDepth"> && eval - tune<"RfpMargin"> * (depth - improving) >= beta &&
            eval < VALUE_TB_WIN_IN_MAX_PLY)
            return (eval + beta) / 2; // between the two: eval alone overstates the margin

        // Step 6. Null-move pruning: if passing still fails high, a real move
        // will too (not in pawn endings, where zugzwang is common).
        if (depth >= tune<"NmpMinDepth"> && eval >= beta && ply >= nmp_min_ply_ &&
            stack_[ply - 1].current_move != Move::null() &&
            has_non_pawn_material(pos_, pos_.side_to_move())) {
            Value v = null_move_search(beta, eval, depth, ply, cut_node);
            if (v != VALUE_NONE) return v;
        }

        // Step 6b. ProbCut: a capture that beats beta by a margin in a
        // shallow search very likely beats beta in the full one too.
        if (depth >= tune<"ProbCutMinDepth"> && std::abs(beta) < VALUE_TB_WIN_IN_MAX_PLY &&
            !(tt_score != VALUE_NONE && tte.depth >= depth - tune<"ProbCutReduction"> + 1 &&
              tt_score < beta + tune<"ProbCutMargin">)) {
            Value v = probcut(beta, raw_eval, depth, ply, cut_node, tt_move);
            if (v != VALUE_NONE) return v;
        }
    }

    // Step 7. Internal iterative reduction: without a hash move, this node
    // was never searched well; search it shallower first.
    if (!tt_move && depth >= tune<"IirMinDepth"> && (pv_node || cut_node)) --depth;

    // Step 8. The move loop. The squares the opponent attacks index the
    // quiets' butterfly history (ordering, pruning, reductions, updates).
    const StackEntry& prev = stack_[ply - 1];
    Move counter = prev.current_move && prev.current_move != Move::null()
                       ? histories_.countermoves.get(prev.moved_piece, prev.current_move.to())
                       : Move::none();
    ss.threats = pos_.attacks_by(~pos_.side_to_move());
    const OrderingView view = ordering_view(ply);
    MovePicker picker(pos_, moves_, ss.move_start, tt_move, ss.killers, counter, view);
    Value best = tb_floor;
    Move best_move = Move::none();
    int move_count = 0, quiet_count = 0, capture_count = 0;
    int searched = 0; // moves actually searched (pruned ones are not): ordering statistics
    Origin first_origin = Origin::Hash;
    std::array<Move, 64> quiets;
    std::array<Move, 32> captures;

    while (Move m = picker.next()) {
        if (m == ss.excluded || !pos_.is_legal(m)) continue;
        // The child's hash entry starts loading now, while the pruning and
        // extension decisions run (enter_child asks again: by then a hit).
        shared_.tt->prefetch(pos_.key_after(m));
        ++move_count;
        const bool quiet = !pos_.is_capture_or_promotion(m);
        const bool gives_check = pos_.gives_check(m);
        const int quiet_score = quiet ? view.quiet_score(pos_.side_to_move(), pos_.moved_piece(m), m) : 0;

        // Step 9. Shallow-depth pruning (futility, late moves, SEE).
        if (!pv_node && best > VALUE_MATED_IN_MAX_PLY &&
            shallow_prune(m, quiet, gives_check, depth, move_count, quiet_score, eval, alpha, improving,
                          in_check, picker))
            continue;

        if (++searched == 1) first_origin = picker.origin();

        // Step 10. Extensions (checks, a singular hash move), or a multi-cut.
        // The hash move comes before any generation, so the singular search
        // may reuse this ply's slice of the move array.
        assert(m != tt_move || picker.next_to_generate() == ss.move_start);
        const Extension ext =
            extension(m, gives_check, tt_move, tte, tt_score, beta, depth, ply, pv_node, cut_node);
        if (ext.cutoff != VALUE_NONE) return ext.cutoff;
        int new_depth = depth - 1 + ext.plies;

        enter_child(ply, m, picker.next_to_generate(), ext.plies >= 2);

        // Step 11. Late move reductions, then PVS re-searches.
        Value v = search_move(alpha, beta, depth, new_depth, ply, move_count,
                              {pv_node, cut_node, improving, quiet}, quiet_score);
        leave_child(m);
        if (stopped()) return VALUE_ZERO;

        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (v >= beta) {
                    ordering_.record(searched, cut_node, picker.origin(), first_origin);
                    break;
                }
                alpha = v;
            }
        }
        if (quiet && quiet_count < int(quiets.size()))
            quiets[quiet_count++] = m;
        else if (!quiet && capture_count < int(captures.size()))
            captures[capture_count++] = m;
    }
    ss.current_move = Move::none();

    // Step 12. No legal move: mate or stalemate.
    if (move_count == 0) return ss.excluded ? alpha : in_check ? mated_in(ply) : draw_value();

    // Step 13. Learn from a cutoff: histories of quiets and of captures.
    if (best >= beta) {
        if (!pos_.is_capture_or_promotion(best_move))
            update_quiet_stats(ply, best_move, depth, quiets.data(), quiet_count);
        update_capture_stats(best_move, depth, captures.data(), capture_count);
    }

    // Step 14. Store the result (within the tablebase's bounds).
    best = std::min(best, tb_ceiling);
    Bound bound = best >= beta ? Bound::Lower : (pv_node && best_move) ? Bound::Exact : Bound::Upper;
    if (!ss.excluded)
        shared_.tt->store(pos_.key(), best_move, value_to_tt(best, ply), raw_eval, depth, bound);

    // Step 15. Learn how far the static evaluation was off.
    if (!in_check && !ss.excluded) update_correction(best, bound, best_move, ss.static_eval, depth, ply);
    return best;
}

// Step 9 of search(): true when move m can be skipped without searching it.
bool Worker::shallow_prune(Move m, bool quiet, bool gives_check, int depth, int move_count, int quiet_score,
                           Value eval, Value alpha, bool improving, bool in_check, MovePicker& picker) {
    if (!has_non_pawn_material(pos_, pos_.side_to_move())) return false;
    if (quiet && !gives_check) {
        // Late move pruning: after enough quiets, the rest rarely matter
        // (a few more for a quiet with a good history, fewer for a bad one).
        if (depth <= tune<"LmpMaxDepth"> &&
            move_count >= late_move_count(depth, improving) + quiet_score / tune<"LmpHistoryDivisor">) {
            picker.skip_quiets();
            return true;
        }
        // Futility pruning: even a good quiet won't lift eval to alpha.
        if (!in_check && depth <= tune<"FutilityMaxDepth"> && eval != VALUE_NONE &&
            eval + tune<"FutilityBase"> + tune<"FutilityPerDepth"> * depth <= alpha) {
            picker.skip_quiets();
            return true;
        }
        // History pruning: a late quiet that has kept failing here.
        if (depth <= tune<"HistoryPruneMaxDepth"> && move_count > 1 &&
            quiet_score < -tune<"HistoryPruneMargin"> * depth)
            return true;
        // SEE pruning of quiets that lose material.
        if (depth <= tune<"SeePruneMaxDepth"> && !see_ge(pos_, m, tune<"SeeQuietMargin"> * depth))
            return true;
    } else if (!quiet && depth <= tune<"SeePruneMaxDepth"> &&
               !see_ge(pos_, m, tune<"SeeCaptureMargin"> * depth)) {
        return true; // SEE pruning of clearly losing captures
    }
    return false;
}

// Step 10 of search(): how many plies move m is extended by (a check, or a
// hash move that is singular: every other move fails well below its score;
// two plies when far below, a few times a line), or the value to cut the
// node with when even the other moves beat beta (more than one move refutes
// the parent: multi-cut). A hash move that is not singular but expected to
// fail high anyway is searched a ply shallower (negative extension).
Worker::Extension Worker::extension(Move m, bool gives_check, Move tt_move, const TTData& tte, Value tt_score,
                                    Value beta, int depth, int ply, bool pv_node, bool cut_node) {
    Extension ext;
    if (ply >= 2 * root_depth_) return ext; // extensions may at most double the line
    const StackEntry& ss = stack_[ply];
    if (m == tt_move && depth >= tune<"SeMinDepth"> && !ss.excluded &&
        tte.depth >= depth - tune<"SeTtDepthSlack"> && tte.bound != Bound::Upper && tt_score != VALUE_NONE &&
        std::abs(tt_score) < VALUE_TB_WIN_IN_MAX_PLY) {
        Value singular_beta = tt_score - tune<"SeMarginPerDepth"> * depth;
        Value v = singular_search(m, singular_beta, depth, ply, cut_node);
        if (v < singular_beta)
            ext.plies = !pv_node && v < singular_beta - tune<"DoubleExtMargin"> &&
                                ss.double_extensions < tune<"DoubleExtMax">
                            ? 2
                            : 1;
        else if (singular_beta >= beta)
            ext.cutoff = singular_beta;
        else if (tt_score >= beta || cut_node)
            ext.plies = -1;
    }
    if (gives_check) ext.plies = std::max(ext.plies, 1);
    return ext;
}

// Step 11 of search(): the move just made, searched with a late move
// reduction where one applies, then re-searched as PVS requires.
Value Worker::search_move(Value alpha, Value beta, int depth, int new_depth, int ply, int move_count,
                          MoveFlags f, int quiet_score) {
    Value v = -VALUE_INFINITE;
    if (depth >= tune<"LmrMinDepth"> && move_count > 1 + int(f.pv_node) && f.quiet) {
        int r = LMR_TABLE[std::min(depth, 63)][std::min(move_count, 63)];
        r += int(f.cut_node) - int(f.pv_node) - int(f.improving);
        r -= quiet_score / tune<"LmrHistoryDivisor">;
        r = std::clamp(r, 0, std::max(0, new_depth - 1));
        v = -search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
        if (v > alpha && r > 0) {
            // The re-search goes deeper when the reduced result was far above
            // alpha, shallower when it barely beat it.
            new_depth += int(v > alpha + tune<"LmrDeeperMargin"> + 2 * new_depth) -
                         int(v < alpha + tune<"LmrShallowerMargin">);
            v = -search(-alpha - 1, -alpha, new_depth, ply + 1, false, !f.cut_node);
            // The full-depth verdict on a move LMR expected to fail teaches
            // its continuation histories now, cutoff or not.
            if (!stopped()) {
                const int bonus = v > alpha ? history_bonus(new_depth) : -history_bonus(new_depth);
                update_continuations(ply, stack_[ply].moved_piece, stack_[ply].current_move.to(), bonus);
            }
        }
    } else if (!f.pv_node || move_count > 1) {
        v = -search(-alpha - 1, -alpha, new_depth, ply + 1, false, !f.cut_node);
    }
    if (f.pv_node && (move_count == 1 || (v > alpha && v < beta)))
        v = -search(-beta, -alpha, new_depth, ply + 1, true, false);
    return v;
}

// Step 10 of search(): the node searched again without `excluded`, at half
// depth and with a zero window at singular_beta.
Value Worker::singular_search(Move excluded, Value singular_beta, int depth, int ply, bool cut_node) {
    StackEntry& ss = stack_[ply];
    ss.excluded = excluded;
    Value v = search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false, cut_node);
    ss.excluded = Move::none();
    return v;
}

// Step 6b of search(): captures that win at least the margin by SEE are
// tried first against qsearch, then a search ProbCutReduction plies
// shallower, with the window raised by the margin. Returns the cutoff value, or VALUE_NONE.
Value Worker::probcut(Value beta, Value raw_eval, int depth, int ply, bool cut_node, Move tt_move) {
    StackEntry& ss = stack_[ply];
    const Value pc_beta = beta + tune<"ProbCutMargin">;
    // The quiescence picker: captures only (never in check here), so the
    // butterfly's threat index, not yet set for this node, is never read.
    MovePicker picker(pos_, moves_, ss.move_start, tt_move, ordering_view(ply));
    while (Move m = picker.next()) {
        if (!pos_.is_legal(m) || !see_ge(pos_, m, pc_beta - ss.static_eval)) continue;
        enter_child(ply, m, picker.next_to_generate());
        Value v = -qsearch(-pc_beta, -pc_beta + 1, ply + 1, false);
        if (v >= pc_beta)
            v = -search(-pc_beta, -pc_beta + 1, depth - tune<"ProbCutReduction">, ply + 1, false, !cut_node);
        leave_child(m);
        if (stopped()) return VALUE_NONE;
        if (v >= pc_beta) {
            // Stored as one ply deeper than the search that proved it, as
            // the search of this node would have made it.
            shared_.tt->store(pos_.key(), m, value_to_tt(v, ply), raw_eval,
                              depth - tune<"ProbCutReduction"> + 1, Bound::Lower);
            return v;
        }
    }
    return VALUE_NONE;
}

// Step 6 of search(). Returns the cutoff value, or VALUE_NONE to go on.
Value Worker::null_move_search(Value beta, Value eval, int depth, int ply, bool cut_node) {
    StackEntry& ss = stack_[ply];
    int r = tune<"NmpBase"> + depth / tune<"NmpDepthDivisor"> +
            std::min((eval - beta) / tune<"NmpEvalDivisor">, tune<"NmpEvalMax">);
    ss.current_move = Move::null();
    ss.moved_piece = NO_PIECE;
    ss.continuation = nullptr;
    stack_[ply + 1].move_start = ss.move_start;
    make_null(ply);
    Value v = -search(-beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
    pos_.unmake_null();
    ss.current_move = Move::none();
    if (stopped() || v < beta) return VALUE_NONE;
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) v = beta; // don't trust mates (or tablebase wins) found by passing
    if (depth < tune<"NmpVerifyDepth"> || nmp_min_ply_) return v;

    // At high depth, verify with a real search that has null moves off for
    // the next plies (zugzwang insurance).
    nmp_min_ply_ = ply + 3 * (depth - r) / 4;
    Value w = search(beta - 1, beta, depth - r, ply, false, false);
    nmp_min_ply_ = 0;
    return w >= beta ? v : VALUE_NONE;
}

// Step 3b of search(): the tablebase's WDL value of the position as a score
// and the bound it is (a win: at least this; a loss: at most), for positions
// of few enough pieces just after a capture or pawn move (the tables count
// the 50-move rule from there), at enough depth for the largest tables.
Worker::TbProbe Worker::probe_tablebases(int depth, int ply) {
    const int pieces = popcount(pos_.pieces());
    if (pieces > shared_.tb_cardinality ||
        (pieces == shared_.tb_cardinality && depth < shared_.tb_probe_depth) || pos_.rule50() != 0 ||
        pos_.castling_rights())
        return {};
    const auto wdl = shared_.tb.tables->probe_wdl(pos_);
    if (!wdl) return {};
    add_tb_hits(1);
    // Without the 50-move rule cursed wins are wins and blessed losses losses.
    const int w = int(*wdl), draw_edge = shared_.tb.rule50 ? 1 : 0;
    if (w > draw_edge) return {VALUE_TB - ply, Bound::Lower};
    if (w < -draw_edge) return {-VALUE_TB + ply, Bound::Upper};
    return {VALUE_DRAW + 2 * w, Bound::Exact};
}

Value Worker::qsearch(Value alpha, Value beta, int ply, bool pv_node) {
    StackEntry& ss = stack_[ply];
    const bool in_check = pos_.in_check();
    if (Value v = enter_node(ply, in_check); v != VALUE_NONE) return v;

    TTData tte;
    const bool tt_hit = shared_.tt->probe(pos_.key(), tte);
    const Value tt_score = tt_hit ? value_from_tt(tte.score, ply) : VALUE_NONE;
    if (!pv_node && tt_hit && tt_score != VALUE_NONE && bound_settles(tte.bound, tt_score, alpha, beta))
        return tt_score;

    // Stand pat: the side to move can usually do at least as well as now.
    Value best = -VALUE_INFINITE, stand_pat = VALUE_NONE;
    Value raw_eval = VALUE_NONE;
    if (!in_check) {
        raw_eval = raw_static_eval(tt_hit, tte, ply);
        stand_pat = corrected(raw_eval, ply);
        best = stand_pat;
        if (best >= beta) return best;
        alpha = std::max(alpha, best);
    }
    ss.static_eval = stand_pat;
    ss.threats = in_check ? pos_.attacks_by(~pos_.side_to_move()) : 0; // only evasions score quiets

    MovePicker picker(pos_, moves_, ss.move_start, tt_hit ? tte.move : Move::none(), ordering_view(ply));
    Move best_move = Move::none();
    int move_count = 0;
    while (Move m = picker.next()) {
        if (!pos_.is_legal(m)) continue;
        ++move_count;
        // Delta pruning: even winning the captured piece leaves us below alpha.
        if (!in_check && m.type() != MoveType::Promotion) {
            Value optimistic = stand_pat + SEE_VALUE[pos_.captured_type(m)] + tune<"DeltaMargin">;
            if (optimistic <= alpha) {
                best = std::max(best, optimistic);
                continue;
            }
        }
        enter_child(ply, m, picker.next_to_generate());
        Value v = -qsearch(-beta, -alpha, ply + 1, pv_node);
        leave_child(m);
        if (stopped()) return VALUE_ZERO;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    ss.current_move = Move::none();
    if (in_check && move_count == 0) return mated_in(ply);
    // Fail firm: a capture's cutoff is worth less than its full margin.
    if (best >= beta && std::abs(best) < VALUE_TB_WIN_IN_MAX_PLY) best = (best + beta) / 2;

    Bound bound = best >= beta ? Bound::Lower : Bound::Upper;
    shared_.tt->store(pos_.key(), best_move, value_to_tt(best, ply), raw_eval, 0, bound);
    return best;
}

// ---------------------------------------------------------------------------
// Reports (written as UCI text by uci_output.cpp)
// ---------------------------------------------------------------------------
SearchInfo Worker::info(int depth, int i, int number, bool completed) const {
    const RootMove& rm = root_moves_[i];
    bool fresh = rm.score != -VALUE_INFINITE && !(completed && rm.previous_score != -VALUE_INFINITE);
    Value v = fresh ? rm.score : rm.previous_score;
    if (v == -VALUE_INFINITE) v = VALUE_ZERO;
    // A root in the tablebases shows their verdict unless the search found a
    // mate, as it is (no WDL model: a cursed win's 2 stays `cp 2`).
    bool tables_verdict = false;
    if (shared_.tb_root_score != VALUE_NONE && std::abs(v) < VALUE_MATE_IN_MAX_PLY) {
        v = shared_.tb_root_score;
        fresh = false; // no bound: the tables' value is exact
        tables_verdict = true;
    }
    SearchInfo r;
    r.depth = depth;
    r.seldepth = rm.seldepth;
    r.multipv = number > 0 ? number : i + 1;
    r.score = v;
    r.lower_bound = fresh && rm.lower_bound;
    r.upper_bound = fresh && rm.upper_bound;
    r.show_wdl = shared_.show_wdl;
    r.wdl = shared_.net && shared_.net->wdl && !tables_verdict ? &*shared_.net->wdl : nullptr;
    r.nodes = shared_.total_nodes ? shared_.total_nodes() : nodes();
    r.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                      shared_.start)
                    .count();
    r.hashfull = shared_.tt->hashfull();
    if (shared_.tb.tables && !shared_.tb.tables->empty())
        r.tb_hits = shared_.total_tb_hits ? shared_.total_tb_hits() : tb_hits();
    r.root = &pos_;
    r.move = rm.move;
    r.pv = rm.pv.data();
    r.pv_length = rm.pv_length;
    return r;
}

void Worker::report_iteration(int depth) {
    int lines = std::min<int>(shared_.shown_multipv, int(root_moves_.size()));
    for (int i = 0; i < lines; ++i) shared_.sink(uci::info_line(info(depth, i)));
    reported_nodes_ = shared_.total_nodes ? shared_.total_nodes() : nodes();
}

} // namespace staccato
