#include "staccato/datagen.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <type_traits>
#include <vector>

#include "staccato/movegen.h"
#include "staccato/nnue/games.h"
#include "staccato/nnue/manifest.h"
#include "staccato/nnue/network.h"
#include "staccato/parse.h"
#include "staccato/position.h"
#include "staccato/selfplay.h"
#include "staccato/thread.h"
#include "staccato/tt.h"
#include "staccato/uci.h"

namespace staccato {

namespace {

// Set by SIGINT / SIGTERM while datagen runs: the games in progress are
// dropped and the run ends at a game boundary.
std::atomic<bool> stop_signal{false};
extern "C" void on_stop_signal(int) { stop_signal.store(true); }

// Adjudication, from White's view of the searched scores.
constexpr Value WIN_SCORE = 1000; // both sides agree it is won ...
constexpr int WIN_PLIES = 6;      // ... for this many plies in a row
constexpr Value DRAW_SCORE = 10;  // both sides see a dead draw ...
constexpr int DRAW_PLIES = 12;    // ... for this many plies in a row
constexpr int DRAW_MIN_PLY = 60;  // ... but not in the opening
constexpr int MAX_GAME_PLIES = 400;
constexpr Value OPENING_LIMIT = 400;            // a random opening this lopsided is dropped
constexpr std::uint64_t HARD_NODES_FACTOR = 10; // a soft-limited move's hard cap, in `nodes`

int white_result(GameResult r) { return r == GameResult::WhiteWin ? 2 : r == GameResult::Draw ? 1 : 0; }

class GamePlayer {
  public:
    GamePlayer(const DatagenOptions& o, const Book& book, std::uint64_t seed)
        : o_(o), book_(book), rng_(seed), tt_(std::size_t(o.hash_mb)), pool_(tt_) {
        pool_.set_network(o.nnue ? &nnue::default_network() : nullptr);
    }

    // Plays one game and returns it with its result, or GameResult::None when the
    // opening was dropped.
    std::pair<GameResult, std::optional<nnue::GameWriter>> play() {
        Position pos;
        if (!opening(pos)) return {GameResult::None, std::nullopt};
        tt_.clear();
        pool_.clear_history();
        nnue::GameWriter game(pos);
        GameResult result = GameResult::None;
        int win_run = 0, draw_run = 0;
        for (int ply = 0; result == GameResult::None; ++ply) {
            if ((result = game_result(pos)) != GameResult::None) break;
            if (stop_signal.load()) return {GameResult::None, std::nullopt};
            if (ply >= MAX_GAME_PLIES) {
                result = GameResult::Draw;
                break;
            }
            // A soft limit ends the search after the iteration that passes
            // `nodes`, so that every move comes from a completed depth; the
            // hard limit bounds the rare iteration that explodes.
            SearchLimits limits;
            limits.soft_nodes = o_.soft ? o_.nodes : 0;
            limits.nodes = o_.soft ? o_.nodes * HARD_NODES_FACTOR : o_.nodes;
            tt_.new_search();
            const ThreadPool::SyncResult r = pool_.search_sync(pos, limits);
            if (!r.best) return {GameResult::None, std::nullopt}; // cannot happen: the game would be over
            const Value white = pos.side_to_move() == WHITE ? r.score : -r.score;
            if (ply == 0 && std::abs(white) > OPENING_LIMIT) return {GameResult::None, std::nullopt};
            win_run = std::abs(white) >= WIN_SCORE ? win_run + 1 : 0;
            draw_run = std::abs(white) <= DRAW_SCORE && ply >= DRAW_MIN_PLY ? draw_run + 1 : 0;
            if (win_run >= WIN_PLIES) result = white > 0 ? GameResult::WhiteWin : GameResult::BlackWin;
            if (draw_run >= DRAW_PLIES) result = GameResult::Draw;
            // Every ply is written: which positions train is decided when the
            // games are read (nnue/games.h).
            game.add(r.best, white);
            if (result == GameResult::None) pos.push_game_move(r.best);
        }
        return {result, std::move(game)};
    }

  private:
    // A book position (or the start position) and a few random legal moves.
    bool opening(Position& pos) {
        return random_opening(pos, book_,
                              o_.random_plies >= 0 ? o_.random_plies
                              : book_.fens.empty() ? 8
                                                   : 2,
                              rng_);
    }

