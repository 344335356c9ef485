// The filesystem BlobStore (ports/blob_store.h) under one folder
// (SERVICE_EVIDENCE_DIR):
//
//   <dir>/blobs/<first two hex digits>/<sha256 hex>   stored blobs (mode 0600)
//   <dir>/tmp/put-*.part                             Puts in progress
//
// A key is "sha256/<64 lower-case hex>"; the file name comes from the
// validated digest only, so no input ever names a path. Put writes the
// bytes to a new file in tmp/ (O_EXCL), hashing them as they pass, then
// fsyncs it, renames it onto its final name (atomic: a reader sees the old
// blob or the whole new one) and fsyncs the folder. A failed Put removes its
// temporary file; one left by a crash is never visible under a key and is
// removed by Open of the store once it is an hour old (younger ones may be
// another process's Put in progress; the transports' spool files in tmp/
// have other names and are left alone).
//
// Thread-safety: as the port; the store keeps no mutable state but the
// folder.
#pragma once

#include <memory>
#include <string>

#include "ports/blob_store.h"
#include "service/status.h"

namespace service::adapters {

// Creates `dir`, `dir/blobs` and `dir/tmp` when missing (mode 0700) and
// removes stale temporary files of Puts. kInternal when the folders cannot
// be made or written (the message names `dir`, never more).
Result<std::unique_ptr<ports::BlobStore>> OpenFsBlobStore(const std::string& dir);

// Chunk size of reads and writes (64 KiB).
inline constexpr size_t kBlobChunkBytes = 64 * 1024;

}  // namespace service::adapters
