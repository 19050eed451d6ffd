#include "staccato/nnue/network.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

namespace staccato::nnue {

namespace {

constexpr char MAGIC[8] = {'S', 'T', 'A', 'C', 'N', 'N', 'U', 'E'};

std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ULL;
    return h;
}

class Writer {
  public:
    explicit Writer(std::vector<std::uint8_t>& out) : out_(out) {}
    template <typename T> void put(T v) {
        for (std::size_t i = 0; i < sizeof(T); ++i) out_.push_back(std::uint8_t(std::uint64_t(v) >> (8 * i)));
    }
    template <typename T, std::size_t N> void put(const std::array<T, N>& a) {
        for (T v : a) put(v);
    }

  private:
    std::vector<std::uint8_t>& out_;
};

class Reader {
  public:
    explicit Reader(std::span<const std::uint8_t> in) : in_(in) {}
    template <typename T> T get() {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t(in_[pos_++]) << (8 * i);
        return T(v);
    }
    template <typename T, std::size_t N> void get(std::array<T, N>& a) {
        for (T& v : a) v = get<T>();
    }
    template <typename T> void get(std::span<T> a) {
        for (T& v : a) v = get<T>();
    }

  private:
    std::span<const std::uint8_t> in_;
    std::size_t pos_ = 0;
};

} // namespace

std::vector<std::uint8_t> serialize(const Network& net) {
    std::vector<std::uint8_t> payload;
    payload.reserve(PAYLOAD_BYTES + model_bytes(FILE_VERSION, WDL_VALUES));
    Writer p(payload);
    // A first model (floor 17) is written as it was read: its 8 values.
    const bool first = net.wdl && net.wdl->material_min == MATERIAL_MIN_FIRST;
    p.put(std::uint32_t(!net.wdl ? 0 : first ? WDL_VALUES_FIRST : WDL_VALUES));
    if (net.wdl) {
        for (const auto* cubic : {&net.wdl->a, &net.wdl->b})
            for (double c : *cubic) p.put(std::bit_cast<std::uint32_t>(float(c)));
        if (!first) p.put(std::bit_cast<std::uint32_t>(float(net.wdl->material_min)));
    }
    p.put(net.ft_weights);
    p.put(net.ft_bias);
    p.put(net.out_weights);
    p.put(net.out_bias);

    std::vector<std::uint8_t> file(std::begin(MAGIC), std::end(MAGIC));
    Writer h(file);
    for (std::uint32_t v : {FILE_VERSION, SHAPE.inputs, SHAPE.hidden, SHAPE.activation, SHAPE.qa, SHAPE.qb,
                            SHAPE.scale, SHAPE.buckets, SHAPE.input_kind})
        h.put(v);
    h.put(fnv1a(payload));
    file.insert(file.end(), payload.begin(), payload.end());
    return file;
}

