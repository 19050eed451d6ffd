// The evaluation network's quantised weights and the net file that carries
// them. What the net is (its inputs, size, activation, output buckets,
// quantisation and the file's shape fields) is said once, in arch.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "staccato/nnue/arch.h"
#include "staccato/wdl.h"

namespace staccato::nnue {

struct Network {
    alignas(64) std::array<std::int16_t, INPUTS * HIDDEN> ft_weights{}; // [feature][neuron]
    alignas(64) std::array<std::int16_t, HIDDEN> ft_bias{};
    // [bucket][half][neuron], the side to move's half first in each bucket.
    alignas(64) std::array<std::int16_t, OUTPUT_BUCKETS * OUTPUT_INPUTS> out_weights{};
    std::array<std::int32_t, OUTPUT_BUCKETS> out_bias{};
    // What this net's scores mean (wdl.h), fitted on its own games; none:
    // scores are shown as the net's raw output (older files, new nets
    // before `staccato-train wdl`).
    std::optional<WdlModel> wdl;
};

// The net file's layout is in arch.h. serialize() writes the current version
// (with the WDL model when the net has one). deserialize() reads a file of
// the current version, a version-2 file (plain inputs, no WDL model) or a
// version-1 file (also without the bucket count: one output layer, copied
// into every bucket, so that it evaluates exactly as it did); older nets keep
// working and can seed training. On any fault (size, magic, version, a shape
// other than the engine's, a WDL model that turns no score into a chance,
// checksum) `net` is left unchanged and the reason returned; a shape that
// differs names both shapes (describe()).
std::vector<std::uint8_t> serialize(const Network& net);
// With `any_input_kind`, a net of the other input kind (arch.h) is read too,
// as if it were of the engine's: the trainer's --init, so that a plain net's
// weights can start a mirrored one.
std::optional<std::string> deserialize(std::span<const std::uint8_t> bytes, Network& net,
                                       bool any_input_kind = false);
std::optional<std::string> load_file(const std::string& path, Network& net, bool any_input_kind = false);

// The net built into the binary (src/nnue/embedded.cpp), decoded once. A
// build whose embedded file it refuses (a plain net in a mirrored build, say)
// has zero weights there, and default_network_error() says why; the engine
// then plays with the hand-crafted evaluation until EvalFile loads a net.
const Network& default_network();
std::optional<std::string> default_network_error();
std::span<const std::uint8_t> default_network_bytes();

} // namespace staccato::nnue
