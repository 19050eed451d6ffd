// What the evaluation network is, in one place: its inputs and how they are
// numbered, its size, its activation, its output buckets, how its weights are
// quantised, and the shape fields its file records. The engine (network.h,
// accumulator.cpp), the trainer (src/train/model.*) and the net file's check
// (network.cpp) all read these names; nothing else restates the numbers.
//
//   INPUTS per perspective       one per (colour relative to the perspective,
//                                piece type, square), the board flipped for
//                                Black, and left-right for a king on e-h
//                                (mirrored inputs): feature_index()
//     -> HIDDEN int16 neurons    the feature transformer, one set of weights
//                                shared by both perspectives: the accumulator
//     -> SCReLU                  clamp to [0, 1] and square (the quantised
//                                engine: clamp to [0, QA])
//     -> 1 output                from OUTPUT_INPUTS = both perspectives'
//                                neurons, the side to move's first, through
//                                one of OUTPUT_BUCKETS output layers chosen by
//                                the number of pieces: output_bucket()
//
// describe() writes a shape the way messages name it: "INPUTS->HIDDENx2,
// OUTPUT_BUCKETS buckets" (inputs -> neurons x the two perspectives; other
// input kinds than plain are named after INPUTS: "768 mirrored->...").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "staccato/types.h"

