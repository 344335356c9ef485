#include "areas/accounts/api/account_fields.h"

#include "api/json.h"
#include "areas/accounts/domain/password.h"
#include "areas/accounts/domain/validation.h"
#include "util/time.h"

namespace service::api {

std::optional<std::string> EmailField(Validator& v, std::string_view field) {
  auto s = v.String(field, StringRule{.required = true, .max = 254});
  if (!s) return std::nullopt;
  auto email = domain::accounts::ValidateEmail(*s);
  if (!email.ok()) {
    v.AddError(field, "must be a valid email address");
    return std::nullopt;
  }
  return *email;
}

std::optional<std::string> PasswordField(Validator& v, std::string_view field) {
  auto s = v.String(field, StringRule{.required = true, .min = 8});
  if (!s) return std::nullopt;
  const Status policy = domain::accounts::CheckPasswordPolicy(*s);
  if (!policy.ok()) {
    v.AddError(field, policy.message());
    return std::nullopt;
  }
  return s;
}

std::optional<std::string> NameField(Validator& v, std::string_view field) {
  auto s = v.String(field, StringRule{.required = true, .max = domain::accounts::kMaxNameChars});
  if (!s) return std::nullopt;
  auto name = domain::accounts::ValidateName(*s, field);
  if (!name.ok()) {
    v.AddError(field, name.status().message());
    return std::nullopt;
  }
  return *name;
}

boost::json::object UserJson(const ports::User& u) {
  return {{"id", u.id},
          {"email", u.email},
          {"name", u.name},
          {"avatar_url", u.avatar_url ? boost::json::value(*u.avatar_url) : boost::json::value(nullptr)},
          {"email_verified", u.email_verified}};
}

boost::json::value OptTime(const std::optional<int64_t>& ms) {
  if (!ms) return nullptr;
  return boost::json::value(util::FormatIso8601(*ms));
}

}  // namespace service::api
