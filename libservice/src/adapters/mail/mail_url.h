// The mail provider URL (SERVICE_MAIL_URL) and the sender identity, parsed.
//
//   smtp://[user[:pass]@]host[:port][/][?from=...&timeout_ms=N]
//   smtps://... (implicit TLS)
//   file:DIR[?from=...]   (also file:///abs/dir)
//
// User and password are percent-decoded (encode '@', ':', '?', '%' in them).
// `from` is percent-decoded too: "ops@example.com" or
// "Bug Desk <ops@example.com>" (as from=Bug%20Desk%20%3Cops%40example.com%3E).
//
// Thread-safety: pure functions over values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::adapters::mail {

enum class MailScheme { kSmtp, kSmtps, kFile };

struct MailUrl {
  MailScheme scheme = MailScheme::kSmtp;
  std::string host;  // smtp(s): as written in the URL (IPv6 keeps its brackets)
  int port = 0;      // 0: the scheme's default (25 / 465)
  bool has_credentials = false;
  std::string user;      // decoded
  std::string password;  // decoded; never logged
  std::string dir;       // file: the folder
  std::string from;      // decoded from= value; empty: the default sender
  std::optional<int64_t> timeout_ms;
};

// kInvalidArgument on a malformed URL; the message never repeats the URL.
Result<MailUrl> ParseMailUrl(std::string_view url);

// A mailbox: display name (may be empty, UTF-8) and bare address.
struct Mailbox {
  std::string name;
  std::string address;
};

// "Name <addr>", "\"Name\" <addr>", "<addr>" or "addr".
Result<Mailbox> ParseMailbox(std::string_view text);

// True for local@domain without spaces, controls, angle brackets, quotes,
// commas or semicolons (a single, injection-safe address).
bool IsSafeAddress(std::string_view address);

// The domain for the default sender and Message-IDs: the public URL's host,
// or "localhost" when that is an IP literal or empty.
std::string SenderDomain(std::string_view public_url);

// The sender: `from` when set, else "Service <no-reply@DOMAIN>".
Result<Mailbox> SenderMailbox(const MailUrl& url, std::string_view public_url);

}  // namespace service::adapters::mail
