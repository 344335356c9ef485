#include "areas/capture/domain/normalize.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "areas/capture/domain/text.h"

namespace service::domain::capture {
namespace {

using text::IsAlnum;
using text::IsAlpha;
using text::IsDigit;
using text::IsHex;
using text::LowerAscii;
using text::SpaceLen;
using text::Utf8SeqLen;

constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";

// Skips a run of whitespace-like characters (see SpaceLen); returns the new
// position, equal to `i` when there is none. Patterns that allow a space use
// this, so they match the same way before and after whitespace collapsing.
size_t SkipSpace(std::string_view s, size_t i) {
  while (i < s.size()) {
    const size_t l = SpaceLen(s, i);
    if (l == 0) break;
    i += l;
  }
  return i;
}

// A run of decimal digits at `i` whose length lies in [lo, hi]. Returns its
// end, or 0 when the run is shorter or longer. `*value` gets its value.
size_t DigitRun(std::string_view s, size_t i, size_t lo, size_t hi, int* value = nullptr) {
  size_t j = i;
  int v = 0;
  while (j < s.size() && IsDigit(s[j]) && j - i <= hi) {
    if (j - i < 9) v = v * 10 + (s[j] - '0');
    ++j;
  }
  const size_t len = j - i;
  if (len < lo || len > hi) return 0;
  if (value != nullptr) *value = v;
  return j;
}

size_t DigitsEnd(std::string_view s, size_t i) {
  while (i < s.size() && IsDigit(s[i])) ++i;
  return i;
}

// Whether a token may not end before s[j]. '<' counts as a word character
// here: a placeholder written by an earlier pass starts with it, and the
// text it replaced started with a letter or digit, so treating both alike
// keeps NormalizeMessage idempotent.
bool ContinuesWord(std::string_view s, size_t j) { return j < s.size() && (IsAlnum(s[j]) || s[j] == '<'); }

// True when `word` (lower-case) starts at `i`, case-insensitively.
bool HasWordCi(std::string_view s, size_t i, std::string_view word) {
  if (s.size() - i < word.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (LowerAscii(s[i + k]) != word[k]) return false;
  }
  return true;
}

// A number cannot continue here: not a letter or digit, not `.digit` or `:digit`
// (nor `.<` / `:<`, a number an earlier pass replaced).
bool NumberEndsAt(std::string_view s, size_t j) {
  if (j >= s.size()) return true;
  if (ContinuesWord(s, j)) return false;
  if ((s[j] == '.' || s[j] == ':') && j + 1 < s.size() && (IsDigit(s[j + 1]) || s[j + 1] == '<'))
    return false;
  return true;
}

// ---- timestamps ------------------------------------------------------------

constexpr std::array<std::string_view, 12> kMonthFull = {"january",   "february", "march",    "april",
                                                         "may",       "june",     "july",     "august",
                                                         "september", "october",  "november", "december"};
constexpr std::array<std::string_view, 7> kDayFull = {"monday", "tuesday",  "wednesday", "thursday",
                                                      "friday", "saturday", "sunday"};
constexpr std::array<std::string_view, 30> kZoneNames = {
    "UTC",  "GMT",  "PST", "PDT", "EST", "EDT",  "CST",  "CDT", "MST",  "MDT",
    "CET",  "CEST", "BST", "IST", "JST", "EET",  "EEST", "WET", "WEST", "AEST",
    "AEDT", "MSK",  "HKT", "SGT", "KST", "NZST", "NZDT", "HST", "AKST", "AKDT"};

// The first three letters at `i`, lower-cased and packed, or -1.
int32_t Key3(std::string_view s, size_t i) {
  if (s.size() - i < 3 || !IsAlpha(s[i]) || !IsAlpha(s[i + 1]) || !IsAlpha(s[i + 2])) return -1;
  return (LowerAscii(s[i]) << 16) | (LowerAscii(s[i + 1]) << 8) | LowerAscii(s[i + 2]);
}

constexpr int32_t Pack3(std::string_view w) { return (w[0] << 16) | (w[1] << 8) | w[2]; }

// Index of a month (0-11) or weekday (12-18) abbreviation, or -1.
int DateNameIndex(int32_t key) {
  switch (key) {
    case Pack3("jan"):
      return 0;
    case Pack3("feb"):
      return 1;
    case Pack3("mar"):
      return 2;
    case Pack3("apr"):
      return 3;
    case Pack3("may"):
      return 4;
    case Pack3("jun"):
      return 5;
    case Pack3("jul"):
      return 6;
    case Pack3("aug"):
      return 7;
    case Pack3("sep"):
      return 8;
    case Pack3("oct"):
      return 9;
    case Pack3("nov"):
      return 10;
    case Pack3("dec"):
      return 11;
    case Pack3("mon"):
      return 12;
    case Pack3("tue"):
      return 13;
    case Pack3("wed"):
      return 14;
    case Pack3("thu"):
      return 15;
    case Pack3("fri"):
      return 16;
    case Pack3("sat"):
      return 17;
    case Pack3("sun"):
      return 18;
    default:
      return -1;
  }
}

// Whether a month or weekday name may start at `i` (cheap pre-check).
bool MayStartDateName(std::string_view s, size_t i) {
  const int32_t key = Key3(s, i);
  return key >= 0 && DateNameIndex(key) >= 0;
}

// A month or weekday name (abbreviated or full, any case) at `i`, not
// followed by a letter; returns its end or 0.
// A month (`months`) or weekday name, abbreviated or full, any case, at `i`
// and not followed by a letter; returns its end or 0.
size_t NameAt(std::string_view s, size_t i, bool months) {
  const int32_t key = Key3(s, i);
  if (key < 0) return 0;
  const int idx = DateNameIndex(key);
  if (idx < 0 || (idx < 12) != months) return 0;
  const std::string_view full = months ? kMonthFull[idx] : kDayFull[idx - 12];
  const size_t f = full.size();
  if (HasWordCi(s, i, full) && !(i + f < s.size() && IsAlpha(s[i + f]))) return i + f;
  if (!(i + 3 < s.size() && IsAlpha(s[i + 3]))) return i + 3;
  return 0;
}

size_t MonthAt(std::string_view s, size_t i) { return NameAt(s, i, true); }
size_t WeekdayAt(std::string_view s, size_t i) { return NameAt(s, i, false); }

// `+hh`, `+hhmm` or `+hh:mm` (also `-`). With `four_digits`, the bare `+hh`
// form is refused (used after a space, where `+12` would be too loose).
size_t OffsetAt(std::string_view s, size_t j, bool four_digits) {
  if (j >= s.size() || (s[j] != '+' && s[j] != '-')) return 0;
  int v = 0;
  const size_t e = DigitRun(s, j + 1, 2, 4, &v);
  if (e == 0) return 0;
  const size_t len = e - (j + 1);
  if (len == 3) return 0;
  if (len == 4) return v <= 2359 && NumberEndsAt(s, e) ? e : 0;
  if (v > 23) return 0;
  if (e < s.size() && s[e] == ':') {
    int m = 0;
    const size_t e2 = DigitRun(s, e + 1, 2, 2, &m);
    if (e2 != 0 && m <= 59 && NumberEndsAt(s, e2)) return e2;
  }
  if (four_digits) return 0;
  return NumberEndsAt(s, e) ? e : 0;
}

size_t ZoneNameAt(std::string_view s, size_t i) {
  for (std::string_view z : kZoneNames) {
    if (s.size() - i >= z.size() && s.substr(i, z.size()) == z && !ContinuesWord(s, i + z.size())) {
      return i + z.size();
    }
  }
  return 0;
}

// A parenthesised zone description after a JavaScript date:
// ` (Central European Standard Time)`. ASCII only, at most 64 characters
// counting a whitespace run as one.
size_t ZoneCommentAt(std::string_view s, size_t p) {
  if (p >= s.size() || s[p] != '(') return 0;
  size_t q = p + 1;
  int count = 0;
  while (q < s.size() && count <= 64) {
    const char c = s[q];
    if (c == ')') return q + 1;
    if (const size_t sl = SpaceLen(s, q); sl != 0) {
      q = SkipSpace(s, q);
      ++count;
      continue;
    }
    if (!(IsAlnum(c) || c == '-' || c == '.' || c == '+' || c == ':' || c == '/' || c == '_' || c == ',' ||
          c == '\'')) {
      return 0;
    }
    ++q;
    ++count;
  }
  return 0;
}

// An optional zone after a clock time; returns `j` when there is none.
size_t ZoneAt(std::string_view s, size_t j) {
  if (j < s.size() && s[j] == 'Z' && !ContinuesWord(s, j + 1)) return j + 1;
  if (const size_t e = OffsetAt(s, j, false); e != 0) return e;
  const size_t k = SkipSpace(s, j);
  if (k == j) return j;
  if (const size_t e = OffsetAt(s, k, true); e != 0) return e;
  size_t e = ZoneNameAt(s, k);
  if (e == 0) return j;
  if (const size_t o = OffsetAt(s, e, false); o != 0) e = o;
  const size_t p = SkipSpace(s, e);
  if (p > e) {
    if (const size_t c = ZoneCommentAt(s, p); c != 0) e = c;
  }
  return e;
}

// The end of `[ AM|PM][zone]` after a clock time ending at `j`, or 0 when
// the match would run into a following word or number.
size_t ClockTail(std::string_view s, size_t j) {
  const size_t k = SkipSpace(s, j);
  if (k > j && (HasWordCi(s, k, "am") || HasWordCi(s, k, "pm")) && !ContinuesWord(s, k + 2)) j = k + 2;
  j = ZoneAt(s, j);
  // Ending in a digit or letter, the next character must not continue it
  // (a zone comment ends in ')', which needs no such check).
  if (IsAlnum(s[j - 1]) && !NumberEndsAt(s, j)) return 0;
  return j;
}

// `H:MM:SS[.fff][ AM|PM][zone]`; seconds may be omitted when
// `!seconds_required` (after a date, which anchors the match). The fraction
// is optional: when taking it makes the match fail (`45,2024Android`,
// `45,20:23`), the time without it is tried, so the outcome does not depend
// on whether a later pass sees those digits or their placeholder.
size_t ClockAt(std::string_view s, size_t i, bool seconds_required) {
  int h = 0, m = 0, sec = 0;
  size_t j = DigitRun(s, i, 1, 2, &h);
  if (j == 0 || h > 24 || j >= s.size() || s[j] != ':') return 0;
  j = DigitRun(s, j + 1, 2, 2, &m);
  if (j == 0 || m > 59) return 0;
  if (j < s.size() && s[j] == ':' && j + 1 < s.size() && IsDigit(s[j + 1])) {
    j = DigitRun(s, j + 1, 2, 2, &sec);
    if (j == 0 || sec > 60) return 0;
    if (j + 1 < s.size() && (s[j] == '.' || s[j] == ',') && IsDigit(s[j + 1])) {
      if (const size_t f = DigitRun(s, j + 1, 1, 12); f != 0) {
        if (const size_t e = ClockTail(s, f); e != 0) return e;
      }
    }
  } else if (seconds_required) {
    return 0;
  }
  return ClockTail(s, j);
}

// Optional ` <clock>` after a date; returns `j` when absent.
size_t OptionalClock(std::string_view s, size_t j, bool seconds_required) {
  const size_t k = SkipSpace(s, j);
  if (k == j) return j;
  const size_t t = ClockAt(s, k, seconds_required);
  return t != 0 ? t : j;
}

// `YYYY-MM-DD` or `YYYY/MM/DD`, optionally followed by `T`, `_` or spaces
// and a clock time.
size_t IsoDateAt(std::string_view s, size_t i) {
  int y = 0, mo = 0, d = 0;
  size_t j = DigitRun(s, i, 4, 4, &y);
  if (j == 0 || j >= s.size() || (s[j] != '-' && s[j] != '/')) return 0;
  const char sep = s[j];
  j = DigitRun(s, j + 1, 1, 2, &mo);
  if (j == 0 || mo < 1 || mo > 12 || j >= s.size() || s[j] != sep) return 0;
  j = DigitRun(s, j + 1, 1, 2, &d);
  if (j == 0 || d < 1 || d > 31) return 0;
  (void)y;
  if (j < s.size() && (s[j] == 'T' || s[j] == '_')) {
    if (const size_t t = ClockAt(s, j + 1, false); t != 0) return t;
    return 0;
  }
  j = OptionalClock(s, j, false);
  return NumberEndsAt(s, j) ? j : 0;
}

// Dates written with a month name:
//   [Wkd[,] ]D Mon YYYY[ clock]            RFC 2822
//   D/Mon/YYYY[:clock]                     common log format
//   [Wkd ]Mon D[,] YYYY[ clock]            JavaScript Date#toString, prose
//   [Wkd ]Mon D clock[ YYYY]               ctime, syslog
size_t NamedDateAt(std::string_view s, size_t i) {
  size_t j = i;
  if (const size_t w = WeekdayAt(s, j); w != 0) {
    j = w;
    if (j < s.size() && s[j] == ',') ++j;
    const size_t k = SkipSpace(s, j);
    if (k == j) return 0;
    j = k;
  }
  if (j < s.size() && IsDigit(s[j])) {
    int d = 0;
    const size_t k = DigitRun(s, j, 1, 2, &d);
    if (k == 0 || d < 1 || d > 31) return 0;
    if (k < s.size() && s[k] == '/') {
      const size_t m = MonthAt(s, k + 1);
      if (m == 0 || m >= s.size() || s[m] != '/') return 0;
      const size_t y = DigitRun(s, m + 1, 4, 4);
      if (y == 0) return 0;
      if (y < s.size() && s[y] == ':') {
        const size_t t = ClockAt(s, y + 1, true);
        return t;
      }
      return NumberEndsAt(s, y) ? y : 0;
    }
    const size_t m0 = SkipSpace(s, k);
    if (m0 == k) return 0;
    const size_t m = MonthAt(s, m0);
    if (m == 0) return 0;
    const size_t y0 = SkipSpace(s, m);
    if (y0 == m) return 0;
    const size_t y = DigitRun(s, y0, 4, 4);
    if (y == 0) return 0;
    const size_t e = OptionalClock(s, y, false);
    return NumberEndsAt(s, e) ? e : 0;
  }
  const size_t m = MonthAt(s, j);
  if (m == 0) return 0;
  const size_t d0 = SkipSpace(s, m);
  if (d0 == m) return 0;
  int d = 0;
  size_t k = DigitRun(s, d0, 1, 2, &d);
  if (k == 0 || d < 1 || d > 31) return 0;
  if (k < s.size() && s[k] == ',') ++k;
  const size_t p = SkipSpace(s, k);
  if (p == k) return 0;
  if (const size_t y = DigitRun(s, p, 4, 4); y != 0) {
    const size_t e = OptionalClock(s, y, false);
    return NumberEndsAt(s, e) ? e : 0;
  }
  const size_t t = ClockAt(s, p, true);
  if (t == 0) return 0;
  const size_t q = SkipSpace(s, t);
  if (q > t) {
    if (const size_t y = DigitRun(s, q, 4, 4); y != 0 && NumberEndsAt(s, y)) return y;
  }
  return t;
}

// ---- addresses -------------------------------------------------------------

size_t Ipv4At(std::string_view s, size_t i) {
  size_t j = i;
  for (int part = 0; part < 4; ++part) {
    if (part != 0) {
      if (j >= s.size() || s[j] != '.') return 0;
      ++j;
    }
    int v = 0;
    const size_t e = DigitRun(s, j, 1, 3, &v);
    if (e == 0 || v > 255) return 0;
    j = e;
  }
  // Not followed by a letter, a digit or `.digit` (a longer version number);
  // `:digits` may follow (a port).
  if (ContinuesWord(s, j) || (j + 1 < s.size() && s[j] == '.' && IsDigit(s[j + 1]))) return 0;
  return j;
}

size_t Ipv6At(std::string_view s, size_t i) {
  const size_t n = s.size();
  size_t j = i;
  int groups = 0;
  bool double_colon = false;
  bool digit = false;
  size_t end = 0;
  if (j + 1 < n && s[j] == ':' && s[j + 1] == ':') {
    double_colon = true;
    j += 2;
    end = j;
  } else if (j < n && s[j] == ':') {
    return 0;
  }
  while (true) {
    if ((double_colon && groups <= 5) || (!double_colon && groups == 6)) {
      if (j < n && IsDigit(s[j])) {
        if (const size_t e = Ipv4At(s, j); e != 0) {
          groups += 2;
          digit = true;
          end = e;
          break;
        }
      }
    }
    size_t h = j;
    bool group_digit = false;
    while (h < n && IsHex(s[h]) && h - j < 5) {
      group_digit = group_digit || IsDigit(s[h]);
      ++h;
    }
    const size_t len = h - j;
    if (len == 0) break;  // only after "::" (a single ':' is consumed only before a hex digit)
    if (len > 4 || ContinuesWord(s, h)) return 0;
    digit = digit || group_digit;
    ++groups;
    j = h;
    end = j;
    if (groups > 8) return 0;
    if (j + 1 < n && s[j] == ':' && s[j + 1] == ':') {
      if (double_colon) return 0;
      double_colon = true;
      j += 2;
      end = j;
      continue;
    }
    if (j + 1 < n && s[j] == ':' && IsHex(s[j + 1])) {
      ++j;
      continue;
    }
    // `:word` that is not a group ends nothing: the whole token is not an address.
    if (j < n && s[j] == ':' && ContinuesWord(s, j + 1)) return 0;
    break;
  }
  const bool shape_ok = (double_colon && groups >= 1 && groups <= 7) || (!double_colon && groups == 8);
  if (!shape_ok || !digit || ContinuesWord(s, end)) return 0;
  return end;
}

// `:N` with N a port number, ending a token.
size_t PortSuffixAt(std::string_view s, size_t j) {
  if (j >= s.size() || s[j] != ':') return 0;
  int v = 0;
  const size_t e = DigitRun(s, j + 1, 1, 5, &v);
  if (e == 0 || v > 65535 || !NumberEndsAt(s, e)) return 0;
  return e;
}

// Label endings that mean "file", so `name.ext:N` is a line number.
constexpr std::array<std::string_view, 52> kSourceExtensions = {
    "js",   "mjs", "cjs",   "jsx",    "ts",    "tsx",  "mts", "cts", "py",  "pyx", "rb",    "go",  "java",
    "kt",   "kts", "scala", "groovy", "swift", "m",    "mm",  "c",   "cc",  "cpp", "cxx",   "h",   "hh",
    "hpp",  "rs",  "php",   "cs",     "fs",    "dart", "ex",  "exs", "erl", "lua", "pl",    "vue", "svelte",
    "html", "htm", "css",   "json",   "yml",   "yaml", "xml", "sql", "sh",  "jar", "class", "dll", "so"};

bool IsSourceExtension(std::string_view label) {
  for (std::string_view ext : kSourceExtensions) {
    if (label.size() == ext.size()) {
      bool eq = true;
      for (size_t k = 0; k < ext.size(); ++k) eq = eq && LowerAscii(label[k]) == ext[k];
      if (eq) return true;
    }
  }
  return false;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// ---- the scanner -----------------------------------------------------------

class Normalizer {
 public:
  explicit Normalizer(std::string_view s) : s_(s) {
    out_.resize(s.size() + 32);
    len_ = 0;
  }

  std::string Run() {
    const size_t n = s_.size();
    size_t i = 0;
    while (i < n) {
      const auto c = static_cast<unsigned char>(s_[i]);
      if (c <= 0x20 || c == 0x7F) {
        pending_space_ = true;
        ++i;
        continue;
      }
      if (c >= 0x80) {
        if (const size_t sl = SpaceLen(s_, i); sl != 0) {
          pending_space_ = true;
          i += sl;
          continue;
        }
        const size_t l = Utf8SeqLen(s_, i);
        if (l != 0) {
          Put(s_.substr(i, l));
          i += l;
        } else {
          Put(kReplacementChar);
          ++i;
        }
        continue;
      }
      if (const size_t e = Token(i); e != 0) {
        i = e;
        continue;
      }
      // No token starts inside a word, so the rest of it is copied at once.
      if (IsAlnum(s_[i])) {
        size_t j = i + 1;
        while (j < n && IsAlnum(s_[j])) ++j;
        Put(s_.substr(i, j - i));
        i = j;
      } else {
        PutChar(s_[i]);
        ++i;
      }
    }
    out_.resize(len_);
    return std::move(out_);
  }

 private:
  // The output is written into `out_` by hand (`len_` bytes used): this is
  // the hot loop and std::string::push_back does not inline well here.
  [[gnu::always_inline]] void Reserve(size_t more) {
    if (out_.size() - len_ < more) out_.resize((out_.size() + more) * 2);
  }
  [[gnu::always_inline]] void Flush() {
    if (pending_space_) {
      if (len_ != 0) out_[len_++] = ' ';
      pending_space_ = false;
    }
  }
  [[gnu::always_inline]] void Put(std::string_view text) {
    Reserve(text.size() + 1);
    Flush();
    std::memcpy(out_.data() + len_, text.data(), text.size());
    len_ += text.size();
  }
  [[gnu::always_inline]] void PutChar(char c) {
    Reserve(2);
    Flush();
    out_[len_++] = c;
  }
  std::string_view Output() const { return std::string_view(out_.data(), len_); }

  // A token may start here: the previous output character is not a letter or digit.
  bool AtWordStart() const { return pending_space_ || len_ == 0 || !IsAlnum(out_[len_ - 1]); }

  // Emits `placeholder` for s_[i, end) and returns `end`.
  size_t Replace(std::string_view placeholder, size_t end) {
    Put(placeholder);
    return end;
  }

  // True when the output ends with something a port may follow.
  bool OutputEndsWithHost() const {
    if (pending_space_) return false;
    const std::string_view out = Output();
    if (EndsWith(out, kIpPlaceholder) ||
        (EndsWith(out, "]") && EndsWith(out.substr(0, len_ - 1), kIpPlaceholder))) {
      return true;
    }
    size_t b = len_;
    while (b > 0 && (IsAlnum(out[b - 1]) || out[b - 1] == '.' || out[b - 1] == '-')) --b;
    const std::string_view word = out.substr(b);
    if (word.empty()) return false;
    if (word.size() == 9 && HasWordCi(word, 0, "localhost")) return true;
    if (word.front() == '.' || word.front() == '-' || word.back() == '.' || word.back() == '-') return false;
    const size_t dot = word.rfind('.');
    if (dot == std::string_view::npos) return false;
    const std::string_view label = word.substr(dot + 1);
    if (label.size() < 2) return false;
    for (char c : label) {
      if (!IsAlpha(c)) return false;
    }
    return !IsSourceExtension(label);
  }

  // Tries every rule at s_[i]; emits and returns the end of a match, or 0.
  size_t Token(size_t i) {
    const char c = s_[i];
    if (c == ':') {
      if (AtWordStart()) {
        if (const size_t e = Ipv6At(s_, i); e != 0) return Replace(kIpPlaceholder, e);
        // `:::3000`: the unspecified address `::` and a port (Node's EADDRINUSE).
        if (s_.substr(i, 2) == "::") {
          if (const size_t e = PortSuffixAt(s_, i + 2); e != 0) {
            Put(kIpPlaceholder);
            PutChar(':');
            return Replace(kPortPlaceholder, e);
          }
        }
      }
      if (OutputEndsWithHost()) {
        if (const size_t e = PortSuffixAt(s_, i); e != 0) {
          PutChar(':');
          return Replace(kPortPlaceholder, e);
        }
      }
      return 0;
    }
    if (!IsAlnum(c) || !AtWordStart()) return 0;
    if (IsDigit(c)) return DigitToken(i);
    return LetterToken(i);
  }

  size_t UuidAt(size_t i) const {
    if (s_.size() - i < 36) return 0;
    for (size_t k = 0; k < 36; ++k) {
      const char ch = s_[i + k];
      if (k == 8 || k == 13 || k == 18 || k == 23) {
        if (ch != '-') return 0;
      } else if (!IsHex(ch)) {
        return 0;
      }
    }
    return ContinuesWord(s_, i + 36) ? 0 : i + 36;
  }

  // A whole word of 8+ hex digits mixing digits and letters.
  size_t HexWordAt(size_t i) const {
    size_t j = i;
    bool has_digit = false, has_letter = false;
    while (j < s_.size() && IsHex(s_[j])) {
      if (IsDigit(s_[j])) {
        has_digit = true;
      } else {
        has_letter = true;
      }
      ++j;
    }
    if (j - i < 8 || !has_digit || !has_letter || ContinuesWord(s_, j)) return 0;
    return j;
  }

  size_t HexRunEnd(size_t i) const {
    while (i < s_.size() && IsHex(s_[i])) ++i;
    return i;
  }
  char At(size_t j) const { return j < s_.size() ? s_[j] : '\0'; }

  // Each rule runs only when its first characters fit, so a plain word costs
  // a few comparisons. The guards repeat the rules' own first checks.
  size_t LetterToken(size_t i) {
    const size_t h = HexRunEnd(i) - i;
    const char after_hex = At(i + h);
    if (h == 8 && after_hex == '-') {
      if (const size_t e = UuidAt(i); e != 0) return Replace(kUuidPlaceholder, e);
    }
    if (MayStartDateName(s_, i)) {
      if (const size_t e = NamedDateAt(s_, i); e != 0) return Replace(kTimestampPlaceholder, e);
    }
    if (h >= 1 && h <= 4 && after_hex == ':') {
      if (const size_t e = Ipv6At(s_, i); e != 0) return Replace(kIpPlaceholder, e);
    }
    if (h >= 8) {
      if (const size_t e = HexWordAt(i); e != 0) return Replace(kHexPlaceholder, e);
    }
    if ((s_[i] == 'p' || s_[i] == 'P') && HasWordCi(s_, i, "port") && !ContinuesWord(s_, i + 4)) {
      return PortKeyword(i);
    }
    return 0;
  }

  // `port N`, `port=N`, `port: N`: keeps the word and separator, replaces N.
  size_t PortKeyword(size_t i) {
    size_t k = SkipSpace(s_, i + 4);
    if (k < s_.size() && (s_[k] == '=' || s_[k] == ':')) k = SkipSpace(s_, k + 1);
    int v = 0;
    const size_t e = DigitRun(s_, k, 1, 5, &v);
    if (e == 0 || v > 65535 || !NumberEndsAt(s_, e)) return 0;
    Put(s_.substr(i, 4));
    for (size_t p = i + 4; p < k;) {
      if (const size_t sl = SpaceLen(s_, p); sl != 0) {
        pending_space_ = true;
        p += sl;
      } else {
        PutChar(s_[p]);
        ++p;
      }
    }
    return Replace(kPortPlaceholder, e);
  }

  size_t DigitToken(size_t i) {
    const size_t d = DigitsEnd(s_, i) - i;
    const size_t h = HexRunEnd(i) - i;
    const char after_digits = At(i + d);
    const char after_hex = At(i + h);
    if (h == 8 && after_hex == '-') {
      if (const size_t e = UuidAt(i); e != 0) return Replace(kUuidPlaceholder, e);
    }
    if (d == 4 && (after_digits == '-' || after_digits == '/')) {
      if (const size_t e = IsoDateAt(s_, i); e != 0) return Replace(kTimestampPlaceholder, e);
    }
    if (d <= 2 && i + d < s_.size() && (after_digits == '/' || SpaceLen(s_, i + d) != 0)) {
      if (const size_t e = NamedDateAt(s_, i); e != 0) return Replace(kTimestampPlaceholder, e);
    }
    if (d <= 2 && after_digits == ':') {
      if (const size_t e = ClockAt(s_, i, true); e != 0) return Replace(kTimestampPlaceholder, e);
    }
    if (d <= 3 && after_digits == '.') {
      if (const size_t e = Ipv4At(s_, i); e != 0) {
        Put(kIpPlaceholder);
        if (const size_t p = PortSuffixAt(s_, e); p != 0) {
          PutChar(':');
          return Replace(kPortPlaceholder, p);
        }
        return e;
      }
    }
    if (h <= 4 && after_hex == ':') {
      if (const size_t e = Ipv6At(s_, i); e != 0) return Replace(kIpPlaceholder, e);
    }
    if (d == 1 && s_[i] == '0' && (after_digits == 'x' || after_digits == 'X') && IsHex(At(i + 2))) {
      const size_t j = HexRunEnd(i + 2);
      return Replace(kHexPlaceholder, j);
    }
    if (h >= 8) {
      if (const size_t e = HexWordAt(i); e != 0) return Replace(kHexPlaceholder, e);
    }
    return Number(i);
  }

  // Numbers: 4+ digits in the integer part or the fraction become <num>;
  // dotted versions (two or more dots) are copied whole.
  size_t Number(size_t i) {
    const size_t a = DigitsEnd(s_, i);
    const size_t int_len = a - i;
    size_t end = a;
    bool replace = int_len >= 4;
    // `8123.4f1d2c3b` is a number and a hex word, not a decimal.
    if (a + 1 < s_.size() && s_[a] == '.' && IsDigit(s_[a + 1]) && HexWordAt(a + 1) == 0) {
      const size_t b = DigitsEnd(s_, a + 1);
      end = b;
      if (b + 1 < s_.size() && s_[b] == '.' && IsDigit(s_[b + 1])) {
        while (end + 1 < s_.size() && s_[end] == '.' && IsDigit(s_[end + 1])) end = DigitsEnd(s_, end + 1);
        replace = false;
      } else {
        replace = int_len >= 4 || b - (a + 1) >= 4;
      }
    }
    if (replace) return Replace(kNumberPlaceholder, end);
    Put(s_.substr(i, end - i));
    return end;
  }

  std::string_view s_;
  std::string out_;
  size_t len_ = 0;
  bool pending_space_ = false;
};

// ---- URLs ------------------------------------------------------------------

constexpr char kHexDigits[] = "0123456789ABCDEF";

// Appends `s` with bytes outside printable ASCII percent-encoded and existing
// escapes upper-cased; `lower` lower-cases letters (host names).
void AppendEncoded(std::string_view s, bool lower, std::string* out) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      if (i + 2 < s.size() && IsHex(s[i + 1]) && IsHex(s[i + 2])) {
        out->push_back('%');
        out->push_back(text::UpperAscii(s[i + 1]));
        out->push_back(text::UpperAscii(s[i + 2]));
        i += 2;
      } else {
        out->append("%25");
      }
    } else if (c <= 0x20 || c >= 0x7F || c == '"') {
      out->push_back('%');
      out->push_back(kHexDigits[c >> 4]);
      out->push_back(kHexDigits[c & 0xF]);
    } else {
      out->push_back(lower ? LowerAscii(static_cast<char>(c)) : static_cast<char>(c));
    }
  }
}

