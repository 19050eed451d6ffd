#include "staccato/uci.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "staccato/attacks.h"
#include "staccato/bench.h"
#include "staccato/cpu.h"
#include "staccato/datagen.h"
#include "staccato/genfens.h"
#include "staccato/nnue/network.h"
#include "staccato/nnue/simd.h"
#include "staccato/options.h"
#include "staccato/parse.h"
#include "staccato/perft.h"
#include "staccato/syzygy/tbbench.h"
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

// The keywords of `go`: a value never swallows one of these.
const std::vector<std::string_view> GO_KEYWORDS = {"searchmoves", "ponder",    "wtime", "btime", "winc",
                                                   "binc",        "movestogo", "depth", "nodes", "mate",
                                                   "movetime",    "infinite",  "perft"};

bool is_go_keyword(std::string_view t) {
    return std::find(GO_KEYWORDS.begin(), GO_KEYWORDS.end(), t) != GO_KEYWORDS.end();
}

// The search a `go` gets when its limits leave nothing usable.
constexpr std::int64_t FALLBACK_MOVETIME_MS = 100;

// The largest meaningful times and node counts: effectively no limit.
constexpr std::int64_t BIG = std::int64_t(1) << 40;

// The limits of `go` that take a number: the keyword, the range the value
// is clamped to, and where it goes.
struct GoLimit {
    std::string_view name;
    std::int64_t lo, hi;
    void (*set)(SearchLimits&, std::int64_t);
};
const GoLimit GO_LIMITS[] = {
    {"wtime", 0, BIG, [](SearchLimits& l, std::int64_t v) { l.time[WHITE] = v; }},
    {"btime", 0, BIG, [](SearchLimits& l, std::int64_t v) { l.time[BLACK] = v; }},
    {"winc", 0, BIG, [](SearchLimits& l, std::int64_t v) { l.inc[WHITE] = v; }},
    {"binc", 0, BIG, [](SearchLimits& l, std::int64_t v) { l.inc[BLACK] = v; }},
    {"movestogo", 0, 1000, [](SearchLimits& l, std::int64_t v) { l.movestogo = int(v); }},
    {"depth", 1, MAX_PLY - 4, [](SearchLimits& l, std::int64_t v) { l.depth = int(v); }},
    {"nodes", 1, BIG * 1024, [](SearchLimits& l, std::int64_t v) { l.nodes = std::uint64_t(v); }},
    {"mate", 1, MAX_PLY / 2, [](SearchLimits& l, std::int64_t v) { l.mate = int(v); }},
    {"movetime", 1, BIG, [](SearchLimits& l, std::int64_t v) { l.movetime = v; }},
};

const GoLimit* find_go_limit(std::string_view name) {
    for (const GoLimit& limit : GO_LIMITS)
        if (limit.name == name) return &limit;
    return nullptr;
}

// Reads `go`'s arguments and reports what had to be dropped or read
// leniently, the first few complaints only (a 100 KB line of junk must not
// flood the GUI).
class GoArgs {
  public:
    GoArgs(const std::vector<std::string_view>& args, const Engine::Sink& out) : args_(args), out_(out) {}

    // The value after args[i], read leniently and clamped to [lo, hi]; what
    // had to be read so or clamped is reported. nullopt: missing or no number.
    std::optional<std::int64_t> number(std::size_t& i, std::string_view name, std::int64_t lo,
                                       std::int64_t hi) {
        if (i + 1 >= args_.size() || is_go_keyword(args_[i + 1])) {
            report(": missing value for " + std::string(name));
            ignored = true;
            return std::nullopt;
        }
        const std::string_view text = args_[++i];
        const auto v = parse_lenient_integer(text);
        if (!v) {
            report(": bad value for " + std::string(name) + ": '" + sanitize(text) + "'");
            ignored = true;
            return std::nullopt;
        }
        const std::int64_t value = std::clamp(v->value, lo, hi);
        if (!v->exact || value != v->value)
            report(": " + std::string(name) + " '" + sanitize(text) + "' read as " + std::to_string(value));
        return value;
    }

