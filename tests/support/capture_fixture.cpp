#include "support/capture_fixture.h"

#include <doctest/doctest.h>

#include "areas/accounts/domain/token.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "modules/platform.h"
#include "service_internal.h"

namespace service::testing {
HeaderList Member::headers() const {
  return {{"Authorization", "Bearer " + token}, {"X-Service-Org", org_id}};
}

// Organizations and members are written through the accounts area's own
// repositories (no password hashing, no mail), not through SQL.
Member AddMemberWithRole(TestService& t, const std::string& org_id, const std::string& role,
                         const std::string& user_status, const std::string& name) {
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  Member m;
  m.user_id = core.ids->NewId();
  m.email = "user-" + m.user_id.substr(m.user_id.size() - 12) + "@example.com";
  m.org_id = org_id;
  m.role = role;
  const int64_t now = core.Now();
  ports::User user;
  user.id = m.user_id;
  user.email = m.email;
  user.name = name;
  user.email_verified = true;
  user.status = user_status;
  user.created_at = now;
  user.updated_at = now;
  ports::Membership membership{org_id, m.user_id, role, std::nullopt, now};
  Status st = core.tx->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(core.Shared<service::ports::UserRepository>()->Insert(tx, user));
    return core.Shared<service::ports::MembershipRepository>()->Insert(tx, membership);
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  m.token = domain::accounts::SignToken(domain::accounts::MakeAccessClaims(m.user_id, org_id, 0, now),
                                        core.jwt_secret);
  return m;
}

void RenewToken(TestService& t, Member& m) {
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  m.token = domain::accounts::SignToken(
      domain::accounts::MakeAccessClaims(m.user_id, m.org_id, 0, core.Now()), core.jwt_secret);
}

void DropMembershipOnly(TestService& t, const std::string& org_id, const std::string& user_id) {
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  bool removed = false;
  Status st = core.tx->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(removed, core.Shared<service::ports::MembershipRepository>()->Remove(
                                     tx, org_id, user_id, core.Now()));
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  REQUIRE(removed);
}

Member NewOrgWithMember(TestService& t, const std::string& role, const std::string& plan,
                        const std::string& name) {
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  ports::Organization org;
  org.id = core.ids->NewId();
  org.name = "Org " + org.id.substr(org.id.size() - 6);
  org.slug = "org-" + org.id;
  org.plan = plan;
  org.created_at = core.Now();
  Status st = core.tx->Write(
      [&](ports::Tx& tx) { return core.Shared<service::ports::OrgRepository>()->Insert(tx, org); });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return AddMemberWithRole(t, org.id, role, "active", name);
}

std::string CreateProjectVia(TestService& t, const Member& m, const std::string& name) {
  TestResponse r =
      t.Post("/v1/projects", boost::json::object{{"name", name}, {"orgId", m.org_id}}, m.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return std::string(r.json.at("id").as_string());
}

std::string CreateKeyVia(TestService& t, const Member& m, const std::string& project_id,
                         const std::string& env) {
  TestResponse r = t.Post("/v1/projects/" + project_id + "/keys",
                          boost::json::object{{"env", env}, {"label", "ci"}}, m.headers());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return std::string(r.json.at("key").as_string());
}

CaptureSetup NewCaptureSetup(TestService& t, const std::string& plan) {
  CaptureSetup s;
  s.admin = NewOrgWithMember(t, "admin", plan);
  s.project_id = CreateProjectVia(t, s.admin, "Web App");
  s.key = CreateKeyVia(t, s.admin, s.project_id);
  return s;
}

void RevokeKeyElsewhere(TestService& t, const std::string& org_id, const std::string& project_id,
                        const std::string& key_id) {
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  bool revoked = false;
  Status st = core.tx->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(revoked, core.Shared<service::ports::CaptureKeyRepository>()->Revoke(
                                     tx, org_id, project_id, key_id, core.Now()));
    return Status::Ok();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  REQUIRE(revoked);
}

int64_t BugsVia(TestService& t, const Member& m) {
  TestResponse r = t.Get("/v1/bugs?signalClass=all&limit=1", m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  return r.json.at("total").as_int64();
}

int64_t OccurrencesVia(TestService& t, const Member& m) {
  TestResponse list = t.Get("/v1/bugs?signalClass=all&limit=200", m.headers());
  REQUIRE_MESSAGE(list.status == 200, list.body);
  REQUIRE(list.json.at("total").as_int64() <= 200);
  int64_t n = 0;
  for (const auto& b : list.json.at("bugs").as_array()) {
    TestResponse r =
        t.Get("/v1/bugs/" + std::string(b.at("id").as_string()) + "/occurrences?limit=1", m.headers());
    REQUIRE_MESSAGE(r.status == 200, r.body);
    n += r.json.at("total").as_int64();
  }
  return n;
}

std::string GroupKeyVia(TestService& t, const Member& m, const std::string& project_id,
                        const std::string& bug_id) {
  TestResponse r = t.Get("/v1/bugs/groups?signalClass=all&limit=200&projectId=" + project_id, m.headers());
  REQUIRE_MESSAGE(r.status == 200, r.body);
  for (const auto& g : r.json.at("groups").as_array()) {
    for (const auto& id : g.at("memberIds").as_array())
      if (id.as_string() == bug_id) return std::string(g.at("groupKey").as_string());
  }
  FAIL("no group holds ", bug_id);
  return "";
}

HeaderList KeyHeader(const std::string& key) { return {{"X-Service-Key", key}}; }

boost::json::object Report(const std::string& title, const std::string& message,
                           const boost::json::object& extra) {
  boost::json::object o{
      {"title", title},
      {"url", "https://app.example.com/orders/123"},
      {"events", boost::json::array{boost::json::object{
                     {"type", "error"},
                     {"timestamp", 1768471100000},
                     {"data", boost::json::object{{"name", "TypeError"}, {"message", message}}}}}},
      {"metadata", boost::json::object{{"autoReport", "error"}}}};
  for (const auto& kv : extra) o[kv.key()] = kv.value();
  return o;
}

TestResponse Ingest(TestService& t, const std::string& key, const boost::json::value& body,
                    const std::string& remote_addr) {
  return t.Request("POST", "/v1/ingest", boost::json::serialize(body), KeyHeader(key), remote_addr);
}

EventRecorder::EventRecorder(TestService& t) : t_(t) {
  handle_ = service::internal::PlatformOf(t_.service()).bus->Subscribe([this](const ports::Event& e) {
    // On PostgreSQL the bus also carries other test processes' events
    // (LISTEN/NOTIFY on the shared test database): only this process's count.
    if (e.from_other_process) return;
    std::lock_guard lock(mu_);
    events_.push_back(e);
  });
}

EventRecorder::~EventRecorder() { service::internal::PlatformOf(t_.service()).bus->Unsubscribe(handle_); }

std::vector<ports::Event> EventRecorder::events() {
  std::lock_guard lock(mu_);
  return events_;
}

std::vector<ports::Event> EventRecorder::OfType(const std::string& type) {
  std::lock_guard lock(mu_);
  std::vector<ports::Event> out;
  for (const auto& e : events_)
    if (e.type == type) out.push_back(e);
  return out;
}

}  // namespace service::testing
