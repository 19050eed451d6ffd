#include "staccato/uci.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "staccato/bench.h"
#include "staccato/genfens.h"
#include "staccato/parse.h"
#include "staccato/syzygy/tablebase.h"
#include "staccato/tunables.h"

namespace staccato {

namespace {

#ifndef STACCATO_VERSION // set by CMake: the project version, and the commit between tags
#define STACCATO_VERSION "unknown"
#endif
constexpr const char* ENGINE_NAME = "Staccato " STACCATO_VERSION;
constexpr const char* ENGINE_AUTHOR = "the Staccato developers";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

std::vector<std::string_view> tokenize(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        std::size_t j = i;
        while (j < line.size() && !is_space(line[j])) ++j;
        if (j > i) out.push_back(line.substr(i, j - i));
        i = j;
    }
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return out;
}

// Printable form of untrusted input for error messages: at most `max`
// characters, control and non-ASCII bytes as '?'.
std::string sanitize(std::string_view s, std::size_t max = 60) {
    std::string out;
    for (char c : s.substr(0, max)) out += (c >= 32 && c < 127) ? c : '?';
    if (s.size() > max) out += "...";
    return out;
}

// The keywords of `go`: a value never swallows one of these.
const std::vector<std::string_view> GO_KEYWORDS = {"searchmoves", "ponder",    "wtime", "btime", "winc",
                                                   "binc",        "movestogo", "depth", "nodes", "mate",
                                                   "movetime",    "infinite",  "perft"};

bool is_go_keyword(std::string_view t) {
    return std::find(GO_KEYWORDS.begin(), GO_KEYWORDS.end(), t) != GO_KEYWORDS.end();
}

// The search a `go` gets when its limits leave nothing usable.
constexpr std::int64_t FALLBACK_MOVETIME_MS = 100;

// The UCI commands, then the extras (also given as command-line arguments:
// `staccato bench`, `staccato "genfens 8 seed 1 book None" quit`).
const std::vector<std::string_view> COMMANDS = {
    "uci",  "isready",  "ucinewgame", "position", "go",    "stop",  "ponderhit", "setoption", "debug",
    "quit", "register", "d",          "eval",     "bench", "perft", "genfens",   "spsa",      "help"};

// Every command of the command line and of the loop (a test checks that each
// of COMMANDS is named here).
constexpr std::string_view USAGE =
    "usage: staccato [COMMAND]\n"
    "  (no command)          the UCI loop on stdin/stdout, for a chess GUI: uci, isready, ucinewgame,\n"
    "                        position, go, stop, ponderhit, setoption, debug, register, quit, and the\n"
    "                        extras below marked (loop)\n"
    "  perft DEPTH [FEN]     leaf counts per root move and in all (DEPTH 0..20; default: the start\n"
    "                        position; in the loop: perft DEPTH from the position set)\n"
    "  bench [DEPTH]         fixed-depth search over the built-in positions (default depth 11): nodes and\n"
    "                        speed\n"
    "  datagen out=FILE [games=N] [nodes=N] [threads=N] [seed=N] [book=FILE] [random=N] [eval=hce|nnue]\n"
    "                        self-play positions with score and result for the trainers (staccato-train,\n"
    "                        staccato-tune)\n"
    "  tbbench PATH [POSITIONS]  Syzygy probes per second (WDL and DTZ, cold and warm) over random\n"
    "                        positions of the tables in PATH (default 100000 positions)\n"
    "  genfens N seed S book <None|FILE> [PLIES]\n"
    "                        (loop) N opening positions as info string genfens lines (OpenBench)\n"
    "  spsa                  the tunable search constants as OpenBench's SPSA form takes them\n"
    "  d                     (loop) the board, its FEN and key\n"
    "  eval                  (loop) the evaluation of the position set: each piece's worth to the network\n"
    "                        (UseNNUE false: the hand-crafted evaluation term by term)\n"
    "  help, --help, -h      this text (help: also in the loop)\n"
    "  --version, -v         the version: Staccato <version>\n"
    "  \"LINE\" [\"LINE\" ...]   each argument one line of the UCI loop, then exit:\n"
    "                        staccato \"position startpos\" \"go depth 10\", staccato \"perft 5\" quit\n"
    "More in README.md, at the top of the source tree and of the release page.\n";

// The tunable constant (staccato/tunables.h) whose name, in lower case, is `key`.
std::optional<TuneId> tunable_named(std::string_view key) {
    for (int i = 0; i < TUNE_NB; ++i)
        if (lower(TUNABLES[i].name) == key) return TuneId(i);
    return std::nullopt;
}

} // namespace

