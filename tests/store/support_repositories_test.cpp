// Contract tests of areas/support/ports/support_session_repository.h on both
// backends: sessions found only in their organization, kConflict on a taken
// id, End once and only by the session's operator, the request log and the
// session listing newest first with their counts and bounded by `limit`,
// ForgetOperator, and the organization's deletion taking both.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/store/repositories.h"
#include "areas/support/ports/support_session_repository.h"
#include "areas/support/store/repositories.h"
#include "store/database.h"
#include "support/store_fixture.h"

namespace service::store {
namespace {

constexpr const char* kOrg = testing::kStoreOrg;
constexpr const char* kOtherOrg = testing::kStoreOtherOrg;
constexpr const char* kOperator = "00000000-0000-7000-8000-0000000000aa";
constexpr const char* kOtherOperator = "00000000-0000-7000-8000-0000000000bb";

struct Fixture : testing::StoreFixture {
  std::unique_ptr<ports::SupportSessionRepository> repo = NewSqlSupportSessionRepository();

  Fixture() : StoreFixture({}) { AddOtherOrganization(); }

  ports::SupportSession Session(const std::string& org, int64_t at, const std::string& user = kOperator) {
    ports::SupportSession s;
    s.id = Id();
    s.org_id = org;
    s.user_id = user;
    s.operator_email = "root@example.com";
    s.mode = "admin";
    s.created_at = at;
    s.expires_at = at + 1000;
    Write([&](Connection& tx) { return repo->Insert(tx, s); });
    return s;
  }

  ports::SupportRequest Request(const ports::SupportSession& s, const std::string& route, int64_t at) {
    ports::SupportRequest q{Id(), s.id, s.org_id, "GET", route, at};
    Write([&](Connection& tx) { return repo->RecordRequest(tx, q); });
    return q;
  }

  std::optional<ports::SupportSession> Find(const std::string& org, const std::string& id) {
    std::optional<ports::SupportSession> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->Find(c, org, id));
      return Status::Ok();
    });
    return out;
  }

  bool End(const std::string& id, const std::string& user, int64_t at) {
    bool out = false;
    Write([&](Connection& tx) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->End(tx, id, user, at));
      return Status::Ok();
    });
    return out;
  }

  std::vector<ports::SupportSession> Sessions(const std::string& org, int64_t limit = 50) {
    std::vector<ports::SupportSession> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->ListForOrg(c, org, limit));
      return Status::Ok();
    });
    return out;
  }

  std::vector<ports::SupportRequest> Requests(const std::string& org, int64_t limit = 50) {
    std::vector<ports::SupportRequest> out;
    Read([&](Connection& c) -> Status {
      SV_ASSIGN_OR_RETURN(out, repo->ListRequests(c, org, limit));
      return Status::Ok();
    });
    return out;
  }
};

TEST_CASE("support sessions: found in their organization only, a taken id is kConflict") {
  Fixture f;
  const ports::SupportSession s = f.Session(kOrg, 100);
  const auto found = f.Find(kOrg, s.id);
  REQUIRE(found.has_value());
  CHECK(found->id == s.id);
  CHECK(found->org_id == kOrg);
  CHECK(found->user_id == kOperator);
  CHECK(found->operator_email == "root@example.com");
  CHECK(found->mode == "admin");
  CHECK(found->created_at == 100);
  CHECK(found->expires_at == 1100);
  CHECK_FALSE(found->ended_at.has_value());
  CHECK_FALSE(f.Find(kOtherOrg, s.id).has_value());
  CHECK_FALSE(f.Find(kOrg, f.Id()).has_value());

  ports::SupportSession again = s;
  again.org_id = kOtherOrg;
  Status dup = f.db->Write([&](Connection& tx) { return f.repo->Insert(tx, again); });
  CHECK(dup.code() == Code::kConflict);
}

TEST_CASE("support sessions: End sets ended_at once, only for the session's operator") {
  Fixture f;
  const ports::SupportSession s = f.Session(kOrg, 100);
  CHECK_FALSE(f.End(s.id, kOtherOperator, 200));
  CHECK_FALSE(f.End(f.Id(), kOperator, 200));
  CHECK(f.End(s.id, kOperator, 300));
  CHECK_FALSE(f.End(s.id, kOperator, 400));
  CHECK(f.Find(kOrg, s.id)->ended_at == std::optional<int64_t>(300));
  // An expired session may still be ended.
  const ports::SupportSession old = f.Session(kOrg, 0);
  CHECK(f.End(old.id, kOperator, 5000));
}

