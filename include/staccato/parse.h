// Whole-token number parsing for untrusted text (FEN fields, UCI arguments,
// command-line options): no exceptions, no locale, overflow refused.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>

namespace staccato {

// The number `text` spells, all of it; nullopt for anything else (empty,
// trailing characters, out of T's range).
template <typename T> std::optional<T> parse_number(std::string_view text) {
    T value{};
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
    return value;
}

} // namespace staccato
