// Demo seeding (`service-server --demo`): on an empty database, creates a
// demo organization with a verified admin and sends a few hundred realistic
// reports through the real capture pipeline (several platforms, releases and
// environments, duplicates, a watch and a diagnostic signal, and one bug that
// is resolved and then regresses).
//
// Thread-safety: call once, before serving requests.
#pragma once

#include <string>

#include <functional>

#include "app/auth/auth.h"
#include "app/capture/ingest.h"
#include "ports/bug_status_repository.h"
#include "ports/capture_bug_repository.h"
#include "ports/ids.h"
#include "ports/org_repository.h"
#include "ports/transaction.h"
#include "ports/user_repository.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app {

// What the demo needs: the account and capture use cases it drives, and the
// repositories for the few touches no use case offers yet (verifying the
// demo admin, resolving one bug so that it regresses).
struct DemoDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::OrgRepository* orgs = nullptr;
  ports::UserRepository* users = nullptr;
  ports::BugStatusRepository* statuses = nullptr;
  ports::CaptureBugRepository* capture_bugs = nullptr;
  std::function<Result<Workspace>(const RegisterInput&)> register_account;
  std::function<Result<capture::IngestResult>(const capture::ReportSource&, capture::ReportInput)> ingest;

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

}  // namespace service::app
