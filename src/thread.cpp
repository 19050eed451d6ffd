#include "staccato/thread.h"

#include <algorithm>
#include <chrono>

#include "staccato/movegen.h"
#include "staccato/search.h"
#include "staccato/tt.h"
#include "staccato/uci_output.h"

namespace staccato {

ThreadPool::ThreadPool(TranspositionTable& tt) : tt_(tt) {
    shared_.tt = &tt_;
    shared_.total_nodes = [this] {
        std::uint64_t n = 0;
        for (const auto& w : workers_) n += w->nodes();
        return n;
    };
    shared_.total_tb_hits = [this] {
        std::uint64_t n = 0;
        for (const auto& w : workers_) n += w->tb_hits();
        return n;
    };
    set_thread_count(1);
}

ThreadPool::~ThreadPool() {
    stop();
    wait();
    join_threads();
}

void ThreadPool::set_thread_count(int n) {
    wait();
    join_threads();
    workers_.clear();
    for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker>(i, shared_));
    // Every thread starts asleep: it waits for the search after this one.
    for (std::size_t i = 0; i < workers_.size(); ++i)
        threads_.emplace_back([this, i, seen = generation_] { idle_loop(i, seen); });
}

void ThreadPool::join_threads() {
    {
        std::lock_guard lock(threads_mutex_);
        exit_ = true;
    }
    threads_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    exit_ = false;
}

void ThreadPool::idle_loop(std::size_t i, std::uint64_t seen) {
    for (;;) {
        {
            std::unique_lock lock(threads_mutex_);
            threads_cv_.wait(lock, [&] { return exit_ || generation_ != seen; });
            if (exit_) return;
            seen = generation_;
        }
        if (i == 0)
            main_search();
        else
            workers_[i]->iterative_deepening();
        {
            std::lock_guard lock(threads_mutex_);
            if (i == 0)
                main_running_ = false;
            else
                --helpers_running_;
        }
        threads_cv_.notify_all();
    }
}

void ThreadPool::clear_history() {
    for (auto& w : workers_) w->clear_history();
}

void ThreadPool::start(const Position& pos, const SearchLimits& limits, const SearchOptions& options,
                       std::function<void(std::string_view)> sink) {
    wait();
    root_ = pos;
    shared_.limits = limits;
    shared_.multipv = shared_.shown_multipv = options.multipv;
    shared_.net = options.net;
    shared_.tb = options.tablebases;
    strength_ = options.strength;
    if (strength_) {
        // The budget on top of any node limit of the go; the candidates are
        // searched as MultiPV lines, of which only the GUI's are reported.
        const std::uint64_t budget = strength_->settings.nodes;
        shared_.limits.nodes = limits.nodes ? std::min(limits.nodes, budget) : budget;
        shared_.multipv = std::max(options.multipv, strength_->settings.candidates);
    }
    stop_requested_ = false;
    shared_.show_wdl = options.show_wdl;
    shared_.silent = false;
    shared_.sink = std::move(sink);
    shared_.stop = false;
    shared_.pondering = limits.ponder;
    shared_.stop_on_ponderhit = false;
    shared_.start = std::chrono::steady_clock::now();
    shared_.time.init(limits, pos.side_to_move(), options.move_overhead_ms, shared_.start);
    tt_.new_search();
    const syzygy::RootFilter tb = syzygy::filter_root_moves(pos, limits.searchmoves, shared_.tb);
    shared_.tb_root_score = tb.score;
    shared_.tb_cardinality = tb.cardinality;
    shared_.tb_probe_depth = tb.probe_depth;
    for (auto& w : workers_) {
        w->age_history();
        w->prepare(pos, tb.moves);
    }
    // The root's probes count as hits (one per root move ranked).
    if (shared_.tb_root_score != VALUE_NONE) workers_[0]->add_tb_hits(MoveList(pos).size());
    searching_ = true;
    {
        std::lock_guard lock(threads_mutex_);
        main_running_ = true;
        helpers_running_ = int(workers_.size()) - 1;
        ++generation_;
    }
    threads_cv_.notify_all();
}

