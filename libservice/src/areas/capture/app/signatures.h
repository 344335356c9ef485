// Recomputing bug signatures with the current grouping rules (the
// superadmin's POST /v1/admin/backfill-signatures): each bug's stored
// signature "<errorType>:<normalizedMessage>" is normalized and hashed again
// by domain::capture::ComputeFingerprint, the rule ingest applies, and
// written back (signature, hash, groupKey) where it changed. Manual reports
// (no signature) and client fingerprints (signature "custom...": their hash
// covers text that is not stored) are left as they are.
//
// A large database is done in steps: each call handles at most `limit` bugs
// in id order after `cursor`, in one transaction, and answers the cursor of
// the next step (absent: done).
//
// Thread-safety: safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "areas/capture/ports/signature_repository.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"

namespace service::app::capture {

struct SignatureDeps {
  ports::Transactions* db = nullptr;
  ports::SignatureRepository* signatures = nullptr;
  Clock* clock = nullptr;
};

inline constexpr int64_t kBackfillDefaultLimit = 500;
inline constexpr int64_t kBackfillMaxLimit = 5000;

struct BackfillInput {
  std::optional<std::string> project_id;
  std::string cursor;  // the last bug id of the previous step; "": from the start
  int64_t limit = kBackfillDefaultLimit;
};
struct BackfillResult {
  int64_t scanned = 0;
  int64_t updated = 0;
  int64_t unchanged = 0;
  int64_t skipped = 0;  // manual reports and client fingerprints
  std::optional<std::string> next_cursor;
};
Result<BackfillResult> BackfillSignatures(const SignatureDeps& deps, const BackfillInput& in);

}  // namespace service::app::capture
