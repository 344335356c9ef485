// BlobStore: content-addressed storage of opaque byte strings (evidence files,
// symbol files) kept outside the database.
//
// A blob is named by a key derived ONLY from its SHA-256 digest (never from a
// file name, id or anything else a client sent), so the same bytes stored
// twice are one blob, and a key can never name a path outside the store.
// Keys are storage details: they are kept in rows but never shown to
// clients.
//
// Put streams the bytes from a ByteSource into a temporary file, hashing as
// it copies, checks the length and the digest the caller expected, flushes
// the file to disk (fsync) and only then renames it to its final name (and
// fsyncs the folder). A crash or a failed check therefore never leaves a
// half-written blob visible under a key: either the whole blob is there or
// nothing is. Putting bytes that are already stored is harmless (the bytes
// are still read and checked; one blob remains).
//
// Reads are streamed: Open returns a reader that yields the blob in chunks,
// so a large blob is never held whole in memory.
//
// Deleting: Delete removes a blob; it does not know who else refers to the
// same key (content addressing shares blobs), so callers decide when a key
// is no longer referenced (e.g. the evidence area's sweep).
//
// Failures (Status codes):
//   kInvalidArgument  error_code kBlobMismatch: the bytes read were not
//                     `expected_size` long or their SHA-256 was not
//                     `expected_sha256` (nothing stored); error_code
//                     kBlobBadKey: a malformed key or digest text
//   kNotFound         Open of a key that is not stored
//   kInternal         the file system failed (full disk, permissions) or the
//                     source reported a read error (text for logs only)
//
// Thread-safety: every method may be called from any thread, concurrently,
// also for the same key (two Puts of the same bytes race harmlessly).
// A BlobReader is used by one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::ports {

// The error_code of a Put whose bytes were not the expected ones.
inline constexpr const char* kBlobMismatch = "BLOB_MISMATCH";
// The error_code of a malformed key or digest.
inline constexpr const char* kBlobBadKey = "BLOB_BAD_KEY";

// A stream of bytes read once, front to back (a request body, a spool file,
// a string in tests).
class ByteSource {
 public:
  ByteSource() = default;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;
  virtual ~ByteSource() = default;

  // Copies up to `n` bytes into `buf`: the number copied, 0 at the end, -1
  // on a read error.
  virtual int64_t Read(char* buf, size_t n) = 0;
};

// A ByteSource over a string held in memory (tests, small bodies).
class StringByteSource final : public ByteSource {
 public:
  explicit StringByteSource(std::string_view bytes) : bytes_(bytes) {}
  int64_t Read(char* buf, size_t n) override {
    const size_t take = n < bytes_.size() - pos_ ? n : bytes_.size() - pos_;
    for (size_t i = 0; i < take; ++i) buf[i] = bytes_[pos_ + i];
    pos_ += take;
    return static_cast<int64_t>(take);
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

// A stored blob's identity.
struct BlobRef {
  std::string key;     // derived from the digest; opaque to callers
  uint64_t size = 0;   // bytes
  std::string sha256;  // 64 lower-case hex characters
};

// One open blob, read front to back in chunks.
class BlobReader : public ByteSource {
 public:
  // The blob's length in bytes.
  virtual uint64_t size() const = 0;
};

class BlobStore {
 public:
  BlobStore() = default;
  BlobStore(const BlobStore&) = delete;
  BlobStore& operator=(const BlobStore&) = delete;
  virtual ~BlobStore() = default;

  // The key a blob with this SHA-256 (64 hex characters, any case) is
  // stored under; kInvalidArgument (kBlobBadKey) for anything else. Lets a
  // caller record the key before the bytes arrive.
  virtual Result<std::string> KeyFor(std::string_view sha256_hex) const = 0;

  // Reads `source` to its end and stores the bytes when they are exactly
  // `expected_size` long and hash to `expected_sha256` (hex, any case);
  // otherwise stores nothing (kInvalidArgument, kBlobMismatch). Reading
  // stops as soon as more than `expected_size` bytes arrived.
  virtual Result<BlobRef> Put(ByteSource& source, uint64_t expected_size,
                              std::string_view expected_sha256) = 0;

  // A reader over the stored blob `key`; kNotFound when absent.
  virtual Result<std::unique_ptr<BlobReader>> Open(std::string_view key) = 0;

  // Whether `key` is stored.
  virtual Result<bool> Exists(std::string_view key) = 0;

  // Removes the blob `key`; OK also when it was not stored. A reader
  // already open keeps reading the old bytes.
  virtual Status Delete(std::string_view key) = 0;
};

// How areas reach the store: the evidence area's Provide shares one
// SharedBlobStore (Platform::Shared<ports::SharedBlobStore>()), whose
// `store` is null when SERVICE_EVIDENCE_DIR is unset (evidence and symbol
// routes then answer 503). Areas above evidence in area_list.cpp may read it
// in their Open; the evidence sweeper deletes every blob of it no evidence
// artifact holds, so an area keeping bytes of its own opens a store of its
// own (symbols: SERVICE_EVIDENCE_DIR/symbols).
struct SharedBlobStore {
  std::unique_ptr<BlobStore> store;  // null: no storage configured
};

}  // namespace service::ports
