#include "adapters/mail/mail_url.h"

#include <cctype>
#include <optional>
#include <vector>

#include "util/strings.h"

namespace service::adapters::mail {
namespace {

constexpr const char* kForm =
    "SERVICE_MAIL_URL: expected smtp://user:pass@host:port, smtps://user:pass@host:port or file:DIR "
    "(optionally ?from=...), got ";

Status Bad(const std::string& what) { return InvalidArgument(kForm + what); }

bool IsKnownParam(std::string_view key) { return key == "from" || key == "timeout_ms"; }

bool HasControlOrSpace(std::string_view s) {
  for (unsigned char c : s)
    if (c <= 0x20 || c == 0x7F) return true;
  return false;
}

// "k=v&k=v" with known keys only; false when `query` is not such a list.
bool LooksLikeParams(std::string_view query) {
  if (query.empty()) return false;
  for (const std::string& part : util::Split(query, '&')) {
    const size_t eq = part.find('=');
    if (eq == std::string::npos || !IsKnownParam(std::string_view(part).substr(0, eq))) return false;
  }
  return true;
}

Status ApplyParams(std::string_view query, MailUrl* out) {
  for (const std::string& part : util::Split(query, '&')) {
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : util::UrlDecode(part.substr(eq + 1), false);
    if (key == "from") {
      if (value.empty()) return Bad("an empty from= parameter");
      SV_RETURN_IF_ERROR(ParseMailbox(value).status());
      out->from = value;
    } else if (key == "timeout_ms") {
      const auto ms = util::ParseInt(value);
      if (!ms || *ms < 1 || *ms > 600'000) return Bad("a timeout_ms outside 1..600000");
      out->timeout_ms = *ms;
    } else {
      // Parameter names are not secret; values might be.
      return Bad("an unknown parameter \"" + key.substr(0, 40) + "\"");
    }
  }
  return Status::Ok();
}

bool IsHostChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
}

Status ParseAuthority(std::string_view authority, MailUrl* out) {
  std::string_view host = authority;
  std::optional<std::string_view> port;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return Bad("an unterminated IPv6 address");
    host = authority.substr(0, close + 1);
    const std::string_view inner = host.substr(1, host.size() - 2);
    if (inner.empty()) return Bad("an empty host");
    for (char c : inner)
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.')
        return Bad("a bad IPv6 address");
    const std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return Bad("no valid host[:port]");
      port = rest.substr(1);
    }
  } else {
    const size_t colon = authority.rfind(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
    if (host.empty()) return Bad("an empty host");
    for (char c : host)
      if (!IsHostChar(c)) return Bad("no valid host[:port]");
  }
  if (port) {
    const auto p = util::ParseInt(*port);
    if (!p || *p < 1 || *p > 65535) return Bad("a port outside 1..65535");
    out->port = static_cast<int>(*p);
  }
  out->host = std::string(host);
  return Status::Ok();
}

}  // namespace

bool IsSafeAddress(std::string_view address) {
  if (address.empty() || address.size() > 254) return false;
  const size_t at = address.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == address.size()) return false;
  for (unsigned char c : address) {
    if (c <= 0x20 || c == 0x7F || c == '<' || c == '>' || c == '"' || c == ',' || c == ';' || c == '(' ||
        c == ')' || c == '\\')
      return false;
  }
  return true;
}

Result<Mailbox> ParseMailbox(std::string_view text) {
  const std::string t = util::Trim(text);
  for (unsigned char c : t)
    if (c < 0x20 || c == 0x7F) return Bad("a from= value with control characters");
  Mailbox box;
  const size_t lt = t.rfind('<');
  if (lt == std::string::npos) {
    box.address = t;
  } else {
    if (t.back() != '>') return Bad("a from= value that is not \"Name <address>\"");
    box.address = t.substr(lt + 1, t.size() - lt - 2);
    std::string name = util::Trim(std::string_view(t).substr(0, lt));
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
    if (name.find('"') != std::string::npos || name.find('\\') != std::string::npos)
      return Bad("a from= display name with quotes");
    if (!util::IsValidUtf8(name)) return Bad("a from= display name that is not UTF-8");
    box.name = std::move(name);
  }
  if (!IsSafeAddress(box.address)) return Bad("a from= value without a valid address");
  return box;
}

Result<MailUrl> ParseMailUrl(std::string_view url) {
  MailUrl out;
  if (util::StartsWith(url, "file:")) {
    out.scheme = MailScheme::kFile;
    std::string_view rest = url.substr(5);
    const size_t q = rest.rfind('?');
    if (q != std::string_view::npos && LooksLikeParams(rest.substr(q + 1))) {
      SV_RETURN_IF_ERROR(ApplyParams(rest.substr(q + 1), &out));
      rest = rest.substr(0, q);
    }
    if (util::StartsWith(rest, "//")) {
      rest.remove_prefix(2);
      if (util::StartsWith(rest, "localhost/")) rest.remove_prefix(9);
      if (!util::StartsWith(rest, "/")) return Bad("a file:// URL without an absolute path");
    }
    if (util::Trim(rest).empty()) return Bad("an empty folder");
    if (rest.find('\0') != std::string_view::npos) return Bad("a folder with a NUL byte");
    out.dir = std::string(rest);
    return out;
  }
  std::string_view rest;
  if (util::StartsWith(url, "smtps://")) {
    out.scheme = MailScheme::kSmtps;
    rest = url.substr(8);
  } else if (util::StartsWith(url, "smtp://")) {
    out.scheme = MailScheme::kSmtp;
    rest = url.substr(7);
  } else {
    return Bad("an unknown scheme");
  }
  if (HasControlOrSpace(rest)) return Bad("a value with spaces");
  const size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    SV_RETURN_IF_ERROR(ApplyParams(rest.substr(q + 1), &out));
    rest = rest.substr(0, q);
  }
  // The password may contain a raw '@': the last '@' ends the user info.
  const size_t at = rest.rfind('@');
  std::string_view authority = rest;
  if (at != std::string_view::npos) {
    const std::string_view userinfo = rest.substr(0, at);
    authority = rest.substr(at + 1);
    const size_t colon = userinfo.find(':');
    out.user = util::UrlDecode(userinfo.substr(0, colon), false);
    if (colon != std::string_view::npos) out.password = util::UrlDecode(userinfo.substr(colon + 1), false);
    if (out.user.empty()) return Bad("an empty user");
    out.has_credentials = true;
  }
  while (!authority.empty() && authority.back() == '/') authority.remove_suffix(1);
  if (authority.empty() || authority.find('/') != std::string_view::npos) return Bad("no valid host[:port]");
  SV_RETURN_IF_ERROR(ParseAuthority(authority, &out));
  return out;
}

std::string SenderDomain(std::string_view public_url) {
  std::string_view rest = public_url;
  const size_t scheme = rest.find("://");
  if (scheme != std::string_view::npos) rest = rest.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  const size_t at = rest.rfind('@');
  if (at != std::string_view::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') return "localhost";  // IPv6 literal
  rest = rest.substr(0, rest.find(':'));
  bool has_letter = false;
  for (char c : rest) {
    if (!IsHostChar(c)) return "localhost";
    if (std::isalpha(static_cast<unsigned char>(c))) has_letter = true;
  }
  if (rest.empty() || !has_letter) return "localhost";
  return util::ToLower(rest);
}

Result<Mailbox> SenderMailbox(const MailUrl& url, std::string_view public_url) {
  if (!url.from.empty()) return ParseMailbox(url.from);
  return Mailbox{"Service", "no-reply@" + SenderDomain(public_url)};
}

}  // namespace service::adapters::mail
