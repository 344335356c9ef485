#include "areas/accounts/domain/validation.h"

#include <algorithm>

#include "util/strings.h"

namespace service::domain::accounts {
namespace {

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool HasControlCharacter(std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) return true;
  }
  return false;
}

std::string_view TrimDashes(std::string_view s) {
  while (!s.empty() && s.front() == '-') s.remove_prefix(1);
  while (!s.empty() && s.back() == '-') s.remove_suffix(1);
  return s;
}

}  // namespace

std::string NormalizeEmail(std::string_view raw) { return util::ToLower(util::Trim(raw)); }

Result<std::string> ValidateEmail(std::string_view raw) {
  std::string email = NormalizeEmail(raw);
  if (!util::IsValidEmail(email)) return InvalidArgument("Invalid email");
  return email;
}

Result<std::string> ValidateName(std::string_view raw, std::string_view field) {
  const std::string f(field);
  if (!util::IsValidUtf8(raw)) return InvalidArgument(f + " must be valid UTF-8");
  std::string name = util::Trim(raw);
  if (name.empty()) return InvalidArgument(f + " is required");
  if (HasControlCharacter(name)) return InvalidArgument(f + " must not contain control characters");
  if (util::Utf8Length(name) > kMaxNameChars) {
    return InvalidArgument(f + " must be at most " + std::to_string(kMaxNameChars) + " characters");
  }
  return name;
}

Result<std::string> ValidateOptionalText(std::string_view raw, std::string_view field, size_t max_chars) {
  const std::string f(field);
  if (!util::IsValidUtf8(raw)) return InvalidArgument(f + " must be valid UTF-8");
  std::string text = util::Trim(raw);
  if (util::Utf8Length(text) > max_chars) {
    return InvalidArgument(f + " must be at most " + std::to_string(max_chars) + " characters");
  }
  return text;
}

std::string Slugify(std::string_view name, std::string_view fallback) {
  std::string slug;
  slug.reserve(std::min(name.size(), kMaxSlugChars));
  bool pending_dash = false;
  for (char c : name) {
    if (slug.size() >= kMaxSlugChars) break;
    if (IsAsciiAlnum(c)) {
      if (pending_dash && !slug.empty()) {
        slug += '-';
        if (slug.size() >= kMaxSlugChars) break;
      }
      pending_dash = false;
      slug += AsciiLower(c);
    } else {
      pending_dash = true;
    }
  }
  const std::string_view trimmed = TrimDashes(slug);
  if (trimmed.empty()) return std::string(fallback);
  return std::string(trimmed);
}

std::string SlugCandidate(std::string_view slug, int n) {
  if (n <= 1) return std::string(slug.substr(0, kMaxSlugChars));
  const std::string suffix = "-" + std::to_string(n);
  const size_t room = suffix.size() < kMaxSlugChars ? kMaxSlugChars - suffix.size() : 0;
  std::string out(TrimDashes(slug.substr(0, std::min(room, slug.size()))));
  out += suffix;
  return out;
}

}  // namespace service::domain::accounts