namespace staccato::nnue {

// ---------------------------------------------------------------- inputs

// The inputs of one perspective: the perspective's own pieces first, then
// the other side's, each by piece type (pawn .. king) and square.
constexpr int INPUT_COLOURS = 2; // relative to the perspective: own, other
constexpr int INPUTS = INPUT_COLOURS * PIECE_TYPE_NB * SQUARE_NB;
static_assert(INPUTS == 768);

// At most one active input per piece on the board, in each perspective.
constexpr int MAX_ACTIVE_INPUTS = 32;

// How the inputs are numbered (a shape field of the net file, below): plain,
// or mirrored left-right for a perspective whose king stands on files e-h.
constexpr std::uint32_t INPUT_KIND_PLAIN = 0;
constexpr std::uint32_t INPUT_KIND_MIRRORED = 1;
// Main builds plain inputs; `-DSTACCATO_MIRRORED=ON` (CMake) builds mirrored
// ones, with a mirrored net to embed, until a mirrored net wins its games.
#ifdef STACCATO_MIRRORED
constexpr std::uint32_t INPUT_KIND = INPUT_KIND_MIRRORED;
#else
constexpr std::uint32_t INPUT_KIND = INPUT_KIND_PLAIN;
#endif

// Whether a perspective whose king stands on `king` sees the board flipped
// left-right: with mirrored inputs, when the king is on files e-h, so that
// every perspective sees its king on a-d and one set of weights serves both
// wings (chess is left-right symmetric but for castling, which the king's
// file mostly settles). A king that crosses the d/e line changes what its
// own perspective sees: that half of the accumulator is rebuilt (through
// RefreshCache, accumulator.h); the other perspective is updated as usual.
constexpr bool mirrors(Square king) { return INPUT_KIND == INPUT_KIND_MIRRORED && file_of(king) >= 4; }

// The input index of piece `pc` on `s`, seen from `view` whose king is on
// `king`. Black sees the board upside down (flip_rank) and its own pieces as
// "own", so that both perspectives share one set of weights and a position
// and its colour-flipped mirror image evaluate the same; a mirroring
// perspective (mirrors()) sees it flipped left-right too. Every user of the
// inputs (the engine's accumulator, the trainer's features) calls this; none
// computes an index.
constexpr int feature_index(Color view, Square king, Piece pc, Square s) {
    const int relative_colour = color_of(pc) == view ? 0 : 1;
    const Square square = view == WHITE ? s : flip_rank(s);
    const Square seen = mirrors(king) ? flip_file(square) : square;
    return (relative_colour * PIECE_TYPE_NB + type_of(pc)) * SQUARE_NB + seen;
}
static_assert(feature_index(WHITE, SQ_A1, W_PAWN, SQ_A1) == 0);
static_assert(feature_index(BLACK, SQ_A8, B_KING, SQ_A1) == INPUTS / INPUT_COLOURS - 8); // a1 seen as a8
static_assert(feature_index(WHITE, SQ_A1, B_KING, SQ_H8) == INPUTS - 1);
static_assert(INPUT_KIND == INPUT_KIND_PLAIN ||
              feature_index(WHITE, SQ_E1, W_PAWN, SQ_A2) == feature_index(WHITE, SQ_D1, W_PAWN, SQ_H2));

// ---------------------------------------------------------------- hidden layer

// Neurons of the feature transformer, per perspective (one accumulator half).
// Main builds 256; `-DSTACCATO_HIDDEN=384` (CMake) builds a wider engine and
// trainer, with a net of that width to embed, until a wider net wins its
// games. The SIMD code (accumulator.cpp) works in blocks of 128 neurons.
#ifdef STACCATO_HIDDEN
constexpr int HIDDEN = STACCATO_HIDDEN;
#else
constexpr int HIDDEN = 256;
#endif
static_assert(HIDDEN > 0 && HIDDEN % 128 == 0, "STACCATO_HIDDEN: a multiple of 128");

// The output layer reads both perspectives' neurons: the side to move's
// HIDDEN first, then the other side's.
constexpr int OUTPUT_INPUTS = 2 * HIDDEN;

// ---------------------------------------------------------------- activation

// SCReLU: clamp(x, 0, SCRELU_CLIP) squared. The trainer works in floating
// point with SCRELU_CLIP; the engine's accumulators are the same values times
// QA, so it clamps to [0, QA].
constexpr float SCRELU_CLIP = 1.0f;
// The activation's code in the net file's header.
constexpr std::uint32_t ACTIVATION_SCRELU = 1;

// ---------------------------------------------------------------- output buckets

// One output layer (OUTPUT_INPUTS weights and a bias) per bucket, so that the
// last layer can weigh the same features differently in the opening, the
// middlegame and the endgame (a passed pawn, a king in the centre) at no cost
// to the incremental update: only the chosen bucket's weights are read.
constexpr int OUTPUT_BUCKETS = 8;
constexpr int BUCKET_MIN_PIECES = 2; // the two kings: bucket 0 starts there
constexpr int PIECES_PER_BUCKET = 4; // 2-5 pieces, 6-9, ...

// The output layer used with `piece_count` pieces on the board (kings
// included): 2-5 pieces use the first, 30-32 the last.
constexpr int output_bucket(int piece_count) {
    return std::clamp((piece_count - BUCKET_MIN_PIECES) / PIECES_PER_BUCKET, 0, OUTPUT_BUCKETS - 1);
}
// A full board reaches the last bucket and no further: every bucket is used.
static_assert((MAX_ACTIVE_INPUTS - BUCKET_MIN_PIECES) / PIECES_PER_BUCKET == OUTPUT_BUCKETS - 1);

// ---------------------------------------------------------------- quantisation

// Weights are trained in floating point and stored as integers:
//   feature-transformer weights and biases  x QA  (int16)
//   output weights                           x QB  (int16)
//   output bias                              x QA * QB  (int32)
// The engine's output is then in units of QA * QB; times SCALE / (QA * QB) it
// is centipawns (the trainer's output times SCALE is the same).
constexpr int QA = 255;
constexpr int QB = 64;
constexpr int SCALE = 400;

// The engine multiplies a clamped activation (at most QA) by an output weight
// in 16 bits, so quantised output weights stay within MAX_OUTPUT_WEIGHT...
constexpr int MAX_OUTPUT_WEIGHT = 127;
static_assert(QA * MAX_OUTPUT_WEIGHT <= std::numeric_limits<std::int16_t>::max());
// ...which the trainer keeps by clipping every weight to [-WEIGHT_CLIP,
// WEIGHT_CLIP] (the feature transformer's too, for the same margin).
constexpr float WEIGHT_CLIP = 1.98f;
static_assert(WEIGHT_CLIP * QB + 0.5f < MAX_OUTPUT_WEIGHT + 1, "rounds to at most MAX_OUTPUT_WEIGHT");

// ---------------------------------------------------------------- the net file

// The input kind (INPUT_KIND, above) is a shape field of its own: a net
// trained on one numbering evaluates nonsense with the other.
// The net file (all integers little-endian):
//   "STACNNUE"                 8 bytes
//   version                    u32 (FILE_VERSION)
//   the shape                  u32 x 8 (NetShape's fields in order; version 2
//                              has no input kind, version 1 no bucket count
//                              either: plain inputs, one output layer)
//   checksum                   u64: FNV-1a over every byte after it
//   the WDL model (version 3)  u32 n: 0 (none), WDL_VALUES_FIRST or
//                              WDL_VALUES, then n x f32 (IEEE-754 bits):
//                              a[0..3], b[0..3] of wdl.h, then (n = 9) the
//                              lowest material, 4; with n = 8 it is 17
//   payload                    ft_weights, ft_bias, out_weights (int16),
//                              out_bias (int32 x buckets)
// A file is read only when its shape is the engine's (SHAPE), or an older
// version's is the same with the fields it lacks at their old values.
constexpr std::uint32_t FILE_VERSION = 3;
constexpr std::uint32_t WDL_VALUES = 9;       // a, b and the lowest material
constexpr std::uint32_t WDL_VALUES_FIRST = 8; // a and b: the first models, floor 17

struct NetShape {
    std::uint32_t inputs, hidden, activation, qa, qb, scale, buckets, input_kind;
    bool operator==(const NetShape&) const = default;
};
constexpr NetShape SHAPE = {INPUTS, HIDDEN, ACTIVATION_SCRELU, QA, QB, SCALE, OUTPUT_BUCKETS, INPUT_KIND};

// The bytes of a net file's parts, for a shape and a file version (and, in
// version 3, the number of WDL values it carries).
constexpr std::size_t shape_fields(std::uint32_t version) { return version == 1 ? 6 : version == 2 ? 7 : 8; }
constexpr std::size_t header_bytes(std::uint32_t version) {
    return 8 + 4 + 4 * shape_fields(version) + 8; // magic, version, shape, checksum
}
constexpr std::size_t model_bytes(std::uint32_t version, std::uint32_t wdl_values) {
    return version < 3 ? 0 : 4 + 4 * std::size_t(wdl_values);
}
constexpr std::size_t payload_bytes(const NetShape& s) {
    const std::size_t inputs = s.inputs, hidden = s.hidden, buckets = s.buckets;
    return 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets;
}
constexpr std::size_t file_bytes(const NetShape& s, std::uint32_t version, std::uint32_t wdl_values = 0) {
    return header_bytes(version) + model_bytes(version, wdl_values) + payload_bytes(s);
}

constexpr std::size_t HEADER_BYTES = header_bytes(FILE_VERSION);
constexpr std::size_t PAYLOAD_BYTES = payload_bytes(SHAPE);
constexpr std::size_t FILE_BYTES = file_bytes(SHAPE, FILE_VERSION);                 // no WDL model
constexpr std::size_t FILE_BYTES_WDL = file_bytes(SHAPE, FILE_VERSION, WDL_VALUES); // with one (the longest)
constexpr NetShape V1_SHAPE = {INPUTS, HIDDEN, ACTIVATION_SCRELU, QA, QB, SCALE, 1, INPUT_KIND_PLAIN};
constexpr NetShape V2_SHAPE = {INPUTS, HIDDEN, ACTIVATION_SCRELU, QA,
                               QB,     SCALE,  OUTPUT_BUCKETS,    INPUT_KIND_PLAIN};
constexpr std::size_t V1_HEADER_BYTES = header_bytes(1);
constexpr std::size_t V1_FILE_BYTES = file_bytes(V1_SHAPE, 1);

// A shape as messages name it: "INPUTS->HIDDENx2, OUTPUT_BUCKETS buckets"
// ("INPUTS mirrored->..." for that input kind);
// with `quantisation`, the activation and the quantisation follow
// (", SCReLU, QA .., QB .., scale .."), for files that differ there.
inline std::string describe(const NetShape& s, bool quantisation = false) {
    const std::string kind = s.input_kind == INPUT_KIND_PLAIN ? ""
                             : s.input_kind == INPUT_KIND_MIRRORED
                                 ? " mirrored"
                                 : " input kind " + std::to_string(s.input_kind);
    std::string text = std::to_string(s.inputs) + kind + "->" + std::to_string(s.hidden) + "x2, " +
                       std::to_string(s.buckets) + (s.buckets == 1 ? " bucket" : " buckets");
    if (quantisation)
        text += (s.activation == ACTIVATION_SCRELU ? std::string(", SCReLU")
                                                   : ", activation " + std::to_string(s.activation)) +
                ", QA " + std::to_string(s.qa) + ", QB " + std::to_string(s.qb) + ", scale " +
                std::to_string(s.scale);
    return text;
}

} // namespace staccato::nnue
