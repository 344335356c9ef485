// Compressing request bodies the way Sentry SDKs and browsers do, for tests
// of the decompression (gzip, zlib-wrapped or raw deflate, brotli).
#pragma once

#include <string>

namespace service::testing {

// zlib's deflate of `in`: window_bits 15 + 16 gzip, 15 zlib, -15 raw.
std::string Deflate(const std::string& in, int window_bits = 15 + 16);
std::string Brotli(const std::string& in);

}  // namespace service::testing
