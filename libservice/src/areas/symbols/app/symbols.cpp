#include "areas/symbols/app/symbols.h"

#include <boost/json.hpp>
#include <memory>
#include <optional>

#include "areas/symbols/domain/symbols.h"
#include "util/strings.h"

namespace service::app::symbols {
namespace {

namespace json = boost::json;
namespace ds = domain::symbols;

Status Validation(json::array details) {
  return Status(Code::kInvalidArgument, "Validation failed", "VALIDATION_ERROR",
                json::serialize(json::object{{"details", std::move(details)}}));
}
Status NotFound(const char* what, const char* code) { return Status(Code::kNotFound, what, code); }
Status StorageUnavailable() {
  return Status::Public(Code::kUnavailable, "Symbol storage is not configured", kStorageUnavailable);
}

bool IsLowerOrUpperHex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

bool ValidName(std::string_view s) {
  // Valid UTF-8: the name is stored as text (PostgreSQL refuses other bytes)
  // and answered in JSON.
  if (s.size() > 255 || !util::IsValidUtf8(s)) return false;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || c == '/' || c == '\\') return false;
  }
  return true;
}

// Random access over a stored blob, whose reader only goes forward: reads
// ahead by skipping, reopens for a backward read (the parsers read a few
// regions, mostly in file order).
class BlobFileBytes final : public ds::FileBytes {
 public:
  BlobFileBytes(ports::BlobStore& store, std::string key, uint64_t size)
      : store_(store), key_(std::move(key)), size_(size) {}
  uint64_t size() const override { return size_; }
  Read ReadAt(uint64_t offset, size_t n, std::string* out) override {
    if (!reader_ || offset < pos_) {
      Result<std::unique_ptr<ports::BlobReader>> opened = store_.Open(key_);
      if (!opened.ok()) {
        missing_ = opened.status().code() == Code::kNotFound;
        return Read::kError;
      }
      reader_ = std::move(*opened);
      pos_ = 0;
    }
    char buf[64 * 1024];
    while (pos_ < offset) {
      const int64_t got =
          reader_->Read(buf, static_cast<size_t>(std::min<uint64_t>(sizeof(buf), offset - pos_)));
      if (got <= 0) return Fail();
      pos_ += static_cast<uint64_t>(got);
    }
    out->resize(n);
    size_t at = 0;
    while (at < n) {
      const int64_t got = reader_->Read(out->data() + at, n - at);
      if (got <= 0) return Fail();
      at += static_cast<size_t>(got);
    }
    pos_ += n;
    return Read::kOk;
  }
  bool missing() const { return missing_; }

 private:
  Read Fail() {
    reader_.reset();
    return Read::kError;
  }
  ports::BlobStore& store_;
  std::string key_;
  uint64_t size_;
  std::unique_ptr<ports::BlobReader> reader_;
  uint64_t pos_ = 0;
  bool missing_ = false;
};

}  // namespace

Result<PublishOutcome> Publish(const SymbolsDeps& deps, const std::string& org_id,
                               const std::string& token_id, const PublishInput& in, ports::ByteSource& body,
                               uint64_t body_size) {
  json::array details;
  const auto bad = [&](const char* field, const char* message) {
    details.push_back(json::object{{"field", field}, {"message", message}});
  };
  if (!util::IsUuid(in.project_id)) bad("projectId", "must be a UUID");
  if (!util::IsUuid(in.build_id)) bad("buildId", "must be a UUID");
  if (in.application_id.empty()) {
    bad("applicationId", "is required");
  } else if (!util::IsUuid(in.application_id)) {
    bad("applicationId", "must be a UUID");
  }
  if (in.sha256.empty()) {
    bad("sha256", "is required");
  } else if (in.sha256.size() != 64 || !IsLowerOrUpperHex(in.sha256)) {
    bad("sha256", "must be 64 hexadecimal characters");
  }
  if (!ValidName(in.name)) bad("name", "must be at most 255 bytes of printable UTF-8 without / or \\");
  if (!in.debug_id.empty() && ds::NormalizeDebugId(in.debug_id).empty()) {
    bad("debugId", "must be 16 to 128 hexadecimal digits (hyphens allowed)");
  }
  if (!in.arch.empty() && !ds::KnownArchitecture(in.arch)) bad("arch", "is not a known architecture");
  if (body_size == 0) bad("body", "must not be empty");
  if (body_size > kMaxSymbolFileBytes) bad("body", "is larger than the limit");
  if (!details.empty()) return Validation(std::move(details));

  const std::string project_id = util::ToLower(in.project_id);
  const std::string build_id = util::ToLower(in.build_id);
  const std::string application_id = util::ToLower(in.application_id);
  const std::string sha256 = util::ToLower(in.sha256);

  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto app, deps.directory->FindApplication(tx, org_id, project_id, application_id));
    if (!app) return NotFound("Application not found", "APPLICATION_NOT_FOUND");
    SV_ASSIGN_OR_RETURN(auto build, deps.directory->FindBuild(tx, org_id, project_id, build_id));
    if (!build || build->application_id != application_id)
      return NotFound("Build not found", "BUILD_NOT_FOUND");
    return Status::Ok();
  }));
  if (deps.blobs == nullptr) return StorageUnavailable();

  // The bytes first (outside any transaction): checked against the declared
  // length and digest, stored once per content.
  Result<ports::BlobRef> put = deps.blobs->Put(body, body_size, sha256);
  if (!put.ok()) {
    if (put.status().error_code() == ports::kBlobMismatch) {
      return Status(Code::kInvalidArgument, "The body is not the declared length or SHA-256", kMismatch);
    }
    return put.status();
  }

  PublishOutcome out;
  out.file.id = deps.ids->NewId();
  out.file.org_id = org_id;
  out.file.project_id = project_id;
  out.file.application_id = application_id;
  out.file.build_id = build_id;
  out.file.name = in.name;
  out.file.byte_count = body_size;
  out.file.sha256 = sha256;
  out.file.storage_key = put->key;
  out.file.declared_debug_id = in.debug_id.empty() ? std::string() : ds::NormalizeDebugId(in.debug_id);
  out.file.declared_arch = in.arch;
  out.file.state = "pending";
  out.file.uploaded_by = token_id;
  out.file.created_at = deps.Now();
  Status st = deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto existing, deps.files->FindByDigest(tx, org_id, build_id, sha256));
    if (existing) {
      out.file = std::move(*existing);
      out.created = false;
      return Status::Ok();
    }
    return deps.files->Insert(tx, out.file);
  });
  if (st.code() == Code::kConflict) {
    // Another request stored the same bytes for this build meanwhile.
    SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto existing, deps.files->FindByDigest(tx, org_id, build_id, sha256));
      if (!existing) return Status(Code::kInternal, "symbol file vanished after a conflict");
      out.file = std::move(*existing);
      out.created = false;
      return Status::Ok();
    }));
    return out;
  }
  SV_RETURN_IF_ERROR(st);
  return out;
}

