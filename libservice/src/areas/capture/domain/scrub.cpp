#include "areas/capture/domain/scrub.h"

#include <boost/json.hpp>

#include "areas/capture/domain/text.h"

namespace service::domain::capture {
namespace {

namespace json = boost::json;

constexpr std::array<std::string_view, kScrubRuleCount> kRuleNames = {"key",    "pair",  "card",
                                                                      "bearer", "token", "ip"};

constexpr std::array<std::string_view, 8> kIpKeys = {
    "ip", "ipaddress", "ipaddr", "clientip", "remoteaddr", "remoteaddress", "xforwardedfor", "xrealip"};

// Prefixes of known secret formats (the token rule), matched at a word start.
constexpr std::array<std::string_view, 19> kTokenPrefixes = {
    "sv_pat_",  "sv_live_",    "sv_test_", "ghp_",   "gho_",  "ghu_",  "ghs_",
    "ghr_",     "github_pat_", "xoxb-",    "xoxp-",  "xoxa-", "xoxr-", "xoxs-",
    "sk_live_", "rk_live_",    "sk_test_", "glpat-", "npm_"};
constexpr size_t kMinTokenTail = 16;
constexpr size_t kMinBearerChars = 8;
constexpr size_t kMaxPairNameChars = 128;

bool IsSkippedKeyChar(char c) { return c == '_' || c == '-' || c == '.' || c == ' '; }

// The normalized key in `buf` (at most `cap` characters; longer keys are
// normalized into `big`).
std::string_view Normalize(std::string_view key, char* buf, size_t cap, std::string& big) {
  size_t n = 0;
  if (key.size() <= cap) {
    for (char c : key) {
      if (!IsSkippedKeyChar(c)) buf[n++] = text::LowerAscii(c);
    }
    return std::string_view(buf, n);
  }
  big = NormalizeScrubKey(key);
  return big;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "token" at `at` in `k` that is not "tokeniz..."/"tokenis...".
bool IsTokenWord(std::string_view k, size_t at) {
  const std::string_view rest = k.substr(at + 5);
  return !(rest.size() >= 2 && rest[0] == 'i' && (rest[1] == 'z' || rest[1] == 's'));
}

// For each character, the words of kSensitiveKeyWords starting with it (a
// bit per word).
constexpr std::array<uint16_t, 256> kWordsByFirst = [] {
  std::array<uint16_t, 256> t{};
  for (size_t w = 0; w < kSensitiveKeyWords.size(); ++w) {
    t[static_cast<unsigned char>(kSensitiveKeyWords[w][0])] |= static_cast<uint16_t>(1u << w);
  }
  return t;
}();
static_assert(kSensitiveKeyWords.size() <= 16);

// One pass over the key: at each character, only the words starting with it.
bool ContainsWord(std::string_view k) {
  const size_t n = k.size();
  for (size_t i = 0; i + 4 <= n; ++i) {
    for (uint16_t bits = kWordsByFirst[static_cast<unsigned char>(k[i])]; bits != 0; bits &= bits - 1) {
      const std::string_view w = kSensitiveKeyWords[__builtin_ctz(bits)];
      if (w[1] != k[i + 1] || w.size() > n - i || k.compare(i, w.size(), w) != 0) continue;
      if (w != "token" || IsTokenWord(k, i)) return true;
    }
  }
  return false;
}

bool SensitiveNormalized(std::string_view k, const ScrubOptions& o, bool numeric) {
  if (k.empty()) return false;
  if (numeric && (EndsWith(k, "count") || EndsWith(k, "tokens"))) return false;
  if (k.size() <= 5) {
    for (std::string_view exact : kSensitiveExactKeys) {
      if (k == exact) return true;
    }
  }
  if (ContainsWord(k)) return true;
  for (const std::string& extra : o.extra_keys) {
    if (!extra.empty() && k.find(extra) != std::string_view::npos) return true;
  }
  return false;
}

bool IsPairNameChar(char c) {
  return text::IsAlnum(c) || c == '_' || c == '-' || c == '.' || c == '[' || c == ']';
}
bool IsPairBoundary(char c) {
  return c == '?' || c == '&' || c == ';' || c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool EndsPairValue(char c) {
  return c == '&' || c == ';' || c == '#' || c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool IsBearerChar(char c) {
  return text::IsAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=';
}
bool IsTokenChar(char c) { return text::IsAlnum(c) || c == '_' || c == '-'; }

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!text::IsDigit(c)) return false;
  }
  return true;
}

struct Span {
  size_t begin, end;
  std::string_view with;
};
constexpr std::string_view kQuotedMarker = "\"[Filtered]\"";

class Scanner {
 public:
  Scanner(std::string_view s, const ScrubOptions& o, ScrubCounts& counts) : s_(s), o_(o), counts_(counts) {}