std::string_view engine_name() { return ENGINE_NAME; }

std::string_view usage_text() { return USAGE; }

const std::vector<std::string_view>& UciLoop::commands() { return COMMANDS; }

UciLoop::UciLoop(Engine& engine, Engine::Sink out) : engine_(engine), out_(std::move(out)) {}

void UciLoop::run(std::istream& in) {
    std::string line;
    while (std::getline(in, line))
        if (!handle_line(line)) break;
    engine_.stop();
    engine_.wait_until_idle();
}

bool UciLoop::knows(std::string_view line) {
    const auto tokens = tokenize(line);
    return !tokens.empty() && std::find(COMMANDS.begin(), COMMANDS.end(), tokens[0]) != COMMANDS.end();
}

void UciLoop::finish() {
    if (open_ended_) engine_.stop();
    engine_.wait_until_idle();
}

bool UciLoop::handle_line(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    auto tokens = tokenize(line);
    // Unknown leading tokens are skipped, as the protocol asks.
    std::size_t first = 0;
    while (first < tokens.size() &&
           std::find(COMMANDS.begin(), COMMANDS.end(), tokens[first]) == COMMANDS.end())
        ++first;
    if (tokens.empty()) return true;
    if (first == tokens.size()) {
        out_("info string unknown command: " + sanitize(line));
        return true;
    }
    std::string_view cmd = tokens[first];
    std::vector<std::string_view> args(tokens.begin() + long(first) + 1, tokens.end());

    if (cmd == "quit") {
        engine_.stop();
        return false;
    }
    if (cmd == "uci")
        cmd_uci();
    else if (cmd == "isready")
        out_("readyok");
    else if (cmd == "ucinewgame") {
        if (engine_.searching())
            out_("info string ucinewgame ignored: searching");
        else
            engine_.new_game();
    } else if (cmd == "position")
        cmd_position(args);
    else if (cmd == "go")
        cmd_go(args);
    else if (cmd == "stop") {
        // Waits for the bestmove, so that a GUI sending `stop`, `position`
        // and `go` in one burst never has them refused as "still searching".
        engine_.stop();
        engine_.wait_until_idle();
    } else if (cmd == "ponderhit")
        engine_.ponderhit();
    else if (cmd == "setoption")
        cmd_setoption(args);
    else if (cmd == "debug") {
        // Accepted; the engine has no extra debug output.
        if (args.empty() || (args[0] != "on" && args[0] != "off"))
            out_("info string debug: expected 'on' or 'off'");
    } else if (cmd == "register") { /* no registration needed */
    } else if (cmd == "d") {
        const Position* pos = engine_.position();
        send_lines(pos ? pos->to_string() : "info string " + engine_.no_position_message());
    } else if (cmd == "eval")
        send_lines(engine_.eval_report());
    else if (cmd == "bench")
        cmd_bench(args);
    else if (cmd == "perft") {
        const auto depth = args.empty() ? std::nullopt : parse_number<int>(args[0]);
        if (!depth || *depth < 0 || *depth > 20)
            refuse_tool("perft: expected a depth 0..20");
        else if (engine_.searching())
            refuse_tool("perft ignored: searching");
        else
            engine_.perft(*depth);
    } else if (cmd == "genfens")
        cmd_genfens(args);
    else if (cmd == "help")
        send_lines(USAGE);
    else if (cmd == "spsa") {
        // The tunable constants as OpenBench's SPSA form takes them.
        for (const Tunable& t : TUNABLES) {
            char line[160];
            std::snprintf(line, sizeof line, "%.*s, int, %d, %d, %d, %d, %g", int(t.name.size()),
                          t.name.data(), t.def, t.min, t.max, t.step, TUNE_R_END);
            out_(line);
        }
    }
    return true;
}

// `bench [DEPTH]`: the same fixed-depth bench as `staccato bench` (its own
// hash and threads: the engine's state is untouched).
void UciLoop::cmd_bench(const std::vector<std::string_view>& args) {
    const auto depth = args.empty() ? std::optional<int>(BENCH_DEFAULT_DEPTH) : parse_number<int>(args[0]);
    if (!depth || *depth < 1 || *depth > 64) {
        refuse_tool("bench: expected a depth 1..64");
        return;
    }
    if (engine_.searching()) {
        refuse_tool("bench ignored: searching");
        return;
    }
    std::ostringstream text;
    run_bench(*depth, text);
    send_lines(text.str());
}