    const DatagenOptions& o_;
    const Book& book_;
    Rng rng_;
    TranspositionTable tt_;
    ThreadPool pool_;
};

// The evaluation that plays, for the manifest: the net's checksum or "hce".
std::string net_name(const DatagenOptions& o) {
    if (!o.nnue) return "hce";
    std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a over the net file's bytes
    for (const std::uint8_t b : nnue::default_network_bytes()) h = (h ^ b) * 0x100000001b3ULL;
    char hex[24];
    std::snprintf(hex, sizeof hex, "net-%08llx", static_cast<unsigned long long>(h >> 32));
    return hex;
}

} // namespace

std::optional<std::string> run_datagen(const DatagenOptions& o, std::ostream& log, DatagenSummary* summary) {
    if (o.nnue)
        if (auto error = nnue::default_network_error())
            return "datagen: the embedded net was refused (" + *error +
                   "); eval=hce, or a build with a net of its input kind";
    if (o.out.empty()) return "datagen: no output file (out=FILE)";
    if (o.games < 1 || o.nodes < 1 || o.threads < 1 || o.threads > 256 || o.random_plies > 40)
        return "datagen: games, nodes and threads must be positive (threads <= 256, random plies <= 40)";
    if (o.hash_mb < 1 || o.hash_mb > 1024) return "datagen: hash must be 1 to 1024 MB";
    // Every thread's table is touched at once: more than half the machine's
    // memory would end in the OOM killer, not in a refusal.
    if (const auto memory = physical_memory();
        memory && std::uint64_t(o.hash_mb) * std::uint64_t(o.threads) * 1024 * 1024 > *memory / 2)
        return "datagen: threads x hash (" + std::to_string(o.threads * o.hash_mb) +
               " MB) is more than half of this machine's memory";
    const auto book = read_book(o.book);
    if (!book) return "datagen: cannot read the book " + o.book;
    if (!o.book.empty() && book->fens.empty()) return "datagen: no valid position in " + o.book;
    // A file that a killed run or a full disk left with a torn last game is
    // cut back to its last whole game, so that the new games follow it.
    const auto before = nnue::scan_game_file(o.out);
    if (before && before->whole_bytes < before->size) {
        std::error_code ec;
        std::filesystem::resize_file(o.out, before->whole_bytes, ec);
        if (ec) return "datagen: cannot cut the torn last game off " + o.out + ": " + ec.message();
        log << "datagen: " << o.out << " ended in a torn game: cut back to its last whole game ("
            << before->size - before->whole_bytes << " bytes removed)" << std::endl;
    }
    // A run that appends to earlier games mixes the file's size into its
    // seed: the same command continued after a stop plays new games instead
    // of repeating the ones already there (one thread replays a seed exactly).
    const std::uint64_t existing = before ? before->whole_bytes : 0;
    const bool appending = existing > 0;
    const std::uint64_t seed = appending ? o.seed ^ (existing * 0xD1B54A32D192ED03ULL) : o.seed;
    std::ofstream out(o.out, std::ios::binary | std::ios::app);
    if (!out) return "datagen: cannot write " + o.out;
    if (appending)
        log << "datagen: appending to " << o.out << " (" << before->games << " games, " << existing
            << " bytes): the seed is mixed with its size, so the new games differ from those already there"
            << std::endl;
    const auto start = std::chrono::steady_clock::now();

    nnue::ManifestLine manifest;
    manifest.file = std::filesystem::path(o.out).filename().string();
    manifest.commits = std::string(engine_name()).substr(std::string_view("Staccato ").size());
    manifest.nets = net_name(o);
    std::string new_seed = std::to_string(o.seed);
    auto record = [&](const DatagenSummary& sum, std::uint64_t bytes) {
        manifest.games = (before ? before->games : 0) + std::uint64_t(sum.games);
        manifest.positions = (before ? before->plies : 0) + sum.positions;
        manifest.bytes = bytes;
        if (auto error = nnue::update_manifest(o.out, manifest, new_seed))
            log << "datagen: " << *error << std::endl;
        new_seed.clear(); // the run's seed is listed once
    };

    stop_signal.store(false);
    const auto old_int = std::signal(SIGINT, on_stop_signal);
    const auto old_term = std::signal(SIGTERM, on_stop_signal);
    std::mutex mutex;
    DatagenSummary sum;
    int started = 0, dropped = 0;
    std::uint64_t whole_bytes = existing; // the file's size after the last game written whole
    std::optional<std::string> failure;
    auto worker = [&](int id) {
        GamePlayer player(o, *book, seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(id) + 1);
        while (true) {
            {
                std::lock_guard lock(mutex);
                if (started >= o.games || failure || stop_signal.load()) return;
                ++started;
            }
            const auto [r, game] = player.play();
            std::lock_guard lock(mutex);
            if (failure || stop_signal.load()) return; // the game in progress is dropped
            if (r == GameResult::None) {               // dropped opening: play another, within reason
                if (++dropped <= 100 * o.games) --started;
                continue;
            }
            // Whole games only, flushed at once; a write that fails (a full
            // disk) stops the run, and the torn game is cut off below.
            game->write(out, white_result(r));
            out.flush();
            if (!out) {
                failure = "datagen: writing " + o.out + " failed (is the disk full?) after " +
                          std::to_string(sum.games) + " games of this run";
                return;
            }
            whole_bytes += sizeof(nnue::GameBoard) + 4 * game->plies() + 4;
            ++sum.games;
            sum.positions += game->plies();
            (r == GameResult::WhiteWin ? sum.white_wins
             : r == GameResult::Draw   ? sum.draws
                                       : sum.black_wins) += 1;
            if (sum.games % 100 == 0 || sum.games == o.games) {
                const double secs = std::max(
                    1e-3, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
                const double eta = secs / sum.games * (o.games - sum.games);
                char line[160];
                std::snprintf(line, sizeof line,
                              "datagen: %d/%d games, %llu positions (%.0f/s), +%d =%d -%d, ETA %dh%02dm%02ds",
                              sum.games, o.games, static_cast<unsigned long long>(sum.positions),
                              double(sum.positions) / secs, sum.white_wins, sum.draws, sum.black_wins,
                              int(eta) / 3600, int(eta) / 60 % 60, int(eta) % 60);
                log << line << std::endl;
                record(sum, whole_bytes);
            }
        }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < o.threads; ++i) threads.emplace_back(worker, i);
    for (std::thread& t : threads) t.join();
    std::signal(SIGINT, old_int == SIG_ERR ? SIG_DFL : old_int);
    std::signal(SIGTERM, old_term == SIG_ERR ? SIG_DFL : old_term);
    out.close();
    if (failure) {
        std::error_code ec;
        std::filesystem::resize_file(o.out, whole_bytes, ec);
        *failure += ec ? " (and cutting it back failed: " + ec.message() + ")"
                       : "; the file ends at its last whole game";
    }
    if (stop_signal.load())
        log << "datagen: stopped by a signal after " << sum.games << " games; the file ends at a whole game"
            << std::endl;
    record(sum, whole_bytes);
    if (summary) *summary = sum;
    return failure;
}

// ---------------------------------------------------------------------------
// The command's arguments
// ---------------------------------------------------------------------------
std::variant<DatagenOptions, std::string> parse_datagen_args(const std::vector<std::string_view>& args) {
    DatagenOptions o;
    for (const std::string_view arg : args) {
        const std::size_t eq = arg.find('=');
        const std::string_view key = arg.substr(0, eq), value = eq == arg.npos ? "" : arg.substr(eq + 1);
        bool ok = eq != arg.npos;
        auto read_number = [&value](auto& field) {
            auto v = parse_number<std::remove_reference_t<decltype(field)>>(value);
            if (v) field = *v;
            return v.has_value();
        };
        if (key == "out")
            o.out = value;
        else if (key == "book")
            o.book = value;
        else if (key == "games")
            ok = ok && read_number(o.games);
        else if (key == "nodes")
            ok = ok && read_number(o.nodes);
        else if (key == "limit")
            ok = ok && (value == "soft" || value == "hard") && ((o.soft = value == "soft"), true);
        else if (key == "threads")
            ok = ok && read_number(o.threads);
        else if (key == "hash")
            ok = ok && read_number(o.hash_mb);
        else if (key == "seed")
            ok = ok && read_number(o.seed);
        else if (key == "random")
            ok = ok && read_number(o.random_plies);
        else if (key == "eval")
            ok = ok && (value == "hce" || value == "nnue") && ((o.nnue = value == "nnue"), true);
        else
            ok = false;
        if (!ok) return "datagen: bad argument '" + std::string(arg) + "'";
    }
    return o;
}

} // namespace staccato
