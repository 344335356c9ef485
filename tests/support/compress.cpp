#include "support/compress.h"

#include <brotli/encode.h>
#include <doctest/doctest.h>
#include <zlib.h>

namespace service::testing {

std::string Deflate(const std::string& in, int window_bits) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, in.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string Brotli(const std::string& in) {
  std::string out(BrotliEncoderMaxCompressedSize(in.size()) + 16, '\0');
  size_t n = out.size();
  REQUIRE(BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, in.size(),
                                reinterpret_cast<const uint8_t*>(in.data()), &n,
                                reinterpret_cast<uint8_t*>(out.data())));
  out.resize(n);
  return out;
}

}  // namespace service::testing
