// The engine object between the UCI loop and the search: it owns the game
// position, the transposition table and the search threads. The UCI layer
// only parses text and calls these methods; every line of output goes
// through the sink given at construction.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "staccato/position.h"
#include "staccato/strength.h"
#include "staccato/timeman.h"

namespace staccato {

class ThreadPool;
class TranspositionTable;
namespace nnue {
struct Network;
}
namespace syzygy {
class Tablebases;
struct LoadReport;
} // namespace syzygy

// The EvalFile value that names the net built into the binary.
inline constexpr std::string_view EMBEDDED_NET = "<embedded>";

// The options' values. The defaults, ranges and descriptions are the option
// table's (staccato/options.h), which this constructor reads.
struct EngineOptions {
    EngineOptions();
    int hash_mb{};
    int threads{};
    int multipv{};
    bool ponder{};
    int move_overhead_ms{};
    bool chess960{};
    bool show_wdl{};
    bool use_nnue{};       // the network (false: the hand-crafted evaluation)
    bool limit_strength{}; // play at uci_elo (UCI_LimitStrength)
    int uci_elo{};
    std::string eval_file{};
    std::string syzygy_path{}; // SyzygyPath: folders of Syzygy tables
    int syzygy_probe_depth{};
    bool syzygy_50_move_rule{};
    int syzygy_probe_limit{};
};

class Engine {
  public:
    using Sink = std::function<void(std::string_view line)>;

    explicit Engine(Sink sink);
    ~Engine(); // stops and joins every search thread
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Sets the game: a FEN (empty = start position) and moves in UCI text.
    // On any error .error says why and the engine is left with no position
    // (never an older one); .warnings are what set_fen() dropped from the
    // FEN to accept it.
    SetupResult set_position(std::string_view fen, const std::vector<std::string>& moves);
    // Leaves the engine with no position, for a `position` command refused
    // before it reached set_position(); `why` is what later commands report.
    void drop_position(std::string why);
    // The position to search: the start position at first, nullptr after a
    // refused `position` command until the next valid one.
    const Position* position() const { return pos_ ? &*pos_ : nullptr; }
    // What to tell the GUI when position() is nullptr.
    std::string no_position_message() const;

    // Starts a search in the background and returns at once. Exactly one
    // `bestmove` line is sent per go: with no position, at once (bestmove
    // 0000, after an info string saying why). A go while searching is refused.
    std::optional<std::string> go(const SearchLimits& limits);
    void stop();            // ends the search; bestmove follows promptly
    void ponderhit();       // the pondered move was played: switch to normal timing
    void wait_until_idle(); // blocks until the search thread has sent bestmove
    bool searching() const;
    void new_game(); // clears hash and histories

    // Options. Setters assume values the option table (options.h) accepted.
    const EngineOptions& options() const { return options_; }
    bool set_hash_mb(int mb); // false: not enough memory, old table kept
    void clear_hash();
    void set_threads(int n);
    void set_multipv(int n) { options_.multipv = n; }
    void set_ponder(bool on) { options_.ponder = on; }
    void set_move_overhead(int ms) { options_.move_overhead_ms = ms; }
    void set_chess960(bool on);
    void set_show_wdl(bool on) { options_.show_wdl = on; }
    // Loads the evaluation network from a net file (EMBEDDED_NET: the built-in
    // one). On any fault the current net stays and the reason is returned.
    std::optional<std::string> set_eval_file(const std::string& path);
    // Whether EvalFile's net carries a WDL model, so that scores are shown
    // normalised (wdl.h); without one they are its raw output.
    bool net_has_wdl_model() const;
    // Searches with the network (EvalFile's) instead of the hand-crafted evaluation.
    void set_use_nnue(bool on) { options_.use_nnue = on; }
    // UCI_LimitStrength and UCI_Elo: from the next go on, play at that Elo
    // while the limit is on (see strength.h); the Elo is kept either way.
    void set_limit_strength(bool on) { options_.limit_strength = on; }
    void set_uci_elo(int elo) { options_.uci_elo = elo; }
    // The strength limit's random draws: each go takes the next seed of a
    // stream, random per engine unless this fixes it (tests, reproducible
    // games). The same seed and the same commands give the same moves
    // (with one thread).
    void set_strength_seed(std::uint64_t seed) { strength_seeds_ = Rng(seed); }
    // Syzygy tablebases: the folders (separated by ':', on Windows ';';
    // empty or "<empty>": none) are scanned now, the files mapped on first
    // use. Returns what was found (and which folders were not readable).
    syzygy::LoadReport set_syzygy_path(const std::string& paths);
    void set_syzygy_probe_depth(int depth) { options_.syzygy_probe_depth = depth; }
    void set_syzygy_50_move_rule(bool on) { options_.syzygy_50_move_rule = on; }
    void set_syzygy_probe_limit(int pieces) { options_.syzygy_probe_limit = pieces; }

    // Extras for the command line and the `eval`, `d` and `go perft` commands
    // (with no position: its message, and no nodes).
    std::string eval_report() const;
    std::uint64_t perft(int depth); // prints the divide through the sink
    // The net the search evaluates with, null for the hand-crafted evaluation
    // (what `genfens` searches with): also with UseNNUE on while the net in
    // use is an embedded one this build refused (net_warning() says so).
    const nnue::Network* search_network() const;
    std::optional<std::string> net_warning() const;

  private:
    Sink sink_;
    EngineOptions options_;
    std::optional<Position> pos_ = Position();
    std::string no_position_reason_; // why pos_ is empty
    std::unique_ptr<TranspositionTable> tt_;
    std::unique_ptr<ThreadPool> pool_;
    const nnue::Network& network() const;       // EvalFile's net
    bool embedded_net_refused() const;          // in use, and zero weights
    bool net_warned_ = false;                   // net_warning() shown at a go
    std::unique_ptr<nnue::Network> loaded_net_; // from EvalFile; null: the embedded net
    Rng strength_seeds_;                        // one seed per go under UCI_LimitStrength
    std::unique_ptr<syzygy::Tablebases> tablebases_;
};

} // namespace staccato
