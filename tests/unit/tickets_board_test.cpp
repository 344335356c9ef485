// The kanban's position rules without I/O (areas/tickets/domain/board.h):
// statuses in board order, clamping, and moves, appends and removals on the
// in-memory board that the store's SQL is tested against.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/tickets/domain/board.h"

namespace tickets = service::domain::tickets;

namespace {

using Columns = std::vector<std::vector<std::string>>;

tickets::Board Make(const Columns& columns) {
  tickets::Board b;
  for (size_t s = 0; s < columns.size(); ++s) b.columns[s] = columns[s];
  return b;
}

Columns Of(const tickets::Board& b) {
  Columns out(b.columns.begin(), b.columns.end());
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

}  // namespace

TEST_CASE("tickets: statuses in board order") {
  CHECK(tickets::kStatuses.size() == 5);
  const char* order[] = {"backlog", "todo", "in_progress", "review", "done"};
  for (size_t i = 0; i < 5; ++i) {
    CHECK(tickets::StatusIndex(order[i]) == i);
    CHECK(tickets::IsStatus(order[i]));
  }
  for (const char* bad : {"", "Backlog", "doing", "in-progress", "done "}) {
    CAPTURE(bad);
    CHECK_FALSE(tickets::IsStatus(bad));
  }
  CHECK(tickets::kDefaultStatus == "backlog");
}

TEST_CASE("tickets: a requested position clamps to 0..others") {
  struct Row {
    int64_t requested, others, expected;
  };
  const Row rows[] = {{0, 0, 0}, {5, 0, 0}, {-3, 4, 0}, {2, 4, 2}, {4, 4, 4}, {9, 4, 4}, {INT64_MAX, 3, 3}};
  for (const Row& r : rows) {
    CAPTURE(r.requested);
    CAPTURE(r.others);
    CHECK(tickets::ClampPosition(r.requested, r.others) == r.expected);
  }
}

TEST_CASE("tickets: moves take the ticket out, close the gap and insert it, clamped") {
  struct Row {
    const char* what;
    Columns before;
    const char* id;
    size_t status;
    int64_t position;
    Columns after;
    int64_t landed;
  };
  const Row rows[] = {
      {"down within a column", {{"a", "b", "c", "d"}}, "a", 0, 2, {{"b", "c", "a", "d"}}, 2},
      {"up within a column", {{"a", "b", "c", "d"}}, "d", 0, 1, {{"a", "d", "b", "c"}}, 1},
      {"to its own place", {{"a", "b", "c"}}, "b", 0, 1, {{"a", "b", "c"}}, 1},
      {"past the end of its own column", {{"a", "b", "c"}}, "a", 0, 99, {{"b", "c", "a"}}, 2},
      {"to the end exactly (n-1 in its own column)", {{"a", "b", "c"}}, "a", 0, 2, {{"b", "c", "a"}}, 2},
      {"into an empty column", {{"a", "b"}}, "a", 2, 0, {{"b"}, {}, {"a"}}, 0},
      {"into an empty column beyond 0", {{"a", "b"}}, "b", 1, 7, {{"a"}, {"b"}}, 0},
      {"to the front of another column", {{"a", "b"}, {"x", "y"}}, "b", 1, 0, {{"a"}, {"b", "x", "y"}}, 0},
      {"between two of another column", {{"a", "b"}, {"x", "y"}}, "a", 1, 1, {{"b"}, {"x", "a", "y"}}, 1},
      {"to the end of another column (n)", {{"a", "b"}, {"x", "y"}}, "a", 1, 2, {{"b"}, {"x", "y", "a"}}, 2},
      {"past the end of another column", {{"a"}, {"x", "y"}}, "a", 1, 50, {{}, {"x", "y", "a"}}, 2},
      {"leftwards, from done to review",
       {{}, {}, {}, {"r"}, {"d1", "d2"}},
       "d2",
       3,
       0,
       {{}, {}, {}, {"d2", "r"}, {"d1"}},
       0},
  };
  for (const Row& r : rows) {
    CAPTURE(r.what);
    tickets::Board b = Make(r.before);
    const auto landed = b.Move(r.id, r.status, r.position);
    REQUIRE(landed.has_value());
    CHECK(landed->status == r.status);
    CHECK(landed->position == r.landed);
    CHECK(Of(b) == r.after);
    const auto found = b.Find(r.id);
    REQUIRE(found.has_value());
    CHECK(found->position == r.landed);
  }
}

TEST_CASE("tickets: creation appends at the end, deletion closes the gap, unknown ids change nothing") {
  tickets::Board b;
  CHECK(b.Append("a", 0) == 0);
  CHECK(b.Append("b", 0) == 1);
  CHECK(b.Append("x", 4) == 0);
  CHECK(b.Append("c", 0) == 2);
  CHECK(b.Remove("b"));
  CHECK(Of(b) == Columns{{"a", "c"}, {}, {}, {}, {"x"}});
  CHECK(b.Find("c")->position == 1);
  CHECK_FALSE(b.Remove("nope"));
  CHECK_FALSE(b.Move("nope", 1, 0).has_value());
  CHECK(Of(b) == Columns{{"a", "c"}, {}, {}, {}, {"x"}});
}