bool IsUuidText(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t k = 0; k < 36; ++k) {
    if (k == 8 || k == 13 || k == 18 || k == 23) {
      if (s[k] != '-') return false;
    } else if (!IsHex(s[k])) {
      return false;
    }
  }
  return true;
}

void AppendSegment(std::string_view seg, std::string* out) {
  bool all_digits = true, all_hex = true;
  for (char c : seg) {
    all_digits = all_digits && IsDigit(c);
    all_hex = all_hex && IsHex(c);
  }
  if (all_digits) {
    out->append(kIdPlaceholder);
  } else if (IsUuidText(seg)) {
    out->append(kUuidPlaceholder);
  } else if (all_hex && seg.size() >= 16) {
    out->append(kIdPlaceholder);
  } else {
    AppendEncoded(seg, false, out);
  }
}

// Scheme name before ':' (2+ characters), or empty.
std::string_view SchemeOf(std::string_view url) {
  if (url.empty() || !IsAlpha(url[0])) return {};
  size_t k = 1;
  while (k < url.size() && (IsAlnum(url[k]) || url[k] == '+' || url[k] == '-' || url[k] == '.')) ++k;
  if (k < 2 || k >= url.size() || url[k] != ':') return {};
  return url.substr(0, k);
}

bool IsOpaqueScheme(std::string_view lower_scheme) {
  return lower_scheme == "about" || lower_scheme == "blob" || lower_scheme == "data" ||
         lower_scheme == "javascript" || lower_scheme == "mailto" || lower_scheme == "tel" ||
         lower_scheme == "urn";
}

