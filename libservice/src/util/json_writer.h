// JsonWriter: appends JSON text to a string without building a document.
// For hot paths (the ingest envelope, stream events, stored events) where a
// boost::json DOM would cost an allocation per member. The caller produces
// a well-formed sequence (keys inside objects, commas are inserted here);
// strings are escaped per RFC 8259 and must be valid UTF-8 (they come from
// validated input).
//
// Thread-safety: an instance belongs to one thread. Header-only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace service::util {

class JsonWriter {
 public:
  explicit JsonWriter(size_t reserve = 256) { out_.reserve(reserve); }

  JsonWriter& BeginObject() {
    Separate();
    out_.push_back('{');
    first_ = true;
    return *this;
  }
  JsonWriter& EndObject() {
    out_.push_back('}');
    first_ = false;
    return *this;
  }
  JsonWriter& BeginArray() {
    Separate();
    out_.push_back('[');
    first_ = true;
    return *this;
  }
  JsonWriter& EndArray() {
    out_.push_back(']');
    first_ = false;
    return *this;
  }
  // A member name; the next value call writes its value.
  JsonWriter& Key(std::string_view k) {
    Separate();
    AppendString(out_, k);
    out_.push_back(':');
    first_ = true;  // the value that follows takes no comma
    return *this;
  }
  JsonWriter& String(std::string_view s) {
    Separate();
    AppendString(out_, s);
    return *this;
  }
  JsonWriter& Int(int64_t v) {
    Separate();
    out_ += std::to_string(v);
    return *this;
  }
  JsonWriter& Bool(bool v) {
    Separate();
    out_ += v ? "true" : "false";
    return *this;
  }
  JsonWriter& Null() {
    Separate();
    out_ += "null";
    return *this;
  }
  // A value that is already JSON text.
  JsonWriter& Raw(std::string_view json) {
    Separate();
    out_ += json;
    return *this;
  }

  const std::string& str() const { return out_; }
  std::string Take() { return std::move(out_); }

  // Appends `s` as a JSON string literal (quotes included).
  static void AppendString(std::string& out, std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    size_t run = 0;  // start of the pending unescaped run
    for (size_t i = 0; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out.append(s.data() + run, i - run);
      run = i + 1;
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        default:
          out += "\\u00";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
      }
    }
    out.append(s.data() + run, s.size() - run);
    out.push_back('"');
  }

 private:
  void Separate() {
    if (!first_) out_.push_back(',');
    first_ = false;
  }

  std::string out_;
  bool first_ = true;
};

}  // namespace service::util