// `genfens N seed S book <None|FILE> [PLIES]` (staccato/genfens.h).
void UciLoop::cmd_genfens(const std::vector<std::string_view>& args) {
    const auto request = parse_genfens(args);
    if (const auto* why = std::get_if<std::string>(&request)) {
        refuse_tool(sanitize(*why, 200));
        return;
    }
    if (engine_.searching()) {
        refuse_tool("genfens ignored: searching");
        return;
    }
    if (auto error =
            run_genfens(std::get<GenfensRequest>(request), engine_.search_network(), out_, std::cerr))
        refuse_tool(sanitize(*error, 200));
}

void UciLoop::refuse_tool(std::string_view why) {
    ++refused_tools_;
    out_("info string " + std::string(why));
}

// Sends multi-line text one line at a time.
void UciLoop::send_lines(std::string_view text) {
    while (!text.empty()) {
        std::size_t end = std::min(text.find('\n'), text.size());
        out_(text.substr(0, end));
        text.remove_prefix(std::min(end + 1, text.size()));
    }
}

void UciLoop::cmd_uci() {
    out_(std::string("id name ") + ENGINE_NAME);
    out_(std::string("id author ") + ENGINE_AUTHOR);
    auto spin = [this](const char* name, OptionRange r) {
        out_(std::string("option name ") + name + " type spin default " + std::to_string(r.def) + " min " +
             std::to_string(r.min) + " max " + std::to_string(r.max));
    };
    spin("Hash", HASH_RANGE);
    spin("Threads", THREADS_RANGE);
    spin("MultiPV", MULTIPV_RANGE);
    out_("option name Ponder type check default false");
    spin("Move Overhead", MOVE_OVERHEAD_RANGE);
    out_("option name Clear Hash type button");
    out_("option name UCI_Chess960 type check default false");
    out_("option name UCI_ShowWDL type check default false");
    out_("option name UseNNUE type check default true");
    out_("option name UCI_LimitStrength type check default false");
    spin("UCI_Elo", UCI_ELO_RANGE);
    out_("option name EvalFile type string default " + std::string(EMBEDDED_NET));
    out_("option name SyzygyPath type string default <empty>");
    spin("SyzygyProbeDepth", SYZYGY_PROBE_DEPTH_RANGE);
    out_("option name Syzygy50MoveRule type check default true");
    spin("SyzygyProbeLimit", SYZYGY_PROBE_LIMIT_RANGE);
    if (TUNING_BUILD)
        for (const Tunable& t : TUNABLES)
            out_("option name " + std::string(t.name) + " type spin default " + std::to_string(t.def) +
                 " min " + std::to_string(t.min) + " max " + std::to_string(t.max));
    out_("uciok");
}

// A refused `position` leaves the engine with none (a `go` then answers
// bestmove 0000 at once), never with the one before: that would be another
// game's position.
void UciLoop::cmd_position(const std::vector<std::string_view>& args) {
    auto refuse = [this](const std::string& why) {
        engine_.drop_position(sanitize(why, 200));
        out_("info string " + sanitize(why, 200) + " (no position until the next valid one)");
    };
    if (engine_.searching()) {
        refuse("position ignored: send stop and wait for bestmove first");
        return;
    }
    std::size_t i = 0;
    std::string fen;
    if (i < args.size() && args[i] == "startpos") {
        ++i;
    } else if (i < args.size() && args[i] == "fen") {
        ++i;
        while (i < args.size() && args[i] != "moves") {
            if (!fen.empty()) fen += ' ';
            fen += args[i++];
        }
        if (fen.empty()) {
            refuse("position fen: missing FEN");
            return;
        }
    } else {
        refuse("position: expected 'startpos' or 'fen'");
        return;
    }
    std::vector<std::string> moves;
    if (i < args.size()) {
        if (args[i] != "moves") {
            refuse("position: unexpected token '" + sanitize(args[i]) + "'");
            return;
        }
        for (++i; i < args.size(); ++i) moves.emplace_back(args[i]);
    }
    const SetupResult result = engine_.set_position(fen, moves);
    for (const std::string& warning : result.warnings) out_("info string " + sanitize(warning, 200));
    if (result.error) refuse(*result.error);
}

