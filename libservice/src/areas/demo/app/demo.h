// Demo seeding (`service-server --demo`): on an empty database, creates a
// demo organization with a verified admin and sends about three hundred
// realistic reports, spread over the last two weeks, through the real capture
// use case. Their errors carry stack traces (browser, server and mobile) and
// recur on several pages, so their signatures join the bugs of one error into
// groups of several; two wordings of one crash (Chrome's and Safari's, same
// crashing frame) become duplicate candidates (the demo project has shadow
// grouping on); one bug is resolved in 3.2.0 and regresses in 3.2.1, one stays
// resolved, one is assigned to the demo admin; about sixty end users (the
// application's own ids, some with an email) and four releases.
//
// Thread-safety: call once, before serving requests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "areas/accounts/app/accounts.h"
#include "areas/accounts/ports/org_repository.h"
#include "areas/accounts/ports/user_repository.h"
#include "areas/capture/app/ingest.h"
#include "areas/capture/ports/capture_bug_repository.h"
#include "areas/projects/ports/project_repository.h"
#include "areas/triage/ports/bug_write_repository.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::demo {

// What the demo needs: the account and capture use cases it drives, and the
// repositories for the few touches no use case offers it (verifying the demo
// admin, switching on the project's shadow grouping, resolving and assigning
// bugs as a person would in the console).
struct DemoDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::OrgRepository* orgs = nullptr;
  ports::UserRepository* users = nullptr;
  ports::BugWriteRepository* bug_writes = nullptr;
  ports::CaptureBugRepository* capture_bugs = nullptr;
  std::function<Result<app::accounts::Workspace>(const app::accounts::RegisterInput&)> register_account;
  // The capture use case (capture::Ingest) as if the report arrived at
  // `at_ms` (a time in the past: the demo spreads its reports over two weeks).
  std::function<Result<capture::IngestResult>(const capture::ReportSource&, capture::ReportInput,
                                              int64_t at_ms)>
      ingest;
  ports::ProjectRepository* projects = nullptr;  // the demo project's shadow grouping switch

  int64_t Now() const { return clock->NowMillis(); }
};

struct DemoResult {
  bool created = false;  // false: the database was not empty; nothing done
  std::string email;
  std::string password;  // generated; printed once by the shell
  std::string org_name;
  std::string api_key;
  std::string dsn;
  int reports = 0;
  int bugs = 0;
};

Result<DemoResult> SeedDemo(const DemoDeps& deps);

}  // namespace service::app::demo
