// PostgreSQL array literals for set-oriented statements: a batch of rows is
// sent as one text[] / bigint[] parameter per column and expanded with
// unnest(CAST(? AS text[]), ...), so a statement costs one round trip for
// any number of rows. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::store {

// Builds `{"a","b",NULL}`: every element quoted, `"` and `\` escaped.
class PgTextArray {
 public:
  void Add(const std::string& s) { Add(std::string_view(s)); }
  void Add(const char* s) { Add(std::string_view(s)); }
  void Add(std::string_view s) {
    Sep();
    text_.push_back('"');
    for (char c : s) {
      if (c == '"' || c == '\\') text_.push_back('\\');
      text_.push_back(c);
    }
    text_.push_back('"');
  }
  void Add(const std::optional<std::string>& s) {
    if (s) {
      Add(std::string_view(*s));
    } else {
      Sep();
      text_ += "NULL";
    }
  }
  std::string Take() {
    text_.push_back('}');
    return std::move(text_);
  }

 private:
  void Sep() {
    if (text_.size() > 1) text_.push_back(',');
  }
  std::string text_ = "{";
};

// Builds `{1,2,3}`.
class PgBigintArray {
 public:
  void Add(int64_t v) {
    if (text_.size() > 1) text_.push_back(',');
    text_ += std::to_string(v);
  }
  std::string Take() {
    text_.push_back('}');
    return std::move(text_);
  }

 private:
  std::string text_ = "{";
};

}  // namespace service::store
