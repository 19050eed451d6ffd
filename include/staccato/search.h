// The search: iterative deepening over a principal variation search
// (fail-soft alpha-beta with zero windows), quiescence search, and the
// pruning and reduction steps, each in its own helper. One Worker per thread;
// Lazy SMP workers share only the transposition table and the stop flag
// (SearchShared, below; the pool that runs them: thread.h).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "staccato/hce/eval.h"
#include "staccato/history.h"
#include "staccato/movepick.h"
#include "staccato/nnue/accumulator.h"
#include "staccato/nnue/network.h"
#include "staccato/ordering_stats.h"
#include "staccato/position.h"
#include "staccato/strength.h"
#include "staccato/syzygy/root.h"
#include "staccato/timeman.h"
#include "staccato/tt.h"

namespace staccato {

// The options one search runs with, from the Engine's (UCI) options:
// ThreadPool::start takes them whole.
struct SearchOptions {
    int multipv = 1;                      // MultiPV: lines searched and reported
    bool show_wdl = false;                // UCI_ShowWDL
    int move_overhead_ms = 0;             // Move Overhead
    syzygy::TablebaseSettings tablebases; // SyzygyPath and co.
    // The evaluation: this network, or the hand-crafted evaluation when null
    // (UseNNUE false); it must outlive the search.
    const nnue::Network* net = &nnue::default_network();
    // UCI_LimitStrength: play at that strength (strength.h): its node budget
    // and hidden MultiPV, the pick among the best root moves, and under a
    // clock an answer neither instant nor at the end of the allotment.
    std::optional<StrengthLimit> strength;
};

// What all workers of one search share.
struct SearchShared {
    TranspositionTable* tt = nullptr;
    // The evaluation: this network, or the hand-crafted evaluation when null
    // (UCI option UseNNUE false).
    const nnue::Network* net = &nnue::default_network();
    SearchLimits limits;
    TimeManager time;
    TimePoint start; // when go arrived (for info output)
    std::atomic<bool> stop{false};
    std::atomic<bool> pondering{false};         // go ponder, until ponderhit
    std::atomic<bool> stop_on_ponderhit{false}; // time was up while pondering
    int multipv = 1;                            // lines searched
    int shown_multipv = 1; // lines reported (fewer under a strength limit's hidden MultiPV)
    bool show_wdl = false;
    bool silent = false; // bench: no info lines
    std::function<void(std::string_view)> sink;
    std::function<std::uint64_t()> total_nodes; // over every worker
    // Tablebases: probed in the search for positions of at most
    // tb_cardinality pieces (0: never); the root's tablebase score when the
    // root moves were filtered by the tables (VALUE_NONE: not).
    syzygy::TablebaseSettings tb;
    int tb_cardinality = 0;
    int tb_probe_depth = 1; // at tb_cardinality pieces; fewer are probed at any depth
    Value tb_root_score = VALUE_NONE;
    std::function<std::uint64_t()> total_tb_hits; // over every worker
};

struct RootMove {
    Move move;
    Value score = -VALUE_INFINITE;
    Value previous_score = -VALUE_INFINITE;
    bool lower_bound = false, upper_bound = false;
    int seldepth = 0;
    int depth = 0;           // the iteration that set score, bounds, seldepth and pv
    std::uint64_t nodes = 0; // subtree size in the last iteration
    std::array<Move, MAX_PLY> pv{};
    int pv_length = 0;
};

// What an info line reports about one root move (uci_output.h writes it).
struct SearchInfo {
    int depth = 0, seldepth = 0, multipv = 1;
    Value score = VALUE_ZERO;
    bool lower_bound = false, upper_bound = false;
    bool show_wdl = false;
    const WdlModel* wdl = nullptr; // what the score means (the net's model; none: raw)
    std::uint64_t nodes = 0;       // over every worker
    std::int64_t time_ms = 0;
    int hashfull = 0;
    std::optional<std::uint64_t> tb_hits; // only with tablebases loaded
    const Position* root = nullptr;       // where the PV starts
    Move move;                            // the root move
    const Move* pv = nullptr;
    int pv_length = 0;
};

class Worker {
  public:
    Worker(int id, SearchShared& shared);

    // Sets up the root: position and the moves to consider (empty = all).
    void prepare(const Position& root, const std::vector<Move>& searchmoves);
    // Runs iterative deepening until the limits or the stop flag end it.
    void iterative_deepening();
    void clear_history(); // ucinewgame / bench
    void age_history() { histories_.age(); }

    std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    std::uint64_t tb_hits() const { return tb_hits_.load(std::memory_order_relaxed); }
    void add_tb_hits(std::uint64_t n) { tb_hits_.store(tb_hits() + n, std::memory_order_relaxed); }
    int completed_depth() const { return completed_depth_; }
    const std::vector<RootMove>& root_moves() const { return root_moves_; }
    const OrderingStats& ordering() const { return ordering_; }
    // Nodes spent by iteration d (for the effective branching factor).
    std::uint64_t iteration_nodes(int d) const { return iteration_nodes_[d]; }
    bool is_main() const { return id_ == 0; }
    // All threads' nodes when this worker last printed its iteration's info
    // lines (0: it printed none in this search).
    std::uint64_t reported_nodes() const { return reported_nodes_; }

    // The info line's figures for root move i at `depth`, reported as
    // multipv `number` (0: i + 1); `completed`: with the score of the last
    // completed iteration (never a bound), the one a strength-limited pick
    // judged by. Valid while this worker is idle (uci::info_line writes it).
    SearchInfo info(int depth, int i, int number = 0, bool completed = false) const;

