// A fresh, migrated database for store tests (on the backend of
// test_db.h) holding one organization, kStoreOrg, and the given projects;
// with the helpers every store test needs: a write that must succeed, one
// read of a single value, and fresh ids.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "store/database.h"

namespace service::testing {

inline constexpr const char* kStoreOrg = "00000000-0000-7000-8000-000000000001";
// A second organization and its one project (AddOtherOrganization), for the
// org-scoping checks: another organization's id finds nothing.
inline constexpr const char* kStoreOtherOrg = "00000000-0000-7000-8000-000000000009";
inline constexpr const char* kStoreOtherProject = "00000000-0000-7000-8000-000000000010";

// A bug as the capture repository creates it from a first report (fresh
// fingerprint, bug and occurrence ids; platform "web"): the fields store
// tests vary, with the values most of them want.
struct StoreBug {
  std::string org = kStoreOrg;
  std::string project;
  std::string env = "live";  // key_env
  std::string title = "A bug";
  std::string severity = "medium";
  std::string signal_class = "issue";
  std::string signal_family;
  std::string group_key;  // signature_hash; "" for a manual report
  std::string identity;   // grouping_v3_key; "" when none
  int64_t at = 1000;      // seen_at
};

class StoreFixture {
 public:
  explicit StoreFixture(const std::vector<std::string>& project_ids);
  ~StoreFixture();

  // Runs `fn` in a write transaction; fails the test unless it succeeds.
  void Write(const std::function<Status(store::Connection&)>& fn);
  // Runs `fn` in a read transaction; fails the test unless it succeeds.
  void Read(const std::function<Status(store::Connection&)>& fn);
  // Inserts kStoreOtherOrg with the project kStoreOtherProject.
  void AddOtherOrganization();
  // The first column of the first row of `sql`, as an integer (-1 when no
  // row) or as text ("" when no row).
  int64_t Int(const std::string& sql, const std::vector<store::Value>& params = {});
  std::string Text(const std::string& sql, const std::vector<store::Value>& params = {});
  // "00000000-0000-7000-8000-000000000101", "...102", ...
  std::string Id();
  // Creates `bug` through the capture repository; returns its id.
  std::string AddBug(const StoreBug& bug);

  std::unique_ptr<store::Database> db;

 private:
  int next_ = 100;
};

}  // namespace service::testing