TEST_CASE("support sessions: the log and the listing, newest first, counted, bounded, per organization") {
  Fixture f;
  const ports::SupportSession a = f.Session(kOrg, 100);
  const ports::SupportSession b = f.Session(kOrg, 200);
  const ports::SupportSession c = f.Session(kOrg, 200);  // same instant as b: the larger id first
  const ports::SupportSession other = f.Session(kOtherOrg, 300);
  const ports::SupportRequest q1 = f.Request(a, "/v1/team", 110);
  const ports::SupportRequest q2 = f.Request(a, "/v1/bugs/:id", 120);
  const ports::SupportRequest q3 = f.Request(b, "/v1/projects", 120);  // same instant as q2
  f.Request(other, "/v1/team", 310);

  const auto sessions = f.Sessions(kOrg);
  REQUIRE(sessions.size() == 3);
  CHECK(sessions[0].id == c.id);
  CHECK(sessions[1].id == b.id);
  CHECK(sessions[2].id == a.id);
  CHECK(sessions[0].request_count == 0);
  CHECK_FALSE(sessions[0].last_request_at.has_value());
  CHECK(sessions[1].request_count == 1);
  CHECK(sessions[1].last_request_at == std::optional<int64_t>(120));
  CHECK(sessions[2].request_count == 2);
  CHECK(sessions[2].last_request_at == std::optional<int64_t>(120));
  CHECK(f.Sessions(kOrg, 1).size() == 1);

  const auto log = f.Requests(kOrg);
  REQUIRE(log.size() == 3);
  CHECK(log[0].id == q3.id);  // at 120 with the larger id (ids grow)
  CHECK(log[1].id == q2.id);
  CHECK(log[2].id == q1.id);
  CHECK(log[1].session_id == a.id);
  CHECK(log[1].org_id == kOrg);
  CHECK(log[1].method == "GET");
  CHECK(log[1].route == "/v1/bugs/:id");
  CHECK(log[1].at == 120);
  CHECK(f.Requests(kOrg, 2).size() == 2);

  const auto theirs = f.Requests(kOtherOrg);
  REQUIRE(theirs.size() == 1);
  CHECK(theirs[0].session_id == other.id);
  CHECK(f.Sessions(kOtherOrg).size() == 1);
}

TEST_CASE(
    "support sessions: ForgetOperator keeps the record without the account, the organization's deletion "
    "takes all") {
  Fixture f;
  const ports::SupportSession mine = f.Session(kOrg, 100);
  const ports::SupportSession theirs = f.Session(kOrg, 200, kOtherOperator);
  f.Request(mine, "/v1/team", 110);
  f.Write([&](Connection& tx) { return f.repo->ForgetOperator(tx, kOperator); });
  const auto forgotten = f.Find(kOrg, mine.id);
  REQUIRE(forgotten.has_value());
  CHECK(forgotten->user_id.empty());
  CHECK(forgotten->operator_email == "root@example.com");
  CHECK_FALSE(f.End(mine.id, kOperator, 300));
  CHECK(f.Find(kOrg, theirs.id)->user_id == kOtherOperator);
  CHECK(f.Sessions(kOrg).at(1).request_count == 1);

  const ports::SupportSession other = f.Session(kOtherOrg, 300);
  f.Request(other, "/v1/team", 310);
  f.Write([&](Connection& tx) { return NewSqlOrgRepository()->Delete(tx, kOrg); });
  CHECK(f.Sessions(kOrg).empty());
  CHECK(f.Requests(kOrg).empty());
  CHECK(f.Int("SELECT COUNT(*) FROM support_requests WHERE org_id = ?", {std::string(kOrg)}) == 0);
  CHECK(f.Sessions(kOtherOrg).size() == 1);
  CHECK(f.Requests(kOtherOrg).size() == 1);
}

}  // namespace
}  // namespace service::store
