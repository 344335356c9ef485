#include "api/validate.h"

#include "util/strings.h"

namespace service::api {

namespace json = boost::json;

Validator::Validator(const json::value& body) {
  if (body.is_object()) {
    obj_ = &body.as_object();
  } else {
    AddError("body", "must be a JSON object");
  }
}

void Validator::AddError(std::string_view field, std::string_view message) {
  details_.push_back(json::object{{"field", field}, {"message", message}});
}

std::optional<std::string> Validator::String(std::string_view field, const StringRule& rule) {
  if (!obj_) return std::nullopt;
  auto it = obj_->find(field);
  if (it == obj_->end() || it->value().is_null()) {
    if (rule.required) AddError(field, "is required");
    return std::nullopt;
  }
  if (!it->value().is_string()) {
    AddError(field, "must be a string");
    return std::nullopt;
  }
  const json::string& s = it->value().as_string();
  const std::string_view sv(s.data(), s.size());
  if (!util::IsValidUtf8(sv)) {
    AddError(field, "must be valid UTF-8");
    return std::nullopt;
  }
  const size_t len = util::Utf8Length(sv);
  if (rule.required && len == 0 && rule.min == 0) {
    AddError(field, "is required");
    return std::nullopt;
  }
  if (len < rule.min) {
    AddError(field,
             rule.min == 1 ? "is required" : "must be at least " + std::to_string(rule.min) + " characters");
    return std::nullopt;
  }
  if (rule.max && len > rule.max) {
    AddError(field, "must be at most " + std::to_string(rule.max) + " characters");
    return std::nullopt;
  }
  if (rule.email && !util::IsValidEmail(sv)) {
    AddError(field, "must be a valid email address");
    return std::nullopt;
  }
  if (rule.uuid && !util::IsUuid(sv)) {
    AddError(field, "must be a UUID");
    return std::nullopt;
  }
  if (rule.one_of) {
    bool found = false;
    for (auto v : *rule.one_of) found = found || v == sv;
    if (!found) {
      std::string allowed;
      for (auto v : *rule.one_of) allowed += (allowed.empty() ? "" : ", ") + std::string(v);
      AddError(field, "must be one of: " + allowed);
      return std::nullopt;
    }
  }
  return std::string(sv);
}

std::optional<bool> Validator::Bool(std::string_view field, bool required) {
  if (!obj_) return std::nullopt;
  auto it = obj_->find(field);
  if (it == obj_->end() || it->value().is_null()) {
    if (required) AddError(field, "is required");
    return std::nullopt;
  }
  if (!it->value().is_bool()) {
    AddError(field, "must be a boolean");
    return std::nullopt;
  }
  return it->value().as_bool();
}

std::optional<int64_t> Validator::Int(std::string_view field, bool required, int64_t min, int64_t max) {
  if (!obj_) return std::nullopt;
  auto it = obj_->find(field);
  if (it == obj_->end() || it->value().is_null()) {
    if (required) AddError(field, "is required");
    return std::nullopt;
  }
  const json::value& v = it->value();
  int64_t n;
  if (v.is_int64()) {
    n = v.as_int64();
  } else if (v.is_uint64() && v.as_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
    n = static_cast<int64_t>(v.as_uint64());
  } else if (v.is_double() && v.as_double() == static_cast<double>(static_cast<int64_t>(v.as_double()))) {
    n = static_cast<int64_t>(v.as_double());
  } else {
    AddError(field, "must be an integer");
    return std::nullopt;
  }
  if (n < min || n > max) {
    AddError(field, "must be between " + std::to_string(min) + " and " + std::to_string(max));
    return std::nullopt;
  }
  return n;
}

const json::object* Validator::Object(std::string_view field, bool required) {
  if (!obj_) return nullptr;
  auto it = obj_->find(field);
  if (it == obj_->end() || it->value().is_null()) {
    if (required) AddError(field, "is required");
    return nullptr;
  }
  if (!it->value().is_object()) {
    AddError(field, "must be an object");
    return nullptr;
  }
  return &it->value().as_object();
}

const json::array* Validator::Array(std::string_view field, bool required, size_t max_items) {
  if (!obj_) return nullptr;
  auto it = obj_->find(field);
  if (it == obj_->end() || it->value().is_null()) {
    if (required) AddError(field, "is required");
    return nullptr;
  }
  if (!it->value().is_array()) {
    AddError(field, "must be an array");
    return nullptr;
  }
  if (it->value().as_array().size() > max_items) {
    AddError(field, "must have at most " + std::to_string(max_items) + " items");
    return nullptr;
  }
  return &it->value().as_array();
}

std::optional<std::string> TextField(Validator& v, std::string_view field, const StringRule& rule) {
  std::optional<std::string> s = v.String(field, rule);
  if (s && s->find('\0') != std::string::npos) {
    v.AddError(field, "must not contain NUL characters");
    return std::nullopt;
  }
  return s;
}

}  // namespace service::api