  private:
    struct StackEntry {
        Value static_eval = VALUE_NONE;
        std::array<Move, 2> killers{};
        Move current_move;
        Piece moved_piece = NO_PIECE;
        PieceToHistory* continuation = nullptr; // the replies' history after current_move
        Bitboard threats = 0;                   // squares the opponent attacks (butterfly index)
        Move excluded;
        int move_start = 0;        // this ply's slice of the move array begins here
        int double_extensions = 0; // on the line from the root to this node
        int pv_length = 0;
        std::array<Move, MAX_PLY + 1> pv{};
    };

    Value aspiration(int depth, Value previous);
    Value search_root(Value alpha, Value beta, int depth);
    Value search(Value alpha, Value beta, int depth, int ply, bool pv_node, bool cut_node);
    Value qsearch(Value alpha, Value beta, int ply, bool pv_node);
    struct TbProbe {
        Value value = VALUE_NONE; // VALUE_NONE: no probe
        Bound bound = Bound::None;
    };
    TbProbe probe_tablebases(int depth, int ply);
    bool should_abort();
    Value enter_node(int ply, bool in_check);
    bool stopped() const;
    void check_time();
    void report_iteration(int depth);
    void sort_root_moves();
    bool time_to_stop_iterating(int depth);

    // Pruning and ordering helpers for search().
    Value null_move_search(Value beta, Value eval, int depth, int ply, bool cut_node);
    Value probcut(Value beta, Value raw_eval, int depth, int ply, bool cut_node, Move tt_move);
    Value singular_search(Move excluded, Value singular_beta, int depth, int ply, bool cut_node);
    struct Extension {
        int plies = 0;
        Value cutoff = VALUE_NONE; // multi-cut: the node's value
    };
    Extension extension(Move m, bool gives_check, Move tt_move, const TTData& tte, Value tt_score, Value beta,
                        int depth, int ply, bool pv_node, bool cut_node);
    struct MoveFlags {
        bool pv_node, cut_node, improving, quiet;
    };
    Value search_move(Value alpha, Value beta, int depth, int new_depth, int ply, int move_count, MoveFlags f,
                      int quiet_score);
    bool shallow_prune(Move m, bool quiet, bool gives_check, int depth, int move_count, int quiet_score,
                       Value eval, Value alpha, bool improving, bool in_check, MovePicker& picker);
    void set_current_move(int ply, Move m);
    PieceToHistory* continuation(int ply, int back);
    std::size_t continuation_correction_key(int ply) const;
    void update_continuations(int ply, Piece moved, Square to, int bonus);
    OrderingView ordering_view(int ply);
    Value raw_static_eval(bool tt_hit, const TTData& tte, int ply);
    // Making moves: the position and the network's accumulator of the next ply.
    void make_move(int ply, Move m);
    void make_null(int ply);
    // Plays m at `ply` for a child search: the move recorded for the
    // histories, the child's stack entry readied, its hash entry prefetched.
    void enter_child(int ply, Move m, int child_move_start, bool double_extended = false);
    void leave_child(Move m) { pos_.unmake_move(m); }
    // The evaluation of the position at `ply` from the side to move's view:
    // the network through its accumulator, else the hand-crafted one.
    Value eval_at(int ply) {
        return shared_.net ? nnue::evaluate(*shared_.net, accumulators_[ply], pos_.side_to_move(),
                                            popcount(pos_.pieces()))
                           : hce::evaluate(pos_, &pawn_table_);
    }
    // The static evaluation `raw` plus the correction histories' estimate of its error.
    Value corrected(Value raw, int ply) const;
    void update_correction(Value best, Bound bound, Move best_move, Value static_eval, int depth, int ply);
    void update_quiet_histories(int ply, Move m, int bonus);
    void update_quiet_stats(int ply, Move best, int depth, const Move* quiets, int quiet_count);
    void update_capture_stats(Move best, int depth, const Move* captures, int capture_count);
    void update_tt_cutoff_stats(int ply, Move tt_move, int depth);
    void update_pv(int ply, Move m);
    Value draw_value() const { return VALUE_DRAW; }

    int id_;
    SearchShared& shared_;
    Position pos_;
    int root_sp_ = 0; // game-list index of the root position
    MoveArray moves_;
    Histories histories_;
    hce::PawnTable pawn_table_; // the hand-crafted evaluation's pawn-structure cache
    std::array<StackEntry, MAX_PLY + 4> stack_{};
    std::array<nnue::Accumulator, MAX_PLY + 4> accumulators_; // [ply]: the network's first layer
    nnue::RefreshCache refresh_cache_; // rebuilds a half whose king crossed the d/e line
    std::vector<RootMove> root_moves_;
    int pv_index_ = 0;
    int root_depth_ = 0;
    int seldepth_ = 0;
    int completed_depth_ = 0;
    int stability_ = 0;       // iterations the best move stayed the same
    int score_stability_ = 0; // iterations the score stayed within TmScoreStableWindow
    Value previous_best_ = VALUE_NONE;
    Move previous_best_move_;
    std::atomic<std::uint64_t> nodes_{0};
    std::atomic<std::uint64_t> tb_hits_{0};
    std::uint64_t check_counter_ = 0;
    std::uint64_t reported_nodes_ = 0;
    int nmp_min_ply_ = 0; // null move off below this ply (verification search)
    OrderingStats ordering_;
    std::array<std::uint64_t, MAX_PLY> iteration_nodes_{};
};

} // namespace staccato
