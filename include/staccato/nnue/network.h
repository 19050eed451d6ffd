// The evaluation network: its architecture, its quantised weights and the
// net file that carries them.
//
//   768 inputs per perspective  (colour relative to the perspective x piece
//                                type x square, the board flipped for Black)
//     -> HIDDEN int16 neurons    (the feature transformer, shared by both
//                                 perspectives: the accumulator)
//     -> SCReLU                  (clamp to [0, QA], then squared)
//     -> 1 output                (side to move's half first, then the other's),
//                                 from one of OUTPUT_BUCKETS output layers
//                                 chosen by the number of pieces on the board
//
// The output buckets let the last layer weigh the same features differently
// in the opening, the middlegame and the endgame (a passed pawn, a king in
// the centre) at no cost to the incremental update: only the bucket's 512
// weights are read.
//
// Weights are trained in floating point (staccato-train) and quantised:
// feature-transformer weights and biases by QA, output weights by QB, the
// output bias by QA * QB. The output times SCALE is centipawns.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "staccato/types.h"

namespace staccato::nnue {

constexpr int INPUTS = 768;
constexpr int HIDDEN = 256;
constexpr int QA = 255;
constexpr int QB = 64;
constexpr int SCALE = 400;
constexpr int OUTPUT_BUCKETS = 8;

// The output layer used with `piece_count` pieces on the board (kings
// included): 2-5 pieces use the first, 30-32 the last.
constexpr int output_bucket(int piece_count) {
    return std::clamp((piece_count - 2) / 4, 0, OUTPUT_BUCKETS - 1);
}

// The input index of piece `pc` on `s`, seen from `view`: the perspective's
// own pieces first, and Black sees the board upside down, so that both
// perspectives share one set of weights.
constexpr int feature_index(Color view, Piece pc, Square s) {
    const int relative_colour = color_of(pc) == view ? 0 : 1;
    const int square = view == WHITE ? int(s) : int(s) ^ 56;
    return relative_colour * 384 + type_of(pc) * 64 + square;
}

struct Network {
    alignas(64) std::array<std::int16_t, INPUTS * HIDDEN> ft_weights{}; // [feature][neuron]
    alignas(64) std::array<std::int16_t, HIDDEN> ft_bias{};
    // [bucket][half][neuron], the side to move's half first in each bucket.
    alignas(64) std::array<std::int16_t, OUTPUT_BUCKETS * 2 * HIDDEN> out_weights{};
    std::array<std::int32_t, OUTPUT_BUCKETS> out_bias{};
};

// The net file (all integers little-endian):
//   "STACNNUE"                 8 bytes
//   version                    u32 (2)
//   inputs, hidden, activation u32 x 3 (768, HIDDEN, 1 = SCReLU)
//   QA, QB, SCALE              u32 x 3
//   output buckets             u32 (OUTPUT_BUCKETS)
//   checksum                   u64: FNV-1a over the payload bytes
//   payload                    ft_weights, ft_bias, out_weights (int16),
//                              out_bias (int32 x OUTPUT_BUCKETS)
// A version-1 file (the same without the bucket count, one output layer) is
// still read: its output layer is copied into every bucket, which evaluates
// exactly as it did, so older nets keep working and can seed training.
constexpr std::size_t HEADER_BYTES = 8 + 4 * 8 + 8;
constexpr std::size_t PAYLOAD_BYTES =
    2 * (INPUTS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * 2 * HIDDEN) + 4 * OUTPUT_BUCKETS;
constexpr std::size_t FILE_BYTES = HEADER_BYTES + PAYLOAD_BYTES;
constexpr std::size_t V1_HEADER_BYTES = 8 + 4 * 7 + 8;
constexpr std::size_t V1_FILE_BYTES = V1_HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

std::vector<std::uint8_t> serialize(const Network& net);
// Reads a net file's bytes (version 2, or 1) into `net`; on any fault (size,
// magic, version, architecture, checksum) `net` is left unchanged and the
// reason returned.
std::optional<std::string> deserialize(std::span<const std::uint8_t> bytes, Network& net);
std::optional<std::string> load_file(const std::string& path, Network& net);

// The net built into the binary (src/nnue/embedded.cpp), decoded once.
const Network& default_network();
std::span<const std::uint8_t> default_network_bytes();

} // namespace staccato::nnue
