#include "staccato/engine.h"

#include <chrono>
#include <random>
#include <sstream>

#include "staccato/hce/eval.h"
#include "staccato/nnue/network.h"
#include "staccato/nnue/report.h"
#include "staccato/perft.h"
#include "staccato/syzygy/tablebase.h"
#include "staccato/thread.h"
#include "staccato/tt.h"

namespace staccato {

Engine::Engine(Sink sink)
    : sink_(std::move(sink)), tt_(std::make_unique<TranspositionTable>(std::size_t(options_.hash_mb))),
      pool_(std::make_unique<ThreadPool>(*tt_)), tablebases_(std::make_unique<syzygy::Tablebases>()) {
    std::random_device device;
    const auto now = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    strength_seeds_ = Rng((std::uint64_t(device()) << 32 | device()) ^ now);
}

Engine::~Engine() {
    pool_->stop();
    pool_->wait();
}

SetupResult Engine::set_position(std::string_view fen, const std::vector<std::string>& moves) {
    Position p;
    SetupResult result;
    if (!fen.empty()) {
        result = p.set_fen(fen, options_.chess960);
    } else {
        p.set_chess960(options_.chess960);
    }
    for (std::size_t i = 0; i < moves.size() && !result.error; ++i) {
        auto m = p.parse_uci_move(moves[i]);
        if (m)
            p.push_game_move(*m);
        else
            result = {"illegal or malformed move '" + moves[i] + "' in position command", {}};
    }
    if (result.error)
        drop_position(*result.error);
    else
        pos_ = p;
    return result;
}

void Engine::drop_position(std::string why) {
    pos_.reset();
    no_position_reason_ = std::move(why);
}

std::string Engine::no_position_message() const {
    return "no position to search (the last position command was refused: " + no_position_reason_ +
           "); send a valid one";
}

std::optional<std::string> Engine::go(const SearchLimits& limits) {
    if (pool_->searching()) return std::string("already searching; send stop first");
    if (!pos_) {
        sink_("info string " + no_position_message());
        sink_("bestmove 0000");
        return std::nullopt;
    }
    SearchOptions options;
    options.multipv = options_.multipv;
    options.show_wdl = options_.show_wdl;
    options.move_overhead_ms = options_.move_overhead_ms;
    options.tablebases = {tablebases_->empty() ? nullptr : tablebases_.get(), options_.syzygy_probe_depth,
                          options_.syzygy_probe_limit, options_.syzygy_50_move_rule};
    options.net = search_network();
    if (auto warning = net_warning(); warning && !net_warned_) {
        sink_("info string " + *warning);
        net_warned_ = true;
    }
    if (options_.limit_strength)
        options.strength = StrengthLimit{strength_settings(options_.uci_elo), strength_seeds_.next()};
    pool_->start(*pos_, limits, options, sink_);
    return std::nullopt;
}

void Engine::stop() { pool_->stop(); }
void Engine::ponderhit() { pool_->ponderhit(); }
void Engine::wait_until_idle() { pool_->wait(); }
bool Engine::searching() const { return pool_->searching(); }

void Engine::new_game() {
    pool_->wait();
    tt_->clear(options_.threads);
    pool_->clear_history();
}

bool Engine::set_hash_mb(int mb) {
    pool_->wait();
    if (!tt_->resize(std::size_t(mb), options_.threads)) return false;
    options_.hash_mb = mb;
    return true;
}

void Engine::clear_hash() {
    pool_->wait();
    tt_->clear(options_.threads);
}

void Engine::set_threads(int n) {
    pool_->wait();
    pool_->set_thread_count(n);
    options_.threads = n;
}

void Engine::set_chess960(bool on) {
    options_.chess960 = on;
    // Switching it off goes back to e1g1 notation unless the position's
    // castling rights can only be written the Chess960 way.
    if (pos_) pos_->set_chess960(on || pos_->castling_needs_chess960());
}

std::string Engine::eval_report() const {
    if (!pos_) return "info string " + no_position_message();
    const nnue::Network* net = search_network();
    return net ? nnue::eval_report(*net, *pos_) : hce::eval_report(*pos_);
}

const nnue::Network& Engine::network() const { return loaded_net_ ? *loaded_net_ : nnue::default_network(); }

bool Engine::net_has_wdl_model() const { return network().wdl.has_value(); }

bool Engine::embedded_net_refused() const { return !loaded_net_ && nnue::default_network_error(); }

const nnue::Network* Engine::search_network() const {
    return options_.use_nnue && !embedded_net_refused() ? &network() : nullptr;
}

std::optional<std::string> Engine::net_warning() const {
    if (!options_.use_nnue || !embedded_net_refused()) return std::nullopt;
    return "the embedded net was refused (" + *nnue::default_network_error() +
           "); the hand-crafted evaluation plays until EvalFile loads a net";
}

std::optional<std::string> Engine::set_eval_file(const std::string& path) {
    if (path == EMBEDDED_NET) {
        if (auto error = nnue::default_network_error()) return std::string(EMBEDDED_NET) + ": " + *error;
        loaded_net_.reset();
    } else {
        auto net = std::make_unique<nnue::Network>();
        if (auto error = nnue::load_file(path, *net)) return error;
        loaded_net_ = std::move(net);
    }
    options_.eval_file = path;
    return std::nullopt;
}

syzygy::LoadReport Engine::set_syzygy_path(const std::string& paths) {
    pool_->wait();
    options_.syzygy_path = paths;
    return tablebases_->load(paths);
}

std::uint64_t Engine::perft(int depth) {
    if (!pos_) {
        sink_("info string " + no_position_message());
        return 0;
    }
    Position p = *pos_;
    std::ostringstream os;
    std::uint64_t n = perft_divide(p, depth, os);
    std::istringstream lines(os.str());
    for (std::string line; std::getline(lines, line);) sink_(line);
    return n;
}

} // namespace staccato
