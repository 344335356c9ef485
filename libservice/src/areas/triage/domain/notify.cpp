#include "areas/triage/domain/notify.h"

#include <algorithm>

namespace service::domain::triage {
namespace {

constexpr int64_t kHourMs = 3'600'000;
constexpr int64_t kDayMs = 24 * kHourMs;

bool IsLocalChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '%' || c == '+' || c == '-';
}

bool IsDomainChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool IsEmailLevel(std::string_view s) {
  return s == "full" || s == "notification" || s == "digest" || s == "off";
}

bool IsDigestFreq(std::string_view s) { return s == "realtime" || s == "hourly" || s == "daily"; }

bool IsNotificationType(std::string_view s) {
  return s == "assigned" || s == "comment" || s == "mention" || s == "status_changed";
}

EmailRoute RouteEmail(std::string_view email_level, std::string_view digest_freq) {
  if (email_level == "off" || !IsEmailLevel(email_level)) return EmailRoute::kNone;
  if (email_level == "digest") return EmailRoute::kDigest;
  return digest_freq == "hourly" || digest_freq == "daily" ? EmailRoute::kDigest : EmailRoute::kNow;
}

int64_t DigestPeriodMs(std::string_view email_level, std::string_view digest_freq, int64_t hourly_ms,
                       int64_t daily_ms) {
  if (RouteEmail(email_level, digest_freq) != EmailRoute::kDigest) return 0;
  return digest_freq == "daily" ? daily_ms : hourly_ms;
}

bool DigestDue(int64_t period_ms, int64_t oldest_at_ms, int64_t now_ms) {
  if (period_ms <= 0) return true;  // no digest (any more): send what waits
  const int64_t start = oldest_at_ms - ((oldest_at_ms % period_ms) + period_ms) % period_ms;
  return now_ms >= start + period_ms;
}

std::vector<std::string> MentionedEmails(std::string_view text, size_t max) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size() && out.size() < max; ++i) {
    if (text[i] != '@') continue;
    // "@" must start a word: not inside an address like a@b.c.
    if (i > 0 && IsLocalChar(text[i - 1])) continue;
    size_t j = i + 1;
    while (j < text.size() && IsLocalChar(text[j])) ++j;
    if (j == i + 1 || j >= text.size() || text[j] != '@') continue;
    const size_t at = j;
    size_t k = at + 1;
    while (k < text.size() && IsDomainChar(text[k])) ++k;
    std::string_view domain = text.substr(at + 1, k - at - 1);
    while (!domain.empty() && (domain.back() == '.' || domain.back() == '-')) domain.remove_suffix(1);
    std::string_view local = text.substr(i + 1, at - i - 1);
    if (domain.empty() || domain.find('.') == std::string_view::npos || domain.front() == '.' ||
        domain.find("..") != std::string_view::npos || local.front() == '.' || local.back() == '.') {
      i = k > i ? k - 1 : i;
      continue;
    }
    std::string email;
    email.reserve(local.size() + 1 + domain.size());
    for (char c : local) email.push_back(Lower(c));
    email.push_back('@');
    for (char c : domain) email.push_back(Lower(c));
    if (std::find(out.begin(), out.end(), email) == out.end()) out.push_back(std::move(email));
    i = k - 1;
  }
  return out;
}

}  // namespace service::domain::triage