  // Fills `out` and returns true when a rule matched.
  bool Run(std::string* out) {
    const size_t n = s_.size();
    size_t i = 0;
    while (i < n) {
      const char c = s_[i];
      const bool word_start = i == 0 || !text::IsAlnum(s_[i - 1]);
      if (c == '=') {
        i = Pair(i);
      } else if (c == ':' && i > 0 && s_[i - 1] == '"') {
        i = QuotedPair(i);
      } else if (text::IsDigit(c)) {
        i = word_start ? Card(i) : SkipDigits(i);
      } else if (text::IsAlpha(c)) {
        i = word_start ? Word(i) : i + 1;
      } else {
        ++i;
      }
    }
    if (spans_.empty()) return false;
    std::string r;
    r.reserve(n + spans_.size() * 4);
    size_t at = 0;
    for (const Span& sp : spans_) {
      r.append(s_.substr(at, sp.begin - at));
      r.append(sp.with);
      at = sp.end;
    }
    r.append(s_.substr(at));
    *out = std::move(r);
    return true;
  }

 private:
  size_t LastEnd() const { return spans_.empty() ? 0 : spans_.back().end; }

  void AddSpan(size_t b, size_t e, ScrubRule rule, std::string_view with = kFilteredMarker) {
    spans_.push_back({b, e, with});
    counts_.Add(rule);
  }

  // `name=value`: the '=' at `eq`.
  size_t Pair(size_t eq) {
    size_t j = eq;
    const size_t floor = LastEnd();
    while (j > floor && eq - j < kMaxPairNameChars && IsPairNameChar(s_[j - 1])) --j;
    if (j == eq || (j > 0 && !IsPairBoundary(s_[j - 1]))) return eq + 1;
    // The name first: the value is scanned only after a sensitive name (a
    // number exempts only names that match), so the scan stays linear.
    const std::string_view name = s_.substr(j, eq - j);
    if (!IsSensitiveKey(name, o_, false)) return eq + 1;
    size_t e = eq + 1;
    while (e < s_.size() && !EndsPairValue(s_[e])) ++e;
    const std::string_view value = s_.substr(eq + 1, e - eq - 1);
    if (value.empty() || value == kFilteredMarker) return e;
    if (AllDigits(value) && !IsSensitiveKey(name, o_, true)) return e;
    AddSpan(eq + 1, e, ScrubRule::kPair);
    return e;
  }

  // `"name": value`: the ':' at `colon`, right after the name's closing quote.
  size_t QuotedPair(size_t colon) {
    const size_t close = colon - 1;
    size_t open = close;
    const size_t floor = LastEnd();
    while (open > floor && close - open < kMaxPairNameChars && s_[open - 1] != '"') --open;
    if (open == floor || s_[open - 1] != '"') return colon + 1;
    const std::string_view name = s_.substr(open, close - open);
    if (!IsSensitiveKey(name, o_, false)) return colon + 1;
    size_t v = colon + 1;
    while (v < s_.size() && (s_[v] == ' ' || s_[v] == '\t')) ++v;
    if (v >= s_.size() || s_[v] == '{' || s_[v] == '[') return colon + 1;
    if (s_[v] == '"') {
      size_t e = v + 1;
      while (e < s_.size() && s_[e] != '"') e += s_[e] == '\\' ? 2 : 1;
      if (e > s_.size()) e = s_.size();
      const std::string_view value = s_.substr(v + 1, e - v - 1);
      if (value.empty() || value == kFilteredMarker) return e;
      AddSpan(v + 1, e, ScrubRule::kPair);
      return e;
    }
    size_t e = v;
    while (e < s_.size() && s_[e] != ',' && s_[e] != '}' && s_[e] != ']' && s_[e] != ' ' && s_[e] != '\n' &&
           s_[e] != '\r' && s_[e] != '\t') {
      ++e;
    }
    const std::string_view value = s_.substr(v, e - v);
    if (value.empty() || value == "true" || value == "false" || value == "null") return colon + 1;
    const bool numeric = text::IsDigit(value[0]) || value[0] == '-';
    if (numeric && !IsSensitiveKey(name, o_, true)) return e;
    AddSpan(v, e, ScrubRule::kPair, kQuotedMarker);
    return e;
  }

