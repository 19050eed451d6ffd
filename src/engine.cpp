#include "staccato/engine.h"

#include <sstream>

#include "staccato/eval.h"
#include "staccato/perft.h"
#include "staccato/search.h"
#include "staccato/tt.h"

namespace staccato {

Engine::Engine(Sink sink)
    : sink_(std::move(sink)), tt_(std::make_unique<TranspositionTable>(std::size_t(HASH_RANGE.def))),
      pool_(std::make_unique<ThreadPool>(*tt_)) {}

Engine::~Engine() {
    pool_->stop();
    pool_->wait();
}

SetupResult Engine::set_position(std::string_view fen, const std::vector<std::string>& moves) {
    Position p;
    SetupResult result;
    if (!fen.empty()) {
        result = p.set_fen(fen, options_.chess960);
        if (result.error) return result;
    } else {
        p.set_chess960(options_.chess960);
    }
    for (const std::string& text : moves) {
        auto m = p.parse_uci_move(text);
        if (!m) return {"illegal or malformed move '" + text + "' in position command", {}};
        p.push_game_move(*m);
    }
    pos_ = p;
    return result;
}

std::optional<std::string> Engine::go(const SearchLimits& limits) {
    if (pool_->searching()) return std::string("already searching; send stop first");
    pool_->start(pos_, limits, options_.multipv, options_.show_wdl, options_.move_overhead_ms, sink_);
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
    pos_.set_chess960(on || pos_.castling_needs_chess960());
}

std::string Engine::eval_report() const { return staccato::eval_report(pos_); }

std::uint64_t Engine::perft(int depth) {
    Position p = pos_;
    std::ostringstream os;
    std::uint64_t n = perft_divide(p, depth, os);
    std::istringstream lines(os.str());
    for (std::string line; std::getline(lines, line);) sink_(line);
    return n;
}

} // namespace staccato
