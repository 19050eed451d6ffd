// The data folder's manifest: a text file MANIFEST beside the data files, one
// line a file, that tells whoever works on the machine next what is there:
//
//   # file  commits  nets  seeds  games  positions  bytes      (tab-separated)
//
// commits: the builds that played the file's games (`staccato --version`);
// nets: the evaluations they played with ("net-<8 hex digits of the net's
// checksum>", or "hce"); seeds: the seed of every run that wrote to it, in
// order (a run that appends mixes the file's size into its seed, so a seed
// repeated there played new games); games, positions (every ply) and bytes:
// what the file holds now. `staccato datagen` keeps its file's line current.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace staccato::nnue {

struct ManifestLine {
    std::string file; // the name inside the folder
    std::string commits, nets, seeds;
    std::uint64_t games = 0, positions = 0, bytes = 0;
};

// The manifest of the folder that holds `data_file`.
std::string manifest_path(const std::string& data_file);

// Reads a manifest; lines that do not parse are skipped.
std::vector<ManifestLine> read_manifest(const std::string& path);

// Records `line` for its file: commits and nets are merged into the ones
// already listed, `new_seed` (when not empty) is appended to the seeds, the
// counts replace the old ones. The manifest is rewritten whole (a temporary
// file and a rename) under a lock file, so that datagen runs side by side
// never lose each other's lines.
std::optional<std::string> update_manifest(const std::string& data_file, ManifestLine line,
                                           const std::string& new_seed);

} // namespace staccato::nnue
