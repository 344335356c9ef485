// Field validation for request bodies; collects every problem so a 400 names
// each bad field: {error: "Validation failed", details: [{field, message}]}.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::api {

struct StringRule {
  bool required = false;
  size_t min = 0;  // in characters (code points)
  size_t max = 0;  // 0: unlimited
  bool email = false;
  bool uuid = false;
  const std::vector<std::string_view>* one_of = nullptr;
};

class Validator {
 public:
  explicit Validator(const boost::json::value& body);

  // Reads a string field. Absent or null: nullopt (an error when required).
  // Wrong type, bad length, invalid UTF-8, bad format: an error.
  std::optional<std::string> String(std::string_view field, const StringRule& rule);
  std::optional<bool> Bool(std::string_view field, bool required = false);
  std::optional<int64_t> Int(std::string_view field, bool required, int64_t min, int64_t max);
  // An object field; absent or null: nullptr.
  const boost::json::object* Object(std::string_view field, bool required = false);
  // An array field with at most `max_items` entries; absent or null: nullptr.
  const boost::json::array* Array(std::string_view field, bool required, size_t max_items);
  void AddError(std::string_view field, std::string_view message);

  bool ok() const { return details_.empty(); }
  const boost::json::array& details() const { return details_; }
  // True when the body itself was not a JSON object (recorded as an error).
  const boost::json::object* body() const { return obj_; }

 private:
  const boost::json::object* obj_ = nullptr;
  boost::json::array details_;
};

// Validator::String that also refuses U+0000 ("must not contain NUL
// characters"): for fields stored as text (PostgreSQL text cannot hold NUL).
std::optional<std::string> TextField(Validator& v, std::string_view field, const StringRule& rule);

}  // namespace service::api