  size_t SkipDigits(size_t i) const {
    while (i < s_.size() && text::IsDigit(s_[i])) ++i;
    return i;
  }

  size_t Card(size_t i) {
    const char first = s_[i];
    if (first < '2' || first > '6') return SkipDigits(i);
    size_t j = i;
    int digits = 0;
    while (j < s_.size()) {
      if (text::IsDigit(s_[j])) {
        ++digits;
        ++j;
      } else if ((s_[j] == ' ' || s_[j] == '-') && j + 1 < s_.size() && text::IsDigit(s_[j + 1])) {
        ++j;
      } else {
        break;
      }
      if (digits > 19) break;
    }
    if (digits >= 13 && digits <= 19 && (j == s_.size() || !text::IsAlnum(s_[j])) &&
        LuhnValid(s_.substr(i, j - i))) {
      AddSpan(i, j, ScrubRule::kCard);
      return j;
    }
    return SkipDigits(i);
  }

  // A word start: bearer credentials and known token formats.
  size_t Word(size_t i) {
    const size_t n = s_.size();
    const char lc = text::LowerAscii(s_[i]);
    if (lc == 'b' && i + 7 < n) {
      static constexpr std::string_view kBearer = "bearer";
      bool match = true;
      for (size_t k = 0; k < kBearer.size() && match; ++k) match = text::LowerAscii(s_[i + k]) == kBearer[k];
      if (match && s_[i + 6] == ' ') {
        size_t b = i + 7;
        while (b < n && s_[b] == ' ') ++b;
        size_t e = b;
        bool marked = false;
        while (e < n && IsBearerChar(s_[e])) {
          if (!text::IsAlpha(s_[e])) marked = true;
          ++e;
        }
        if (e - b >= kMinBearerChars && marked && s_.substr(b, e - b) != kFilteredMarker) {
          AddSpan(b, e, ScrubRule::kBearer);
          return e;
        }
      }
    }
    if ((lc == 's' || lc == 'g' || lc == 'x' || lc == 'r' || lc == 'n') && i + 4 + kMinTokenTail <= n) {
      for (std::string_view p : kTokenPrefixes) {
        if (p[0] != s_[i] || p[1] != s_[i + 1] || p[2] != s_[i + 2] || s_.compare(i, p.size(), p) != 0)
          continue;
        size_t e = i + p.size();
        while (e < n && IsTokenChar(s_[e])) ++e;
        if (e - i - p.size() >= kMinTokenTail) {
          AddSpan(i, e, ScrubRule::kToken);
          return e;
        }
      }
    }
    if (s_[i] == 'e' && i >= jwt_run_end_ && i + 2 < n && s_[i + 1] == 'y' && s_[i + 2] == 'J') {
      // header.payload.signature, each base64url; the first two JSON objects.
      size_t e = i;
      int dots = 0;
      size_t seg_start = i;
      bool ok = true;
      while (e < n && (IsTokenChar(s_[e]) || s_[e] == '.')) {
        if (s_[e] == '.') {
          if (e - seg_start < 10) ok = false;
          ++dots;
          if (dots == 1 && s_.substr(e + 1, 3) != "eyJ") ok = false;
          seg_start = e + 1;
        }
        ++e;
      }
      if (ok && dots == 2) {
        AddSpan(i, e, ScrubRule::kToken);
        return e;
      }
      jwt_run_end_ = e;  // a later "eyJ" inside this run is not scanned again
    }
    size_t e = i;
    while (e < n && text::IsAlnum(s_[e])) ++e;
    return e;
  }

