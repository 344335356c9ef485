#include "util/time.h"

#include <cstdio>

namespace service::util {

namespace {
// Howard Hinnant's days_from_civil / civil_from_days.
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t yy = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yy + (*m <= 2);
}

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}
}  // namespace

std::string FormatIso8601(int64_t ms) {
  int64_t days = ms >= 0 ? ms / 86'400'000 : (ms - 86'399'999) / 86'400'000;
  int64_t rem = ms - days * 86'400'000;
  int64_t y;
  unsigned mo, d;
  CivilFromDays(days, &y, &mo, &d);
  const int h = static_cast<int>(rem / 3'600'000);
  rem %= 3'600'000;
  const int mi = static_cast<int>(rem / 60'000);
  rem %= 60'000;
  const int s = static_cast<int>(rem / 1000);
  const int frac = static_cast<int>(rem % 1000);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<long long>(y), mo, d, h,
                mi, s, frac);
  return buf;
}

std::optional<int64_t> ParseIso8601(std::string_view s) {
  int y, mo, d;
  if (!Digits(s, 0, 4, &y) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2, &mo) || s[7] != '-' ||
      !Digits(s, 8, 2, &d))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
  int h = 0, mi = 0, sec = 0, ms = 0;
  int64_t offset_ms = 0;
  size_t p = 10;
  if (p < s.size()) {
    if (s[p] != 'T' && s[p] != 't' && s[p] != ' ') return std::nullopt;
    ++p;
    if (!Digits(s, p, 2, &h) || p + 2 >= s.size() || s[p + 2] != ':' || !Digits(s, p + 3, 2, &mi))
      return std::nullopt;
    p += 5;
    if (p < s.size() && s[p] == ':') {
      if (!Digits(s, p + 1, 2, &sec)) return std::nullopt;
      p += 3;
      if (p < s.size() && s[p] == '.') {
        ++p;
        int scale = 100;
        size_t start = p;
        while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
          ms += (s[p] - '0') * scale;
          scale /= 10;
          ++p;
        }
        if (p == start) return std::nullopt;
      }
    }
    if (h > 23 || mi > 59 || sec > 60) return std::nullopt;
    if (p < s.size()) {
      if ((s[p] == 'Z' || s[p] == 'z') && p + 1 == s.size()) {
        p++;
      } else if (s[p] == '+' || s[p] == '-') {
        int oh, om;
        const int sign = s[p] == '-' ? -1 : 1;
        if (!Digits(s, p + 1, 2, &oh)) return std::nullopt;
        size_t q = p + 3;
        if (q < s.size() && s[q] == ':') ++q;
        if (!Digits(s, q, 2, &om) || q + 2 != s.size()) return std::nullopt;
        offset_ms = sign * (static_cast<int64_t>(oh) * 3'600'000 + static_cast<int64_t>(om) * 60'000);
        p = s.size();
      } else {
        return std::nullopt;
      }
    }
  }
  const int64_t days = DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return days * 86'400'000 + static_cast<int64_t>(h) * 3'600'000 + static_cast<int64_t>(mi) * 60'000 +
         static_cast<int64_t>(sec) * 1000 + ms - offset_ms;
}

}  // namespace service::util