Result<FilePage> ListForBuild(const SymbolsDeps& deps, const std::string& org_id,
                              const std::string& project_id, const std::string& build_id, int64_t limit,
                              int64_t offset) {
  json::array details;
  if (!util::IsUuid(project_id))
    details.push_back(json::object{{"field", "projectId"}, {"message", "must be a UUID"}});
  if (!util::IsUuid(build_id))
    details.push_back(json::object{{"field", "buildId"}, {"message", "must be a UUID"}});
  if (limit < 1 || limit > 100) {
    details.push_back(json::object{{"field", "limit"}, {"message", "must be between 1 and 100"}});
  }
  if (offset < 0 || offset > 10000) {
    details.push_back(json::object{{"field", "offset"}, {"message", "must be between 0 and 10000"}});
  }
  if (!details.empty()) return Validation(std::move(details));
  const std::string project = util::ToLower(project_id);
  const std::string build = util::ToLower(build_id);
  FilePage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto found, deps.directory->FindBuild(tx, org_id, project, build));
    if (!found) return NotFound("Build not found", "BUILD_NOT_FOUND");
    SV_ASSIGN_OR_RETURN(page.files, deps.files->ListForBuild(tx, org_id, project, build, limit, offset));
    SV_ASSIGN_OR_RETURN(page.total, deps.files->CountForBuild(tx, org_id, project, build));
    return Status::Ok();
  }));
  return page;
}

Result<ports::SymbolFileRow> GetFile(const SymbolsDeps& deps, const std::string& org_id,
                                     const std::string& project_id, const std::string& file_id) {
  if (!util::IsUuid(file_id) || !util::IsUuid(project_id)) {
    return NotFound("Symbol file not found", "SYMBOL_FILE_NOT_FOUND");
  }
  std::optional<ports::SymbolFileRow> found;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(found, deps.files->Find(tx, org_id, util::ToLower(file_id)));
    return Status::Ok();
  }));
  if (!found || found->project_id != util::ToLower(project_id)) {
    return NotFound("Symbol file not found", "SYMBOL_FILE_NOT_FOUND");
  }
  return std::move(*found);
}

Result<int64_t> VerifyPending(const SymbolsDeps& deps) {
  if (deps.blobs == nullptr) return int64_t{0};  // nothing can have been stored
  std::vector<ports::SymbolFileRow> pending;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(pending, deps.files->Pending(tx, kVerifyBatch));
    return Status::Ok();
  }));
  int64_t finished = 0;
  for (const ports::SymbolFileRow& f : pending) {
    BlobFileBytes bytes(*deps.blobs, f.storage_key, f.byte_count);
    ds::Identification id = ds::Identify(bytes);
    std::string state = "ready";
    std::string reason;
    std::vector<ports::SymbolSliceRow> slices;
    if (id.outcome == ds::Identification::Outcome::kStorageError) {
      if (!bytes.missing()) {
        if (deps.log)
          deps.log->Log(LogLevel::kWarning, "symbol file unreadable, retried later", {{"fileId", f.id}});
        continue;
      }
      state = "rejected";
      reason = std::string(ds::kReasonContentMissing);
    } else if (id.outcome == ds::Identification::Outcome::kRefused) {
      state = "rejected";
      reason = id.reason;
    } else {
      const std::string_view mismatch = ds::CheckDeclared(id.slices, f.declared_debug_id, f.declared_arch);
      if (!mismatch.empty()) {
        state = "rejected";
        reason = std::string(mismatch);
      }
      // What was read is kept either way (it tells the publisher what the
      // file is).
      for (const ds::Slice& s : id.slices) slices.push_back({s.arch, s.debug_id});
    }
    bool done = false;
    SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(done, deps.files->Finish(tx, f.id, state, id.format, reason, slices, deps.Now()));
      return Status::Ok();
    }));
    if (done) ++finished;
  }
  return finished;
}

}  // namespace service::app::symbols
