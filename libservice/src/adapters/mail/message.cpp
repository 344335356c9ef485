#include "adapters/mail/message.h"

#include <cctype>
#include <cstdio>
#include <vector>

#include "util/crypto.h"
#include "util/strings.h"

namespace service::adapters::mail {
namespace {

constexpr size_t kMaxLine = 998;        // RFC 5322 hard limit, CRLF excluded
constexpr size_t kFoldAt = 78;          // RFC 5322 recommended limit
constexpr size_t kEncodedChunk = 39;    // bytes per encoded-word: 52 base64 chars + 12 = 64
constexpr size_t kMaxHeaderText = 900;  // bytes of subject / display name kept

bool IsAtext(unsigned char c) {
  if (std::isalnum(c)) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '/':
    case '=':
    case '?':
    case '^':
    case '_':
    case '`':
    case '{':
    case '|':
    case '}':
    case '~':
      return true;
    default:
      return false;
  }
}

bool IsAscii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

// Controls (CR and LF included) become single spaces, runs of white space
// collapse, invalid UTF-8 bytes become '?', and the result is trimmed and cut
// at a character boundary.
std::string SanitizeHeaderText(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (unsigned char c : text) {
    const bool space = c < 0x20 || c == 0x7F || c == ' ';
    if (space) {
      if (!s.empty() && s.back() != ' ') s += ' ';
    } else {
      s += static_cast<char>(c);
    }
  }
  if (!util::IsValidUtf8(s)) {
    for (char& c : s)
      if (static_cast<unsigned char>(c) >= 0x80) c = '?';
  }
  s = util::Trim(s);
  if (s.size() > kMaxHeaderText) {
    size_t cut = kMaxHeaderText;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s.resize(cut);
  }
  return s;
}

// RFC 2047 "B" encoded-words of UTF-8 text, split at character boundaries and
// joined by folding white space.
std::string EncodedWords(std::string_view s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    size_t end = std::min(s.size(), i + kEncodedChunk);
    while (end < s.size() && end > i + 1 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    if (!out.empty()) out += "\r\n ";
    out += "=?utf-8?B?" + util::Base64Encode(s.substr(i, end - i)) + "?=";
    i = end;
  }
  return out;
}

// Folds ASCII text at single spaces so lines stay near 78 characters.
std::string FoldAscii(std::string_view s, size_t first_line_used) {
  std::string out;
  size_t line = first_line_used;
  bool first = true;
  for (const std::string& word : util::Split(s, ' ')) {
    if (first) {
      first = false;
      out = word;
      line += word.size();
      continue;
    }
    if (line + 1 + word.size() > kFoldAt) {
      out += "\r\n ";
      line = 1;
    } else {
      out += ' ';
      line += 1;
    }
    out += word;
    line += word.size();
  }
  return out;
}

// Normalises CR, LF and CRLF to CRLF and ends non-empty text with CRLF.
std::string ToCrlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32 + 2);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r') {
      out += "\r\n";
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else if (c == '\n') {
      out += "\r\n";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out.size() < 2 || out.compare(out.size() - 2, 2, "\r\n") != 0)) out += "\r\n";
  return out;
}

bool NeedsQuotedPrintable(std::string_view crlf) {
  size_t line = 0;
  for (size_t i = 0; i < crlf.size(); ++i) {
    if (crlf[i] == '\0') return true;
    if (crlf[i] == '\r' && i + 1 < crlf.size() && crlf[i + 1] == '\n') {
      line = 0;
      ++i;
      continue;
    }
    if (++line > kMaxLine) return true;
  }
  return false;
}

std::string MessageIdLocal(std::string_view id) {
  std::string out;
  for (char c : id)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_') out += c;
  return out;
}

}  // namespace

std::string FormatRfc5322Date(int64_t unix_ms) {
  static constexpr const char* kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int64_t secs = unix_ms / 1000 - (unix_ms % 1000 < 0 ? 1 : 0);
  int64_t days = secs / 86400 - (secs % 86400 < 0 ? 1 : 0);
  const int64_t sod = secs - days * 86400;
  const int weekday = static_cast<int>(((days % 7) + 7) % 7);
  // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[weekday], static_cast<int>(d),
                kMonths[m - 1], static_cast<int>(y), static_cast<int>(sod / 3600),
                static_cast<int>(sod / 60 % 60), static_cast<int>(sod % 60));
  return buf;
}

