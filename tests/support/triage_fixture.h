// Triage fixtures for the API tests of other areas: the rows the triage
// area owns (status changes with their history, assignments, comments,
// watchers, notifications, notification preferences), written through the
// triage area's own repositories (ports::BugWriteRepository,
// ports::TriageRepository), so tests of account export and deletion,
// member removal, project counts and the triage reads get rows of exact
// shapes without the side effects the triage write routes add (watchers,
// notifications, stream events). The routes themselves are tested in
// tests/api/triage_writes_test.cpp and notifications_test.cpp.
#pragma once

#include <string>

#include "support/api_harness.h"

namespace service::testing {

// Sets `bug`'s status (resolved_at when "resolved", cleared otherwise) and
// records a status-history row changed by `by` (empty: no history row).
// REQUIRES: `bug` is an unmerged bug of `org_id`.
void SetBugStatus(TestService& t, const std::string& org_id, const std::string& bug,
                  const std::string& status, const std::string& by = "");
// Assigns `bug` to `user_id` (not checked against the members).
// REQUIRES: `bug` is an unmerged bug of `org_id`.
void AssignBug(TestService& t, const std::string& org_id, const std::string& bug, const std::string& user_id);
void AddComment(TestService& t, const std::string& org_id, const std::string& bug, const std::string& user_id,
                const std::string& content);
void AddWatcher(TestService& t, const std::string& org_id, const std::string& bug,
                const std::string& user_id);
// An unread in-app notification of `type` about `bug`.
void AddNotification(TestService& t, const std::string& org_id, const std::string& user_id,
                     const std::string& bug, const std::string& type, const std::string& title);
// The member's notification preferences in `org_id` (kept when present).
void SetNotificationPreferences(TestService& t, const std::string& org_id, const std::string& user_id,
                                const std::string& email_level = "all");

}  // namespace service::testing