  std::string_view s_;
  const ScrubOptions& o_;
  ScrubCounts& counts_;
  std::vector<Span> spans_;
  size_t jwt_run_end_ = 0;
};

bool ScrubText(std::string_view s, const ScrubOptions& o, ScrubCounts& counts, std::string* out) {
  if (s.size() < 8) {
    // Shorter than every pattern but `a=b`: only pairs can match.
    if (s.find('=') == std::string_view::npos && s.find(':') == std::string_view::npos) return false;
  }
  return Scanner(s, o, counts).Run(out);
}

bool IsMarker(const json::value& v) { return v.is_string() && v.get_string() == kFilteredMarker; }

void Filter(json::value& v) { v.emplace_string().assign(kFilteredMarker.data(), kFilteredMarker.size()); }

bool CardNumber(const json::value& v) {
  char buf[24];
  uint64_t u = 0;
  if (v.is_int64()) {
    if (v.get_int64() < 0) return false;
    u = static_cast<uint64_t>(v.get_int64());
  } else if (v.is_uint64()) {
    u = v.get_uint64();
  } else {
    return false;
  }
  if (u < 1'000'000'000'000ULL) return false;  // fewer than 13 digits
  const int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(u));
  if (n < 13 || n > 19 || buf[0] < '2' || buf[0] > '6') return false;
  return LuhnValid(std::string_view(buf, static_cast<size_t>(n)));
}

void Walk(json::value& v, const ScrubOptions& o, ScrubCounts& counts, bool message) {
  switch (v.kind()) {
    case json::kind::object:
      for (auto& kv : v.get_object()) {
        json::value& child = kv.value();
        if (child.is_null() || child.is_bool()) continue;
        const std::string_view key = kv.key();
        if (!o.store_ip && IsIpKey(key)) {
          if (!IsMarker(child)) {
            Filter(child);
            counts.Add(ScrubRule::kIp);
          }
          continue;
        }
        if (IsSensitiveKey(key, o, child.is_number())) {
          if (!IsMarker(child)) {
            Filter(child);
            counts.Add(ScrubRule::kKey);
          }
          continue;
        }
        Walk(child, o, counts, key == "message");
      }
      break;
    case json::kind::array: {
      json::array& a = v.get_array();
      // [name, value] pairs (Sentry's header lists): the name is a key.
      if (a.size() == 2 && a[0].is_string() && !a[1].is_null() && !a[1].is_bool() && !IsMarker(a[1])) {
        const std::string_view name = a[0].get_string();
        if (!o.store_ip && IsIpKey(name)) {
          Filter(a[1]);
          counts.Add(ScrubRule::kIp);
          return;
        }
        if (IsSensitiveKey(name, o, a[1].is_number())) {
          Filter(a[1]);
          counts.Add(ScrubRule::kKey);
          return;
        }
      }
      for (json::value& e : a) Walk(e, o, counts, false);
      break;
    }
    case json::kind::string: {
      if (message && !o.scrub_messages) return;
      json::string& s = v.get_string();
      std::string out;
      if (ScrubText(s, o, counts, &out)) s.assign(out.data(), out.size());
      break;
    }
    case json::kind::int64:
    case json::kind::uint64:
      if (CardNumber(v)) {
        Filter(v);
        counts.Add(ScrubRule::kCard);
      }
      break;
    default:
      break;
  }
}

}  // namespace

std::string_view ScrubRuleName(ScrubRule rule) {
  const int i = static_cast<int>(rule);
  return i >= 0 && i < kScrubRuleCount ? kRuleNames[i] : std::string_view();
}

int64_t ScrubCounts::Total() const {
  int64_t t = 0;
  for (int64_t n : by_rule) t += n;
  return t;
}

void ScrubCounts::Merge(const ScrubCounts& other) {
  for (int i = 0; i < kScrubRuleCount; ++i) by_rule[i] += other.by_rule[i];
}

std::string NormalizeScrubKey(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (!IsSkippedKeyChar(c)) out.push_back(text::LowerAscii(c));
  }
  return out;
}

bool IsSensitiveKey(std::string_view key, const ScrubOptions& options, bool numeric) {
  char buf[128];
  std::string big;
  return SensitiveNormalized(Normalize(key, buf, sizeof buf, big), options, numeric);
}

bool IsIpKey(std::string_view key) {
  if (key.size() > 32) return false;
  char buf[32];
  std::string big;
  const std::string_view k = Normalize(key, buf, sizeof buf, big);
  for (std::string_view ip : kIpKeys) {
    if (k == ip) return true;
  }
  return false;
}

bool ScrubString(std::string& s, const ScrubOptions& options, ScrubCounts& counts) {
  std::string out;
  if (!ScrubText(s, options, counts, &out)) return false;
  s = std::move(out);
  return true;
}

void ScrubJson(json::value& v, const ScrubOptions& options, ScrubCounts& counts) {
  Walk(v, options, counts, false);
}

bool LuhnValid(std::string_view digits) {
  int sum = 0;
  int count = 0;
  bool dbl = false;
  for (size_t i = digits.size(); i-- > 0;) {
    const char c = digits[i];
    if (!text::IsDigit(c)) continue;
    int d = c - '0';
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
    ++count;
  }
  return count > 0 && sum % 10 == 0;
}

}  // namespace service::domain::capture