std::string EncodeUnstructured(std::string_view text, size_t header_name_length) {
  const std::string s = SanitizeHeaderText(text);
  if (IsAscii(s) && s.find("=?") == std::string::npos) return FoldAscii(s, header_name_length + 2);
  return EncodedWords(s);
}

std::string FormatMailbox(const Mailbox& box) {
  const std::string name = SanitizeHeaderText(box.name);
  if (name.empty()) return box.address;
  bool plain = name.find("=?") == std::string::npos;
  bool atoms = true;
  for (unsigned char c : name) {
    if (c >= 0x80) plain = false;
    if (c != ' ' && !IsAtext(c)) atoms = false;
  }
  std::string phrase;
  if (!plain) {
    phrase = EncodedWords(name);
  } else if (atoms) {
    phrase = name;
  } else {
    phrase = "\"";
    for (char c : name) {
      if (c == '"' || c == '\\') phrase += '\\';
      phrase += c;
    }
    phrase += '"';
  }
  return phrase + " <" + box.address + ">";
}

std::string QuotedPrintable(std::string_view crlf_text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  size_t col = 0;
  auto emit = [&](std::string_view piece) {
    if (col + piece.size() > 75) {  // room for the soft break's '='
      out += "=\r\n";
      col = 0;
    }
    out += piece;
    col += piece.size();
  };
  for (size_t i = 0; i < crlf_text.size(); ++i) {
    const auto c = static_cast<unsigned char>(crlf_text[i]);
    if (c == '\r' && i + 1 < crlf_text.size() && crlf_text[i + 1] == '\n') {
      out += "\r\n";
      col = 0;
      ++i;
      continue;
    }
    const bool at_line_end =
        i + 1 == crlf_text.size() ||
        (crlf_text[i + 1] == '\r' && i + 2 < crlf_text.size() && crlf_text[i + 2] == '\n');
    const bool literal = (c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !at_line_end);
    if (literal) {
      const char ch = static_cast<char>(c);
      emit(std::string_view(&ch, 1));
    } else {
      const char enc[3] = {'=', kHex[c >> 4], kHex[c & 15]};
      emit(std::string_view(enc, 3));
    }
  }
  return out;
}

Result<std::string> ComposeMessage(const ports::OutgoingMail& mail, const Mailbox& from,
                                   std::string_view message_id_domain) {
  if (!IsSafeAddress(mail.to))
    return ports::PermanentMailFailure("the recipient is not a single valid address");
  if (!IsSafeAddress(from.address)) return ports::PermanentMailFailure("the sender is not a valid address");
  const std::string local = MessageIdLocal(mail.id);
  if (local.empty()) return ports::PermanentMailFailure("the message has no id");

  std::string body = ToCrlf(mail.text);
  std::string encoding;
  if (NeedsQuotedPrintable(body)) {
    encoding = "quoted-printable";
    body = QuotedPrintable(body);
  } else {
    encoding = IsAscii(body) ? "7bit" : "8bit";
  }

  std::string m;
  m.reserve(body.size() + 512);
  m += "From: " + FormatMailbox(from) + "\r\n";
  m += "To: " + mail.to + "\r\n";
  m += "Subject: " + EncodeUnstructured(mail.subject, 7) + "\r\n";
  m += "Date: " + FormatRfc5322Date(mail.date_ms) + "\r\n";
  m += "Message-ID: <" + local + "@" + std::string(message_id_domain) + ">\r\n";
  m += "MIME-Version: 1.0\r\n";
  m += "Content-Type: text/plain; charset=utf-8\r\n";
  m += "Content-Transfer-Encoding: " + encoding + "\r\n";
  m += "\r\n";
  m += body;
  return m;
}

}  // namespace service::adapters::mail
