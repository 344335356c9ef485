#include "areas/sourcemaps/app/sourcemaps.h"

#include <algorithm>
#include <map>
#include <set>

#include "util/crypto.h"
#include "util/decompress.h"
#include "util/strings.h"

namespace service::app::sourcemaps {
namespace {

namespace dsm = domain::sourcemaps;

Status StorageUnavailable() {
  return Status::Public(Code::kUnavailable, "Source map storage is not configured", kStorageUnavailable);
}

// Reads a whole blob of at most `max` bytes.
Result<std::string> ReadBlob(ports::BlobStore& blobs, const std::string& key, uint64_t max) {
  SV_ASSIGN_OR_RETURN(std::unique_ptr<ports::BlobReader> reader, blobs.Open(key));
  if (reader->size() > max) return Status(Code::kInvalidArgument, "stored blob larger than expected");
  std::string out(reader->size(), '\0');
  size_t at = 0;
  while (at < out.size()) {
    const int64_t got = reader->Read(out.data() + at, out.size() - at);
    if (got <= 0) return Status(Code::kInternal, "short read of a stored blob");
    at += static_cast<size_t>(got);
  }
  return out;
}

AssembleOutcome Error(std::string detail) { return AssembleOutcome{"error", {}, std::move(detail)}; }
AssembleOutcome Ok() { return AssembleOutcome{"ok", {}, ""}; }

}  // namespace

Status RequireStorage(const SourcemapsDeps& deps) {
  return deps.blobs == nullptr ? StorageUnavailable() : Status::Ok();
}

Result<ports::SourcemapRepository::Target> ResolveTarget(const SourcemapsDeps& deps,
                                                         const std::string& org_id,
                                                         const std::vector<std::string>& refs) {
  ports::SourcemapRepository::Target out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.repo->ResolveTarget(tx, org_id, refs));
    return Status::Ok();
  }));
  return out;
}

Result<int64_t> UploadChunks(const SourcemapsDeps& deps, const std::string& org_id,
                             const std::vector<ChunkPart>& chunks) {
  SV_RETURN_IF_ERROR(RequireStorage(deps));
  std::vector<std::string> names;
  for (const ChunkPart& c : chunks) {
    if (!dsm::IsSha1Hex(c.sha1))
      return Status(Code::kInvalidArgument, "a chunk's file name must be its SHA-1 (40 hex digits)");
    names.push_back(util::ToLower(c.sha1));
  }
  std::set<std::string> known;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::vector<ports::SourcemapChunk> found, deps.repo->FindChunks(tx, org_id, names));
    for (const auto& c : found) known.insert(c.sha1);
    return Status::Ok();
  }));
  std::vector<ports::SourcemapChunk> fresh;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (known.count(names[i])) continue;  // deduplicated: the organization has it
    std::string inflated;
    std::string_view bytes = chunks[i].data;
    if (chunks[i].gzip) {
      Result<std::string> out = util::Decompress(bytes, util::Encoding::kGzip, kChunkSize);
      if (!out.ok()) {
        return Status(Code::kInvalidArgument, out.status().code() == Code::kPayloadTooLarge
                                                  ? "a chunk is larger than the chunk size (8 MiB)"
                                                  : "a chunk is not valid gzip data");
      }
      inflated = std::move(*out);
      bytes = inflated;
    }
    if (bytes.size() > kChunkSize)
      return Status(Code::kInvalidArgument, "a chunk is larger than the chunk size (8 MiB)");
    if (dsm::Sha1Hex(bytes) != names[i])
      return Status(Code::kInvalidArgument, "chunk " + names[i] + " does not match its SHA-1");
    const std::string sha256 = util::Sha256Hex(bytes);
    ports::StringByteSource source(bytes);
    SV_ASSIGN_OR_RETURN(ports::BlobRef ref, deps.blobs->Put(source, bytes.size(), sha256));
    fresh.push_back({names[i], bytes.size(), ref.key});
    known.insert(names[i]);
  }
  if (fresh.empty()) return int64_t{0};
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    for (const auto& c : fresh) SV_RETURN_IF_ERROR(deps.repo->InsertChunk(tx, org_id, c, deps.Now()));
    return Status::Ok();
  }));
  return static_cast<int64_t>(fresh.size());
}

