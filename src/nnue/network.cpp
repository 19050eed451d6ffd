#include "staccato/nnue/network.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

namespace staccato::nnue {

namespace {

constexpr char MAGIC[8] = {'S', 'T', 'A', 'C', 'N', 'N', 'U', 'E'};
constexpr std::uint32_t VERSION = 2;
constexpr std::uint32_t ACTIVATION_SCRELU = 1;

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
    payload.reserve(PAYLOAD_BYTES);
    Writer p(payload);
    p.put(net.ft_weights);
    p.put(net.ft_bias);
    p.put(net.out_weights);
    p.put(net.out_bias);

    std::vector<std::uint8_t> file(std::begin(MAGIC), std::end(MAGIC));
    Writer h(file);
    for (std::uint32_t v :
         {VERSION, std::uint32_t(INPUTS), std::uint32_t(HIDDEN), ACTIVATION_SCRELU, std::uint32_t(QA),
          std::uint32_t(QB), std::uint32_t(SCALE), std::uint32_t(OUTPUT_BUCKETS)})
        h.put(v);
    h.put(fnv1a(payload));
    file.insert(file.end(), payload.begin(), payload.end());
    return file;
}

std::optional<std::string> deserialize(std::span<const std::uint8_t> bytes, Network& net) {
    if (bytes.size() < V1_HEADER_BYTES) return "not a net file (" + std::to_string(bytes.size()) + " bytes)";
    if (std::memcmp(bytes.data(), MAGIC, sizeof MAGIC) != 0) return "not a Staccato net file (bad magic)";
    Reader h(bytes.subspan(sizeof MAGIC));
    const std::uint32_t version = h.get<std::uint32_t>();
    if (version != VERSION && version != 1)
        return "net file version " + std::to_string(version) + ", expected 1 or " + std::to_string(VERSION);
    const std::uint32_t inputs = h.get<std::uint32_t>(), hidden = h.get<std::uint32_t>(),
                        activation = h.get<std::uint32_t>(), qa = h.get<std::uint32_t>(),
                        qb = h.get<std::uint32_t>(), scale = h.get<std::uint32_t>();
    if (version != 1 && bytes.size() < HEADER_BYTES)
        return "not a net file (" + std::to_string(bytes.size()) + " bytes)";
    const std::uint32_t buckets = version == 1 ? 1 : h.get<std::uint32_t>();
    if (inputs != INPUTS || hidden != HIDDEN || activation != ACTIVATION_SCRELU || qa != QA || qb != QB ||
        scale != SCALE || buckets != (version == 1 ? 1u : std::uint32_t(OUTPUT_BUCKETS)))
        return "net architecture " + std::to_string(inputs) + "->" + std::to_string(hidden) + "x2->1x" +
               std::to_string(buckets) + " buckets (activation " + std::to_string(activation) + ", QA " +
               std::to_string(qa) + ", QB " + std::to_string(qb) + ", scale " + std::to_string(scale) +
               "), this engine reads " + std::to_string(INPUTS) + "->" + std::to_string(HIDDEN) + "x2->1x" +
               std::to_string(OUTPUT_BUCKETS) + " buckets, SCReLU";
    const std::uint64_t checksum = h.get<std::uint64_t>();
    const std::size_t expected = version == 1 ? V1_FILE_BYTES : FILE_BYTES;
    if (bytes.size() != expected)
        return "net file has " + std::to_string(bytes.size()) + " bytes, expected " +
               std::to_string(expected);
    const auto payload = bytes.subspan(version == 1 ? V1_HEADER_BYTES : HEADER_BYTES);
    if (fnv1a(payload) != checksum) return "net file checksum mismatch (corrupted)";
    auto fresh = std::make_unique<Network>();
    Reader p(payload);
    p.get(fresh->ft_weights);
    p.get(fresh->ft_bias);
    if (version == 1) {
        // One output layer: every bucket gets a copy.
        p.get(std::span(fresh->out_weights.data(), 2 * HIDDEN));
        fresh->out_bias[0] = p.get<std::int32_t>();
        for (int b = 1; b < OUTPUT_BUCKETS; ++b) {
            std::copy_n(fresh->out_weights.begin(), 2 * HIDDEN, fresh->out_weights.begin() + b * 2 * HIDDEN);
            fresh->out_bias[std::size_t(b)] = fresh->out_bias[0];
        }
    } else {
        p.get(fresh->out_weights);
        p.get(fresh->out_bias);
    }
    net = *fresh;
    return std::nullopt;
}

std::optional<std::string> load_file(const std::string& path, Network& net) {
    std::error_code ec;
    if (path.empty()) return "no file name given";
    if (!std::filesystem::is_regular_file(path, ec)) return "cannot open " + path + " (not a file)";
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open " + path;
    std::vector<std::uint8_t> bytes;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        bytes.insert(bytes.end(), buf, buf + in.gcount());
        if (bytes.size() > FILE_BYTES + 1) break; // too long: no need to read on
    }
    if (auto error = deserialize(bytes, net)) return path + ": " + *error;
    return std::nullopt;
}

} // namespace staccato::nnue