// Appends the normalized form of a path (no query or fragment in `path`).
// `root_if_empty` writes "/" for an empty path. `url_start` is where the URL
// being written began in `out` (npos when the path cannot start it).
void AppendPath(std::string_view path, bool root_if_empty, size_t url_start, std::string* out) {
  const bool absolute = !path.empty() && path.front() == '/';
  size_t written = 0;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view seg = path.substr(pos, slash - pos);
    if (const size_t semi = seg.find(';'); semi != std::string_view::npos) seg = seg.substr(0, semi);
    if (!seg.empty()) {
      if (written > 0 || absolute || root_if_empty) out->push_back('/');
      const std::string_view scheme =
          written == 0 && out->size() == url_start ? SchemeOf(seg) : std::string_view();
      if (!scheme.empty() && IsOpaqueScheme(text::LowerAsciiCopy(scheme))) {
        // A relative path must not start like `data:`; a second pass would
        // read it as a scheme.
        out->append(scheme);
        out->append("%3A");
        AppendEncoded(seg.substr(scheme.size() + 1), false, out);
      } else {
        AppendSegment(seg, out);
      }
      ++written;
    }
    pos = slash + 1;
  }
  if (written == 0 && (absolute || root_if_empty)) out->push_back('/');
}

void AppendAuthority(std::string_view scheme, std::string_view authority, std::string* out) {
  if (const size_t at = authority.rfind('@'); at != std::string_view::npos)
    authority = authority.substr(at + 1);
  while (!authority.empty() && authority.back() == ':') authority.remove_suffix(1);
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close != std::string_view::npos) {
      host = authority.substr(0, close + 1);
      std::string_view rest = authority.substr(close + 1);
      if (!rest.empty() && rest.front() == ':') port = rest.substr(1);
    }
  } else if (const size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    const std::string_view tail = authority.substr(colon + 1);
    bool digits = true;
    for (char c : tail) digits = digits && IsDigit(c);
    if (digits) {
      host = authority.substr(0, colon);
      port = tail;
      while (!host.empty() && host.back() == ':') host.remove_suffix(1);
    }
  }
  AppendEncoded(host, true, out);
  // A default port is dropped only from a plain host (`a:80:80` keeps it, so
  // that a second pass reads the same host).
  const bool plain_host = host.find(':') == std::string_view::npos || host.front() == '[';
  const bool default_port = plain_host && ((port == "80" && (scheme == "http" || scheme == "ws")) ||
                                           (port == "443" && (scheme == "https" || scheme == "wss")));
  if (!port.empty() && !default_port) {
    out->push_back(':');
    AppendEncoded(port, false, out);
  }
}

