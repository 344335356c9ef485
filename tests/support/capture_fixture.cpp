#include "support/capture_fixture.h"

#include <doctest/doctest.h>

#include "domain/auth/token.h"
#include "service_internal.h"

namespace service::testing {
namespace {}  // namespace

HeaderList Member::headers() const {
  return {{"Authorization", "Bearer " + token}, {"X-Service-Org", org_id}};
}

Member AddMemberWithRole(TestService& t, const std::string& org_id, const std::string& role) {
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  Member m;
  m.user_id = core.ids->NewId();
  m.email = "user-" + m.user_id.substr(m.user_id.size() - 12) + "@example.com";
  m.org_id = org_id;
  m.role = role;
  const int64_t now = core.Now();
  Status st = core.db->Write([&](store::Connection& tx) -> Status {
    SV_RETURN_IF_ERROR(
        tx.Exec("INSERT INTO users (id, email, name, email_verified, status, session_revision, "
                "created_at, updated_at) VALUES (?, ?, ?, 1, 'active', 0, ?, ?)",
                {m.user_id, m.email, "Test User", now, now})
            .status());
    return tx
        .Exec(
            "INSERT INTO memberships (org_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            {org_id, m.user_id, role, now, now})
        .status();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  m.token = domain::SignToken(domain::MakeAccessClaims(m.user_id, org_id, 0, now), core.jwt_secret);
  return m;
}

Member NewOrgWithMember(TestService& t, const std::string& role, const std::string& plan) {
  service::modules::Platform& core = service::internal::PlatformOf(t.service());
  const std::string org_id = core.ids->NewId();
  const int64_t now = core.Now();
  Status st = core.db->Write([&](store::Connection& tx) -> Status {
    return tx
        .Exec(
            "INSERT INTO organizations (id, name, slug, plan, created_at, updated_at) VALUES (?, ?, ?, ?, ?, "
            "?)",
            {org_id, "Org " + org_id.substr(org_id.size() - 6), "org-" + org_id, plan, now, now})
        .status();
  });
  REQUIRE_MESSAGE(st.ok(), st.ToString());
  return AddMemberWithRole(t, org_id, role);
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
