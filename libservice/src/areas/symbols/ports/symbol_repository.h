// SymbolRepository: the symbol files of builds (table symbol_files, one row
// per stored file) and what the verifier read from each (symbol_slices).
//
// States: `pending` (stored, not yet read: unusable), `ready` (the verifier
// read its format, architectures and identifiers and they match what was
// declared), `rejected` (with a reason). Only Finish moves a file out of
// pending, once.
//
// Every read is scoped by organization (another organization's id finds
// nothing). Failure: database errors; Insert of a second file with the same
// build and SHA-256 is kConflict.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"

namespace service::ports {

struct SymbolSliceRow {
  std::string arch;
  std::string debug_id;
};

struct SymbolFileRow {
  std::string id;
  std::string org_id;
  std::string project_id;
  std::string application_id;
  std::string build_id;
  std::string name;  // as the publisher named it ("" when none)
  uint64_t byte_count = 0;
  std::string sha256;             // lower-case hex
  std::string storage_key;        // the blob's key: never shown
  std::string declared_debug_id;  // normalized, "" when none
  std::string declared_arch;      // "" when none
  std::string state;              // pending | ready | rejected
  std::string format;             // elf | macho once read; "" before
  std::string reason;             // rejected: the reason
  std::string uploaded_by;        // the agent token's id: never shown
  int64_t created_at = 0;
  std::optional<int64_t> processed_at;
  std::vector<SymbolSliceRow> slices;  // filled by Find and ListForBuild
};

class SymbolRepository {
 public:
  SymbolRepository() = default;
  SymbolRepository(const SymbolRepository&) = delete;
  SymbolRepository& operator=(const SymbolRepository&) = delete;
  virtual ~SymbolRepository() = default;

  // Inserts a pending file (slices ignored).
  virtual Status Insert(Tx& tx, const SymbolFileRow& row) = 0;
  // The file of `build_id` with this SHA-256, if stored.
  virtual Result<std::optional<SymbolFileRow>> FindByDigest(Tx& tx, const std::string& org_id,
                                                            const std::string& build_id,
                                                            const std::string& sha256) = 0;
  virtual Result<std::optional<SymbolFileRow>> Find(Tx& tx, const std::string& org_id,
                                                    const std::string& id) = 0;
  // The files of a build (in the project), oldest first (then by id), at
  // most `limit` after skipping `offset`; and how many there are.
  virtual Result<std::vector<SymbolFileRow>> ListForBuild(Tx& tx, const std::string& org_id,
                                                          const std::string& project_id,
                                                          const std::string& build_id, int64_t limit,
                                                          int64_t offset) = 0;
  virtual Result<int64_t> CountForBuild(Tx& tx, const std::string& org_id, const std::string& project_id,
                                        const std::string& build_id) = 0;
  // Pending files across organizations, oldest first (the verifier's queue).
  virtual Result<std::vector<SymbolFileRow>> Pending(Tx& tx, int64_t limit) = 0;
  // Moves a pending file to `state` (ready or rejected) with what was read.
  // False when it was no longer pending (another verifier finished it).
  virtual Result<bool> Finish(Tx& tx, const std::string& id, const std::string& state,
                              const std::string& format, const std::string& reason,
                              const std::vector<SymbolSliceRow>& slices, int64_t now) = 0;
};

}  // namespace service::ports
