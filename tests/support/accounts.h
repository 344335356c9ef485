// Account fixtures for the API tests: cheap password hashing, registering
// and signing in through the real routes, bearer headers, and reading the
// mail the service sent (file provider) to follow its links.
#pragma once

#include <string>
#include <vector>

#include "support/api_harness.h"

namespace service::testing {

// Lowers the scrypt cost of new hashes (and of the login decoy) so a test
// can register and sign in many times; the stored format is unchanged.
void UseCheapPasswords(TestService& t);

// Options for a service that delivers mail into files under `dir` (file:
// provider), with a public URL for links and no email verification.
std::function<void(Options&)> WithFileMail(const std::string& dir);

// A TestService with cheap passwords and `tweak` applied.
std::unique_ptr<TestService> NewAccountsService(const std::function<void(Options&)>& tweak = {});

struct Account {
  std::string user_id;
  std::string org_id;
  std::string project_id;
  std::string email;
  std::string password;
  std::string access_token;
  std::string refresh_token;
  std::string api_key;
};

inline constexpr const char* kTestPassword = "correct horse battery";

// POST /v1/auth/register; REQUIREs 201.
Account RegisterAccount(TestService& t, const std::string& email, const std::string& org_name = "Acme",
                        const std::string& password = kTestPassword);

HeaderList Bearer(const std::string& token);
// A JSON string's text (other values serialised), for comparisons with std::string.
std::string Str(const boost::json::value& v);
HeaderList BearerOrg(const std::string& token, const std::string& org_id);

// Invites `email` with `role` into `admin`'s organization and lets the
// invitee accept with the token read from the outbox payload of the
// invitation mail (needs a mail provider); returns the signed-in member.
Account AddMember(TestService& t, const Account& admin, const std::string& email, const std::string& role);

// The plain-text bodies of every .eml file in `dir`, oldest name first.
std::vector<std::string> ReadMailDir(const std::string& dir);
// The 64-hex token after `marker` (e.g. "#token=") in `text`, or "".
std::string TokenAfter(const std::string& text, const std::string& marker);
// The newest queued mail payload text (JSON "text" of the last outbox row) to
// `to`, or "".
std::string LastQueuedMailText(TestService& t, const std::string& to);
// A fresh empty folder under the temp directory, removed when the process exits.
std::string FreshTempDir(const std::string& prefix);

}  // namespace service::testing
