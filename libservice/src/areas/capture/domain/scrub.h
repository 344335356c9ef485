// Scrubbing (issue 31 item 3): secrets are replaced by kFilteredMarker in a
// report before anything of it is stored. Six rules, each counted:
//
//   key     a value under a sensitive object key (IsSensitiveKey): every
//           string, number, array or object there (null and booleans stay)
//   pair    the value of a sensitive `name=value` (query strings, form
//           bodies, cookie strings: the name starts the string or follows
//           one of ? & ; , space tab newline; the value runs to & ; # , or
//           whitespace) or `"name": value` (JSON text inside a string; a
//           quoted value, or a bare number/word up to , } ] or whitespace;
//           an object or array value is left alone) inside any string
//   card    13-19 digits, single spaces or dashes allowed between digits,
//           not touching a letter or digit, first digit 2-6 (card networks;
//           Unix timestamps in ms, us and ns start with 1), Luhn-valid;
//           also an integer JSON number of that form
//   bearer  "Bearer " (any case, after a non-letter) and a credential of at
//           least 8 characters [A-Za-z0-9-._~+/=] holding a digit or one of
//           -._~+/=: the credential is replaced, "Bearer " stays
//   token   known secret formats, at a word start, with at least 16
//           characters [A-Za-z0-9_-] after the prefix: the service's own
//           sv_pat_, sv_live_, sv_test_; GitHub ghp_ gho_ ghu_ ghs_ ghr_
//           github_pat_; Slack xoxb- xoxp- xoxa- xoxr- xoxs-; Stripe sk_live_
//           rk_live_; and JSON web tokens (eyJ...<dot>eyJ...<dot>...)
//   ip      with IP address storage off: the value under a key named ip,
//           ipaddress, ipaddr, clientip, remoteaddr, remoteaddress,
//           xforwardedfor, xrealip (normalized as below), and the report's
//           client address (counted by the caller)
//
// Key matching (IsSensitiveKey) works on the normalized key: ASCII lower
// case with '_', '-', '.' and ' ' removed ("X-Api-Key" -> "xapikey",
// "set-cookie" -> "setcookie", "card_number" -> "cardnumber"). It is
// sensitive when it CONTAINS one of kSensitiveKeyWords or a project's extra
// key (normalized the same way), or EQUALS one of kSensitiveExactKeys
// (words too short to match inside other words: "auth" would match
// "author"). Exceptions, so counters are not lost: a number under a key
// ending in "count" or "tokens" ("session_count", "prompt_tokens",
// "tokenizer_count") is kept, and "token" followed by "iz"/"is"
// ("tokenizer", "tokenised") is not the word token.
//
// Strings are rewritten only when a rule matched (no copy otherwise).
// Pure; safe from any thread.
#pragma once

#include <array>
#include <boost/json/value.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::capture {

inline constexpr std::string_view kFilteredMarker = "[Filtered]";

enum class ScrubRule { kKey = 0, kPair, kCard, kBearer, kToken, kIp, kCount };
inline constexpr int kScrubRuleCount = static_cast<int>(ScrubRule::kCount);

// "key", "pair", "card", "bearer", "token", "ip".
std::string_view ScrubRuleName(ScrubRule rule);

inline constexpr std::array<std::string_view, 13> kSensitiveKeyWords = {
    "password", "passwd",     "secret",     "token",      "apikey",      "authorization", "cookie",
    "session",  "creditcard", "cardnumber", "privatekey", "credentials", "csrf"};
inline constexpr std::array<std::string_view, 7> kSensitiveExactKeys = {"auth", "pwd",   "pass", "cvv",
                                                                        "cvc",  "ccnum", "pin"};

// Most extra keys a project may add, and their longest (normalized) length.
inline constexpr size_t kMaxExtraKeys = 50;
inline constexpr size_t kMaxExtraKeyChars = 64;

struct ScrubOptions {
  std::vector<std::string> extra_keys;  // normalized (NormalizeScrubKey), non-empty
  bool scrub_messages = true;           // false: title, description and `message` strings keep their text
  bool store_ip = true;                 // false: the ip rule applies
};

struct ScrubCounts {
  std::array<int64_t, kScrubRuleCount> by_rule{};
  void Add(ScrubRule r, int64_t n = 1) { by_rule[static_cast<int>(r)] += n; }
  int64_t Of(ScrubRule r) const { return by_rule[static_cast<int>(r)]; }
  int64_t Total() const;
  void Merge(const ScrubCounts& other);
};

// ASCII lower case without '_', '-', '.', ' '.
std::string NormalizeScrubKey(std::string_view key);

// Whether a value under `key` is filtered (see above); `numeric` says the
// value is a number (the counter exception).
bool IsSensitiveKey(std::string_view key, const ScrubOptions& options, bool numeric = false);
// The ip rule's key test (normalized names above).
bool IsIpKey(std::string_view key);

// Applies the string rules (pair, card, bearer, token) to `s` in place;
// true when something was replaced.
bool ScrubString(std::string& s, const ScrubOptions& options, ScrubCounts& counts);

// Every rule over a JSON value, recursively (object keys themselves are
// never changed). With scrub_messages off, a string directly under a key
// named "message" keeps its text (the key rule still applies everywhere).
void ScrubJson(boost::json::value& v, const ScrubOptions& options, ScrubCounts& counts);

// Luhn checksum over the digits of `digits` (other characters skipped).
bool LuhnValid(std::string_view digits);

}  // namespace service::domain::capture
