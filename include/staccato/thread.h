// The Lazy SMP thread pool around the search's workers (search.h, with the
// state all workers of one search share): the threads, choosing the worker
// whose move is played, and its reply to ponder on (the text: uci_output.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "staccato/nnue/network.h"
#include "staccato/ordering_stats.h"
#include "staccato/position.h"
#include "staccato/search.h"
#include "staccato/strength.h"
#include "staccato/timeman.h"

namespace staccato {

class TranspositionTable;

// The Lazy SMP pool: a main worker and helpers, one thread each. The threads
// are created with the workers (set_thread_count) and sleep between searches:
// `go` wakes them, and the main thread, once the helpers are done, announces
// the best move and all go back to sleep.
class ThreadPool {
  public:
    explicit ThreadPool(TranspositionTable& tt); // with one thread
    ~ThreadPool();                               // stops any search and joins the threads

    // n workers and their threads, all new (not while searching: it waits).
    void set_thread_count(int n);
    // The evaluation network of search_sync() (the tools: datagen, genfens),
    // or null for the hand-crafted evaluation (not while searching); `net`
    // must outlive its use. start() takes its own (SearchOptions::net).
    void set_network(const nnue::Network* net) { shared_.net = net; }
    int thread_count() const { return int(workers_.size()); }
    void clear_history();

    // Starts a search in the background with `options` (search.h). The main
    // thread announces exactly one `bestmove` through the sink when the
    // search ends.
    void start(const Position& pos, const SearchLimits& limits, const SearchOptions& options,
               std::function<void(std::string_view)> sink);
    void stop();
    void ponderhit();
    void wait(); // until the search has ended (after bestmove) and its threads sleep
    bool searching() const { return searching_.load(); }

    // The main worker's nodes in iteration d of the last search (bench).
    std::uint64_t iteration_nodes(int d) const;

    // Synchronous single-thread search without output (bench, datagen):
    // the main worker alone on the calling thread, to the depth or node
    // limit of `limits`.
    struct SyncResult {
        Move best;
        Value score = VALUE_NONE; // from the side to move's view
        std::uint64_t nodes = 0;
        int depth = 0; // the last completed iteration
        OrderingStats stats;
    };
    SyncResult search_sync(const Position& pos, const SearchLimits& limits);

  private:
    // Thread i: sleeps until a search starts (generation_ passes `seen`),
    // runs the main search (i = 0) or helper i's iterative deepening, and
    // sleeps again; returns when exit_ is set.
    void idle_loop(std::size_t i, std::uint64_t seen);
    void main_search();
    void join_threads();
    const Worker& best_worker() const;
    // The reply to expect after rm's move: the PV's second move, else the
    // hash move of the position after it (none: Move::none()).
    Move ponder_move(const RootMove& rm) const;

    TranspositionTable& tt_;
    SearchShared shared_;
    std::vector<std::unique_ptr<Worker>> workers_;
    Position root_;
    std::atomic<bool> searching_{false};
    std::atomic<bool> stop_requested_{false}; // stop() since start(): the GUI's stop or quit
    std::optional<StrengthLimit> strength_;   // this search's strength limit, if any
    std::mutex mutex_;                        // with cv_: the main thread's waits for stop / ponderhit
    std::condition_variable cv_;

    // The threads (threads_[i] runs workers_[i]) and their state, which
    // threads_mutex_ guards; threads_cv_ announces every change of it.
    std::vector<std::thread> threads_;
    std::mutex threads_mutex_;
    std::condition_variable threads_cv_;
    std::uint64_t generation_ = 0; // searches started
    int helpers_running_ = 0;      // helpers not done with this search
    bool main_running_ = false;    // the main thread has not yet finished (bestmove)
    bool exit_ = false;            // the threads are to return
};

} // namespace staccato
