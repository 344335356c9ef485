#include "areas/tickets/domain/board.h"

#include <algorithm>

namespace service::domain::tickets {

std::optional<size_t> StatusIndex(std::string_view status) {
  for (size_t i = 0; i < kStatuses.size(); ++i) {
    if (kStatuses[i] == status) return i;
  }
  return std::nullopt;
}

bool IsStatus(std::string_view status) { return StatusIndex(status).has_value(); }

int64_t ClampPosition(int64_t requested, int64_t others) { return std::clamp<int64_t>(requested, 0, others); }

std::optional<Board::Place> Board::Find(std::string_view id) const {
  for (size_t s = 0; s < columns.size(); ++s) {
    const auto& column = columns[s];
    const auto it = std::find(column.begin(), column.end(), id);
    if (it != column.end()) return Place{s, static_cast<int64_t>(it - column.begin())};
  }
  return std::nullopt;
}

int64_t Board::Append(std::string_view id, size_t status) {
  columns[status].emplace_back(id);
  return static_cast<int64_t>(columns[status].size()) - 1;
}

bool Board::Remove(std::string_view id) {
  const std::optional<Place> at = Find(id);
  if (!at) return false;
  auto& column = columns[at->status];
  column.erase(column.begin() + at->position);
  return true;
}

std::optional<Board::Place> Board::Move(std::string_view id, size_t status, int64_t requested) {
  if (!Remove(id)) return std::nullopt;
  auto& column = columns[status];
  const int64_t position = ClampPosition(requested, static_cast<int64_t>(column.size()));
  column.insert(column.begin() + position, std::string(id));
  return Place{status, position};
}

}  // namespace service::domain::tickets
