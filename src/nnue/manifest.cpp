#include "staccato/nnue/manifest.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace staccato::nnue {

namespace fs = std::filesystem;

namespace {

constexpr const char* HEADER = "# file\tcommits\tnets\tseeds\tgames\tpositions\tbytes";

// `list` (comma-separated) with `item` added unless it is there already.
std::string merged(const std::string& list, const std::string& item) {
    if (item.empty()) return list;
    std::istringstream in(list);
    for (std::string part; std::getline(in, part, ',');)
        if (part == item) return list;
    return list.empty() ? item : list + "," + item;
}

// A lock file made with exclusive creation; one left by a killed run is
// taken over after 10 seconds.
class Lock {
  public:
    explicit Lock(std::string path) : path_(std::move(path)) {
        for (int tries = 0; tries < 400; ++tries) {
            if (std::FILE* f = std::fopen(path_.c_str(), "wx")) {
                std::fclose(f);
                held_ = true;
                return;
            }
            std::error_code ec;
            const auto age = fs::file_time_type::clock::now() - fs::last_write_time(path_, ec);
            if (!ec && age > std::chrono::seconds(10)) fs::remove(path_, ec);
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
    }
    ~Lock() {
        std::error_code ec;
        if (held_) fs::remove(path_, ec);
    }
    bool held() const { return held_; }

  private:
    std::string path_;
    bool held_ = false;
};

} // namespace

std::string manifest_path(const std::string& data_file) {
    return (fs::path(data_file).parent_path() / "MANIFEST").string();
}

std::vector<ManifestLine> read_manifest(const std::string& path) {
    std::vector<ManifestLine> lines;
    std::ifstream in(path);
    for (std::string text; std::getline(in, text);) {
        if (text.empty() || text[0] == '#') continue;
        std::istringstream fields(text);
        ManifestLine l;
        std::string games, positions, bytes;
        if (!std::getline(fields, l.file, '\t') || !std::getline(fields, l.commits, '\t') ||
            !std::getline(fields, l.nets, '\t') || !std::getline(fields, l.seeds, '\t') ||
            !std::getline(fields, games, '\t') || !std::getline(fields, positions, '\t') ||
            !std::getline(fields, bytes))
            continue;
        try {
            l.games = std::stoull(games), l.positions = std::stoull(positions), l.bytes = std::stoull(bytes);
        } catch (...) {
            continue;
        }
        lines.push_back(std::move(l));
    }
    return lines;
}

std::optional<std::string> update_manifest(const std::string& data_file, ManifestLine line,
                                           const std::string& new_seed) {
    const std::string path = manifest_path(data_file);
    const Lock lock(path + ".lock");
    if (!lock.held()) return "cannot lock " + path + " (remove " + path + ".lock if no datagen runs)";
    std::vector<ManifestLine> lines = read_manifest(path);
    bool found = false;
    for (ManifestLine& l : lines) {
        if (l.file != line.file) continue;
        found = true;
        l.commits = merged(l.commits, line.commits);
        l.nets = merged(l.nets, line.nets);
        if (!new_seed.empty()) l.seeds = l.seeds.empty() ? new_seed : l.seeds + "," + new_seed;
        l.games = line.games, l.positions = line.positions, l.bytes = line.bytes;
    }
    if (!found) {
        line.seeds = new_seed;
        lines.push_back(line);
    }
    const std::string temp = path + ".part";
    {
        std::ofstream out(temp, std::ios::trunc);
        out << HEADER << '\n';
        for (const ManifestLine& l : lines)
            out << l.file << '\t' << l.commits << '\t' << l.nets << '\t' << l.seeds << '\t' << l.games << '\t'
                << l.positions << '\t' << l.bytes << '\n';
        if (!out) return "cannot write " + temp;
    }
    std::error_code ec;
    fs::rename(temp, path, ec);
    if (ec) return "cannot rename " + temp + " to " + path + ": " + ec.message();
    return std::nullopt;
}

} // namespace staccato::nnue
