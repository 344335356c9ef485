#include "areas/sentry/domain/envelope.h"

#include <boost/json/parse.hpp>
#include <charconv>

namespace service::domain::sentry {
namespace {

// The line starting at `*pos` (without its \n); advances past the \n.
std::string_view NextLine(std::string_view body, size_t* pos) {
  const size_t start = *pos;
  size_t end = body.find('\n', start);
  if (end == std::string_view::npos) end = body.size();
  *pos = end < body.size() ? end + 1 : end;
  std::string_view line = body.substr(start, end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

Result<boost::json::object> HeaderObject(std::string_view line, const char* what) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(line, ec);
  if (ec || !v.is_object()) return InvalidArgument(std::string(what) + " is not a JSON object");
  return std::move(v.get_object());
}

}  // namespace

Result<Envelope> ParseEnvelope(std::string_view body) {
  Envelope out;
  size_t pos = 0;
  SV_ASSIGN_OR_RETURN(out.header, HeaderObject(NextLine(body, &pos), "the envelope header"));
  while (pos < body.size()) {
    const std::string_view line = NextLine(body, &pos);
    if (line.empty()) continue;
    SV_ASSIGN_OR_RETURN(boost::json::object item_header, HeaderObject(line, "an item header"));
    EnvelopeItem item;
    if (const auto* t = item_header.if_contains("type"); t != nullptr && t->is_string()) {
      item.type = std::string(t->get_string());
    }
    if (item.type.empty()) return InvalidArgument("an item header has no type");
    const boost::json::value* length = item_header.if_contains("length");
    if (length != nullptr && !length->is_null()) {
      int64_t n = -1;
      if (length->is_int64()) n = length->get_int64();
      if (length->is_uint64() && length->get_uint64() <= body.size())
        n = static_cast<int64_t>(length->get_uint64());
      if (n < 0 || static_cast<size_t>(n) > body.size() - pos) {
        return InvalidArgument("an item's length runs past the end of the envelope");
      }
      item.payload = body.substr(pos, static_cast<size_t>(n));
      pos += static_cast<size_t>(n);
      if (pos < body.size() && body[pos] == '\r') ++pos;
      if (pos < body.size() && body[pos] == '\n') ++pos;
    } else {
      item.payload = NextLine(body, &pos);
    }
    if (out.items.size() >= kMaxEnvelopeItems) return InvalidArgument("too many items in one envelope");
    out.items.push_back(std::move(item));
  }
  return out;
}

}  // namespace service::domain::sentry
