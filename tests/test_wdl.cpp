// The win/draw/loss model (wdl.h): what a printed score means, the fitter
// (src/train/wdl_fit.h) against games drawn from a known model, the model in
// the net file, and the engine's normalised output over UCI.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "staccato/nnue/network.h"
#include "staccato/random.h"
#include "staccato/search.h"
#include "staccato/uci_output.h"
#include "suite.h"
#include "temp_path.h"
#include "uci_session.h"
#include "wdl_fit.h"

using namespace staccato;
using staccato::test::from_fen;
using staccato::test::write_temp;

namespace {

// A model of the shape the fits give: a(m) rising with material, b(m) too.
WdlModel known_model() {
    WdlModel m;
    m.a = {-60.0, 180.0, -40.0, 130.0}; // a(1) = 210
    m.b = {-20.0, 60.0, 10.0, 40.0};    // b(1) = 90
    return m;
}

// `n` positions drawn from `model`: material uniform over its range, a
// score about N(0, 300), and a result drawn with the model's chances.
std::vector<train::WdlObservation> draw_games(const WdlModel& model, int n, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<train::WdlObservation> out;
    for (int i = 0; i < n; ++i) {
        train::WdlObservation o;
        o.material = MATERIAL_MIN + int(rng.below(MATERIAL_MAX - MATERIAL_MIN + 1));
        o.score = int(std::lround(std::clamp(300.0 * rng.normal(), -1500.0, 1500.0)));
        const double u = rng.uniform(), w = model.win(o.score, o.material),
                     l = model.loss(o.score, o.material);
        o.result = u < w ? 2 : u < w + l ? 0 : 1;
        out.push_back(o);
    }
    return out;
}

// A position of exactly the reference material: the start position without
// the queens and the h-pawns (78 - 18 - 2).
constexpr const char* REFERENCE_FEN = "rnb1kbnr/ppppppp1/8/8/8/8/PPPPPPP1/RNB1KBNR w KQkq - 0 1";

int printed_cp(const std::string& line) {
    std::smatch m;
    REQUIRE(std::regex_search(line, m, std::regex(" score cp (-?[0-9]+)")));
    return std::stoi(m[1]);
}

} // namespace

