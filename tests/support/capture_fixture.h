// Capture fixtures for the API and store tests: organizations, members,
// projects and capture keys made quickly (organizations and members through
// the accounts area's repositories, with an access token minted by the
// service's own signer, so the real bearer authenticator accepts them), report bodies, and a
// recorder of the events the service publishes on its bus.
#pragma once

#include <boost/json.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "ports/event_bus.h"
#include "support/api_harness.h"

namespace service::testing {

struct Member {
  std::string user_id;
  std::string email;
  std::string org_id;
  std::string role;
  std::string token;  // access token (1 hour from the test clock's now)
  HeaderList headers() const;
};

// A new organization on `plan` with one member of `role`.
// `name`: the member's display name.
Member NewOrgWithMember(TestService& t, const std::string& role = "admin", const std::string& plan = "free",
                        const std::string& name = "Test User");
// A new access token for `m` from the test clock's now (after Advance).
void RenewToken(TestService& t, Member& m);
// Another member of `org_id`, whose account has `user_status` ("active",
// "pending": invited and not yet accepted, "deactivated") and display `name`.
Member AddMemberWithRole(TestService& t, const std::string& org_id, const std::string& role,
                         const std::string& user_status = "active", const std::string& name = "Test User");
// Takes `user_id` out of `org_id` through the accounts area's membership
// repository alone: none of the member-removal use case's deletion hooks run,
// so rows that name the member (assignments, watchers) stay, stale.
void DropMembershipOnly(TestService& t, const std::string& org_id, const std::string& user_id);

// POST /v1/projects; REQUIREs 201; returns the project id.
std::string CreateProjectVia(TestService& t, const Member& m, const std::string& name);
// POST /v1/projects/:id/keys; REQUIREs 201; returns the full key.
std::string CreateKeyVia(TestService& t, const Member& m, const std::string& project_id,
                         const std::string& env = "live");

// A project with a live key in a new organization.
struct CaptureSetup {
  Member admin;
  std::string project_id;
  std::string key;
};
CaptureSetup NewCaptureSetup(TestService& t, const std::string& plan = "free");

HeaderList KeyHeader(const std::string& key);

// A small valid report: {title, url, events[1 error event]} (+ `extra` members).
boost::json::object Report(const std::string& title, const std::string& message = "x is undefined",
                           const boost::json::object& extra = {});

// Revokes `key_id` of `project_id` as another process would: through the
// projects area's key repository, leaving this process's key cache as it is.
void RevokeKeyElsewhere(TestService& t, const std::string& org_id, const std::string& project_id,
                        const std::string& key_id);

// Read through the API as `m`: how many bugs (any signal class, unmerged) and
// how many occurrences of them `m`'s organization holds.
int64_t BugsVia(TestService& t, const Member& m);
int64_t OccurrencesVia(TestService& t, const Member& m);
// The groupKey of the group holding `bug_id` in `project_id` (GET
// /v1/bugs/groups, any signal class); REQUIREs one.
std::string GroupKeyVia(TestService& t, const Member& m, const std::string& project_id,
                        const std::string& bug_id);

// POST /v1/ingest with the key.
TestResponse Ingest(TestService& t, const std::string& key, const boost::json::value& body,
                    const std::string& remote_addr = "203.0.113.7");

// QueryText, QueryInt and ExecSql: support/api_harness.h.

// Records every event published on the service's bus while alive.
class EventRecorder {
 public:
  explicit EventRecorder(TestService& t);
  ~EventRecorder();
  std::vector<ports::Event> events();
  std::vector<ports::Event> OfType(const std::string& type);

 private:
  TestService& t_;
  uint64_t handle_;
  std::mutex mu_;
  std::vector<ports::Event> events_;
};

}  // namespace service::testing
