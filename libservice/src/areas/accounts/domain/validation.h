// Validation and normalisation of account inputs: emails, person and
// organization names, slugs for organizations and projects.
//
// Pure functions; safe to call from any thread. Failures are
// kInvalidArgument with a user-facing message naming the field.
#pragma once

#include <string>
#include <string_view>

#include "service/status.h"

namespace service::domain::accounts {

inline constexpr size_t kMaxNameChars = 200;  // person, organization and project names
inline constexpr size_t kMaxSlugChars = 48;
inline constexpr size_t kMaxUseCaseChars = 2000;  // waitlist `useCase`

// Trims ASCII whitespace and lower-cases ASCII letters. Emails are stored and
// compared in this form, so "  Alice@Example.COM " is alice@example.com.
std::string NormalizeEmail(std::string_view raw);

// The normalised email, or kInvalidArgument "Invalid email" when it is not a
// plausible address (util::IsValidEmail).
Result<std::string> ValidateEmail(std::string_view raw);

// The trimmed name: valid UTF-8, no control characters, 1 to kMaxNameChars
// code points. `field` names the input in messages ("name", "orgName").
Result<std::string> ValidateName(std::string_view raw, std::string_view field = "name");
inline Result<std::string> ValidateOrgName(std::string_view raw) { return ValidateName(raw, "orgName"); }

// Optional free text (waitlist useCase): trimmed, valid UTF-8, at most
// `max_chars` code points; empty is allowed.
Result<std::string> ValidateOptionalText(std::string_view raw, std::string_view field, size_t max_chars);

// A URL-safe slug from a display name: ASCII letters and digits lower-cased,
// every other run of characters one '-', no leading or trailing '-', at
// most kMaxSlugChars. When nothing is left (an all-symbol or non-Latin
// name) the result is `fallback` ("org", "project").
//   "Acme Corp!" -> "acme-corp"; "  --  " -> fallback; "Ünïcode Ltd" -> "n-code-ltd"
std::string Slugify(std::string_view name, std::string_view fallback);

// The n-th candidate when `slug` is taken: n <= 1 gives `slug`, otherwise
// "<slug>-<n>" with `slug` shortened so the whole stays within kMaxSlugChars.
std::string SlugCandidate(std::string_view slug, int n);

}  // namespace service::domain::accounts
