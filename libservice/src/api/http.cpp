#include "service/http.h"

#include "util/strings.h"

namespace service::api {

void Headers::Set(std::string name, std::string value) {
  std::erase_if(items_, [&](const auto& kv) { return util::EqualsIgnoreCase(kv.first, name); });
  items_.emplace_back(std::move(name), std::move(value));
}

const std::string* Headers::Find(std::string_view name) const {
  for (const auto& kv : items_)
    if (util::EqualsIgnoreCase(kv.first, name)) return &kv.second;
  return nullptr;
}

}  // namespace service::api