void AppendUrl(std::string_view url, bool allow_blob, std::string* out) {
  const size_t url_start = out->size();
  std::string scheme;
  std::string_view rest = url;
  if (const std::string_view raw = SchemeOf(url); !raw.empty()) {
    const std::string lower = text::LowerAsciiCopy(raw);
    const std::string_view after = url.substr(raw.size() + 1);
    const bool hierarchical = after.size() >= 2 && after[0] == '/' && after[1] == '/';
    if (hierarchical || IsOpaqueScheme(lower)) {
      scheme = lower;
      rest = after;
      out->append(scheme);
      out->push_back(':');
      if (scheme == "data" || scheme == "javascript") return;
      if (scheme == "blob" && allow_blob) {
        AppendUrl(rest, false, out);
        return;
      }
    }
  }
  // Split off the fragment and the query.
  std::string_view fragment;
  bool has_fragment = false;
  if (const size_t hash = rest.find('#'); hash != std::string_view::npos) {
    fragment = rest.substr(hash + 1);
    has_fragment = true;
    rest = rest.substr(0, hash);
  }
  if (const size_t q = rest.find('?'); q != std::string_view::npos) rest = rest.substr(0, q);

  bool root_if_empty = false;
  if (rest.size() >= 2 && rest[0] == '/' && rest[1] == '/') {
    rest.remove_prefix(2);
    const size_t slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    out->append("//");
    AppendAuthority(scheme, authority, out);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    root_if_empty = true;
  }
  AppendPath(rest, root_if_empty, url_start, out);

  // Hash routing (`#/users/5`, `#!/users/5`) is part of the page's identity.
  if (has_fragment && (fragment.starts_with("/") || fragment.starts_with("!/"))) {
    out->push_back('#');
    if (fragment.front() == '!') {
      out->push_back('!');
      fragment.remove_prefix(1);
    }
    if (const size_t q = fragment.find('?'); q != std::string_view::npos) fragment = fragment.substr(0, q);
    AppendPath(fragment, true, std::string::npos, out);
  }
}

}  // namespace

std::string NormalizeMessage(std::string_view message) { return Normalizer(message).Run(); }

std::string UrlPattern(std::string_view url) {
  size_t b = 0, e = url.size();
  while (b < e && static_cast<unsigned char>(url[b]) <= 0x20) ++b;
  while (e > b && static_cast<unsigned char>(url[e - 1]) <= 0x20) --e;
  std::string out;
  out.reserve(e - b + 8);
  AppendUrl(url.substr(b, e - b), true, &out);
  return out;
}

}  // namespace service::domain::capture
