// The UCI options, each declared once: one row of a table (src/options.cpp)
// gives its name, type, default, range or choices, whether it may change
// while a search runs, a one-line description, where the engine keeps its
// value and what setting it does. `uci` prints the rows, `setoption` is
// checked against them, and EngineOptions takes its defaults from them. A
// tuning build (staccato/tunables.h) adds a spin row per tunable constant.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "staccato/engine.h"

namespace staccato {

enum class OptionType { Spin, Check, Combo, String, Button };

std::string_view option_type_name(OptionType type); // "spin", "check", ...

// A default as the table writes it: spin int, check bool, combo and string
// text, button none.
using OptionDefault = std::variant<std::monostate, int, bool, std::string_view>;
// A value setoption has accepted, of the same kinds.
using OptionValue = std::variant<std::monostate, int, bool, std::string>;
// The EngineOptions member that holds the option's value (none for a button).
using OptionField =
    std::variant<std::monostate, int EngineOptions::*, bool EngineOptions::*, std::string EngineOptions::*>;

struct UciOption;

// What an option's action gets: the engine, the row, the accepted value, and
// where to send `info string` text (without that prefix).
struct OptionChange {
    Engine& engine;
    const UciOption& option;
    const OptionValue& value;
    const std::function<void(std::string_view)>& reply;

    int spin() const { return std::get<int>(value); }
    bool check() const { return std::get<bool>(value); }
    const std::string& text() const { return std::get<std::string>(value); }
};

enum class WhileSearching : bool { Refused = false, Allowed = true };

struct UciOption {
    std::string_view name;
    OptionType type;
    OptionDefault def;
    int min = 0, max = 0;                      // spin
    std::span<const std::string_view> choices; // combo
    WhileSearching while_searching;            // Refused: "setoption ... ignored while searching"
    OptionField field;                         // the value's home, for the defaults
    void (*apply)(const OptionChange&);        // sets an accepted value
    std::string_view description;
};

// Every option `uci` lists, in its order (with the tunables in a tuning build).
std::span<const UciOption> uci_options();

// The option called `name`, any case; nullptr if none is.
const UciOption* find_option(std::string_view name);

// The `option name ...` line `uci` prints for it.
std::string option_line(const UciOption& option);

// `value` checked against the option (`has_value`: the command had a
// `value` keyword): the value to set, or why not, as `info string` text
// (`given_name` is the name as the GUI spelt it).
struct ParsedValue {
    OptionValue value;
    std::string refusal; // empty: accepted
};
ParsedValue parse_option_value(const UciOption& option, std::string_view value, bool has_value,
                               std::string_view given_name);

// `setoption name <name> [value <value>]`: refuses what the table refuses
// (an unknown name, a value out of range, a change not allowed while
// searching), else applies the value. Every answer goes to `reply` as the
// text of an `info string` line.
void set_option(Engine& engine, std::string_view name, std::string_view value, bool has_value,
                const std::function<void(std::string_view)>& reply);

} // namespace staccato