TEST_CASE("material counts pawns 1, minors 3, rooks 5, queens 9", "[wdl]") {
    CHECK(material_of(from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")) == MATERIAL_MAX);
    CHECK(material_of(from_fen(REFERENCE_FEN)) == MATERIAL_REFERENCE);
    CHECK(material_of(from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == 0);
    CHECK(material_of(from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) == 9);
    // Below its range a model reads every material as its least: 4 now, 17
    // in the first models.
    const WdlModel model;
    CHECK(model.scaled(2) == model.scaled(MATERIAL_MIN));
    CHECK(model.scaled(9) > model.scaled(MATERIAL_MIN));
    CHECK(model.scaled(MATERIAL_REFERENCE) == 1.0);
    WdlModel first;
    first.material_min = MATERIAL_MIN_FIRST;
    CHECK(first.scaled(9) == first.scaled(MATERIAL_MIN_FIRST));
    CHECK(first.scaled(MATERIAL_REFERENCE) == 1.0);
}

TEST_CASE("a score with a 50% win chance at the reference material prints as +100", "[wdl]") {
    const WdlModel model = known_model();
    const Position pos = from_fen(REFERENCE_FEN);
    const int m = material_of(pos);
    const Value half = Value(std::lround(model.a_of(m)));
    REQUIRE(std::abs(model.win(half, m) - 0.5) < 0.01);
    CHECK(std::abs(to_printed_cp(model, half, m) - 100) <= 5);
    CHECK(to_printed_cp(model, -half, m) == -to_printed_cp(model, half, m));
    CHECK(to_printed_cp(model, VALUE_ZERO, m) == 0);

    // As the info line writes it, with the win chance in permille.
    std::array<Move, 1> pv = {Move(SQ_E2, SQ_E4)};
    SearchInfo info;
    info.depth = 10;
    info.score = half;
    info.show_wdl = true;
    info.wdl = &model;
    info.root = &pos;
    info.move = pv[0];
    info.pv = pv.data();
    info.pv_length = 1;
    const std::string line = uci::info_line(info);
    INFO(line);
    CHECK(std::abs(printed_cp(line) - 100) <= 5);
    std::smatch wdl;
    REQUIRE(std::regex_search(line, wdl, std::regex(" wdl ([0-9]+) ([0-9]+) ([0-9]+)")));
    CHECK(std::abs(std::stoi(wdl[1]) - 500) <= 10);
    CHECK(std::stoi(wdl[1]) + std::stoi(wdl[2]) + std::stoi(wdl[3]) == 1000);

    // Without a model the score stays raw, mates and tablebase wins as they are.
    info.wdl = nullptr;
    CHECK(printed_cp(uci::info_line(info)) == half);
    const uci::ScoreScale scale{&model, m};
    CHECK(uci::score_text(mate_in(5), scale) == "mate 3");
    CHECK(uci::score_text(VALUE_TB_WIN_IN_MAX_PLY + 3, scale) ==
          "cp " + std::to_string(VALUE_TB_WIN_IN_MAX_PLY + 3));
    CHECK(uci::wdl_from_score(VALUE_TB_WIN_IN_MAX_PLY + 3, scale) == std::array<int, 3>{1000, 0, 0});
}

TEST_CASE("the fitter recovers the constants of a known model from its games", "[wdl]") {
    const WdlModel truth = known_model();
    train::WdlCounts counts;
    for (const auto& o : draw_games(truth, 400000, 81)) counts.add(o);
    train::WdlFit fit;
    const std::string why = train::fit_wdl(counts, fit);
    INFO(why);
    REQUIRE(why.empty());
    for (int m = 20; m <= MATERIAL_MAX; m += 6) {
        INFO("material " << m << ": a " << fit.model.a_of(m) << " (true " << truth.a_of(m) << "), b "
                         << fit.model.b_of(m) << " (true " << truth.b_of(m) << ")");
        CHECK(std::abs(fit.model.a_of(m) / truth.a_of(m) - 1) < 0.04);
        CHECK(std::abs(fit.model.b_of(m) / truth.b_of(m) - 1) < 0.06);
    }
    // The fitted model explains its games at least as well as the truth
    // does (it was chosen to), and far better than the old fixed formula.
    CHECK(fit.log_loss <= train::log_loss(truth, counts) + 1e-9);
    CHECK(train::log_loss(ROUGH_WDL_MODEL, counts) > fit.log_loss + 0.01);
    // Deterministic: the same counts give the same constants.
    train::WdlFit again;
    REQUIRE(train::fit_wdl(counts, again).empty());
    CHECK(again.model == fit.model);
}

TEST_CASE("on held-out games the model's win share is within 3 points in every full bin", "[wdl]") {
    const WdlModel truth = known_model();
    train::WdlCounts counts;
    for (const auto& o : draw_games(truth, 300000, 82)) counts.add(o);
    train::WdlFit fit;
    REQUIRE(train::fit_wdl(counts, fit).empty());
    const auto held = draw_games(truth, 300000, 83); // other games
    int full = 0;
    for (const train::WdlBin& bin : train::calibration(fit.model, held)) {
        if (bin.positions < 5000) continue;
        ++full;
        INFO("printed [" << bin.low << ", " << bin.high << "): " << bin.positions << " positions, wins "
                         << bin.measured[2] << " measured, " << bin.predicted[2] << " predicted");
        CHECK(std::abs(bin.measured[2] - bin.predicted[2]) < 0.03);
        CHECK(std::abs(bin.measured[0] - bin.predicted[0]) < 0.03);
    }
    CHECK(full >= 10);
    // Printed +100 is where the side to move wins half: the bins just below
    // and above it straddle 50%.
    const auto bins = train::calibration(fit.model, held, 20, 200);
    for (const train::WdlBin& bin : bins) {
        if (bin.low == 60) CHECK(bin.measured[2] < 0.5);
        if (bin.low == 120) CHECK(bin.measured[2] > 0.5);
    }
}

TEST_CASE("the report by material finds the band where the games leave the model", "[wdl]") {
    // Games that follow the model below material 45 and a model whose a(m)
    // is 40% larger (the same score less decisive) from 45 on.
    const WdlModel truth = known_model();
    WdlModel flatter = truth;
    for (double& c : flatter.a) c *= 1.4;
    std::vector<train::WdlObservation> games;
    for (const auto& o : draw_games(truth, 200000, 86))
        if (o.material < 45) games.push_back(o);
    for (const auto& o : draw_games(flatter, 200000, 87))
        if (o.material >= 45) games.push_back(o);
    const auto bins = train::calibration_by_material(truth, games, 50, 150, {0, 30, 45, 60, 1000});
    REQUIRE(bins.size() == 4);
    std::uint64_t in_band = 0;
    for (const auto& o : games) {
        const int shown = std::abs(to_printed_cp(truth, Value(o.score), o.material));
        in_band += shown >= 50 && shown < 150;
    }
    std::uint64_t counted = 0;
    for (const train::WdlMaterialBin& bin : bins) {
        INFO("material [" << bin.low << ", " << bin.high << "): " << bin.positions << " positions, wins "
                          << bin.measured[2] << " measured, " << bin.predicted[2] << " predicted");
        REQUIRE(bin.positions > 3000);
        counted += bin.positions;
        if (bin.high <= 45) {
            CHECK(std::abs(bin.measured[2] - bin.predicted[2]) < 0.03);
            CHECK(std::abs(bin.measured[0] - bin.predicted[0]) < 0.03);
        } else {
            CHECK(bin.predicted[2] - bin.measured[2] > 0.08);
        }
        // Folded to the side that stands better: it wins more than it loses.
        CHECK(bin.measured[2] > bin.measured[0]);
        CHECK(bin.predicted[2] > bin.predicted[0]);
    }
    // Every position printed within the band, on either side, is counted once.
    CHECK(counted == in_band);
}

TEST_CASE("games at a clock rescale a fitted model by two factors, read as they were printed", "[wdl]") {
    // At a clock the same score is more decisive: the games follow the
    // model with a(m) x 1.1 and b(m) x 0.5. Their scores are printed under
    // the cheap games' model, as the engine that played them would print.
    const WdlModel base = known_model();
    WdlModel at_clock = base;
    for (double& c : at_clock.a) c *= 1.1;
    for (double& c : at_clock.b) c *= 0.5;
    train::WdlCounts counts;
    for (train::WdlObservation o : draw_games(at_clock, 200000, 85)) {
        const int internal = o.score;
        o.score = to_printed_cp(base, Value(internal), o.material);
        o = train::internal_of(o, &base);
        REQUIRE(std::abs(o.score - internal) <= int(base.a_of(o.material) / 200) + 1);
        counts.add(o);
    }
    train::WdlScaleFit fit;
    const std::string why = train::fit_wdl_scale(base, counts, fit);
    INFO(why);
    REQUIRE(why.empty());
    CHECK(std::abs(fit.a - 1.1) < 0.03);
    CHECK(std::abs(fit.b - 0.5) < 0.03);
    CHECK(fit.model.a_of(MATERIAL_REFERENCE) == Approx(fit.a * base.a_of(MATERIAL_REFERENCE)));
    CHECK(fit.log_loss < train::log_loss(base, counts) - 0.005);
    // Raw scores (a net without a model printed them) are read as they are.
    CHECK(train::internal_of({123, 40, 2}, nullptr).score == 123);

    train::WdlCounts few;
    for (const auto& o : draw_games(at_clock, 500, 86)) few.add(o);
    train::WdlScaleFit kept;
    CHECK_THAT(train::fit_wdl_scale(base, few, kept), Catch::Contains("too few positions"));
    CHECK(kept.a == 1.0);
    CHECK_THAT(train::fit_wdl_scale(ROUGH_WDL_MODEL, few, kept), Catch::Contains("too few"));
    WdlModel broken = base;
    broken.a = {0, 0, 0, -5};
    CHECK_THAT(train::fit_wdl_scale(broken, counts, kept), Catch::Contains("not a score"));
}

TEST_CASE("too few games, or none decided, are refused by the fitter", "[wdl]") {
    train::WdlCounts few;
    for (const auto& o : draw_games(known_model(), 500, 84)) few.add(o);
    train::WdlFit fit;
    fit.model = known_model();
    CHECK_THAT(train::fit_wdl(few, fit), Catch::Contains("too few positions"));
    CHECK(fit.model == known_model());

    train::WdlCounts drawn;
    for (int i = 0; i < 5000; ++i) drawn.add({i % 400 - 200, 40, 1});
    CHECK_THAT(train::fit_wdl(drawn, fit), Catch::Contains("cannot fit"));
}

TEST_CASE("the WDL model travels in the net file and a bad one is refused", "[wdl][nnue]") {
    auto net = std::make_unique<nnue::Network>(nnue::default_network());
    net->wdl = known_model();
    const auto bytes = nnue::serialize(*net);
    CHECK(bytes.size() == nnue::FILE_BYTES_WDL);
    auto loaded = std::make_unique<nnue::Network>();
    REQUIRE(!nnue::deserialize(bytes, *loaded));
    REQUIRE(loaded->wdl);
    for (int k = 0; k < 4; ++k) { // stored as floats
        CHECK(loaded->wdl->a[std::size_t(k)] == Approx(known_model().a[std::size_t(k)]).epsilon(1e-6));
        CHECK(loaded->wdl->b[std::size_t(k)] == Approx(known_model().b[std::size_t(k)]).epsilon(1e-6));
    }
    CHECK(loaded->ft_weights == net->ft_weights);
    CHECK(loaded->wdl->material_min == MATERIAL_MIN);

    // A first model (8 values, read down to material 17) is written and
    // read back as one: 4 bytes shorter.
    net->wdl->material_min = MATERIAL_MIN_FIRST;
    const auto first = nnue::serialize(*net);
    CHECK(first.size() == nnue::FILE_BYTES_WDL - 4);
    REQUIRE(!nnue::deserialize(first, *loaded));
    REQUIRE(loaded->wdl);
    CHECK(loaded->wdl->material_min == MATERIAL_MIN_FIRST);
    CHECK(loaded->wdl->a_of(9) == Approx(known_model().a_of(MATERIAL_MIN_FIRST)).epsilon(1e-6));
    CHECK(loaded->wdl->a_of(9) != Approx(known_model().a_of(9)).epsilon(1e-3));

    // A floor that is neither is refused.
    net->wdl->material_min = 10;
    const auto odd = nnue::deserialize(nnue::serialize(*net), *loaded);
    REQUIRE(odd);
    CHECK_THAT(*odd, Catch::Contains("lowest material 10"));

    // Without a model: a smaller file, read back without one.
    net->wdl.reset();
    const auto plain = nnue::serialize(*net);
    CHECK(plain.size() == nnue::FILE_BYTES);
    REQUIRE(!nnue::deserialize(plain, *loaded));
    CHECK(!loaded->wdl);

    // A model whose a(m) is negative somewhere turns no score into a chance.
    net->wdl = known_model();
    net->wdl->a = {0, 0, -300, 100}; // a(m) < 0 from m = 20 on
    const nnue::Network before = *loaded;
    const auto error = nnue::deserialize(nnue::serialize(*net), *loaded);
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("WDL model") && Catch::Contains("is not a score"));
    CHECK(!loaded->wdl); // the net it held stays
    CHECK(loaded->ft_weights == before.ft_weights);
}

TEST_CASE("the engine prints scores normalised by EvalFile's model, and says when a net has none",
          "[wdl][uci]") {
    // The embedded net with a known model, and without one.
    auto net = std::make_unique<nnue::Network>(nnue::default_network());
    net->wdl = known_model();
    const std::string with = write_temp("wdl-with.nnue", nnue::serialize(*net));
    net->wdl.reset();
    const std::string without = write_temp("wdl-without.nnue", nnue::serialize(*net));

    auto search = [](const std::string& path) {
        test::UciSession s;
        s.send("setoption name EvalFile value " + path);
        const std::string loaded = s.last();
        s.send(std::string("position fen ") + REFERENCE_FEN);
        s.send("go depth 6");
        s.engine.wait_until_idle();
        return std::pair{loaded, s.last_starting("info depth 6 ")};
    };
    const auto [raw_loaded, raw_line] = search(without);
    const auto [normalised_loaded, normalised_line] = search(with);
    INFO(raw_line << "\n" << normalised_line);
    CHECK(raw_loaded == "info string EvalFile " + without +
                            " loaded; it carries no WDL model, so scores are its raw output, not normalised");
    CHECK(normalised_loaded == "info string EvalFile " + with + " loaded");
    // The same search (one thread, a depth), shown on two scales.
    const int raw = printed_cp(raw_line);
    CHECK(printed_cp(normalised_line) == std::lround(100.0 * raw / known_model().a_of(MATERIAL_REFERENCE)));
    const std::regex nodes(" nodes ([0-9]+) ");
    std::smatch a, b;
    REQUIRE(std::regex_search(raw_line, a, nodes));
    REQUIRE(std::regex_search(normalised_line, b, nodes));
    CHECK(a[1] == b[1]);
}
