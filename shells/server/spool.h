// SpoolFile: a request body written to a temporary file while it arrives, for
// routes whose BodyPolicy says `spooled` (large uploads). The body is never
// held whole in memory: each piece the transport reads is written out, and
// the finished file becomes the request's api::BodySource.
//
// The file ("<dir>/upload-XXXXXX", mode 0600) is removed when the SpoolFile
// is destroyed before Finish (the peer went away, the body was too large),
// or later when the body source is destroyed (the request ended), unless the
// handler took the file (BodySource::Keep after renaming it).
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "service/http.h"

namespace service::shell {

class SpoolFile {
 public:
  // Creates the file in `dir` (created when missing; "": the system's
  // temporary folder). Null with `error` filled on failure.
  static std::unique_ptr<SpoolFile> Create(const std::string& dir, std::string* error);
  ~SpoolFile();
  SpoolFile(const SpoolFile&) = delete;
  SpoolFile& operator=(const SpoolFile&) = delete;

  // Appends `n` bytes. False on a write error (the disk is full...).
  bool Write(const char* data, size_t n);
  uint64_t size() const { return size_; }
  // The complete body, read from its first byte. The SpoolFile is empty
  // afterwards (the source owns the file).
  std::shared_ptr<api::BodySource> Finish();

 private:
  SpoolFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
  uint64_t size_ = 0;
};

}  // namespace service::shell
