// Whole-token number parsing for untrusted text (FEN fields, UCI arguments,
// command-line options): no exceptions, no locale. parse_number refuses
// anything but a plain number in range: integers through std::from_chars,
// floating point through a strict decimal grammar and a stream in the
// classic locale (libc++ before LLVM 20 has no from_chars for double), so
// "0.5" is one half whatever the global locale, and "0,5" is refused.
// parse_lenient_integer reads what a GUI clearly meant (UCI `go` limits).
// Also the case folding and the printable form the UCI layer answers such
// text with.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace staccato {

namespace detail {

// Whether `text` is a plain decimal number: an optional '-', digits with an
// optional '.' (at least one digit on either side: "1." and ".5" are numbers,
// "." is not), then an optional exponent: 'e' or 'E', an optional sign and
// one or more digits. No '+' in front, no spaces, no hex, and (unlike
// from_chars) no "inf" or "nan". `nonzero`: a digit before the exponent is
// not 0.
constexpr bool plain_decimal(std::string_view text, bool& nonzero) {
    std::size_t i = 0, digits = 0;
    const auto is_digit = [&] { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    nonzero = false;
    if (i < text.size() && text[i] == '-') ++i;
    for (; is_digit(); ++i, ++digits) nonzero |= text[i] != '0';
    if (i < text.size() && text[i] == '.')
        for (++i; is_digit(); ++i, ++digits) nonzero |= text[i] != '0';
    if (digits == 0) return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        if (!is_digit()) return false;
        while (is_digit()) ++i;
    }
    return i == text.size();
}

// A plain decimal number (plain_decimal) as T, converted in the classic
// locale. Out of range as with libstdc++'s from_chars: beyond T's largest
// value, or a nonzero number that rounds to zero; subnormals are kept. The
// stream's failbit alone does not tell this apart (libc++ sets it for a
// subnormal, libstdc++ not for a zero from underflow).
template <typename T> std::optional<T> parse_decimal(std::string_view text) {
    bool nonzero = false;
    if (!plain_decimal(text, nonzero)) return std::nullopt;
    std::istringstream in{std::string(text)};
    in.imbue(std::locale::classic());
    T value{};
    in >> value;
    if (!in.eof()) return std::nullopt;
    const T magnitude = std::abs(value);
    const bool in_range = in.fail() ? magnitude > 0 && magnitude < std::numeric_limits<T>::min()
                                    : std::isfinite(value) && (magnitude > 0 || !nonzero);
    if (!in_range) return std::nullopt;
    return value;
}

} // namespace detail

// The number `text` spells, all of it; nullopt for anything else (empty,
// trailing characters, out of T's range). Floating point: plain decimal
// only (detail::plain_decimal), read the same with every standard library.
template <typename T> std::optional<T> parse_number(std::string_view text) {
    if constexpr (std::is_floating_point_v<T>) {
        return detail::parse_decimal<T>(text);
    } else {
        T value{};
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
        return value;
    }
}

// An integer read where the intent is clear although the text is not a plain
// integer: a leading '+' and a fractional part are dropped ("+1000" and
// "1000.5" are 1000), and a value beyond the range of int64 is clamped to it.
struct LenientInteger {
    std::int64_t value = 0;
    bool exact = true; // false: the text had to be read leniently
};

// nullopt for text that is no number at all ("", "2x", "+-1", "1e3", ".5").
inline std::optional<LenientInteger> parse_lenient_integer(std::string_view text) {
    LenientInteger out;
    std::string_view whole = text;
    if (whole.starts_with('+')) {
        whole.remove_prefix(1);
        out.exact = false;
        if (whole.starts_with('-')) return std::nullopt;
    }
    if (const auto dot = whole.find('.'); dot != std::string_view::npos) {
        const std::string_view fraction = whole.substr(dot + 1);
        if (!std::all_of(fraction.begin(), fraction.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        whole = whole.substr(0, dot);
        out.exact = false;
    }
    auto [p, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), out.value);
    if (p != whole.data() + whole.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
        return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        out.value = whole.starts_with('-') ? std::numeric_limits<std::int64_t>::min()
                                           : std::numeric_limits<std::int64_t>::max();
        out.exact = false;
    }
    return out;
}

// ASCII letters in lower case (UCI names and keywords match in any case).
inline std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return out;
}

// Printable form of untrusted input for error messages: at most `max`
// characters, control and non-ASCII bytes as '?'.
inline std::string sanitize(std::string_view s, std::size_t max = 60) {
    std::string out;
    for (char c : s.substr(0, max)) out += (c >= 32 && c < 127) ? c : '?';
    if (s.size() > max) out += "...";
    return out;
}

} // namespace staccato
