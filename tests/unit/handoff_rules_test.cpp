// The handoff's rules without I/O (areas/handoff/domain/handoff.h): the
// prUrl rule, a linked delivery's live status, the agent state of a bug,
// auto-notify's severity threshold and the listen cursor.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/handoff/domain/handoff.h"

namespace dh = service::domain::handoff;

TEST_CASE("handoff rules: prUrl is an absolute https URL without credentials, at most 2048 characters") {
  struct Case {
    std::string url;
    bool ok;
  };
  const std::string base = "https://code.example.com/";
  const std::vector<Case> cases = {
      {"https://github.com/acme/web/pull/12", true},
      {"HTTPS://github.com/acme/web/pull/12", true},
      {"https://code.example.com:8443/pr/1?tab=files#diff", true},
      {"https://[2001:db8::1]/pr/1", true},
      {base + std::string(2048 - base.size(), 'a'), true},
      {base + std::string(2049 - base.size(), 'a'), false},
      {"", false},
      {"http://github.com/acme/web/pull/12", false},
      {"ftp://github.com/x", false},
      {"/acme/web/pull/12", false},
      {"github.com/acme/web/pull/12", false},
      {"https://", false},
      {"https:///pull/1", false},
      {"https://:443/pull/1", false},
      {"https://user:secret@github.com/pull/1", false},
      {"https://token@github.com/pull/1", false},
      {"https://github.com/pull 1", false},
      {"https://github.com/pull/1\n", false},
      {"https://[2001:db8::1/pr", false},
  };
  for (const Case& c : cases) {
    CHECK_MESSAGE(dh::PrUrlProblem(c.url).empty() == c.ok, c.url);
  }
}

TEST_CASE("handoff rules: a linked delivery's live outcome overrides the stored status") {
  CHECK(dh::LiveStatus("queued", "") == "queued");
  CHECK(dh::LiveStatus("no_channel", "") == "no_channel");
  CHECK(dh::LiveStatus("delivered", "") == "delivered");
  CHECK(dh::LiveStatus("queued", "pending") == "queued");
  CHECK(dh::LiveStatus("queued", "deferred") == "queued");
  CHECK(dh::LiveStatus("queued", "success") == "delivered");
  CHECK(dh::LiveStatus("queued", "failed") == "failed");
  CHECK(dh::LiveStatus("delivered", "canceled") == "failed");
  CHECK(dh::LiveStatus("failed", "pending") == "queued");  // a manual retry took it
}

TEST_CASE("handoff rules: agent state none, no_channel, notified, working, pr_opened") {
  using L = dh::LatestBatch;
  CHECK(dh::AgentState(false, false, L::kNone) == "none");
  CHECK(dh::AgentState(false, false, L::kNoChannel) == "no_channel");
  CHECK(dh::AgentState(false, false, L::kNotified) == "notified");
  CHECK(dh::AgentState(false, true, L::kNotified) == "working");
  CHECK(dh::AgentState(false, true, L::kNone) == "working");  // picked up without a handoff
  CHECK(dh::AgentState(true, true, L::kNotified) == "pr_opened");
  CHECK(dh::AgentState(true, false, L::kNoChannel) == "pr_opened");
}

TEST_CASE("handoff rules: auto-notify at or above minSeverity") {
  CHECK(dh::AtOrAbove("critical", "high"));
  CHECK(dh::AtOrAbove("high", "high"));
  CHECK_FALSE(dh::AtOrAbove("medium", "high"));
  CHECK(dh::AtOrAbove("low", "low"));
  CHECK_FALSE(dh::AtOrAbove("low", "medium"));
  CHECK(dh::AtOrAbove("critical", "critical"));
  CHECK_FALSE(dh::AtOrAbove("high", "critical"));
  CHECK_FALSE(dh::AtOrAbove("", "low"));
  CHECK_FALSE(dh::AtOrAbove("urgent", "low"));
}

TEST_CASE("handoff rules: the listen cursor round-trips and refuses what it did not write") {
  const dh::Cursor c{1768471200123, "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"};
  const std::string text = dh::EncodeCursor(c);
  auto back = dh::DecodeCursor(text);
  REQUIRE(back.has_value());
  CHECK(back->created_at == c.created_at);
  CHECK(back->id == c.id);
  auto empty_id = dh::DecodeCursor(dh::EncodeCursor(dh::Cursor{5, ""}));
  REQUIRE(empty_id.has_value());
  CHECK(empty_id->id.empty());
  for (const std::string& bad :
       std::vector<std::string>{"", "not-a-cursor!", "MTIz", "eDox", "LTE6", std::string(300, 'A')}) {
    CHECK_FALSE_MESSAGE(dh::DecodeCursor(bad).has_value(), bad);
  }
}

TEST_CASE("handoff rules: the limits of Spec 2") {
  CHECK(dh::kReuseWindowMs == 60'000);
  CHECK(dh::kListenBacklogMs == 24LL * 3600 * 1000);
  CHECK(dh::kMaxPrUrlLength == 2048);
}
