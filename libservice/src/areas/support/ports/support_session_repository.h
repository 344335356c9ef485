// SupportSessionRepository: the support sessions superadmins open on an
// organization (Spec 2 "Superadmin" POST /v1/admin/support/session) and the
// log of the requests made under them, which the organization's admins read.
//
// Every read and write names the organization, except the operator's own
// End and ForgetOperator. Sessions and their log hang off the organization
// through cascading foreign keys: deleting it deletes them.
//
// Thread-safety: stateless; safe from any thread. Failure: driver errors as
// Status; an absent row is a value (nullopt, false), never an error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct SupportSession {
  std::string id;
  std::string org_id;
  std::string user_id;         // the superadmin; "" once their account was deleted
  std::string operator_email;  // as it was when the session opened (kept for the log)
  std::string mode;            // "admin"
  int64_t created_at = 0;
  int64_t expires_at = 0;
  std::optional<int64_t> ended_at;  // ended before it expired
  // Listings only (ListForOrg): requests made under it and the last one's time.
  int64_t request_count = 0;
  std::optional<int64_t> last_request_at;
};

// One request authenticated under a session: the route's pattern
// ("/v1/bugs/:id"), never the raw path or query.
struct SupportRequest {
  std::string id;
  std::string session_id;
  std::string org_id;
  std::string method;
  std::string route;
  int64_t at = 0;
};

class SupportSessionRepository {
 public:
  SupportSessionRepository() = default;
  SupportSessionRepository(const SupportSessionRepository&) = delete;
  SupportSessionRepository& operator=(const SupportSessionRepository&) = delete;
  virtual ~SupportSessionRepository() = default;

  // A session id taken: kConflict. REQUIRES: the organization exists.
  virtual Status Insert(Tx& tx, const SupportSession& session) = 0;
  // The session `id` of `org_id` (another organization's: nullopt).
  virtual Result<std::optional<SupportSession>> Find(Tx& c, const std::string& org_id,
                                                     const std::string& id) = 0;
  // Sets ended_at = `at` on the session `id` opened by `user_id` when it has
  // not ended yet. True when it did; false for an unknown id, another
  // operator's session or one ended already. An expired session may still
  // be ended (it changes nothing but the record).
  virtual Result<bool> End(Tx& tx, const std::string& id, const std::string& user_id, int64_t at) = 0;
  // Appends to the log. REQUIRES: the session exists in request.org_id.
  virtual Status RecordRequest(Tx& tx, const SupportRequest& request) = 0;
  // The organization's sessions, newest first (created_at, then id), at most
  // `limit`, with request_count and last_request_at.
  virtual Result<std::vector<SupportSession>> ListForOrg(Tx& c, const std::string& org_id, int64_t limit) = 0;
  // The organization's logged requests, newest first (at, then id), at most `limit`.
  virtual Result<std::vector<SupportRequest>> ListRequests(Tx& c, const std::string& org_id,
                                                           int64_t limit) = 0;
  // An operator's account is deleted: their sessions stay in the
  // organizations' logs (with the email) but no longer name the account,
  // so no request can use them again.
  virtual Status ForgetOperator(Tx& tx, const std::string& user_id) = 0;
};

}  // namespace service::ports
