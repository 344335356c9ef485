#include "util/decompress.h"

#include <brotli/decode.h>
#include <zlib.h>

#include <memory>

namespace service::util {
namespace {

constexpr size_t kChunk = 64 * 1024;

Status TooLarge(size_t max_output) {
  return Status(Code::kPayloadTooLarge,
                "The decompressed body exceeds " + std::to_string(max_output / (1024 * 1024)) + " MB");
}

// windowBits: 15 + 16 gzip, 15 zlib, -15 raw deflate.
Result<std::string> Inflate(std::string_view input, int window_bits, size_t max_output) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return Internal("inflateInit2 failed");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  std::string out;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (out.size() >= max_output) return TooLarge(max_output);
    const size_t room = std::min(kChunk, max_output - out.size());
    const size_t before = out.size();
    out.resize(before + room);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + before);
    zs.avail_out = static_cast<uInt>(room);
    rc = inflate(&zs, Z_NO_FLUSH);
    out.resize(before + room - zs.avail_out);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) return InvalidArgument("The compressed body is truncated");
    if (rc != Z_OK && rc != Z_BUF_ERROR) return InvalidArgument("The body is not valid compressed data");
    if (zs.avail_out != 0 && zs.avail_in == 0) return InvalidArgument("The compressed body is truncated");
  }
  return out;
}

Result<std::string> Unbrotli(std::string_view input, size_t max_output) {
  std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
  if (!state) return Internal("BrotliDecoderCreateInstance failed");
  size_t avail_in = input.size();
  const uint8_t* next_in = reinterpret_cast<const uint8_t*>(input.data());
  std::string out;
  for (;;) {
    if (out.size() >= max_output) return TooLarge(max_output);
    const size_t room = std::min(kChunk, max_output - out.size());
    const size_t before = out.size();
    out.resize(before + room);
    size_t avail_out = room;
    uint8_t* next_out = reinterpret_cast<uint8_t*>(out.data() + before);
    const BrotliDecoderResult r =
        BrotliDecoderDecompressStream(state.get(), &avail_in, &next_in, &avail_out, &next_out, nullptr);
    out.resize(before + room - avail_out);
    if (r == BROTLI_DECODER_RESULT_SUCCESS) return out;
    if (r == BROTLI_DECODER_RESULT_ERROR) return InvalidArgument("The body is not valid brotli data");
    if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
      return InvalidArgument("The compressed body is truncated");
    // NEEDS_MORE_OUTPUT: loop for another chunk.
  }
}

}  // namespace

Encoding ParseContentEncoding(std::string_view header) {
  while (!header.empty() && (header.front() == ' ' || header.front() == '\t')) header.remove_prefix(1);
  while (!header.empty() && (header.back() == ' ' || header.back() == '\t')) header.remove_suffix(1);
  std::string lower(header);
  for (char& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (lower == "gzip" || lower == "x-gzip") return Encoding::kGzip;
  if (lower == "deflate") return Encoding::kDeflate;
  if (lower == "br") return Encoding::kBrotli;
  return Encoding::kIdentity;
}

Result<std::string> Decompress(std::string_view input, Encoding encoding, size_t max_output) {
  switch (encoding) {
    case Encoding::kIdentity:
      if (input.size() > max_output) return TooLarge(max_output);
      return std::string(input);
    case Encoding::kGzip:
      return Inflate(input, 15 + 16, max_output);
    case Encoding::kDeflate: {
      // zlib-wrapped (RFC 1950, what the HTTP spec means) or raw (RFC 1951,
      // what some clients send): a zlib header's first two bytes form a
      // multiple of 31 with compression method 8.
      const bool zlib =
          input.size() >= 2 && (static_cast<unsigned char>(input[0]) & 0x0F) == 8 &&
          ((static_cast<unsigned char>(input[0]) << 8) | static_cast<unsigned char>(input[1])) % 31 == 0;
      return Inflate(input, zlib ? 15 : -15, max_output);
    }
    case Encoding::kBrotli:
      return Unbrotli(input, max_output);
  }
  return InvalidArgument("unknown encoding");
}

}  // namespace service::util
