// The UCI option table (staccato/options.h): what `uci` prints, what
// `setoption` answers, and the README's table of options.
#include <catch2/catch.hpp>
#include <map>
#include <ostream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "readme_table.h"
#include "staccato/options.h"
#include "staccato/parse.h"
#include "staccato/tunables.h"
#include "uci_session.h"

using namespace staccato;

namespace {

// An option as `uci` announces it or the README's table lists it.
struct Listed {
    std::string type, def, range; // range: "min-max", "a / b" for a combo, "-" else
    bool operator==(const Listed&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Listed& l) {
    return os << "{" << l.type << ", default '" << l.def << "', range '" << l.range << "'}";
}

// `option name N type T [default D] [min A max B] [var C]...` lines, by name.
std::map<std::string, Listed> options_from_uci() {
    test::UciSession s;
    s.send("uci");
    std::map<std::string, Listed> out;
    const std::regex line(
        R"(option name (.+?) type (\w+)(?: default ?(.*?))?(?: min (-?\d+) max (-?\d+))?((?: var .+?)*))");
    for (const std::string& text : s.lines) {
        if (text.rfind("option name ", 0) != 0) continue;
        std::smatch m;
        REQUIRE(std::regex_match(text, m, line));
        Listed l{m[2], m[3], "-"};
        if (m[4].matched) l.range = m[4].str() + "-" + m[5].str();
        if (l.type == "combo") {
            l.range.clear();
            std::string vars = m[6];
            for (std::size_t at = vars.find(" var "); at != std::string::npos;) {
                const std::size_t next = vars.find(" var ", at + 5);
                l.range += (l.range.empty() ? "" : " / ") + vars.substr(at + 5, next - at - 5);
                at = next;
            }
        }
        if (l.type == "string" && l.def.empty()) l.def = "<empty>";
        CHECK(out.emplace(m[1], l).second);
    }
    return out;
}

// The rows of the README's table whose header is exactly
// `| Option | Type | Default | Range | What it does |`, by option name.
std::map<std::string, Listed> options_from_readme() {
    const auto rows =
        test::readme_table(STACCATO_README, "| Option | Type | Default | Range | What it does |");
    REQUIRE(rows); // the header is there
    std::map<std::string, Listed> out;
    for (const test::TableRow& cells : *rows) {
        INFO((cells.empty() ? std::string() : cells[0]));
        REQUIRE(cells.size() >= 5);
        Listed l{cells[1], cells[2], cells[3]};
        if (l.type == "button" && l.def.empty()) l.def = "-";
        if (l.type == "string" && l.def.empty()) l.def = "<empty>";
        if (l.range.empty()) l.range = "-";
        // "1 - 100" and an en dash read as "1-100".
        std::smatch m;
        if (std::regex_match(l.range, m, std::regex(R"((-?\d+)\s*(?:-|–)\s*(-?\d+))")))
            l.range = m[1].str() + "-" + m[2].str();
        CHECK(out.emplace(cells[0], l).second);
    }
    return out;
}

} // namespace

TEST_CASE("README's option table lists exactly what uci prints", "[options]") {
    auto uci = options_from_uci();
    for (auto& [name, l] : uci)
        if (l.type == "button") l.def = "-";
    const auto readme = options_from_readme();
    REQUIRE(!uci.empty());
    for (const auto& [name, listed] : uci) {
        INFO("uci prints option " << name);
        REQUIRE(readme.count(name) == 1);
        CHECK(readme.at(name) == listed);
    }
    for (const auto& [name, listed] : readme) {
        INFO("README lists option " << name);
        CHECK(uci.count(name) == 1);
    }
}

TEST_CASE("option table: names, defaults and ranges hold together", "[options]") {
    std::set<std::string> names;
    const EngineOptions defaults;
    test::UciSession s;
    s.send("uci");
    for (const UciOption& o : uci_options()) {
        INFO(o.name);
        CHECK(names.insert(ascii_lower(o.name)).second);
        CHECK(find_option(ascii_lower(o.name)) == &o);
        CHECK(s.count(option_line(o)) == 1);
        CHECK(!o.description.empty());
        CHECK(o.apply);
        if (o.type == OptionType::Spin) {
            CHECK(o.min <= std::get<int>(o.def));
            CHECK(std::get<int>(o.def) <= o.max);
        }
        // The default, as `uci` prints it, is a value setoption accepts.
        const std::string line = option_line(o);
        const auto at = line.find(" default ");
        if (o.type != OptionType::Button) {
            REQUIRE(at != std::string::npos);
            std::string def = line.substr(at + 9);
            def = def.substr(0, def.find(o.type == OptionType::Combo ? " var " : " min "));
            CHECK(parse_option_value(o, def, true, o.name).refusal.empty());
        }
        // EngineOptions starts at the table's defaults.
        std::visit(
            [&](auto member) {
                if constexpr (std::is_same_v<decltype(member), int EngineOptions::*>)
                    CHECK(defaults.*member == std::get<int>(o.def));
                else if constexpr (std::is_same_v<decltype(member), bool EngineOptions::*>)
                    CHECK(defaults.*member == std::get<bool>(o.def));
                else if constexpr (std::is_same_v<decltype(member), std::string EngineOptions::*>)
                    CHECK(defaults.*member == std::get<std::string_view>(o.def));
            },
            o.field);
    }
    CHECK(s.count("option name ") == int(uci_options().size()));
    CHECK(find_option("move overhead")->name == "Move Overhead");
    CHECK(find_option("No Such Option") == nullptr);
}

TEST_CASE("a combo option: listed with its choices, any case accepted", "[options]") {
    static constexpr std::string_view CHOICES[] = {"Fast", "Slow", "Off"};
    const UciOption combo{
        "Style", OptionType::Combo,          "Slow",           0, 0, CHOICES, WhileSearching::Allowed,
        {},      [](const OptionChange&) {}, "a made-up combo"};
    CHECK(option_line(combo) == "option name Style type combo default Slow var Fast var Slow var Off");
    const ParsedValue off = parse_option_value(combo, "OFF", true, "style");
    CHECK(off.refusal.empty());
    CHECK(std::get<std::string>(off.value) == "Off");
    CHECK(parse_option_value(combo, "medium", true, "style").refusal ==
          "option style: value 'medium' refused (Fast / Slow / Off), keeping the old value");
}

// Every answer setoption gives, word for word, idle and while searching.
TEST_CASE("setoption answers, word for word", "[options][uci]") {
    test::UciSession s;
    auto answers = [&](const std::vector<std::string>& commands) {
        {
            std::lock_guard lock(s.m);
            s.lines.clear();
        }
        for (const std::string& c : commands) s.send(c);
        std::lock_guard lock(s.m);
        std::vector<std::string> out;
        for (const std::string& l : s.lines)
            if (l.rfind("info string ", 0) == 0) out.push_back(l.substr(12));
        return out;
    };
    CHECK(answers({
              "setoption name Hash value 0",
              "setoption name Hash value lots",
              "setoption name Hash",
              "setoption name hash value 8",
              "setoption name Threads value 257",
              "setoption name MultiPV value x",
              "setoption name Ponder value maybe",
              "setoption name Ponder value True",
              "setoption name Move Overhead value -1",
              "setoption name Move   overhead value 100",
              "setoption name Clear Hash value 5",
              "setoption name UCI_ShowWDL value",
              "setoption name UCI_Elo value 1000",
              "setoption name EvalFile value /no/such/file.nnue",
              "setoption name EvalFile value <embedded>",
              "setoption name SyzygyPath value /no/such/folder",
              "setoption name SyzygyProbeLimit value 8",
              "setoption name Syzygy50MoveRule value 2",
              "setoption name No Such Option value 1",
              "setoption name",
              "setoption value 5",
              "setoption name Hash value 16 17",
              "setoption name Threads value +2",
              "setoption Hash value 4",
          }) == std::vector<std::string>{
                    "option Hash: value '0' refused (1..65536), keeping the old value",
                    "option Hash: value 'lots' refused (1..65536), keeping the old value",
                    "option Hash: value '' refused (1..65536), keeping the old value",
                    "option Threads: value '257' refused (1..256), keeping the old value",
                    "option MultiPV: value 'x' refused (1..256), keeping the old value",
                    "option Ponder: value 'maybe' refused (true or false), keeping the old value",
                    "option Move Overhead: value '-1' refused (0..5000), keeping the old value",
                    "option UCI_ShowWDL: value '' refused (true or false), keeping the old value",
                    "option UCI_Elo: value '1000' refused (1350..2850), keeping the old value",
                    "EvalFile refused: cannot open /no/such/file.nnue (not a file); keeping <embedded>",
                    "EvalFile <embedded> loaded",
                    "SyzygyPath: folder '/no/such/folder' not found or not readable",
                    "SyzygyPath: found 0 WDL and 0 DTZ tablebase files (up to 0 pieces)",
                    "option SyzygyProbeLimit: value '8' refused (0..7), keeping the old value",
                    "option Syzygy50MoveRule: value '2' refused (true or false), keeping the old value",
                    "unknown option 'No Such Option'",
                    "setoption: missing option name",
                    "setoption: missing option name",
                    "option Hash: value '16 17' refused (1..65536), keeping the old value",
                    "option Threads: value '+2' refused (1..256), keeping the old value",
                });
    CHECK(s.engine.options().hash_mb == 4);
    CHECK(s.engine.options().ponder);
    CHECK(s.engine.options().move_overhead_ms == 100);

    s.send("position startpos");
    s.send("go infinite");
    REQUIRE(s.engine.searching());
    const auto busy = answers({
        "setoption name Hash value 8",
        "setoption name Threads value 2",
        "setoption name Clear Hash",
        "setoption name EvalFile value x",
        "setoption name UseNNUE value false",
        "setoption name SyzygyPath value /x",
        "setoption name SyzygyProbeDepth value 5",
        "setoption name syzygy50moverule value false",
        "setoption name SyzygyProbeLimit value 5",
        "setoption name No Such value 1",
        "setoption name MultiPV value 2",
        "setoption name MultiPV value 0",
        "setoption name UCI_ShowWDL value true",
        "setoption name UCI_Elo value 1500",
    });
    s.send("stop");
    CHECK(busy == std::vector<std::string>{
                      "setoption Hash ignored while searching",
                      "setoption Threads ignored while searching",
                      "setoption Clear Hash ignored while searching",
                      "setoption EvalFile ignored while searching",
                      "setoption UseNNUE ignored while searching",
                      "setoption SyzygyPath ignored while searching",
                      "setoption SyzygyProbeDepth ignored while searching",
                      "setoption syzygy50moverule ignored while searching",
                      "setoption SyzygyProbeLimit ignored while searching",
                      "unknown option 'No Such'",
                      "option MultiPV: value '0' refused (1..256), keeping the old value",
                  });
    CHECK(s.engine.options().multipv == 2);
    CHECK(s.engine.options().show_wdl);
    CHECK(s.engine.options().uci_elo == 1500);
    CHECK(s.engine.options().hash_mb == 4);
}

TEST_CASE("tunables: one row each, defaults in range, read by name", "[options][tunables]") {
    std::set<std::string_view> names;
    for (const Tunable& t : TUNABLES) {
        INFO(t.name);
        CHECK(names.insert(t.name).second);
        CHECK(t.min <= t.def);
        CHECK(t.def <= t.max);
        CHECK(t.step > 0);
        CHECK(find_tunable(t.name) == int(&t - TUNABLES));
        CHECK(tunable_values[std::size_t(&t - TUNABLES)] == t.def);
        // A tuning build lists it as a UCI option; a normal build does not.
        CHECK((find_option(t.name) != nullptr) == TUNING_BUILD);
    }
    CHECK(tune<"RfpMargin"> == TUNABLES[*find_tunable("RfpMargin")].def);
    CHECK(&tune<"LmrDivisor"> == &tunable_values[std::size_t(*find_tunable("LmrDivisor"))]);
    CHECK(!find_tunable("NoSuchTunable"));
}