void ThreadPool::main_search() {
    workers_[0]->iterative_deepening(); // the helpers search beside it

    // `go infinite` and `go ponder` never answer before stop / ponderhit.
    // (The strength limit's node budget sets the stop flag too: only the
    // GUI's stop counts then.)
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] {
            const bool stopped = strength_ ? stop_requested_.load() : shared_.stop.load();
            return stopped || (!shared_.limits.infinite && !shared_.pondering.load());
        });
    }
    shared_.stop = true;
    {
        std::unique_lock lock(threads_mutex_);
        threads_cv_.wait(lock, [this] { return helpers_running_ == 0; });
    }

    Rng pick_rng(strength_ ? strength_->seed : 0);
    Rng pause_rng(pick_rng.next());
    const Worker& best = best_worker();
    int played = 0;
    if (strength_ && !best.root_moves().empty()) {
        std::vector<StrengthCandidate> moves;
        for (const RootMove& rm : best.root_moves()) moves.push_back({rm.move, rm.previous_score});
        played = strength_pick(moves, strength_->settings, pick_rng);
    }
    if (best.root_moves().empty()) {
        shared_.sink(uci::no_moves_line(root_.in_check()));
    } else if (played != 0 || &best != workers_[0].get() || best.reported_nodes() != shared_.total_nodes()) {
        // The final figures, unless the last iteration's lines already said
        // exactly this (a search that ended on its depth limit). A best move
        // that the unfinished iteration searched again is shown at that
        // iteration's depth, so that the line never gives the last completed
        // depth another score or PV. Under a strength limit, the line of the
        // move played, with the completed iteration's score that the pick
        // judged it by: never a bound, which GUIs and match runners pass
        // over when they take the last line as the engine's choice.
        if (strength_) {
            shared_.sink(uci::info_line(best.info(best.completed_depth(), played, 1, true)));
        } else {
            const int depth = std::max(best.completed_depth(), best.root_moves()[played].depth);
            shared_.sink(uci::info_line(best.info(depth, played, 1)));
        }
    }
    if (strength_) // after the figures: they show the search's own time
        natural_pause(shared_.time, pause_rng, [this](std::int64_t ms) {
            std::unique_lock lock(mutex_);
            return cv_.wait_for(lock, std::chrono::milliseconds(ms),
                                [this] { return stop_requested_.load(); });
        });
    std::string line = best.root_moves().empty() ? uci::bestmove_line(root_, Move::none(), Move::none())
                                                 : uci::bestmove_line(root_, best.root_moves()[played].move,
                                                                      ponder_move(best.root_moves()[played]));
    // Idle before the GUI can read bestmove, so that its next command is
    // never refused as "still searching"; start() waits for this thread anyway.
    searching_ = false;
    shared_.sink(line);
}

std::uint64_t ThreadPool::iteration_nodes(int d) const { return workers_[0]->iteration_nodes(d); }

const Worker& ThreadPool::best_worker() const {
    const Worker* best = workers_[0].get();
    for (const auto& w : workers_) {
        if (w->root_moves().empty() || w->completed_depth() == 0) continue;
        if (w->completed_depth() > best->completed_depth() &&
            w->root_moves()[0].score > best->root_moves()[0].score)
            best = w.get();
    }
    return *best;
}

Move ThreadPool::ponder_move(const RootMove& rm) const {
    if (rm.pv_length > 1 && rm.pv[0] == rm.move) return rm.pv[1];
    Position after = root_;
    after.make_move(rm.move);
    TTData tte;
    return tt_.probe(after.key(), tte) ? tte.move : Move::none();
}

void ThreadPool::stop() {
    stop_requested_ = true;
    shared_.stop = true;
    std::lock_guard lock(mutex_);
    cv_.notify_all();
}

void ThreadPool::ponderhit() {
    shared_.time.restart(std::chrono::steady_clock::now());
    shared_.pondering = false;
    if (shared_.stop_on_ponderhit.load()) shared_.stop = true;
    std::lock_guard lock(mutex_);
    cv_.notify_all();
}

void ThreadPool::wait() {
    std::unique_lock lock(threads_mutex_);
    threads_cv_.wait(lock, [this] { return !main_running_; });
}

ThreadPool::SyncResult ThreadPool::search_sync(const Position& pos, const SearchLimits& limits) {
    wait();
    shared_.limits = limits;
    shared_.multipv = shared_.shown_multipv = 1;
    strength_.reset();
    shared_.silent = true;
    shared_.tb_cardinality = 0; // bench and datagen: no tablebases
    shared_.tb_root_score = VALUE_NONE;
    shared_.stop = false;
    shared_.pondering = false;
    shared_.start = std::chrono::steady_clock::now();
    shared_.time.init(limits, pos.side_to_move(), 0, shared_.start);
    Worker& w = *workers_[0];
    w.prepare(pos, limits.searchmoves);
    w.iterative_deepening();
    SyncResult r;
    r.nodes = w.nodes();
    r.depth = w.completed_depth();
    r.stats = w.ordering();
    if (!w.root_moves().empty()) {
        r.best = w.root_moves()[0].move;
        r.score = w.root_moves()[0].score;
    }
    return r;
}

} // namespace staccato
