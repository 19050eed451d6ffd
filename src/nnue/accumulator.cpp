#include "staccato/nnue/accumulator.h"

#include <algorithm>
#include <bit>

#include "staccato/nnue/simd.h"

#if defined(STACCATO_SIMD_AVX512) || defined(STACCATO_SIMD_AVX2)
#include <immintrin.h>
#elif defined(STACCATO_SIMD_NEON)
#include <arm_neon.h>
#endif

namespace staccato::nnue {

DirtyPieces dirty_pieces(const Position& pos, Move m) {
    DirtyPieces d;
    const Color us = pos.side_to_move();
    const Piece mover = pos.moved_piece(m);
    auto remove = [&](Piece p, Square s) { d.removed[d.removed_count++] = {p, s}; };
    auto add = [&](Piece p, Square s) { d.added[d.added_count++] = {p, s}; };
    d.kings = {pos.king_square(WHITE), pos.king_square(BLACK)};
    auto king_to = [&](Square to) {
        d.rebuild[us] = mirrors(d.kings[us]) != mirrors(to);
        d.kings[us] = to;
    };

    if (m.type() == MoveType::Castling) { // encoded king takes rook
        const bool king_side = m.to() > m.from();
        remove(mover, m.from());
        remove(pos.piece_on(m.to()), m.to());
        add(mover, castle_king_to(us, king_side));
        add(make_piece(us, ROOK), castle_rook_to(us, king_side));
        king_to(castle_king_to(us, king_side));
        return d;
    }
    if (type_of(mover) == KING) king_to(m.to());
    remove(mover, m.from());
    if (m.type() == MoveType::EnPassant)
        remove(make_piece(~us, PAWN), Square(m.to() - pawn_push(us)));
    else if (!pos.empty(m.to()))
        remove(pos.piece_on(m.to()), m.to());
    add(m.type() == MoveType::Promotion ? make_piece(us, m.promotion()) : mover, m.to());
    return d;
}

namespace {

// The feature transformer's weights of one input (HIDDEN of them), for the
// perspective `view` whose king is on `king`.
const std::int16_t* row(const Network& net, Color view, Square king, Piece pc, Square s) {
    return &net.ft_weights[std::size_t(feature_index(view, king, pc, s)) * HIDDEN];
}

// The output weights of `bucket` for one half (0: the side to move's).
const std::int16_t* output_weights(const Network& net, int bucket, int half) {
    return &net.out_weights[std::size_t(bucket) * OUTPUT_INPUTS + std::size_t(half) * HIDDEN];
}

} // namespace

void refresh_scalar(const Network& net, const Position& pos, Accumulator& acc) {
    for (Color view : {WHITE, BLACK}) {
        auto& v = acc.values[view];
        v = net.ft_bias;
        const Square king = pos.king_square(view);
        for (Bitboard b = pos.pieces(); b; b &= b - 1) {
            const Square s = Square(std::countr_zero(b));
            const std::int16_t* w = row(net, view, king, pos.piece_on(s), s);
            for (int j = 0; j < HIDDEN; ++j) v[j] = std::int16_t(v[j] + w[j]);
        }
    }
}

// The plain loops: one pass over the neurons per perspective, whatever the
// number of changed pieces.
void update_scalar(const Network& net, const Accumulator& parent, const DirtyPieces& d, Accumulator& child) {
    for (Color view : {WHITE, BLACK}) {
        if (d.rebuild[view]) continue;
        const Square k = d.kings[view];
        const std::int16_t* in = parent.values[view].data();
        std::int16_t* out = child.values[view].data();
        const std::int16_t* r0 = row(net, view, k, d.removed[0].piece, d.removed[0].square);
        const std::int16_t* a0 = row(net, view, k, d.added[0].piece, d.added[0].square);
        if (d.removed_count == 1) { // a quiet move or a promotion
            for (int j = 0; j < HIDDEN; ++j) out[j] = std::int16_t(in[j] - r0[j] + a0[j]);
        } else if (d.added_count == 1) { // a capture
            const std::int16_t* r1 = row(net, view, k, d.removed[1].piece, d.removed[1].square);
            for (int j = 0; j < HIDDEN; ++j) out[j] = std::int16_t(in[j] - r0[j] - r1[j] + a0[j]);
        } else { // castling
            const std::int16_t* r1 = row(net, view, k, d.removed[1].piece, d.removed[1].square);
            const std::int16_t* a1 = row(net, view, k, d.added[1].piece, d.added[1].square);
            for (int j = 0; j < HIDDEN; ++j) out[j] = std::int16_t(in[j] - r0[j] - r1[j] + a0[j] + a1[j]);
        }
    }
}

#ifdef STACCATO_SIMD
namespace {

// One register of int16 neurons, and one of int32 sums for the output layer
// (the same register on x86); the rows and the accumulators are 64-byte
// aligned and HIDDEN is a multiple of the register's width. Every SIMD loop
// below is written once, through these. Integer arithmetic is exact, so each
// path computes the plain loops' values bit for bit.
#if defined(STACCATO_SIMD_AVX512)
using Vec = __m512i;
using Vec32 = __m512i;
constexpr int LANES = 32;
inline Vec load(const std::int16_t* p) { return _mm512_load_si512(p); }
inline void store(std::int16_t* p, Vec v) { _mm512_store_si512(p, v); }
inline Vec add(Vec a, Vec b) { return _mm512_add_epi16(a, b); }
inline Vec sub(Vec a, Vec b) { return _mm512_sub_epi16(a, b); }
inline Vec splat(std::int16_t x) { return _mm512_set1_epi16(x); }
inline Vec zero() { return _mm512_setzero_si512(); }
inline Vec32 zero32() { return _mm512_setzero_si512(); }
inline Vec vmin(Vec a, Vec b) { return _mm512_min_epi16(a, b); }
inline Vec vmax(Vec a, Vec b) { return _mm512_max_epi16(a, b); }
inline Vec mullo(Vec a, Vec b) { return _mm512_mullo_epi16(a, b); }
// sum + the int16 products a * b, widened to int32 (adjacent pairs summed).
inline Vec32 dot_add(Vec32 sum, Vec a, Vec b) { return _mm512_add_epi32(sum, _mm512_madd_epi16(a, b)); }
// Through memory: GCC 12 warns about _mm512_reduce_add_epi32's own code.
inline std::int32_t sum32(Vec32 v) {
    alignas(64) std::array<std::int32_t, 16> lanes;
    _mm512_store_si512(lanes.data(), v);
    std::int32_t total = 0;
    for (std::int32_t lane : lanes) total += lane;
    return total;
}
#elif defined(STACCATO_SIMD_AVX2)
using Vec = __m256i;
using Vec32 = __m256i;
constexpr int LANES = 16;
inline Vec load(const std::int16_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store(std::int16_t* p, Vec v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
inline Vec add(Vec a, Vec b) { return _mm256_add_epi16(a, b); }
inline Vec sub(Vec a, Vec b) { return _mm256_sub_epi16(a, b); }
inline Vec splat(std::int16_t x) { return _mm256_set1_epi16(x); }
inline Vec zero() { return _mm256_setzero_si256(); }
inline Vec32 zero32() { return _mm256_setzero_si256(); }
inline Vec vmin(Vec a, Vec b) { return _mm256_min_epi16(a, b); }
inline Vec vmax(Vec a, Vec b) { return _mm256_max_epi16(a, b); }
inline Vec mullo(Vec a, Vec b) { return _mm256_mullo_epi16(a, b); }
inline Vec32 dot_add(Vec32 sum, Vec a, Vec b) { return _mm256_add_epi32(sum, _mm256_madd_epi16(a, b)); }
inline std::int32_t sum32(Vec32 v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}
#elif defined(STACCATO_SIMD_NEON)
// 128-bit Advanced SIMD, which every 64-bit ARM CPU has: eight int16 lanes,
// and four int32 lanes for the sums.
using Vec = int16x8_t;
using Vec32 = int32x4_t;
constexpr int LANES = 8;
inline Vec load(const std::int16_t* p) { return vld1q_s16(p); }
inline void store(std::int16_t* p, Vec v) { vst1q_s16(p, v); }
inline Vec add(Vec a, Vec b) { return vaddq_s16(a, b); } // wraps, as the plain loops' int16 casts
inline Vec sub(Vec a, Vec b) { return vsubq_s16(a, b); }
inline Vec splat(std::int16_t x) { return vdupq_n_s16(x); }
inline Vec zero() { return vdupq_n_s16(0); }
inline Vec32 zero32() { return vdupq_n_s32(0); }
inline Vec vmin(Vec a, Vec b) { return vminq_s16(a, b); }
inline Vec vmax(Vec a, Vec b) { return vmaxq_s16(a, b); }
inline Vec mullo(Vec a, Vec b) { return vmulq_s16(a, b); } // the low 16 bits of each product
// Widening multiply-accumulate: the low four lanes' products into the sums,
// then the high four's (which sums hold which products differs from x86's
// madd; only their total, sum32, is ever read).
inline Vec32 dot_add(Vec32 sum, Vec a, Vec b) {
    return vmlal_high_s16(vmlal_s16(sum, vget_low_s16(a), vget_low_s16(b)), a, b);
}
inline std::int32_t sum32(Vec32 v) { return vaddvq_s32(v); }
#endif
static_assert(HIDDEN % LANES == 0);

// out = in - removed rows + added rows, wrapping in 16 bits as the plain loop.
template <int Removed, int Added>
void apply_rows(const std::int16_t* in, std::int16_t* out, const std::int16_t* const* r,
                const std::int16_t* const* a) {
    for (int j = 0; j < HIDDEN; j += LANES) {
        Vec v = load(in + j);
        for (int i = 0; i < Removed; ++i) v = sub(v, load(r[i] + j));
        for (int i = 0; i < Added; ++i) v = add(v, load(a[i] + j));
        store(out + j, v);
    }
}

} // namespace

void update(const Network& net, const Accumulator& parent, const DirtyPieces& d, Accumulator& child) {
    for (Color view : {WHITE, BLACK}) {
        if (d.rebuild[view]) continue;
        const Square k = d.kings[view];
        const std::int16_t* in = parent.values[view].data();
        std::int16_t* out = child.values[view].data();
        const std::int16_t* r[2] = {row(net, view, k, d.removed[0].piece, d.removed[0].square), nullptr};
        const std::int16_t* a[2] = {row(net, view, k, d.added[0].piece, d.added[0].square), nullptr};
        if (d.removed_count == 1) {
            apply_rows<1, 1>(in, out, r, a);
        } else {
            r[1] = row(net, view, k, d.removed[1].piece, d.removed[1].square);
            if (d.added_count == 1) {
                apply_rows<2, 1>(in, out, r, a);
            } else {
                a[1] = row(net, view, k, d.added[1].piece, d.added[1].square);
                apply_rows<2, 2>(in, out, r, a);
            }
        }
    }
}

void refresh(const Network& net, const Position& pos, Accumulator& acc) {
    // A block of neurons at a time held in registers over all the pieces:
    // eight registers, or four where eight do not divide HIDDEN (384 wide
    // with AVX-512). NEON has 32 registers but 16-byte ones: 16 of them.
    constexpr int REGISTERS = LANES == 8 ? 16 : 8;
    constexpr int BLOCK = HIDDEN % (REGISTERS * LANES) == 0 ? REGISTERS * LANES : REGISTERS / 2 * LANES;
    static_assert(HIDDEN % BLOCK == 0);
    for (Color view : {WHITE, BLACK}) {
        const Square king = pos.king_square(view);
        for (int j0 = 0; j0 < HIDDEN; j0 += BLOCK) {
            Vec v[BLOCK / LANES];
            for (int k = 0; k < BLOCK / LANES; ++k) v[k] = load(net.ft_bias.data() + j0 + k * LANES);
            for (Bitboard b = pos.pieces(); b; b &= b - 1) {
                const Square s = Square(std::countr_zero(b));
                const std::int16_t* w = row(net, view, king, pos.piece_on(s), s) + j0;
                for (int k = 0; k < BLOCK / LANES; ++k) v[k] = add(v[k], load(w + k * LANES));
            }
            for (int k = 0; k < BLOCK / LANES; ++k) store(acc.values[view].data() + j0 + k * LANES, v[k]);
        }
    }
}
#else
void update(const Network& net, const Accumulator& parent, const DirtyPieces& d, Accumulator& child) {
    update_scalar(net, parent, d, child);
}
void refresh(const Network& net, const Position& pos, Accumulator& acc) { refresh_scalar(net, pos, acc); }
#endif

void remove_piece(const Network& net, const Position& pos, Square s, Accumulator& acc) {
    for (Color view : {WHITE, BLACK}) {
        const std::int16_t* r = row(net, view, pos.king_square(view), pos.piece_on(s), s);
        for (int j = 0; j < HIDDEN; ++j) acc.values[view][j] = std::int16_t(acc.values[view][j] - r[j]);
    }
}

void RefreshCache::clear(const Network& net) {
    for (auto& view : entries_)
        for (Entry& e : view) {
            e.values = net.ft_bias;
            e.pieces.fill(0);
        }
}

// The rows are added and taken away in place, one at a time: a crossing
// changes few pieces since the entry was last used, mostly the king and the
// pieces that moved since.
void RefreshCache::rebuild(const Network& net, const Position& pos, Color view, Accumulator& acc) {
    const Square king = pos.king_square(view);
    Entry& e = entries_[view][mirrors(king)];
    std::int16_t* v = e.values.data();
    for (int p = 0; p < PIECE_NB; ++p) {
        const Piece pc = Piece(p);
        if (p == NO_PIECE || (p & 7) >= PIECE_TYPE_NB) continue;
        const Bitboard now = pos.pieces(color_of(pc), type_of(pc)), before = e.pieces[std::size_t(p)];
        for (Bitboard b = before & ~now; b; b &= b - 1) {
            const std::int16_t* r = row(net, view, king, pc, Square(std::countr_zero(b)));
            for (int j = 0; j < HIDDEN; ++j) v[j] = std::int16_t(v[j] - r[j]);
        }
        for (Bitboard b = now & ~before; b; b &= b - 1) {
            const std::int16_t* a = row(net, view, king, pc, Square(std::countr_zero(b)));
            for (int j = 0; j < HIDDEN; ++j) v[j] = std::int16_t(v[j] + a[j]);
        }
        e.pieces[std::size_t(p)] = now;
    }
    acc.values[view] = e.values;
}

void apply(const Network& net, const Position& after, const Accumulator& parent, const DirtyPieces& dirty,
           Accumulator& child, RefreshCache& cache) {
    update(net, parent, dirty, child);
    for (Color view : {WHITE, BLACK})
        if (dirty.rebuild[view]) cache.rebuild(net, after, view, child);
}

// SCReLU output: sum over both halves of clamp(a, 0, QA)^2 * w, in units of
// QA * QA * QB. |w| <= MAX_OUTPUT_WEIGHT (the trainer clips it, arch.h), so
// clamp(a) * w fits in 16 bits and the SIMD path can multiply in 16 bits and
// then widen and sum in 32: c * (c * w) with dot_add.
std::int32_t output_sum_scalar(const Network& net, const Accumulator& acc, Color stm, int bucket) {
    std::int32_t sum = 0;
    for (int half = 0; half < 2; ++half) {
        const auto& a = acc.values[half == 0 ? stm : ~stm];
        const std::int16_t* w = output_weights(net, bucket, half);
        for (int j = 0; j < HIDDEN; ++j) {
            const std::int32_t c = std::clamp<std::int32_t>(a[j], 0, QA);
            sum += c * c * w[j];
        }
    }
    return sum;
}

std::int32_t output_sum(const Network& net, const Accumulator& acc, Color stm, int bucket) {
#ifdef STACCATO_SIMD
    const Vec low = zero(), high = splat(QA);
    Vec32 sum = zero32();
    for (int half = 0; half < 2; ++half) {
        const std::int16_t* a = acc.values[half == 0 ? stm : ~stm].data();
        const std::int16_t* w = output_weights(net, bucket, half);
        for (int j = 0; j < HIDDEN; j += LANES) {
            const Vec c = vmin(vmax(load(a + j), low), high);
            sum = dot_add(sum, c, mullo(c, load(w + j)));
        }
    }
    return sum32(sum);
#else
    return output_sum_scalar(net, acc, stm, bucket);
#endif
}

Value evaluate(const Network& net, const Accumulator& acc, Color stm, int piece_count) {
    const int bucket = output_bucket(piece_count);
    const std::int64_t raw =
        std::int64_t(output_sum(net, acc, stm, bucket)) / QA + net.out_bias[std::size_t(bucket)];
    const std::int64_t cp = raw * SCALE / (QA * QB);
    // Keep clear of the mate scores the search reserves.
    return Value(std::clamp<std::int64_t>(cp, -(VALUE_MATE_IN_MAX_PLY - 1), VALUE_MATE_IN_MAX_PLY - 1));
}

Value evaluate(const Network& net, const Position& pos) {
    Accumulator acc;
    refresh(net, pos, acc);
    return evaluate(net, acc, pos.side_to_move(), popcount(pos.pieces()));
}

} // namespace staccato::nnue