    // `searchmoves`: every token up to the next keyword; illegal ones are dropped.
    void searchmoves(std::size_t& i, const Position& pos, std::vector<Move>& moves) {
        bool any = false;
        while (i + 1 < args_.size() && !is_go_keyword(args_[i + 1])) {
            const std::string_view text = args_[++i];
            any = true;
            if (auto m = pos.parse_uci_move(text)) {
                if (std::find(moves.begin(), moves.end(), *m) == moves.end()) moves.push_back(*m);
            } else {
                report(" searchmoves: illegal or malformed move '" + sanitize(text) + "' dropped");
            }
        }
        if (any && moves.empty())
            out_("info string go searchmoves: no legal move given, searching all moves");
    }

    void unknown(std::string_view token) {
        report(": unknown token '" + sanitize(token) + "' skipped");
        ignored = true;
    }

    // After the last argument: how many complaints were not shown.
    void finish() {
        if (reports_ > MAX_REPORTS)
            out_("info string go: " + std::to_string(reports_ - MAX_REPORTS) + " more problems not shown");
    }

    bool ignored = false; // a limit or token was dropped for want of a usable value

  private:
    static constexpr int MAX_REPORTS = 8;
    void report(const std::string& text) {
        if (++reports_ <= MAX_REPORTS) out_("info string go" + text);
    }
    const std::vector<std::string_view>& args_;
    const Engine::Sink& out_;
    int reports_ = 0;
};

// The deepest perft either form takes (`perft DEPTH`, `go perft DEPTH`).
constexpr int PERFT_MAX_DEPTH = 20;

// The protocol's own commands (handled by UciLoop::handle_line).
constexpr std::string_view UCI_COMMANDS[] = {"uci",   "isready", "ucinewgame", "position",
                                             "go",    "stop",    "ponderhit",  "setoption",
                                             "debug", "quit",    "register"};

// How a tool command was called: inside the UCI loop (with its engine) or
// from the command line (`staccato perft 5`: no engine).
struct ToolContext {
    Engine* engine;                                   // the loop's; null on the command line
    const std::function<void(std::string_view)>& out; // each output line
    std::ostream* stream; // the command line's stdout, for long output as it comes
    std::ostream& log;    // progress and diagnostics (stderr)
    const std::function<void(std::string_view)>& refuse; // why the command does not run
};

// Text from `write` (a function of an ostream): straight to the command
// line's stdout, or line by line through the loop's sink.
template <typename Write> void write_text(const ToolContext& ctx, Write write) {
    if (ctx.stream) {
        write(*ctx.stream);
        ctx.stream->flush();
        return;
    }
    std::ostringstream text;
    write(text);
    std::istringstream lines(text.str());
    for (std::string line; std::getline(lines, line);) ctx.out(line);
}

// Multi-line text one line at a time (no empty line for a final newline).
void send_text(const ToolContext& ctx, std::string_view text) {
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        ctx.out(text.substr(0, end));
        text.remove_prefix(std::min(end + 1, text.size()));
    }
}

// A number in lo..hi written as a plain decimal integer.
std::optional<int> parse_in_range(std::string_view text, int lo, int hi) {
    const auto v = parse_number<int>(text);
    if (!v || *v < lo || *v > hi) return std::nullopt;
    return v;
}

// True (and refused) when the loop's engine is searching.
bool busy(const ToolContext& ctx, std::string_view name) {
    if (!ctx.engine || !ctx.engine->searching()) return false;
    ctx.refuse(std::string(name) + " ignored: searching");
    return true;
}

using Args = std::vector<std::string_view>;

// A tool's run: 0 done; otherwise refused (2: bad arguments) or failed (1),
// the command line's exit status.
int tool_perft(const ToolContext& ctx, const Args& args) {
    const auto depth = args.empty() ? std::nullopt : parse_in_range(args[0], 0, PERFT_MAX_DEPTH);
    if (!depth) {
        ctx.refuse("perft: expected a depth 0.." + std::to_string(PERFT_MAX_DEPTH));
        return 2;
    }
    if (busy(ctx, "perft")) return 2;
    if (args.size() == 1 && ctx.engine) { // the position set
        ctx.engine->perft(*depth);
        return 0;
    }
    Position pos;
    std::string fen;
    for (std::size_t i = 1; i < args.size(); ++i) fen += std::string(i > 1 ? " " : "") + std::string(args[i]);
    if (!fen.empty())
        if (auto err = pos.set_fen(fen).error) {
            ctx.refuse("perft: " + *err);
            return 2;
        }
    write_text(ctx, [&](std::ostream& os) { perft_divide(pos, *depth, os); });
    return 0;
}

