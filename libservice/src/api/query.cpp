#include "api/query.h"

#include "util/strings.h"

namespace service::api {

QueryParams QueryParams::Parse(std::string_view raw) {
  QueryParams q;
  size_t start = 0;
  while (start <= raw.size()) {
    size_t end = raw.find('&', start);
    if (end == std::string_view::npos) end = raw.size();
    const std::string_view part = raw.substr(start, end - start);
    if (!part.empty()) {
      const size_t eq = part.find('=');
      std::string key = util::UrlDecode(part.substr(0, eq), true);
      std::string value =
          eq == std::string_view::npos ? std::string() : util::UrlDecode(part.substr(eq + 1), true);
      q.items_.emplace_back(std::move(key), std::move(value));
    }
    start = end + 1;
  }
  return q;
}

std::vector<std::string> QueryParams::All(std::string_view key) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : items_)
    if (k == key) out.push_back(v);
  return out;
}

bool QueryParams::Has(std::string_view key) const {
  for (const auto& kv : items_)
    if (kv.first == key) return true;
  return false;
}

Result<std::optional<std::string>> QueryParams::One(std::string_view key) const {
  std::optional<std::string> found;
  int count = 0;
  for (const auto& [k, v] : items_) {
    // Array forms: key[]=x, key[0]=x.
    const bool array_form =
        k.size() > key.size() && k.compare(0, key.size(), key) == 0 && k[key.size()] == '[';
    if (k == key || array_form) {
      ++count;
      if (array_form) count = 2;
      found = v;
    }
  }
  if (count > 1) return InvalidArgument(std::string(key) + " must be provided at most once");
  return found;
}

}  // namespace service::api
