// domain::support::CheckSession, table-driven: who may act under a support
// session, in which organization, until when.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "areas/support/domain/support_session.h"

namespace {

using service::Code;
using service::domain::support::CheckSession;
using service::domain::support::kSessionLifetimeMs;
using service::domain::support::SessionFacts;

TEST_CASE("support session check") {
  const SessionFacts open{"org-a", "root", 1000 + kSessionLifetimeMs, std::nullopt};
  struct Case {
    const char* name;
    std::optional<SessionFacts> found;
    std::string user;
    std::string org;
    int64_t now;
    Code code;
    std::string error_code;
  };
  SessionFacts ended = open;
  ended.ended_at = 2000;
  SessionFacts forgotten = open;
  forgotten.user_id = "";
  const Case cases[] = {
      {"its operator, its organization, in time", open, "root", "org-a", 1000, Code::kOk, ""},
      {"the last millisecond", open, "root", "org-a", 999 + kSessionLifetimeMs, Code::kOk, ""},
      {"at expires_at", open, "root", "org-a", 1000 + kSessionLifetimeMs, Code::kPermissionDenied,
       "SUPPORT_SESSION_EXPIRED"},
      {"no such session", std::nullopt, "root", "org-a", 1000, Code::kPermissionDenied, ""},
      {"another operator", open, "ops", "org-a", 1000, Code::kPermissionDenied, ""},
      {"another organization", open, "root", "org-b", 1000, Code::kPermissionDenied, ""},
      {"ended", ended, "root", "org-a", 3000, Code::kPermissionDenied, "SUPPORT_SESSION_ENDED"},
      {"operator's account deleted", forgotten, "", "org-a", 1000, Code::kPermissionDenied, ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const service::Status s = CheckSession(c.found, c.user, c.org, c.now);
    CHECK(s.code() == c.code);
    CHECK(s.error_code() == c.error_code);
  }
  CHECK(kSessionLifetimeMs == 8 * 3600 * 1000);
}

}  // namespace