int tool_bench(const ToolContext& ctx, const Args& args) {
    const auto depth =
        args.empty() ? std::optional<int>(BENCH_DEFAULT_DEPTH) : parse_in_range(args[0], 1, 64);
    if (!depth) {
        ctx.refuse("bench: expected a depth 1..64");
        return 2;
    }
    if (busy(ctx, "bench")) return 2;
    // Its own hash and threads: the engine's state is untouched.
    write_text(ctx, [&](std::ostream& os) { run_bench(*depth, os); });
    return 0;
}

int tool_datagen(const ToolContext& ctx, const Args& args) {
    const auto options = parse_datagen_args(args);
    if (const auto* why = std::get_if<std::string>(&options)) {
        ctx.refuse(*why);
        return 2;
    }
    if (auto err = run_datagen(std::get<DatagenOptions>(options), ctx.log)) {
        ctx.refuse(*err);
        return 2;
    }
    return 0;
}

int tool_tbbench(const ToolContext& ctx, const Args& args) {
    const auto positions = args.size() >= 2 ? parse_in_range(args[1], 1, 10000000) : 100000;
    if (args.empty() || args.size() > 2 || !positions) {
        ctx.refuse("tbbench: expected PATH [POSITIONS] (default 100000 positions)");
        return 2;
    }
    bool ok = false;
    write_text(ctx, [&](std::ostream& os) { ok = syzygy::run_tb_bench(args[0], *positions, os); });
    return ok ? 0 : 1;
}

int tool_genfens(const ToolContext& ctx, const Args& args) {
    const auto request = parse_genfens(args);
    if (const auto* why = std::get_if<std::string>(&request)) {
        ctx.refuse(sanitize(*why, 200));
        return 2;
    }
    if (busy(ctx, "genfens")) return 2;
    const nnue::Network* net = ctx.engine ? ctx.engine->search_network() : &nnue::default_network();
    if (auto error = run_genfens(std::get<GenfensRequest>(request), net, ctx.out, ctx.log)) {
        ctx.refuse(sanitize(*error, 200));
        return 1;
    }
    return 0;
}

// The tunable constants as OpenBench's SPSA form takes them.
int tool_spsa(const ToolContext& ctx, const Args&) {
    for (const Tunable& t : TUNABLES) {
        char line[160];
        std::snprintf(line, sizeof line, "%.*s, int, %d, %d, %d, %d, %g", int(t.name.size()), t.name.data(),
                      t.def, t.min, t.max, t.step, TUNE_R_END);
        ctx.out(line);
    }
    return 0;
}

int tool_board(const ToolContext& ctx, const Args&) {
    const Position* pos = ctx.engine->position();
    send_text(ctx, pos ? pos->to_string() : "info string " + ctx.engine->no_position_message());
    return 0;
}

int tool_eval(const ToolContext& ctx, const Args&) {
    send_text(ctx, ctx.engine->eval_report());
    return 0;
}

int tool_help(const ToolContext& ctx, const Args&) {
    send_text(ctx, usage_text());
    return 0;
}

int tool_version(const ToolContext& ctx, const Args&) {
    ctx.out(std::string(engine_name()) + " (" + build_description() + ")");
    return 0;
}

// Where a tool command runs.
enum Where : unsigned { LOOP = 1, COMMAND_LINE = 2, BOTH = LOOP | COMMAND_LINE };

// The tool commands, one row each: name, where it runs, its handler, its
// lines of the usage text, other names on the command line, and what the
// command line prints after a refusal (empty: `usage: staccato NAME ...`
// from the usage text's first line).
struct ToolCommand {
    std::string_view name;
    Where where;
    int (*run)(const ToolContext&, const Args&);
    std::string_view usage;
    std::array<std::string_view, 2> aliases{};
    std::string_view refusal_usage{};
};

