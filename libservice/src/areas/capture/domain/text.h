// Byte-level text helpers shared by the capture domain code: ASCII classes
// that ignore the locale, UTF-8 sequence checks and whitespace recognition.
// Header-only, pure, thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace service::domain::text {

// Character classes by table lookup: the scanners test every byte.
inline constexpr unsigned char kDigitClass = 1, kAlphaClass = 2, kHexClass = 4;
inline constexpr std::array<unsigned char, 256> kCharClass = [] {
  std::array<unsigned char, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = kDigitClass | kHexClass;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kAlphaClass | (c <= 'f' ? kHexClass : 0);
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kAlphaClass | (c <= 'F' ? kHexClass : 0);
  return t;
}();

inline bool IsDigit(char c) { return (kCharClass[static_cast<unsigned char>(c)] & kDigitClass) != 0; }
inline bool IsAlpha(char c) { return (kCharClass[static_cast<unsigned char>(c)] & kAlphaClass) != 0; }
inline bool IsAlnum(char c) {
  return (kCharClass[static_cast<unsigned char>(c)] & (kDigitClass | kAlphaClass)) != 0;
}
inline bool IsHex(char c) { return (kCharClass[static_cast<unsigned char>(c)] & kHexClass) != 0; }
inline char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
inline char UpperAscii(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

inline std::string LowerAsciiCopy(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = LowerAscii(c);
  return out;
}

// Case-insensitive (ASCII) substring test; `needle` must be lower-case.
inline bool ContainsCi(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return true;
  if (haystack.size() < needle.size()) return false;
  for (size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    size_t k = 0;
    while (k < needle.size() && LowerAscii(haystack[i + k]) == needle[k]) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

// Case-insensitive (ASCII) prefix test; `prefix` must be lower-case.
inline bool StartsWithCi(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t k = 0; k < prefix.size(); ++k) {
    if (LowerAscii(s[k]) != prefix[k]) return false;
  }
  return true;
}

inline bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the well-formed UTF-8 sequence starting at s[i] (1 for ASCII), or
// 0 when the bytes there are not one (overlong, surrogate, truncated, > U+10FFFF).
inline size_t Utf8SeqLen(std::string_view s, size_t i) {
  const size_t n = s.size();
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (c >= 0xC2 && c <= 0xDF) return (i + 1 < n && IsContinuation(at(1))) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (i + 2 >= n) return 0;
    const unsigned char u1 = at(1);
    if ((c == 0xE0 && u1 < 0xA0) || (c == 0xED && u1 > 0x9F)) return 0;
    return IsContinuation(u1) && IsContinuation(at(2)) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (i + 3 >= n) return 0;
    const unsigned char u1 = at(1);
    if ((c == 0xF0 && u1 < 0x90) || (c == 0xF4 && u1 > 0x8F)) return 0;
    return IsContinuation(u1) && IsContinuation(at(2)) && IsContinuation(at(3)) ? 4 : 0;
  }
  return 0;
}

// Byte length of a whitespace-like character at s[i], or 0: ASCII space and
// control characters (including DEL), C1 controls, NBSP, U+2000-U+200B,
// U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF.
inline size_t SpaceLen(std::string_view s, size_t i) {
  const size_t n = s.size();
  const auto c = static_cast<unsigned char>(s[i]);
  if (c <= 0x20 || c == 0x7F) return 1;
  if (c < 0x80) return 0;
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (c == 0xC2) return (i + 1 < n && at(1) >= 0x80 && at(1) <= 0xA0) ? 2 : 0;
  if (i + 2 >= n) return 0;
  if (c == 0xE2) {
    const unsigned char d = at(1), e = at(2);
    if (d == 0x80 && ((e >= 0x80 && e <= 0x8B) || e == 0xA8 || e == 0xA9 || e == 0xAF)) return 3;
    if (d == 0x81 && e == 0x9F) return 3;
    return 0;
  }
  if (c == 0xE3 && at(1) == 0x80 && at(2) == 0x80) return 3;
  if (c == 0xEF && at(1) == 0xBB && at(2) == 0xBF) return 3;
  return 0;
}

// Copies `s` as valid UTF-8 with whitespace runs collapsed to one space,
// trimmed, and cut to at most `max_bytes` on a character boundary. Invalid
// bytes become U+FFFD.
inline std::string CleanText(std::string_view s, size_t max_bytes) {
  std::string out;
  out.reserve(s.size() < max_bytes ? s.size() : max_bytes);
  bool pending_space = false;
  for (size_t i = 0; i < s.size();) {
    if (const size_t sl = SpaceLen(s, i); sl != 0) {
      pending_space = true;
      i += sl;
      continue;
    }
    const size_t l = Utf8SeqLen(s, i);
    const std::string_view ch = l != 0 ? s.substr(i, l) : std::string_view("\xEF\xBF\xBD");
    const size_t need = ch.size() + ((pending_space && !out.empty()) ? 1 : 0);
    if (out.size() + need > max_bytes) break;
    if (pending_space && !out.empty()) out.push_back(' ');
    pending_space = false;
    out.append(ch);
    i += l != 0 ? l : 1;
  }
  return out;
}

}  // namespace service::domain::text
