// Query-string parsing and the spec's one-value rule for scalar parameters.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "service/status.h"

namespace service::api {

class QueryParams {
 public:
  QueryParams() = default;
  // Parses "a=1&b=2&a=3"; keys and values are percent-decoded. "a[]=1" is
  // kept under the key "a[]" so the one-value rule can refuse array forms.
  static QueryParams Parse(std::string_view raw);

  // Every value of `key`, in order.
  std::vector<std::string> All(std::string_view key) const;
  bool Has(std::string_view key) const;
  // The single value of a scalar parameter. Absent: nullopt. Given twice, or
  // in array form (key[]=, key[0]=): 400 "<key> must be provided at most once".
  Result<std::optional<std::string>> One(std::string_view key) const;
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

}  // namespace service::api
