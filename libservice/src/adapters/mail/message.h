// RFC 5322 message composition shared by the SMTP and file providers.
//
// Headers: From, To, Subject (RFC 2047 encoded-words when not plain ASCII),
// Date, Message-ID, MIME-Version, Content-Type text/plain; charset=utf-8 and
// Content-Transfer-Encoding 7bit/8bit (quoted-printable only when a line is
// longer than SMTP allows or the body holds NUL bytes), so links and tokens
// stay readable as written. Every line ends in CRLF. CR, LF and other
// control characters never reach a header: they are replaced by spaces in the
// subject and display name, and an unsafe recipient is refused.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "adapters/mail/mail_url.h"
#include "ports/mailer.h"
#include "service/status.h"

namespace service::adapters::mail {

// The whole message, ready for SMTP DATA or a .eml file. An unsafe or
// missing recipient: a permanent mail failure.
Result<std::string> ComposeMessage(const ports::OutgoingMail& mail, const Mailbox& from,
                                   std::string_view message_id_domain);

// "Thu, 15 Jan 2026 10:00:00 +0000"
std::string FormatRfc5322Date(int64_t unix_ms);

// A header value for unstructured text (Subject): controls become spaces; plain
// ASCII stays as is (folded at spaces), anything else becomes RFC 2047
// "=?utf-8?B?...?=" words. `header_name_length` is the length of "Subject".
std::string EncodeUnstructured(std::string_view text, size_t header_name_length);

// A mailbox header value: "Name <addr>" with the name quoted or RFC 2047 encoded
// as needed, or "addr" when there is no name.
std::string FormatMailbox(const Mailbox& box);

// Quoted-printable (RFC 2045) of CRLF-delimited text, soft breaks at 76.
std::string QuotedPrintable(std::string_view crlf_text);

}  // namespace service::adapters::mail
