// Request fields and JSON shapes shared by the account routes (auth_routes,
// team_routes): email, password and name validation on top of Validator,
// and the user object.
//
// Thread-safety: stateless functions.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/context.h"
#include "api/validate.h"
#include "areas/accounts/ports/user_repository.h"

namespace service::api {

// A required email (at most 254 characters), normalised (trimmed, lower-case).
std::optional<std::string> EmailField(Validator& v, std::string_view field);
// A required password within the policy (at least 8 characters, no NUL,
// at most 1024 bytes).
std::optional<std::string> PasswordField(Validator& v, std::string_view field);
// A required person or organization name (1-200 characters, no control
// characters), trimmed.
std::optional<std::string> NameField(Validator& v, std::string_view field);

// {id, email, name, avatar_url, email_verified}.
boost::json::object UserJson(const ports::User& u);
// ISO 8601, or null.
boost::json::value OptTime(const std::optional<int64_t>& ms);

}  // namespace service::api
