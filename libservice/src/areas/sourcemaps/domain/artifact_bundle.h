// Artifact bundles as `sentry-cli sourcemaps upload` builds them (issue 31
// item 1), and the pieces of Sentry's chunk-upload protocol that are pure
// rules: reading a bundle, its manifest and one of its files, and the
// multipart body of a chunk upload.
//
// A bundle is a ZIP archive, optionally behind the 8-byte header "SYSB" +
// a little-endian u32 version (what sentry-cli 3.x writes). Only the
// central directory is trusted for where entries are (the offsets are
// taken relative to where the archive starts, so any prefix works); each
// entry's local header gives where its data starts. Supported: methods 0
// (stored) and 8 (deflate), no encryption, no ZIP64, at most kMaxEntries
// entries. `manifest.json` is required:
//   {"files": {"<entry path>": {"url": "~/app.js", "type": "minified_source",
//              "headers": {"debug-id": "<uuid>", "sourcemap": "app.js.map"}}},
//    "debug_id": "<bundle id>", "org", "project", "release", "dist"}
// Every file the manifest names must be an entry of the archive; entries the
// manifest does not name (the manifest itself) are not files of the bundle.
//
// Failures are kInvalidArgument with a message meant for the uploader (the
// assemble answer's `detail`).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "service/status.h"

namespace service::domain::sourcemaps {

inline constexpr size_t kMaxEntries = 10'000;
inline constexpr size_t kMaxManifestBytes = 16u * 1024 * 1024;
inline constexpr size_t kMaxUrlBytes = 2'048;
inline constexpr size_t kMaxHeaderBytes = 2'048;

// One file of a bundle, with where its bytes are in the bundle.
struct BundleFile {
  std::string path;              // the entry's name in the archive ("files/_/_/app.js")
  std::string url;               // as the manifest says ("~/app.js")
  std::string url_path;          // the URL's path: "~" or scheme://host cut ("/app.js")
  std::string type;              // "minified_source", "source_map", "source", ...
  std::string debug_id;          // header "debug-id", NormalizeDebugId'd (resolve.h); "" when none or invalid
  std::string sourcemap;         // header "sourcemap" (the map's reference); "" when none
  int method = 0;                // 0 stored, 8 deflate
  uint64_t data_offset = 0;      // from the first byte of the bundle (header included)
  uint64_t compressed_size = 0;  // bytes at data_offset
  uint64_t size = 0;             // bytes once inflated
  uint32_t crc32 = 0;
};

struct Bundle {
  std::string bundle_id;  // the manifest's debug_id ("" when none)
  std::string release;    // the manifest's (the upload's own values win: app/)
  std::string dist;
  std::vector<BundleFile> files;  // in the manifest's order of names (sorted)
};

// Reads the archive's directory and manifest (only the manifest is
// inflated).
Result<Bundle> ParseBundle(std::string_view bytes);

// The bytes of one file: `stored` is the compressed_size bytes at the
// file's data_offset. Checks the length and the CRC-32; at most
// `max_bytes` are produced.
Result<std::string> InflateFile(std::string_view stored, const BundleFile& file, uint64_t max_bytes);

// 40 hexadecimal characters (a SHA-1 as sentry-cli names chunks).
bool IsSha1Hex(std::string_view s);

// SHA-1 of `bytes` as 40 lower-case hex characters.
std::string Sha1Hex(std::string_view bytes);

// One part of a multipart/form-data body.
struct FormPart {
  std::string name;      // Content-Disposition name ("file", "file_gzip")
  std::string filename;  // Content-Disposition filename (the chunk's SHA-1)
  std::string_view data;
};

// The boundary of a "multipart/form-data; boundary=..." Content-Type, or ""
// when it is not one.
std::string MultipartBoundary(std::string_view content_type);

// Splits `body` at `boundary` (RFC 7578); at most `max_parts` parts, else
// kInvalidArgument. The parts' data point into `body`.
Result<std::vector<FormPart>> ParseMultipart(std::string_view body, std::string_view boundary,
                                             size_t max_parts);

}  // namespace service::domain::sourcemaps
