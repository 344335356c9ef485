// The kanban's rules (issue 28 item 4, server-contract "Tickets"): the five
// statuses in board order, the field limits, and where a ticket lands.
//
// Positions are dense per (organization, status): the tickets of a column
// are at 0..n-1. Creation appends at the end of its column; deletion closes
// the gap; a move takes the ticket out of its column (closing the gap) and
// inserts it at the requested position, clamped to 0..n (n: the other
// tickets of the target column), shifting the ones at or after it.
//
// Board is the same rules over ids in memory: the model the store's SQL is
// tested against (tests/unit/tickets_board_test.cpp,
// tests/store/tickets_repositories_test.cpp).
//
// Pure functions and a plain value type; safe from any thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::tickets {

inline constexpr size_t kStatusCount = 5;
// Board order: the list's order and the console's columns.
inline constexpr std::array<std::string_view, kStatusCount> kStatuses = {"backlog", "todo", "in_progress",
                                                                         "review", "done"};
inline constexpr std::string_view kDefaultStatus = "backlog";

inline constexpr size_t kMaxTitle = 500;          // characters; at least 1
inline constexpr size_t kMaxDescription = 10000;  // characters

// The status's index in kStatuses; nullopt when it is none of them.
std::optional<size_t> StatusIndex(std::string_view status);
bool IsStatus(std::string_view status);

// Where a moved ticket lands: `requested` clamped to 0..others, where
// `others` is how many other tickets the target column holds.
// REQUIRES: others >= 0.
int64_t ClampPosition(int64_t requested, int64_t others);

// The board in memory: one column of ticket ids per status, in position
// order (index = position).
struct Board {
  std::array<std::vector<std::string>, kStatusCount> columns;

  struct Place {
    size_t status = 0;
    int64_t position = 0;
  };
  std::optional<Place> Find(std::string_view id) const;
  // Appends `id` at the end of `status`'s column; returns its position.
  int64_t Append(std::string_view id, size_t status);
  // Takes `id` out and closes the gap; false when absent.
  bool Remove(std::string_view id);
  // Moves `id` to `status` at `requested` (clamped, see ClampPosition);
  // returns where it landed, nullopt when absent.
  std::optional<Place> Move(std::string_view id, size_t status, int64_t requested);
};

}  // namespace service::domain::tickets
