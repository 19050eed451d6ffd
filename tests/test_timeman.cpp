// The time manager: the limits `go` turns into, and when another iteration
// is still worth starting.
#include <catch2/catch.hpp>

#include <memory>
#include <tuple>
#include <utility>

#include "staccato/timeman.h"

using namespace staccato;

namespace {

// A manager whose search "started" `ago_ms` milliseconds before now.
// (The manager holds an atomic, so it is not copied: a pointer comes back.)
std::unique_ptr<TimeManager> started(const SearchLimits& limits, Color us, int overhead_ms, int ago_ms) {
    auto tm = std::make_unique<TimeManager>();
    tm->init(limits, us, overhead_ms, std::chrono::steady_clock::now() - std::chrono::milliseconds(ago_ms));
    return tm;
}

// An iteration's report: the best move held `moves` iterations, the score
// `scores` iterations, the score fell `drop` cp, the best move took `share`
// of the nodes.
IterationReport report(int moves, int drop, double share, int scores = 0) {
    IterationReport r;
    r.move_stability = moves;
    r.score_stability = scores;
    r.score_drop = drop;
    r.best_move_node_share = share;
    return r;
}

SearchLimits with_clock(std::int64_t ms, std::int64_t inc_ms, int movestogo = 0) {
    SearchLimits l;
    l.time = {ms, ms};
    l.inc = {inc_ms, inc_ms};
    l.movestogo = movestogo;
    return l;
}

} // namespace

TEST_CASE("time manager: no limit without the side to move's clock", "[timeman]") {
    SearchLimits infinite;
    infinite.infinite = true;
    infinite.time = {1000, 1000};
    SearchLimits depth;
    depth.depth = 10;
    SearchLimits only_white = with_clock(5000, 0);
    only_white.time[BLACK] = -1;
    const std::pair<SearchLimits, Color> cases[] = {{infinite, WHITE}, {depth, WHITE}, {only_white, BLACK}};
    for (const auto& [limits, us] : cases) {
        const auto tm = started(limits, us, 10, 100000);
        CHECK_FALSE(tm->enabled());
        CHECK_FALSE(tm->hard_limit_reached());
        CHECK_FALSE(tm->should_stop_iterating(report(0, 0, 0.5)));
    }
}

TEST_CASE("time manager: movetime is used whole, less the overhead", "[timeman]") {
    SearchLimits l;
    l.movetime = 500;
    const auto tm = started(l, WHITE, 30, 0);
    CHECK(tm->enabled());
    CHECK(tm->soft_ms() == 470);
    CHECK(tm->hard_ms() == 470);
    CHECK_FALSE(tm->should_stop_iterating(report(5, 0, 1.0))); // a stable move does not end it early
    CHECK(started(l, WHITE, 30, 480)->should_stop_iterating(report(0, 100, 0.0)));
    CHECK(started(l, WHITE, 30, 480)->hard_limit_reached());
    l.movetime = 10; // less than the overhead: still a positive limit
    CHECK(started(l, WHITE, 30, 0)->hard_ms() >= 1);
}

TEST_CASE("time manager: a clock is spread over the moves left and never spent at once", "[timeman]") {
    const std::tuple<int, int, int> clocks[] = {{10000, 100, 0}, {60000, 0, 0}, {300000, 3000, 0},
                                                {20000, 0, 40},  {3000, 0, 1},  {500, 100, 0},
                                                {50, 0, 0},      {1, 0, 0}};
    for (const auto& [ms, inc, mtg] : clocks) {
        CAPTURE(ms, inc, mtg);
        const auto tm = started(with_clock(ms, inc, mtg), BLACK, 10, 0);
        const std::int64_t available = std::max<std::int64_t>(1, ms - 10);
        CHECK(tm->enabled());
        CHECK(tm->soft_ms() >= 1);
        CHECK(tm->soft_ms() <= tm->hard_ms());
        CHECK(tm->soft_ms() <= std::max<std::int64_t>(1, available / 2));
        CHECK(tm->hard_ms() <= std::max<std::int64_t>(tm->soft_ms(), available * 3 / 4));
        if (mtg == 0 && ms >= 10000) { // sudden death: a small share of the clock, plus most of the increment
            CHECK(tm->soft_ms() >= available / 60 + inc / 2);
            CHECK(tm->soft_ms() <= available / 15 + inc);
        }
    }
    // Fewer moves to the control: more time a move.
    CHECK(started(with_clock(20000, 0, 5), WHITE, 0, 0)->soft_ms() >
          started(with_clock(20000, 0, 30), WHITE, 0, 0)->soft_ms());
    // Only the side to move's clock counts.
    SearchLimits lopsided = with_clock(60000, 0);
    lopsided.time[BLACK] = 2000;
    CHECK(started(lopsided, BLACK, 0, 0)->soft_ms() < started(lopsided, WHITE, 0, 0)->soft_ms());
}

TEST_CASE("time manager: a stable best move stops earlier than a changing or falling one", "[timeman]") {
    const SearchLimits l = with_clock(60000, 0);
    const std::int64_t soft = started(l, WHITE, 0, 0)->soft_ms();
    // At about the soft limit: a best move that has held for five iterations
    // and takes most of the nodes is settled; one that just changed, whose
    // score fell, and that takes few of the nodes gets more time.
    const auto now = started(l, WHITE, 0, int(soft));
    CHECK(now->should_stop_iterating(report(5, 0, 0.9)));
    CHECK_FALSE(now->should_stop_iterating(report(0, 80, 0.2)));
    // Each factor alone moves the decision the same way: where the settled
    // move first stops (in steps of a twentieth of the soft limit), a move
    // that just changed, a falling score or a small node share goes on.
    int first_stop = 0;
    for (int k = 1; k <= 40 && !first_stop; ++k)
        if (started(l, WHITE, 0, int(soft * k / 20))->should_stop_iterating(report(5, 0, 0.9)))
            first_stop = k;
    REQUIRE(first_stop > 0);
    const auto early = started(l, WHITE, 0, int(soft * first_stop / 20));
    CHECK_FALSE(early->should_stop_iterating(report(0, 0, 0.9)));
    CHECK_FALSE(early->should_stop_iterating(report(5, 100, 0.9)));
    CHECK_FALSE(early->should_stop_iterating(report(5, 0, 0.0)));
    // Nothing stretches past the hard limit, and nothing stops at once.
    CHECK(started(l, WHITE, 0, int(started(l, WHITE, 0, 0)->hard_ms()))
              ->should_stop_iterating(report(0, 100, 0.0)));
    CHECK_FALSE(started(l, WHITE, 0, 0)->should_stop_iterating(report(5, 0, 1.0)));
}

TEST_CASE("time manager: a settled score stops earlier than a moving one", "[timeman]") {
    const SearchLimits l = with_clock(60000, 0);
    const std::int64_t soft = started(l, WHITE, 0, 0)->soft_ms();
    // From nothing to twice the soft limit: a score that held for five
    // iterations never asks for more time than one that just moved, and
    // somewhere in between it stops where the moving one goes on.
    int settled_stops_first = 0;
    for (int k = 1; k <= 40; ++k) {
        CAPTURE(k);
        const auto tm = started(l, WHITE, 0, int(soft * k / 20));
        const bool settled = tm->should_stop_iterating(report(5, 0, 0.9, 5));
        const bool moving = tm->should_stop_iterating(report(5, 0, 0.9, 0));
        CHECK((settled || !moving));
        settled_stops_first += settled && !moving;
    }
    CHECK(settled_stops_first > 0);
}