const ToolCommand TOOLS[] = {
    {"perft", BOTH, tool_perft,
     "  perft DEPTH [FEN]     leaf counts per root move and in all (DEPTH 0..20; default: the start\n"
     "                        position, in the loop the position set)\n"},
    {"bench", BOTH, tool_bench,
     "  bench [DEPTH]         fixed-depth search over the built-in positions (default depth 11): nodes and\n"
     "                        speed\n"},
    {"datagen",
     COMMAND_LINE,
     tool_datagen,
     "  datagen out=FILE [games=N] [nodes=N] [limit=soft|hard] [threads=N] [seed=N] [book=FILE] [random=N]\n"
     "          [eval=hce|nnue]  self-play games (moves, scores, result) for the network trainer,\n"
     "                        staccato-train\n",
     {},
     DATAGEN_USAGE},
    {"tbbench", COMMAND_LINE, tool_tbbench,
     "  tbbench PATH [POSITIONS]  Syzygy probes per second (WDL and DTZ, cold and warm) over random\n"
     "                        positions of the tables in PATH (default 100000 positions)\n"},
    {"genfens", BOTH, tool_genfens,
     "  genfens N seed S book <None|FILE> [PLIES]\n"
     "                        N opening positions as info string genfens lines (OpenBench)\n"},
    {"spsa", BOTH, tool_spsa,
     "  spsa                  the tunable search constants as OpenBench's SPSA form takes them\n"},
    {"d", LOOP, tool_board, "  d                     (loop) the board, its FEN and key\n"},
    {"eval", LOOP, tool_eval,
     "  eval                  (loop) the evaluation of the position set: each piece's worth to the network\n"
     "                        (UseNNUE false: the hand-crafted evaluation term by term)\n"},
    {"help",
     BOTH,
     tool_help,
     "  help, --help, -h      this text (help: also in the loop)\n",
     {"--help", "-h"}},
    {"--version",
     COMMAND_LINE,
     tool_version,
     "  --version, -v         the version and the build: Staccato <version> (<CPU>, network SIMD, sliders)\n",
     {"-v"}},
};

const ToolCommand* find_tool(std::string_view name, Where where) {
    for (const ToolCommand& t : TOOLS)
        if (t.where & where) {
            if (t.name == name) return &t;
            if (where == COMMAND_LINE && (t.aliases[0] == name || t.aliases[1] == name)) return &t;
        }
    return nullptr;
}

std::string build_usage() {
    std::string text =
        "usage: staccato [COMMAND]\n"
        "  (no command)          the UCI loop on stdin/stdout, for a chess GUI: uci, isready, "
        "ucinewgame,\n"
        "                        position, go, stop, ponderhit, setoption, debug, register, quit, "
        "and the\n"
        "                        extras below but datagen, tbbench and --version\n";
    for (const ToolCommand& t : TOOLS) text += t.usage;
    text +=
        "  \"LINE\" [\"LINE\" ...]   each argument one line of the UCI loop, then exit:\n"
        "                        staccato \"position startpos\" \"go depth 10\", staccato \"perft 5\" quit\n"
        "More in README.md, at the top of the source tree and of the release page.\n";
    return text;
}

// Every command of the loop: the protocol's, then the tools'.
std::vector<std::string_view> loop_commands() {
    std::vector<std::string_view> all(std::begin(UCI_COMMANDS), std::end(UCI_COMMANDS));
    for (const ToolCommand& t : TOOLS)
        if (t.where & LOOP) all.push_back(t.name);
    return all;
}

bool is_loop_command(std::string_view name) {
    const auto& all = UciLoop::commands();
    return std::find(all.begin(), all.end(), name) != all.end();
}

} // namespace

std::string_view engine_name() { return ENGINE_NAME; }

std::string build_description() {
#if defined(__x86_64__) || defined(_M_X64)
    std::string text = "x86-64";
#elif defined(__aarch64__)
    std::string text = "aarch64";
#else
    std::string text = "other CPU";
#endif
    if (cpu::BUILD_FEATURES) text += " with " + cpu::feature_names(cpu::BUILD_FEATURES);
    text += std::string(", network SIMD: ") + nnue::simd_name();
    text += attacks::USES_PEXT ? ", sliders: PEXT" : ", sliders: magic bitboards";
    return text;
}

} // namespace staccato

// The instructions the compiler may use in this file are those of every
// file of the engine (one set of flags): what the start-up check needs.
constinit const unsigned staccato::cpu::BUILD_FEATURES = staccato::cpu::compiled_features();

