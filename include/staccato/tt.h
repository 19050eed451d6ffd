// Transposition table: a shared, lock-free hash of search results.
//
// A bucket is one 64-byte cache line of four entries. Each entry is two
// 64-bit words, (key ^ data) and data, written with relaxed atomics: a torn
// write from another thread makes the key check fail instead of returning a
// mixed entry ("lockless hashing"). Replacement prefers the entry that is
// oldest and shallowest. Mate scores are stored relative to the node.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "staccato/types.h"

namespace staccato {

// The machine's physical memory in bytes (sysconf on POSIX,
// GlobalMemoryStatusEx on Windows); nullopt where the system cannot say.
std::optional<std::uint64_t> physical_memory();

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

struct TTData {
    Move move;
    Value score = VALUE_NONE;
    Value eval = VALUE_NONE;
    int depth = 0;
    Bound bound = Bound::None;
};

class TranspositionTable {
  public:
    explicit TranspositionTable(std::size_t mb = 16);

    // Returns false (and keeps the old table) if the memory isn't available.
    // The new table is zeroed by `threads` threads, as clear() does.
    bool resize(std::size_t mb, int threads = 1);
    // Zeroes every entry, split over `threads` threads: a 64 GB table takes
    // seconds to touch, and `ucinewgame` with Threads N should use them all.
    void clear(int threads = 1);
    void new_search() { generation_ = std::uint8_t((generation_ + 1) & 63); }

    // Looks the key up; fills `out` and returns true on a hit.
    bool probe(Key key, TTData& out) const;
    void store(Key key, Move move, Value score, Value eval, int depth, Bound bound);
    void prefetch(Key key) const { __builtin_prefetch(&buckets_[index(key)]); }

    // Permille of sampled entries written during the current search.
    int hashfull() const;
    std::size_t size_mb() const { return mb_; }

  private:
    struct Entry {
        std::atomic<std::uint64_t> check{0}; // key ^ data
        std::atomic<std::uint64_t> data{0};
    };
    struct alignas(64) Bucket {
        Entry entries[4];
    };

    std::size_t index(Key key) const {
        return std::size_t((static_cast<unsigned __int128>(key) * count_) >> 64);
    }

    struct FreeBuckets {
        void operator()(Bucket* p) const;
    };
    std::unique_ptr<Bucket[], FreeBuckets> buckets_;
    std::size_t count_ = 0;
    std::size_t mb_ = 0;
    std::uint8_t generation_ = 0;
};

// Mate and tablebase scores in the table count from the stored node, not the root.
constexpr Value value_to_tt(Value v, int ply) {
    return v >= VALUE_TB_WIN_IN_MAX_PLY ? v + ply : v <= VALUE_TB_LOSS_IN_MAX_PLY ? v - ply : v;
}
constexpr Value value_from_tt(Value v, int ply) {
    if (v == VALUE_NONE) return v;
    return v >= VALUE_TB_WIN_IN_MAX_PLY ? v - ply : v <= VALUE_TB_LOSS_IN_MAX_PLY ? v + ply : v;
}

} // namespace staccato