void UciLoop::cmd_go(const std::vector<std::string_view>& args) {
    if (engine_.searching()) {
        out_("info string go ignored: already searching");
        return;
    }
    if (!engine_.position()) {
        engine_.go(SearchLimits{}); // nothing to search: says why, bestmove 0000
        return;
    }
    SearchLimits limits;
    const Position& pos = *engine_.position();
    // Complaints about the arguments, the first few only (a 100 KB line of
    // junk must not flood the GUI).
    constexpr int MAX_REPORTS = 8;
    int reports = 0;
    bool ignored = false; // a limit or token was dropped for want of a usable value
    auto report = [&](const std::string& text) {
        if (++reports <= MAX_REPORTS) out_("info string go" + text);
    };
    // The value after args[i], read leniently and clamped to [lo, hi]; what
    // had to be read so or clamped is reported. nullopt: missing or no number.
    auto number = [&](std::size_t& i, const std::string& name, std::int64_t lo,
                      std::int64_t hi) -> std::optional<std::int64_t> {
        if (i + 1 >= args.size() || is_go_keyword(args[i + 1])) {
            report(": missing value for " + name);
            ignored = true;
            return std::nullopt;
        }
        const std::string_view text = args[++i];
        const auto v = parse_lenient_integer(text);
        if (!v) {
            report(": bad value for " + name + ": '" + sanitize(text) + "'");
            ignored = true;
            return std::nullopt;
        }
        const std::int64_t value = std::clamp(v->value, lo, hi);
        if (!v->exact || value != v->value)
            report(": " + name + " '" + sanitize(text) + "' read as " + std::to_string(value));
        return value;
    };
    // The largest meaningful times and node counts: effectively no limit.
    constexpr std::int64_t BIG = std::int64_t(1) << 40;
    constexpr std::int64_t ANY = std::numeric_limits<std::int64_t>::max();
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view t = args[i];
        if (t == "infinite")
            limits.infinite = true;
        else if (t == "ponder")
            limits.ponder = true;
        else if (t == "perft") {
            auto v = number(i, "perft", std::numeric_limits<std::int64_t>::min(), ANY);
            if (v && *v >= 0 && *v <= 12)
                engine_.perft(int(*v));
            else if (v)
                out_("info string go perft: depth must be 0..12");
            return;
        } else if (t == "wtime" || t == "btime") {
            if (auto v = number(i, std::string(t), 0, BIG)) limits.time[t == "wtime" ? WHITE : BLACK] = *v;
        } else if (t == "winc" || t == "binc") {
            if (auto v = number(i, std::string(t), 0, BIG)) limits.inc[t == "winc" ? WHITE : BLACK] = *v;
        } else if (t == "movestogo") {
            if (auto v = number(i, "movestogo", 0, 1000)) limits.movestogo = int(*v);
        } else if (t == "depth") {
            if (auto v = number(i, "depth", 1, MAX_PLY - 4)) limits.depth = int(*v);
        } else if (t == "nodes") {
            if (auto v = number(i, "nodes", 1, BIG * 1024)) limits.nodes = std::uint64_t(*v);
        } else if (t == "mate") {
            if (auto v = number(i, "mate", 1, MAX_PLY / 2)) limits.mate = int(*v);
        } else if (t == "movetime") {
            if (auto v = number(i, "movetime", 1, BIG)) limits.movetime = *v;
        } else if (t == "searchmoves") {
            // Every token up to the next keyword; illegal ones are dropped.
            bool any = false;
            while (i + 1 < args.size() && !is_go_keyword(args[i + 1])) {
                std::string_view text = args[++i];
                any = true;
                if (auto m = pos.parse_uci_move(text)) {
                    if (std::find(limits.searchmoves.begin(), limits.searchmoves.end(), *m) ==
                        limits.searchmoves.end())
                        limits.searchmoves.push_back(*m);
                } else {
                    report(" searchmoves: illegal or malformed move '" + sanitize(text) + "' dropped");
                }
            }
            if (any && limits.searchmoves.empty())
                out_("info string go searchmoves: no legal move given, searching all moves");
        } else {
            report(": unknown token '" + sanitize(t) + "' skipped");
            ignored = true;
        }
    }
    if (reports > MAX_REPORTS)
        out_("info string go: " + std::to_string(reports - MAX_REPORTS) + " more problems not shown");
    // What was dropped (`go depth 2x`, `go dpeth 5`) or a clock for the other
    // side only must not turn into a search without end, nor into no answer:
    // a short search, then bestmove as always.
    if (!limits.bounded(pos.side_to_move()) && !limits.infinite && (ignored || limits.uses_clock())) {
        limits.movetime = FALLBACK_MOVETIME_MS;
        out_("info string go: no usable limit left, searching " + std::to_string(FALLBACK_MOVETIME_MS) +
             " ms (send 'go infinite' to search until stop)");
    }
    open_ended_ = limits.infinite || limits.ponder;
    if (auto err = engine_.go(limits)) out_("info string " + *err);
}