namespace staccato {

std::string_view usage_text() {
    static const std::string usage = build_usage();
    return usage;
}

const std::vector<std::string_view>& UciLoop::commands() {
    static const std::vector<std::string_view> all = loop_commands();
    return all;
}

bool is_command_line_tool(std::string_view name) { return find_tool(name, COMMAND_LINE) != nullptr; }

int run_command_line_tool(std::string_view name, const std::vector<std::string_view>& args) {
    const ToolCommand* tool = find_tool(name, COMMAND_LINE);
    if (!tool) return 2;
    const std::function<void(std::string_view)> out = [](std::string_view line) {
        std::cout << line << '\n';
        std::cout.flush();
    };
    const std::function<void(std::string_view)> refuse = [tool](std::string_view why) {
        std::cerr << why << '\n';
        if (!tool->refusal_usage.empty()) {
            std::cerr << tool->refusal_usage;
        } else {
            // The usage text's synopsis: its first line up to the description.
            const std::string_view synopsis =
                tool->usage.substr(2, std::min(tool->usage.find("  ", 2), tool->usage.find('\n')) - 2);
            std::cerr << "usage: staccato " << synopsis << '\n';
        }
    };
    return tool->run({nullptr, out, &std::cout, std::cerr, refuse}, args);
}

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
    return !tokens.empty() && is_loop_command(tokens[0]);
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
    while (first < tokens.size() && !is_loop_command(tokens[first])) ++first;
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
    } else if (const ToolCommand* tool = find_tool(cmd, LOOP)) {
        const std::function<void(std::string_view)> refuse = [this](std::string_view why) {
            out_("info string " + std::string(why));
        };
        if (tool->run({&engine_, out_, nullptr, std::cerr, refuse}, args) != 0) ++refused_tools_;
    }
    return true;
}

void UciLoop::cmd_uci() {
    out_(std::string("id name ") + ENGINE_NAME);
    out_(std::string("id author ") + ENGINE_AUTHOR);
    for (const UciOption& option : uci_options()) out_(option_line(option));
    if (auto warning = engine_.net_warning()) out_("info string " + sanitize(*warning, 400));
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
    GoArgs go(args, out_);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view t = args[i];
        if (t == "infinite")
            limits.infinite = true;
        else if (t == "ponder")
            limits.ponder = true;
        else if (t == "searchmoves")
            go.searchmoves(i, pos, limits.searchmoves);
        else if (const GoLimit* limit = find_go_limit(t)) {
            if (auto v = go.number(i, t, limit->lo, limit->hi)) limit->set(limits, *v);
        } else if (t == "perft") {
            const auto v = go.number(i, t, std::numeric_limits<std::int64_t>::min(),
                                     std::numeric_limits<std::int64_t>::max());
            if (v && *v >= 0 && *v <= PERFT_MAX_DEPTH)
                engine_.perft(int(*v));
            else if (v)
                out_("info string go perft: depth must be 0.." + std::to_string(PERFT_MAX_DEPTH));
            return;
        } else
            go.unknown(t);
    }
    go.finish();
    // What was dropped (`go depth 2x`, `go dpeth 5`) or a clock for the other
    // side only must not turn into a search without end, nor into no answer:
    // a short search, then bestmove as always.
    if (!limits.bounded(pos.side_to_move()) && !limits.infinite && (go.ignored || limits.uses_clock())) {
        limits.movetime = FALLBACK_MOVETIME_MS;
        out_("info string go: no usable limit left, searching " + std::to_string(FALLBACK_MOVETIME_MS) +
             " ms (send 'go infinite' to search until stop)");
    }
    open_ended_ = limits.infinite || limits.ponder;
    if (auto err = engine_.go(limits)) out_("info string " + *err);
}

// setoption name <words...> [value <words...>]: the option table
// (staccato/options.h) checks and applies it.
void UciLoop::cmd_setoption(const std::vector<std::string_view>& args) {
    std::string name, value;
    bool in_value = false, has_value = false;
    std::size_t i = 0;
    if (i < args.size() && ascii_lower(args[i]) == "name") ++i;
    for (; i < args.size(); ++i) {
        if (!in_value && ascii_lower(args[i]) == "value") {
            in_value = has_value = true;
            continue;
        }
        std::string& target = in_value ? value : name;
        if (!target.empty()) target += ' ';
        target += args[i];
    }
    set_option(engine_, name, value, has_value,
               [this](std::string_view text) { out_("info string " + std::string(text)); });
}

} // namespace staccato
