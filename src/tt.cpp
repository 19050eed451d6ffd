// The transposition table: its memory (on a 2 MB boundary, huge pages asked
// for on Linux, cleared by several threads), the machine's physical memory
// that bounds Hash, and the probe, store and replacement of entries.
#include "staccato/tt.h"

#include <algorithm>
#include <new>
#include <thread>
#include <vector>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX // std::min and std::max, not the macros
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <unistd.h>
#endif
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace staccato {

std::optional<std::uint64_t> physical_memory() {
#ifdef _WIN32
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof status;
    if (!GlobalMemoryStatusEx(&status) || status.ullTotalPhys == 0) return std::nullopt;
    return std::uint64_t(status.ullTotalPhys);
#elif defined(_SC_PHYS_PAGES)
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return std::nullopt;
    return std::uint64_t(pages) * std::uint64_t(page_size);
#else
    return std::nullopt;
#endif
}

namespace {
// data word: move 16 | score 16 | eval 16 | depth 8 | generation 6 + bound 2
std::uint64_t pack(Move move, Value score, Value eval, int depth, Bound bound, std::uint8_t gen) {
    return std::uint64_t(move.raw()) | (std::uint64_t(std::uint16_t(std::int16_t(score))) << 16) |
           (std::uint64_t(std::uint16_t(std::int16_t(eval))) << 32) |
           (std::uint64_t(std::uint8_t(depth)) << 48) |
           (std::uint64_t((gen << 2) | std::uint8_t(bound)) << 56);
}
int depth_of(std::uint64_t d) { return int(std::int8_t((d >> 48) & 0xFF)); }
std::uint8_t gen_of(std::uint64_t d) { return std::uint8_t(d >> 58); }
} // namespace

TranspositionTable::TranspositionTable(std::size_t mb) { resize(mb); }

namespace {
// The table starts on a 2 MB boundary, the size of an x86-64 huge page: each
// probe is a random cache line, and with 4 KB pages a 16 MB table already
// overflows the TLB, so most probes would also walk the page tables.
constexpr std::size_t TABLE_ALIGNMENT = std::size_t(2) << 20;
} // namespace

void TranspositionTable::FreeBuckets::operator()(Bucket* p) const {
    ::operator delete[](p, std::align_val_t(TABLE_ALIGNMENT));
}

bool TranspositionTable::resize(std::size_t mb, int threads) {
    // Refuse sizes the machine cannot hold: the table is touched at once, and
    // an over-committed allocation would end in the OOM killer, not in nullptr.
    // Unknown memory: no limit but the allocation's own.
    if (const auto memory = physical_memory(); memory && std::uint64_t(mb) * 1024 * 1024 > *memory / 4 * 3)
        return false;
    std::size_t count = mb * 1024 * 1024 / sizeof(Bucket);
    if (count == 0) count = 1;
    // Raw memory: the buckets are constructed by clear(), in parallel.
    void* raw = ::operator new[](count * sizeof(Bucket), std::align_val_t(TABLE_ALIGNMENT), std::nothrow);
    if (!raw) return false;
#ifdef __linux__
    // Ask for transparent huge pages (where the system hands them out only on
    // request, "madvise" mode) before clear() touches the memory; a refusal
    // only costs speed.
    madvise(raw, count * sizeof(Bucket), MADV_HUGEPAGE);
#endif
    buckets_.reset(static_cast<Bucket*>(raw));
    count_ = count;
    mb_ = mb;
    clear(threads);
    return true;
}

void TranspositionTable::clear(int threads) {
    // Each thread (re)constructs its own contiguous share of the buckets.
    auto zero = [this](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) new (&buckets_[i]) Bucket{};
    };
    constexpr std::size_t MIN_SHARE = 1 << 16; // 4 MB: smaller jobs stay on one thread
    std::size_t n = std::clamp<std::size_t>(count_ / MIN_SHARE, 1, std::size_t(std::max(threads, 1)));
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < n; ++t) helpers.emplace_back(zero, count_ * t / n, count_ * (t + 1) / n);
    zero(0, count_ / n);
    for (std::thread& h : helpers) h.join();
    generation_ = 0;
}

bool TranspositionTable::probe(Key key, TTData& out) const {
    const Bucket& b = buckets_[index(key)];
    for (const Entry& e : b.entries) {
        std::uint64_t data = e.data.load(std::memory_order_relaxed);
        std::uint64_t check = e.check.load(std::memory_order_relaxed);
        if ((check ^ data) != key || data == 0) continue;
        out.move = Move(std::uint16_t(data & 0xFFFF));
        out.score = Value(std::int16_t((data >> 16) & 0xFFFF));
        out.eval = Value(std::int16_t((data >> 32) & 0xFFFF));
        out.depth = depth_of(data);
        out.bound = Bound((data >> 56) & 3);
        return true;
    }
    return false;
}

void TranspositionTable::store(Key key, Move move, Value score, Value eval, int depth, Bound bound) {
    Bucket& b = buckets_[index(key)];
    Entry* victim = &b.entries[0];
    int victim_worth = 1 << 30;
    for (Entry& e : b.entries) {
        std::uint64_t data = e.data.load(std::memory_order_relaxed);
        std::uint64_t check = e.check.load(std::memory_order_relaxed);
        if ((check ^ data) == key && data != 0) {
            // Same position: keep the old move if the new result has none,
            // and keep a deeper old entry unless the new one is exact.
            if (!move) move = Move(std::uint16_t(data & 0xFFFF));
            if (bound != Bound::Exact && depth + 3 < depth_of(data) && gen_of(data) == generation_) return;
            victim = &e;
            break;
        }
        // Worth keeping: depth, minus 8 per generation of age.
        int age = (generation_ - gen_of(data)) & 63;
        int worth = data == 0 ? -1000 : depth_of(data) - 8 * age;
        if (worth < victim_worth) {
            victim_worth = worth;
            victim = &e;
        }
    }
    std::uint64_t data = pack(move, score, eval, depth, bound, generation_);
    victim->data.store(data, std::memory_order_relaxed);
    victim->check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    int used = 0, sampled = 0;
    for (std::size_t i = 0; i < count_ && sampled < 1000; ++i)
        for (const Entry& e : buckets_[i].entries) {
            std::uint64_t data = e.data.load(std::memory_order_relaxed);
            ++sampled;
            used += data != 0 && gen_of(data) == generation_;
        }
    return sampled ? used * 1000 / sampled : 0;
}

} // namespace staccato
