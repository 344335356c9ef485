// Bounded, streamed decompression of request bodies (Content-Encoding gzip,
// deflate, br): the output grows chunk by chunk and stops at `max_output`
// bytes, so a small body that would expand without end (a "zip bomb") costs
// at most max_output bytes of memory. Thread-safe (no shared state).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::util {

enum class Encoding { kIdentity, kGzip, kDeflate, kBrotli };

// The encoding a Content-Encoding value names: "gzip" / "x-gzip", "deflate",
// "br" (case-insensitive, surrounding spaces ignored); anything else,
// empty or unknown, is kIdentity (as Sentry's relay treats a bogus value).
Encoding ParseContentEncoding(std::string_view header);

// kPayloadTooLarge when the output would pass `max_output`;
// kInvalidArgument when the data is not valid for its encoding. `deflate`
// accepts zlib-wrapped and raw streams.
Result<std::string> Decompress(std::string_view input, Encoding encoding, size_t max_output);

}  // namespace service::util
