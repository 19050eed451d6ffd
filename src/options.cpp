#include "staccato/options.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "staccato/parse.h"
#include "staccato/strength.h"
#include "staccato/syzygy/tablebase.h"
#include "staccato/tunables.h"

namespace staccato {

namespace {

using enum OptionType;
constexpr WhileSearching ALLOWED = WhileSearching::Allowed;
constexpr WhileSearching REFUSED = WhileSearching::Refused;

// Actions that hand the value to one Engine setter.
template <void (Engine::*Set)(int)> void set_spin(const OptionChange& c) { (c.engine.*Set)(c.spin()); }
template <void (Engine::*Set)(bool)> void set_check(const OptionChange& c) { (c.engine.*Set)(c.check()); }

void set_hash(const OptionChange& c) {
    if (!c.engine.set_hash_mb(c.spin()))
        c.reply("Hash " + std::to_string(c.spin()) + " MB: not enough memory, keeping the old size");
}

void clear_hash(const OptionChange& c) { c.engine.clear_hash(); }

void set_eval_file(const OptionChange& c) {
    if (auto error = c.engine.set_eval_file(c.text()))
        // Room for the file name and a wrong shape's message, which names
        // both shapes.
        c.reply("EvalFile refused: " + sanitize(*error, 300) + "; keeping " +
                sanitize(c.engine.options().eval_file));
    else if (c.engine.net_has_wdl_model())
        c.reply("EvalFile " + sanitize(c.text()) + " loaded");
    else
        c.reply("EvalFile " + sanitize(c.text()) +
                " loaded; it carries no WDL model, so scores are its raw output, not normalised");
}

// A bad folder is reported, never fatal: the others are used.
void set_syzygy_path(const OptionChange& c) {
    const syzygy::LoadReport report = c.engine.set_syzygy_path(c.text());
    for (const std::string& folder : report.bad_folders)
        c.reply("SyzygyPath: folder '" + sanitize(folder, 200) + "' not found or not readable");
    c.reply("SyzygyPath: " + report.summary());
}

// Rows by type: the fields each type uses.
constexpr UciOption spin(std::string_view name, int def, int min, int max, WhileSearching w,
                         int EngineOptions::*field, void (*apply)(const OptionChange&),
                         std::string_view what) {
    return {name, Spin, def, min, max, {}, w, field, apply, what};
}
constexpr UciOption check(std::string_view name, bool def, WhileSearching w, bool EngineOptions::*field,
                          void (*apply)(const OptionChange&), std::string_view what) {
    return {name, Check, def, 0, 0, {}, w, field, apply, what};
}
constexpr UciOption text(std::string_view name, std::string_view def, WhileSearching w,
                         std::string EngineOptions::*field, void (*apply)(const OptionChange&),
                         std::string_view what) {
    return {name, String, def, 0, 0, {}, w, field, apply, what};
}
constexpr UciOption button(std::string_view name, WhileSearching w, void (*apply)(const OptionChange&),
                           std::string_view what) {
    return {name, Button, {}, 0, 0, {}, w, {}, apply, what};
}

using E = Engine;
using O = EngineOptions;

// The UCI options, in the order `uci` lists them: name, default, range,
// while a search runs, the EngineOptions member that holds the value, what
// setting it does, and what it is for.
constexpr UciOption OPTIONS[] = {
    spin("Hash", 16, 1, 65536, REFUSED, &O::hash_mb, set_hash, "transposition table size in MiB"),
    spin("Threads", 1, 1, 256, REFUSED, &O::threads, set_spin<&E::set_threads>, "search threads (Lazy SMP)"),
    spin("MultiPV", 1, 1, 256, ALLOWED, &O::multipv, set_spin<&E::set_multipv>,
         "how many best lines to search and print"),
    check("Ponder", false, ALLOWED, &O::ponder, set_check<&E::set_ponder>, "the GUI may send go ponder"),
    spin("Move Overhead", 30, 0, 5000, ALLOWED, &O::move_overhead_ms, set_spin<&E::set_move_overhead>,
         "milliseconds kept back per move for the GUI's latency and a loaded machine"),
    button("Clear Hash", REFUSED, clear_hash, "empties the transposition table"),
    check("UCI_Chess960", false, ALLOWED, &O::chess960, set_check<&E::set_chess960>,
          "Chess960 castling, written king takes rook"),
    check("UCI_ShowWDL", false, ALLOWED, &O::show_wdl, set_check<&E::set_show_wdl>,
          "win/draw/loss chances (permille) in the info lines"),
    check("UseNNUE", true, REFUSED, &O::use_nnue, set_check<&E::set_use_nnue>,
          "the network evaluates; false: the hand-crafted evaluation"),
    check("UCI_LimitStrength", false, ALLOWED, &O::limit_strength, set_check<&E::set_limit_strength>,
          "play at UCI_Elo"),
    spin("UCI_Elo", STRENGTH_ELO_MIN, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, ALLOWED, &O::uci_elo,
         set_spin<&E::set_uci_elo>, "the strength UCI_LimitStrength plays at"),
    text("EvalFile", EMBEDDED_NET, REFUSED, &O::eval_file, set_eval_file,
         "a net file made by staccato-train; <embedded>: the net built into the binary"),
    text("SyzygyPath", "<empty>", REFUSED, &O::syzygy_path, set_syzygy_path,
         "folders of Syzygy tablebase files, separated by ':' (';' on Windows)"),
    spin("SyzygyProbeDepth", 1, 1, 100, REFUSED, &O::syzygy_probe_depth, set_spin<&E::set_syzygy_probe_depth>,
         "the least remaining depth at which positions of the largest tables' size are probed"),
    check("Syzygy50MoveRule", true, REFUSED, &O::syzygy_50_move_rule, set_check<&E::set_syzygy_50_move_rule>,
          "a win or loss the 50-move rule undoes counts as a draw"),
    spin("SyzygyProbeLimit", 7, 0, 7, REFUSED, &O::syzygy_probe_limit, set_spin<&E::set_syzygy_probe_limit>,
         "probe positions of at most this many pieces (0: never)"),
};

// A tuning build's rows for the tunable constants: spin options, set while
// no search runs.
void set_tunable([[maybe_unused]] const OptionChange& c) {
#ifdef STACCATO_TUNE
    tunable_values[*find_tunable(c.option.name)] = c.spin();
    tunables_changed();
#endif
}

std::vector<UciOption> all_options() {
    std::vector<UciOption> all(std::begin(OPTIONS), std::end(OPTIONS));
    if (TUNING_BUILD)
        for (const Tunable& t : TUNABLES)
            all.push_back({t.name,
                           Spin,
                           t.def,
                           t.min,
                           t.max,
                           {},
                           REFUSED,
                           {},
                           set_tunable,
                           "a search constant (tuning build)"});
    return all;
}

} // namespace

EngineOptions::EngineOptions() {
    for (const UciOption& o : OPTIONS)
        std::visit(
            [&](auto member) {
                if constexpr (std::is_same_v<decltype(member), int EngineOptions::*>)
                    this->*member = std::get<int>(o.def);
                else if constexpr (std::is_same_v<decltype(member), bool EngineOptions::*>)
                    this->*member = std::get<bool>(o.def);
                else if constexpr (std::is_same_v<decltype(member), std::string EngineOptions::*>)
                    this->*member = std::string(std::get<std::string_view>(o.def));
            },
            o.field);
}

std::string_view option_type_name(OptionType type) {
    switch (type) {
    case Spin: return "spin";
    case Check: return "check";
    case Combo: return "combo";
    case String: return "string";
    case Button: return "button";
    }
    return "?";
}

std::span<const UciOption> uci_options() {
    static const std::vector<UciOption> all = all_options();
    return all;
}

const UciOption* find_option(std::string_view name) {
    const std::string key = ascii_lower(name);
    for (const UciOption& o : uci_options())
        if (ascii_lower(o.name) == key) return &o;
    return nullptr;
}

std::string option_line(const UciOption& o) {
    std::string line =
        "option name " + std::string(o.name) + " type " + std::string(option_type_name(o.type));
    switch (o.type) {
    case Spin:
        line += " default " + std::to_string(std::get<int>(o.def)) + " min " + std::to_string(o.min) +
                " max " + std::to_string(o.max);
        break;
    case Check: line += std::get<bool>(o.def) ? " default true" : " default false"; break;
    case Combo:
        line += " default " + std::string(std::get<std::string_view>(o.def));
        for (std::string_view choice : o.choices) line += " var " + std::string(choice);
        break;
    case String: line += " default " + std::string(std::get<std::string_view>(o.def)); break;
    case Button: break;
    }
    return line;
}

ParsedValue parse_option_value(const UciOption& o, std::string_view value, bool has_value,
                               std::string_view given_name) {
    auto refused = [&](const std::string& expected) {
        return ParsedValue{{},
                           "option " + sanitize(given_name) + ": value '" + sanitize(value) + "' refused (" +
                               expected + "), keeping the old value"};
    };
    switch (o.type) {
    case Spin: {
        const auto v = parse_number<std::int64_t>(value);
        if (!has_value || !v || *v < o.min || *v > o.max)
            return refused(std::to_string(o.min) + ".." + std::to_string(o.max));
        return {int(*v), {}};
    }
    case Check: {
        const std::string v = ascii_lower(value);
        if (v == "true") return {true, {}};
        if (v == "false") return {false, {}};
        return refused("true or false");
    }
    case Combo: {
        const std::string v = ascii_lower(value);
        std::string expected;
        for (std::string_view choice : o.choices) {
            if (ascii_lower(choice) == v) return {std::string(choice), {}};
            expected += (expected.empty() ? "" : " / ") + std::string(choice);
        }
        return refused(expected);
    }
    case String: return {std::string(value), {}};
    case Button: return {};
    }
    return {};
}

void set_option(Engine& engine, std::string_view name, std::string_view value, bool has_value,
                const std::function<void(std::string_view)>& reply) {
    if (name.empty()) {
        reply("setoption: missing option name");
        return;
    }
    const UciOption* option = find_option(name);
    if (!option) {
        reply("unknown option '" + sanitize(name) + "'");
        return;
    }
    if (engine.searching() && option->while_searching == REFUSED) {
        reply("setoption " + sanitize(name) + " ignored while searching");
        return;
    }
    const ParsedValue parsed = parse_option_value(*option, value, has_value, name);
    if (!parsed.refusal.empty())
        reply(parsed.refusal);
    else
        option->apply(OptionChange{engine, *option, parsed.value, reply});
}

} // namespace staccato
