#include "areas/verification/domain/canonical_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "util/strings.h"

namespace service::domain::verification {
namespace {

namespace json = boost::json;

constexpr int64_t kMaxExactInteger = int64_t{1} << 53;

// UTF-8 -> UTF-16 code units (input already checked valid).
std::u16string Utf16(std::string_view s) {
  std::u16string out;
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    uint32_t cp = 0;
    int extra = 0;
    if (c < 0x80) {
      cp = c;
    } else if ((c >> 5) == 0x6) {
      cp = c & 0x1F;
      extra = 1;
    } else if ((c >> 4) == 0xE) {
      cp = c & 0x0F;
      extra = 2;
    } else {
      cp = c & 0x07;
      extra = 3;
    }
    for (int k = 1; k <= extra && i + k < s.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    }
    i += 1 + extra;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

Status WriteString(std::string_view s, std::string& out) {
  if (!util::IsValidUtf8(s)) return InvalidArgument("canonical JSON: a string is not valid UTF-8");
  out.push_back('"');
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
  return Status::Ok();
}

Status Write(const json::value& v, std::string& out) {
  switch (v.kind()) {
    case json::kind::null:
      out += "null";
      return Status::Ok();
    case json::kind::bool_:
      out += v.get_bool() ? "true" : "false";
      return Status::Ok();
    case json::kind::int64: {
      const int64_t n = v.get_int64();
      if (n > kMaxExactInteger || n < -kMaxExactInteger) {
        return InvalidArgument("canonical JSON: an integer beyond 2^53");
      }
      out += std::to_string(n);
      return Status::Ok();
    }
    case json::kind::uint64: {
      const uint64_t n = v.get_uint64();
      if (n > static_cast<uint64_t>(kMaxExactInteger)) {
        return InvalidArgument("canonical JSON: an integer beyond 2^53");
      }
      out += std::to_string(n);
      return Status::Ok();
    }
    case json::kind::double_: {
      const double d = v.get_double();
      if (!std::isfinite(d)) return InvalidArgument("canonical JSON: NaN or infinity");
      out += CanonicalNumber(d);
      return Status::Ok();
    }
    case json::kind::string:
      return WriteString(v.get_string(), out);
    case json::kind::array: {
      out.push_back('[');
      bool first = true;
      for (const json::value& e : v.get_array()) {
        if (!first) out.push_back(',');
        first = false;
        SV_RETURN_IF_ERROR(Write(e, out));
      }
      out.push_back(']');
      return Status::Ok();
    }
    case json::kind::object: {
      const json::object& o = v.get_object();
      std::vector<std::pair<std::u16string, const json::key_value_pair*>> members;
      members.reserve(o.size());
      for (const json::key_value_pair& kv : o) {
        if (!util::IsValidUtf8(kv.key())) return InvalidArgument("canonical JSON: a name is not valid UTF-8");
        members.emplace_back(Utf16(kv.key()), &kv);
      }
      std::sort(members.begin(), members.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      out.push_back('{');
      bool first = true;
      for (const auto& [unused, kv] : members) {
        if (!first) out.push_back(',');
        first = false;
        SV_RETURN_IF_ERROR(WriteString(kv->key(), out));
        out.push_back(':');
        SV_RETURN_IF_ERROR(Write(kv->value(), out));
      }
      out.push_back('}');
      return Status::Ok();
    }
  }
  return InvalidArgument("canonical JSON: unknown value");
}

}  // namespace

std::string CanonicalNumber(double d) {
  if (d == 0) return "0";  // also -0
  std::string sign;
  if (d < 0) {
    sign = "-";
    d = -d;
  }
  // The shortest round-trip digits in scientific form: "d.ddde[+-]xx".
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  if (ec != std::errc()) return "0";
  const std::string text(buf, end);
  const size_t e_pos = text.find('e');
  std::string digits;
  for (size_t i = 0; i < e_pos; ++i) {
    if (text[i] != '.') digits.push_back(text[i]);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exponent = std::stoi(text.substr(e_pos + 1));
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;  // value = 0.digits * 10^n
  std::string out = sign;
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n));
    out.push_back('.');
    out += digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-n), '0');
    out += digits;
  } else {
    out.push_back(digits[0]);
    if (k > 1) {
      out.push_back('.');
      out += digits.substr(1);
    }
    out.push_back('e');
    out += (n - 1 >= 0) ? "+" : "-";
    out += std::to_string(std::abs(n - 1));
  }
  return out;
}

Result<std::string> CanonicalJson(const json::value& v) {
  std::string out;
  SV_RETURN_IF_ERROR(Write(v, out));
  return out;
}

}  // namespace service::domain::verification