Result<AssembleOutcome> Assemble(const SourcemapsDeps& deps, const std::string& org_id,
                                 const std::string& token_id, const AssembleInput& in) {
  SV_RETURN_IF_ERROR(RequireStorage(deps));
  const std::string checksum = util::ToLower(in.checksum);
  std::vector<std::string> chunk_names;
  for (const auto& c : in.chunks) chunk_names.push_back(util::ToLower(c));

  std::vector<std::string> needed;  // projects without this bundle for this release and dist
  std::optional<ports::SourcemapBundleRow> existing;
  std::map<std::string, ports::SourcemapChunk> chunks;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    for (const std::string& p : in.project_ids) {
      SV_ASSIGN_OR_RETURN(bool has, deps.repo->HasBundle(tx, org_id, p, checksum, in.release, in.dist));
      if (!has) needed.push_back(p);
    }
    if (needed.empty()) return Status::Ok();
    SV_ASSIGN_OR_RETURN(existing, deps.repo->FindByChecksum(tx, org_id, checksum));
    if (existing) return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::vector<ports::SourcemapChunk> found,
                        deps.repo->FindChunks(tx, org_id, chunk_names));
    for (auto& c : found) chunks.emplace(c.sha1, std::move(c));
    return Status::Ok();
  }));
  if (needed.empty()) return Ok();

  std::string bytes;
  if (existing) {
    Result<std::string> read = ReadBlob(*deps.blobs, existing->storage_key, kMaxBundleBytes);
    if (!read.ok()) {
      if (read.status().code() != Code::kNotFound) return read.status();
      existing.reset();  // the bytes are gone: assemble from chunks again
      SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
        SV_ASSIGN_OR_RETURN(std::vector<ports::SourcemapChunk> found,
                            deps.repo->FindChunks(tx, org_id, chunk_names));
        for (auto& c : found) chunks.emplace(c.sha1, std::move(c));
        return Status::Ok();
      }));
    } else {
      bytes = std::move(*read);
    }
  }
  if (!existing) {
    if (chunk_names.empty()) return Error("the bundle names no chunks");
    AssembleOutcome missing{"not_found", {}, ""};
    std::set<std::string> listed;
    uint64_t total = 0;
    for (const auto& name : chunk_names) {
      auto it = chunks.find(name);
      if (it == chunks.end()) {
        if (listed.insert(name).second) missing.missing_chunks.push_back(name);
      } else {
        total += it->second.byte_count;
      }
    }
    if (!missing.missing_chunks.empty()) return missing;
    if (total > kMaxBundleBytes) return Error("the bundle is larger than 64 MiB");
    bytes.reserve(total);
    for (const auto& name : chunk_names) {
      Result<std::string> part = ReadBlob(*deps.blobs, chunks.at(name).storage_key, kChunkSize);
      if (!part.ok() && part.status().code() == Code::kNotFound) {
        // The row outlived its bytes (a sweep raced an upload): forgotten,
        // so the CLI's next upload of it stores it again.
        SV_RETURN_IF_ERROR(deps.db->Write(
            [&](ports::Tx& tx) -> Status { return deps.repo->DeleteChunk(tx, org_id, name); }));
        return AssembleOutcome{"not_found", {name}, ""};
      }
      if (!part.ok()) return part.status();
      bytes += *part;
    }
    if (dsm::Sha1Hex(bytes) != checksum) return Error("the assembled bundle does not match its checksum");
  }

  Result<dsm::Bundle> parsed = dsm::ParseBundle(bytes);
  if (!parsed.ok()) {
    if (parsed.status().code() == Code::kInvalidArgument) return Error(parsed.status().message());
    return parsed.status();
  }
  for (const auto& f : parsed->files) {
    if (f.size > kMaxFileBytes) return Error("the file " + f.url + " is larger than 64 MiB");
  }

  ports::SourcemapBundleRow row;
  if (existing) {
    row.byte_count = existing->byte_count;
    row.sha256 = existing->sha256;
    row.storage_key = existing->storage_key;
  } else {
    const std::string sha256 = util::Sha256Hex(bytes);
    ports::StringByteSource source(bytes);
    SV_ASSIGN_OR_RETURN(ports::BlobRef ref, deps.blobs->Put(source, bytes.size(), sha256));
    row.byte_count = bytes.size();
    row.sha256 = sha256;
    row.storage_key = ref.key;
  }
  row.org_id = org_id;
  row.checksum = checksum;
  row.bundle_id = parsed->bundle_id;
  row.release = in.release;
  row.dist = in.dist;
  row.file_count = static_cast<int64_t>(parsed->files.size());
  row.uploaded_by = token_id;
  row.created_at = deps.Now();
  std::vector<ports::SourcemapFileRow> files;
  int64_t position = 0;
  for (const auto& f : parsed->files) {
    ports::SourcemapFileRow r;
    r.position = position++;
    r.path = f.path;
    r.url = f.url;
    r.url_path = f.url_path;
    r.file_type = f.type;
    r.debug_id = f.debug_id;
    r.sourcemap = f.sourcemap;
    r.method = f.method;
    r.data_offset = f.data_offset;
    r.compressed_size = f.compressed_size;
    r.byte_count = f.size;
    r.crc32 = f.crc32;
    files.push_back(std::move(r));
  }
  Status written = deps.db->Write([&](ports::Tx& tx) -> Status {
    for (const std::string& p : needed) {
      SV_ASSIGN_OR_RETURN(bool has, deps.repo->HasBundle(tx, org_id, p, checksum, in.release, in.dist));
      if (has) continue;  // a concurrent assemble of the same call won
      ports::SourcemapBundleRow b = row;
      b.id = deps.ids->NewId();
      b.project_id = p;
      SV_RETURN_IF_ERROR(deps.repo->InsertBundle(tx, b, files));
    }
    return Status::Ok();
  });
  // kConflict: a concurrent assemble of the same bundle, release and dist
  // committed first (PostgreSQL) and this transaction rolled back whole:
  // "assembling" makes `sentry-cli --wait` ask again, and the next call
  // writes what is still missing.
  if (!written.ok() && written.code() == Code::kConflict) return AssembleOutcome{"assembling", {}, ""};
  if (!written.ok()) return written;
  if (deps.on_stored) {
    for (const std::string& p : needed) deps.on_stored(p);
  }
  return Ok();
}