std::optional<std::string> deserialize(std::span<const std::uint8_t> bytes, Network& net,
                                       bool any_input_kind) {
    if (bytes.size() < V1_HEADER_BYTES) return "not a net file (" + std::to_string(bytes.size()) + " bytes)";
    if (std::memcmp(bytes.data(), MAGIC, sizeof MAGIC) != 0) return "not a Staccato net file (bad magic)";
    Reader h(bytes.subspan(sizeof MAGIC));
    const std::uint32_t version = h.get<std::uint32_t>();
    if (version < 1 || version > FILE_VERSION)
        return "net file version " + std::to_string(version) + ", expected 1 to " +
               std::to_string(FILE_VERSION);
    if (bytes.size() < header_bytes(version))
        return "not a net file (" + std::to_string(bytes.size()) + " bytes)";
    NetShape shape{};
    for (std::uint32_t* field :
         {&shape.inputs, &shape.hidden, &shape.activation, &shape.qa, &shape.qb, &shape.scale})
        *field = h.get<std::uint32_t>();
    shape.buckets = version == 1 ? 1 : h.get<std::uint32_t>();
    shape.input_kind = version < 3 ? INPUT_KIND_PLAIN : h.get<std::uint32_t>();
    // An older file is of plain inputs (and version 1 of one bucket): the
    // engine's shape but for those fields.
    NetShape expected_shape = SHAPE;
    if (version == 1) expected_shape.buckets = 1;
    if (any_input_kind) expected_shape.input_kind = shape.input_kind;
    if (shape != expected_shape) {
        // Name the quantisation too where that is what differs.
        const bool quantisation = shape.activation != SHAPE.activation || shape.qa != SHAPE.qa ||
                                  shape.qb != SHAPE.qb || shape.scale != SHAPE.scale;
        return "this net is " + describe(shape, quantisation) + "; the engine expects " +
               describe(SHAPE, quantisation);
    }
    const std::uint64_t checksum = h.get<std::uint64_t>();
    auto rest = bytes.subspan(header_bytes(version));
    std::uint32_t wdl_values = 0;
    if (version >= 3) {
        if (rest.size() < 4)
            return "net file has " + std::to_string(bytes.size()) + " bytes: no WDL model field";
        wdl_values = Reader(rest).get<std::uint32_t>();
        if (wdl_values != 0 && wdl_values != WDL_VALUES_FIRST && wdl_values != WDL_VALUES)
            return "net file's WDL model has " + std::to_string(wdl_values) + " values, expected 0, " +
                   std::to_string(WDL_VALUES_FIRST) + " or " + std::to_string(WDL_VALUES);
    }
    const std::size_t expected = file_bytes(shape, version, wdl_values);
    if (bytes.size() != expected)
        return "net file has " + std::to_string(bytes.size()) + " bytes, expected " +
               std::to_string(expected) + " for " + describe(shape);
    if (fnv1a(rest) != checksum) return "net file checksum mismatch (corrupted)";
    std::optional<WdlModel> wdl;
    if (wdl_values) {
        Reader m(rest.subspan(4));
        WdlModel model;
        for (auto* cubic : {&model.a, &model.b})
            for (double& c : *cubic) c = double(std::bit_cast<float>(m.get<std::uint32_t>()));
        model.material_min = MATERIAL_MIN_FIRST;
        if (wdl_values == WDL_VALUES) {
            const float floor = std::bit_cast<float>(m.get<std::uint32_t>());
            // Not a whole material in range: a value check() refuses.
            model.material_min =
                floor >= 0 && floor <= float(MATERIAL_MAX) && floor == std::floor(floor) ? int(floor) : -1;
        }
        if (const std::string why = model.check(); !why.empty()) return "net file's WDL model: " + why;
        wdl = model;
    }
    const auto payload = rest.subspan(model_bytes(version, wdl_values));
    auto fresh = std::make_unique<Network>();
    Reader p(payload);
    p.get(fresh->ft_weights);
    p.get(fresh->ft_bias);
    if (version == 1) {
        // One output layer: every bucket gets a copy.
        p.get(std::span(fresh->out_weights.data(), OUTPUT_INPUTS));
        fresh->out_bias[0] = p.get<std::int32_t>();
        for (int b = 1; b < OUTPUT_BUCKETS; ++b) {
            std::copy_n(fresh->out_weights.begin(), OUTPUT_INPUTS,
                        fresh->out_weights.begin() + b * OUTPUT_INPUTS);
            fresh->out_bias[std::size_t(b)] = fresh->out_bias[0];
        }
    } else {
        p.get(fresh->out_weights);
        p.get(fresh->out_bias);
    }
    fresh->wdl = wdl;
    net = *fresh;
    return std::nullopt;
}

std::optional<std::string> load_file(const std::string& path, Network& net, bool any_input_kind) {
    std::error_code ec;
    if (path.empty()) return "no file name given";
    if (!std::filesystem::is_regular_file(path, ec)) return "cannot open " + path + " (not a file)";
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open " + path;
    std::vector<std::uint8_t> bytes;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        bytes.insert(bytes.end(), buf, buf + in.gcount());
        if (bytes.size() > FILE_BYTES_WDL + 1) break; // too long: no need to read on
    }
    if (auto error = deserialize(bytes, net, any_input_kind)) return path + ": " + *error;
    return std::nullopt;
}

} // namespace staccato::nnue