void UciLoop::cmd_setoption(const std::vector<std::string_view>& args) {
    // setoption name <words...> [value <words...>]
    std::string name, value;
    bool in_value = false, has_value = false;
    std::size_t i = 0;
    if (i < args.size() && lower(args[i]) == "name") ++i;
    for (; i < args.size(); ++i) {
        if (!in_value && lower(args[i]) == "value") {
            in_value = has_value = true;
            continue;
        }
        std::string& target = in_value ? value : name;
        if (!target.empty()) target += ' ';
        target += args[i];
    }
    const std::string key = lower(name);
    if (key.empty()) {
        out_("info string setoption: missing option name");
        return;
    }
    if (engine_.searching() && (key == "hash" || key == "threads" || key == "clear hash" ||
                                key == "evalfile" || key == "usennue" || key.starts_with("syzygy"))) {
        out_("info string setoption " + sanitize(name) + " ignored while searching");
        return;
    }

    auto spin = [&](OptionRange r) -> std::optional<int> {
        auto v = parse_number<std::int64_t>(value);
        if (!has_value || !v || *v < r.min || *v > r.max) {
            out_("info string option " + sanitize(name) + ": value '" + sanitize(value) + "' refused (" +
                 std::to_string(r.min) + ".." + std::to_string(r.max) + "), keeping the old value");
            return std::nullopt;
        }
        return int(*v);
    };
    auto check = [&]() -> std::optional<bool> {
        std::string v = lower(value);
        if (v == "true") return true;
        if (v == "false") return false;
        out_("info string option " + sanitize(name) + ": value '" + sanitize(value) +
             "' refused (true or false), keeping the old value");
        return std::nullopt;
    };

    if (key == "hash") {
        if (auto v = spin(HASH_RANGE))
            if (!engine_.set_hash_mb(*v))
                out_("info string Hash " + std::to_string(*v) +
                     " MB: not enough memory, keeping the old size");
    } else if (key == "threads") {
        if (auto v = spin(THREADS_RANGE)) engine_.set_threads(*v);
    } else if (key == "multipv") {
        if (auto v = spin(MULTIPV_RANGE)) engine_.set_multipv(*v);
    } else if (key == "move overhead") {
        if (auto v = spin(MOVE_OVERHEAD_RANGE)) engine_.set_move_overhead(*v);
    } else if (key == "ponder") {
        if (auto v = check()) engine_.set_ponder(*v);
    } else if (key == "uci_chess960") {
        if (auto v = check()) engine_.set_chess960(*v);
    } else if (key == "uci_showwdl") {
        if (auto v = check()) engine_.set_show_wdl(*v);
    } else if (key == "clear hash") {
        engine_.clear_hash();
    } else if (key == "uci_limitstrength") {
        if (auto v = check()) engine_.set_limit_strength(*v);
    } else if (key == "uci_elo") {
        if (auto v = spin(UCI_ELO_RANGE)) engine_.set_uci_elo(*v);
    } else if (key == "usennue") {
        if (auto v = check()) engine_.set_use_nnue(*v);
    } else if (key == "evalfile") {
        if (auto error = engine_.set_eval_file(value))
            out_("info string EvalFile refused: " + sanitize(*error) + "; keeping " +
                 sanitize(engine_.options().eval_file));
        else
            out_("info string EvalFile " + sanitize(value) + " loaded");
    } else if (key == "syzygypath") {
        // A bad folder is reported, never fatal: the others are used.
        const syzygy::LoadReport report = engine_.set_syzygy_path(value);
        for (const std::string& folder : report.bad_folders)
            out_("info string SyzygyPath: folder '" + sanitize(folder, 200) + "' not found or not readable");
        out_("info string SyzygyPath: " + report.summary());
    } else if (key == "syzygyprobedepth") {
        if (auto v = spin(SYZYGY_PROBE_DEPTH_RANGE)) engine_.set_syzygy_probe_depth(*v);
    } else if (key == "syzygy50moverule") {
        if (auto v = check()) engine_.set_syzygy_50_move_rule(*v);
    } else if (key == "syzygyprobelimit") {
        if (auto v = spin(SYZYGY_PROBE_LIMIT_RANGE)) engine_.set_syzygy_probe_limit(*v);
    } else if (const auto tunable = tunable_named(key); tunable && TUNING_BUILD) {
        if (engine_.searching()) {
            out_("info string setoption " + sanitize(name) + " ignored while searching");
        } else if (auto v = spin(OptionRange{TUNABLES[*tunable].min, TUNABLES[*tunable].max, 0})) {
#ifdef STACCATO_TUNE
            tunable_values[*tunable] = *v;
            tunables_changed();
#endif
        }
    } else {
        out_("info string unknown option '" + sanitize(name) + "'");
    }
}

} // namespace staccato
