// Symbol publishing use cases (issue 30 item 5; Spec 2 "Symbol publishing").
//
// Publish stores one symbol file of an existing application build: the
// bytes go to the blob store (checked against the declared length and
// SHA-256), the row is `pending`. Nothing uses a pending file. The verifier
// (VerifyPending, a worker task) reads each pending file itself
// (domain/symbols: ELF build id and machine, Mach-O LC_UUID and CPU type,
// thin and fat) and moves it to `ready`, or to `rejected` with a reason
// (another format, truncated or malformed headers, no identifier, an
// unsupported architecture, or a declared debug id or architecture that is
// not what the file says).
//
// Who may call is the routes' business (an agent token with
// publish_symbols and a grant for the project: api/symbols_routes.cpp);
// the use cases get the organization and the token's id.
//
// Failures (Status, error_code):
//   kInvalidArgument VALIDATION_ERROR {details}: bad input;
//                    SYMBOLS_MISMATCH: the body is not the declared
//                    length or SHA-256 (nothing stored)
//   kNotFound        APPLICATION_NOT_FOUND, BUILD_NOT_FOUND (also another
//                    project's or organization's)
//   kUnavailable     storage_unavailable: SERVICE_EVIDENCE_DIR is unset
//
// Thread-safety: the functions are safe from any thread; the verifier runs
// on one worker thread (several processes may run it: Finish moves a row
// once).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "areas/applications/ports/application_directory.h"
#include "areas/symbols/ports/symbol_repository.h"
#include "ports/blob_store.h"
#include "ports/ids.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/logger.h"
#include "service/status.h"

namespace service::app::symbols {

// The largest symbol file (the route's body limit).
inline constexpr uint64_t kMaxSymbolFileBytes = 256ull * 1024 * 1024;
// Files the verifier reads per run, and how often it runs.
inline constexpr int64_t kVerifyBatch = 20;
inline constexpr int64_t kVerifyIntervalMs = 2'000;

inline constexpr const char* kPublishScope = "publish_symbols";
inline constexpr const char* kStorageUnavailable = "storage_unavailable";
inline constexpr const char* kMismatch = "SYMBOLS_MISMATCH";

struct SymbolsDeps {
  ports::Transactions* db = nullptr;
  Clock* clock = nullptr;
  ports::Ids* ids = nullptr;
  ports::SymbolRepository* files = nullptr;
  ports::ApplicationDirectory* directory = nullptr;
  ports::BlobStore* blobs = nullptr;  // null: storage not configured
  Logger* log = nullptr;

  int64_t Now() const { return clock->NowMillis(); }
};

// The query of a publish call, as sent.
struct PublishInput {
  std::string project_id;
  std::string build_id;
  std::string application_id;
  std::string sha256;
  std::string name;      // optional
  std::string debug_id;  // optional: the identifier the publisher expects
  std::string arch;      // optional: the architecture the publisher expects
};

struct PublishOutcome {
  ports::SymbolFileRow file;
  bool created = true;  // false: this build already had these bytes (the same row)
};

// Validates `in` (ids are UUIDs, sha256 64 hex characters, name at most 255
// printable characters without '/' or '\\', debugId hex (hyphens allowed)
// of 16-128 digits, arch one of the known names) and the body's size (1 to
// kMaxSymbolFileBytes), checks the build belongs to the application in the
// project, stores the bytes and inserts the pending row. The same bytes for
// the same build again answer the existing row (created false).
Result<PublishOutcome> Publish(const SymbolsDeps& deps, const std::string& org_id,
                               const std::string& token_id, const PublishInput& in, ports::ByteSource& body,
                               uint64_t body_size);

struct FilePage {
  std::vector<ports::SymbolFileRow> files;
  int64_t total = 0;
};
// The symbol files of a build (404 BUILD_NOT_FOUND when the build is not
// the project's), oldest first; limit 1-100, offset 0-10000.
Result<FilePage> ListForBuild(const SymbolsDeps& deps, const std::string& org_id,
                              const std::string& project_id, const std::string& build_id, int64_t limit,
                              int64_t offset);

// One symbol file of the project (404 SYMBOL_FILE_NOT_FOUND otherwise).
Result<ports::SymbolFileRow> GetFile(const SymbolsDeps& deps, const std::string& org_id,
                                     const std::string& project_id, const std::string& file_id);

// One verifier run: reads up to kVerifyBatch pending files and finishes
// them. Returns how many it finished. A file whose bytes cannot be read
// now (a storage error) stays pending for the next run.
Result<int64_t> VerifyPending(const SymbolsDeps& deps);

}  // namespace service::app::symbols