Result<int64_t> ForgetOldChunks(const SourcemapsDeps& deps) {
  if (deps.blobs == nullptr) return int64_t{0};
  std::vector<std::pair<std::string, ports::SourcemapChunk>> old;
  std::vector<std::string> unused;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(old, deps.repo->OldChunks(tx, deps.Now() - kChunkTtlMs, kChunkSweepBatch));
    for (const auto& [org, chunk] : old) SV_RETURN_IF_ERROR(deps.repo->DeleteChunk(tx, org, chunk.sha1));
    std::set<std::string> keys;
    for (const auto& [org, chunk] : old) keys.insert(chunk.storage_key);
    for (const std::string& key : keys) {
      SV_ASSIGN_OR_RETURN(bool in_use, deps.repo->StorageKeyInUse(tx, key));
      if (!in_use) unused.push_back(key);
    }
    return Status::Ok();
  }));
  // After the commit: a blob another organization's upload recorded since
  // is found missing at its assembly, which forgets its row (above).
  for (const std::string& key : unused) {
    const Status st = deps.blobs->Delete(key);
    if (!st.ok() && st.code() != Code::kNotFound) return st;
  }
  return static_cast<int64_t>(old.size());
}

Result<BundlePage> ListBundles(const SourcemapsDeps& deps, const std::string& org_id,
                               const std::string& project_id, int64_t limit, int64_t offset) {
  BundlePage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(page.bundles, deps.repo->ListBundles(tx, org_id, project_id, limit, offset));
    SV_ASSIGN_OR_RETURN(page.total, deps.repo->CountBundles(tx, org_id, project_id));
    return Status::Ok();
  }));
  return page;
}

Result<BundleWithFiles> GetBundle(const SourcemapsDeps& deps, const std::string& org_id,
                                  const std::string& project_id, const std::string& id) {
  BundleWithFiles out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(auto b, deps.repo->FindBundle(tx, org_id, project_id, util::ToLower(id)));
    if (!b) return Status(Code::kNotFound, "Source map bundle not found", "SOURCEMAP_BUNDLE_NOT_FOUND");
    out.bundle = std::move(*b);
    SV_ASSIGN_OR_RETURN(out.files, deps.repo->ListFiles(tx, out.bundle.id));
    return Status::Ok();
  }));
  return out;
}

Result<std::vector<ports::SourcemapDebugId>> ListDebugIds(const SourcemapsDeps& deps,
                                                          const std::string& org_id,
                                                          const std::string& project_id, int64_t limit,
                                                          int64_t offset) {
  std::vector<ports::SourcemapDebugId> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.repo->ListDebugIds(tx, org_id, project_id, limit, offset));
    return Status::Ok();
  }));
  return out;
}

Result<std::vector<ports::SourcemapRelease>> ListReleases(const SourcemapsDeps& deps,
                                                          const std::string& org_id,
                                                          const std::string& project_id, int64_t limit,
                                                          int64_t offset) {
  std::vector<ports::SourcemapRelease> out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.repo->ListReleases(tx, org_id, project_id, limit, offset));
    return Status::Ok();
  }));
  return out;
}

Result<std::string> ReadFile(const SourcemapsDeps& deps, const ports::SourcemapFileRow& file) {
  SV_RETURN_IF_ERROR(RequireStorage(deps));
  SV_ASSIGN_OR_RETURN(std::unique_ptr<ports::BlobReader> reader, deps.blobs->Open(file.storage_key));
  if (file.data_offset + file.compressed_size > reader->size())
    return Status(Code::kInvalidArgument, "the file lies past the end of its bundle");
  char skip[64 * 1024];
  uint64_t pos = 0;
  while (pos < file.data_offset) {
    const int64_t got =
        reader->Read(skip, static_cast<size_t>(std::min<uint64_t>(sizeof(skip), file.data_offset - pos)));
    if (got <= 0) return Status(Code::kInternal, "short read of a stored bundle");
    pos += static_cast<uint64_t>(got);
  }
  std::string stored(file.compressed_size, '\0');
  size_t at = 0;
  while (at < stored.size()) {
    const int64_t got = reader->Read(stored.data() + at, stored.size() - at);
    if (got <= 0) return Status(Code::kInternal, "short read of a stored bundle");
    at += static_cast<size_t>(got);
  }
  dsm::BundleFile f;
  f.method = static_cast<int>(file.method);
  f.compressed_size = file.compressed_size;
  f.size = file.byte_count;
  f.crc32 = file.crc32;
  return dsm::InflateFile(stored, f, kMaxFileBytes);
}

}  // namespace service::app::sourcemaps
