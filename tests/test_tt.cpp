// The transposition table: round trips, replacement, mate-score conversion,
// clearing (single- and multi-threaded) and resizing.
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <string>

#include "staccato/tt.h"

using namespace staccato;

namespace {
// Keys that land in one bucket of a 1 MB table: the index is the top bits of
// key * count, so keys that differ only in their low bits share a bucket.
Key same_bucket_key(int i) { return (Key(0x9E3779B97F4A7C15ull) & ~Key(0xFFFF)) | Key(i + 1); }
} // namespace

TEST_CASE("store then probe returns every field", "[tt]") {
    TranspositionTable tt(1);
    const Key key = 0x123456789ABCDEF0ull;
    TTData d;
    REQUIRE(!tt.probe(key, d));
    tt.store(key, Move(SQ_E2, SQ_E4), Value(-123), Value(45), 7, Bound::Lower);
    REQUIRE(tt.probe(key, d));
    CHECK(d.move == Move(SQ_E2, SQ_E4));
    CHECK(d.score == -123);
    CHECK(d.eval == 45);
    CHECK(d.depth == 7);
    CHECK(d.bound == Bound::Lower);
    CHECK(!tt.probe(key ^ 1, d)); // another key in the same bucket misses
}

TEST_CASE("a result without a move keeps the stored move", "[tt]") {
    TranspositionTable tt(1);
    const Key key = 42;
    tt.store(key, Move(SQ_G1, SQ_F3), Value(10), Value(0), 3, Bound::Exact);
    tt.store(key, Move::none(), Value(20), Value(0), 5, Bound::Upper);
    TTData d;
    REQUIRE(tt.probe(key, d));
    CHECK(d.move == Move(SQ_G1, SQ_F3));
    CHECK(d.score == 20);
    CHECK(d.depth == 5);
}

TEST_CASE("a full bucket replaces its shallowest entry", "[tt]") {
    TranspositionTable tt(1);
    for (int i = 0; i < 4; ++i)
        tt.store(same_bucket_key(i), Move::none(), Value(i), Value(0), 10 + i, Bound::Exact);
    tt.store(same_bucket_key(4), Move::none(), Value(4), Value(0), 1, Bound::Exact);
    TTData d;
    CHECK(!tt.probe(same_bucket_key(0), d)); // depth 10 was the shallowest
    for (int i = 1; i <= 4; ++i) CHECK(tt.probe(same_bucket_key(i), d));
}

TEST_CASE("mate scores are stored relative to the node", "[tt]") {
    const Value mate_in_5_from_root = VALUE_MATE - 5;
    const int ply = 3;
    Value stored = value_to_tt(mate_in_5_from_root, ply);
    CHECK(stored == VALUE_MATE - 2); // mate in 2 from the node
    CHECK(value_from_tt(stored, ply) == mate_in_5_from_root);
    CHECK(value_from_tt(stored, 1) == VALUE_MATE - 3); // reached nearer the root
    CHECK(value_to_tt(Value(150), ply) == 150);
    CHECK(value_from_tt(value_to_tt(-VALUE_MATE + 8, 4), 4) == -VALUE_MATE + 8);
}

TEST_CASE("clear empties the table with one thread or several", "[tt]") {
    for (int threads : {1, 4}) {
        TranspositionTable tt(64); // 1M buckets: four threads get a share each
        for (Key k = 1; k < 5000; ++k)
            tt.store(k * 0x9E3779B97F4A7C15ull, Move::none(), Value(1), Value(0), 4, Bound::Exact);
        tt.new_search();
        tt.store(7, Move::none(), Value(1), Value(0), 4, Bound::Exact);
        CHECK(tt.hashfull() >= 0);
        tt.clear(threads);
        TTData d;
        int hits = 0;
        for (Key k = 1; k < 5000; ++k) hits += tt.probe(k * 0x9E3779B97F4A7C15ull, d);
        CHECK(hits == 0);
        CHECK(tt.hashfull() == 0);
    }
}

TEST_CASE("resize gives an empty table, an impossible size keeps the old one", "[tt]") {
    TranspositionTable tt(1);
    tt.store(99, Move::none(), Value(5), Value(0), 2, Bound::Exact);
    REQUIRE(tt.resize(4, 2));
    CHECK(tt.size_mb() == 4);
    TTData d;
    CHECK(!tt.probe(99, d));
    tt.store(99, Move::none(), Value(5), Value(0), 2, Bound::Exact);
    CHECK(!tt.resize(std::size_t(1) << 40)); // a petabyte
    CHECK(tt.size_mb() == 4);
    CHECK(tt.probe(99, d));
}

TEST_CASE("the physical memory is known and bounds the hash size", "[tt]") {
    const auto memory = physical_memory();
    REQUIRE(memory);
    CHECK(*memory >= std::uint64_t(64) << 20);
#ifdef __linux__
    // The kernel's own figure, in kB: the same count of pages, or less where
    // a container shows its own limit in /proc/meminfo (LXCFS).
    std::ifstream meminfo("/proc/meminfo");
    std::string key, unit;
    std::uint64_t kb = 0;
    REQUIRE((meminfo >> key >> kb >> unit));
    REQUIRE(key == "MemTotal:");
    CHECK(kb > 0);
    CHECK(kb <= *memory / 1024);
#endif
    // Three quarters of the memory is the limit: just above it is refused
    // before anything is allocated, and the old table stays.
    TranspositionTable tt(1);
    CHECK(!tt.resize(std::size_t(*memory / 4 * 3 / (1 << 20) + 1)));
    CHECK(tt.size_mb() == 1);
}
