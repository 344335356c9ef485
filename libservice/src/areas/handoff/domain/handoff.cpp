#include "areas/handoff/domain/handoff.h"

#include <algorithm>

#include "areas/capture/domain/vocabulary.h"
#include "util/crypto.h"
#include "util/strings.h"

namespace service::domain::handoff {

std::string PrUrlProblem(std::string_view url) {
  if (url.empty()) return "must not be empty";
  if (url.size() > kMaxPrUrlLength) return "must be at most 2048 characters";
  if (!util::EqualsIgnoreCase(url.substr(0, std::min<size_t>(8, url.size())), "https://")) {
    return "must be an absolute https URL";
  }
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return "must not contain spaces";
  }
  const std::string_view rest = url.substr(8);
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos) return "must not contain credentials";
  // The host: the authority without a port ("[v6]:443" keeps its brackets).
  std::string_view host = authority;
  if (!host.empty() && host.front() == '[') {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return "needs a host";
    host = host.substr(0, close + 1);
  } else {
    host = host.substr(0, host.find(':'));
  }
  if (host.empty() || host == "[]") return "needs a host";
  return "";
}

std::string LiveStatus(std::string_view stored_status, std::string_view delivery_status) {
  if (delivery_status.empty()) return std::string(stored_status);
  if (delivery_status == "success") return std::string(kDelivered);
  if (delivery_status == "failed" || delivery_status == "canceled") return std::string(kFailed);
  return std::string(kQueued);  // pending, deferred
}

std::string AgentState(bool has_pr_url, bool acked_working, LatestBatch latest) {
  if (has_pr_url) return "pr_opened";
  if (acked_working) return "working";
  switch (latest) {
    case LatestBatch::kNoChannel:
      return "no_channel";
    case LatestBatch::kNotified:
      return "notified";
    case LatestBatch::kNone:
      break;
  }
  return "none";
}

bool AtOrAbove(std::string_view severity, std::string_view min_severity) {
  if (!domain::capture::IsSeverity(severity)) return false;
  return domain::capture::SeverityRank(severity) >= domain::capture::SeverityRank(min_severity);
}

std::string EncodeCursor(const Cursor& c) {
  return util::Base64UrlEncode(std::to_string(c.created_at) + ":" + c.id);
}

std::optional<Cursor> DecodeCursor(std::string_view text) {
  if (text.empty() || text.size() > 200) return std::nullopt;
  std::string raw;
  if (!util::Base64UrlDecode(text, &raw)) return std::nullopt;
  const size_t colon = raw.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::optional<int64_t> at = util::ParseInt(raw.substr(0, colon));
  if (!at || *at < 0) return std::nullopt;
  Cursor c{*at, raw.substr(colon + 1)};
  if (!c.id.empty() && !util::IsUuid(c.id)) return std::nullopt;
  return c;
}

}  // namespace service::domain::handoff
