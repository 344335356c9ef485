// Hand-made bytes for the source map upload tests: gzip and raw deflate
// (zlib), and ZIP archives as sentry-cli's artifact bundles are (stored or
// deflated entries, optionally behind the 8-byte "SYSB" header, the central
// directory's offsets counted from the archive's own start).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace service::testing {

// zlib's deflate with `window_bits` (15 + 16 gzip, -15 raw).
std::string DeflateBytes(const std::string& in, int window_bits);
inline std::string GzipBytes(const std::string& in) { return DeflateBytes(in, 15 + 16); }

struct ZipEntry {
  std::string name;
  std::string data;
  bool deflate = true;
  uint16_t flags = 0;  // general purpose bits (1: encrypted)
  int method = -1;     // -1: 8 when deflate, else 0; another value is written as it is
};

// The archive; `header`: behind "SYSB" + u32 version 2.
std::string ZipBytes(const std::vector<ZipEntry>& entries, bool header = true);

}  // namespace service::testing
