#include "support/zip_bundle.h"

#include <doctest/doctest.h>
#include <zlib.h>

namespace service::testing {
namespace {

void Le(std::string& s, uint32_t v, int n) {
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

std::string DeflateBytes(const std::string& in, int window_bits) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, in.size()) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string ZipBytes(const std::vector<ZipEntry>& entries, bool header) {
  std::string zip, cd;
  for (const auto& e : entries) {
    const std::string stored = e.deflate ? DeflateBytes(e.data, -15) : e.data;
    const uint32_t crc =
        static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(e.data.data()),
                                    static_cast<uInt>(e.data.size())));
    const uint32_t offset = static_cast<uint32_t>(zip.size());
    const uint32_t method = e.method >= 0 ? static_cast<uint32_t>(e.method) : (e.deflate ? 8 : 0);
    Le(zip, 0x04034b50, 4);
    Le(zip, 20, 2);
    Le(zip, e.flags, 2);
    Le(zip, method, 2);
    Le(zip, 0, 4);  // time, date
    Le(zip, crc, 4);
    Le(zip, static_cast<uint32_t>(stored.size()), 4);
    Le(zip, static_cast<uint32_t>(e.data.size()), 4);
    Le(zip, static_cast<uint32_t>(e.name.size()), 2);
    Le(zip, 0, 2);
    zip += e.name + stored;
    Le(cd, 0x02014b50, 4);
    Le(cd, 20, 2);
    Le(cd, 20, 2);
    Le(cd, e.flags, 2);
    Le(cd, method, 2);
    Le(cd, 0, 4);
    Le(cd, crc, 4);
    Le(cd, static_cast<uint32_t>(stored.size()), 4);
    Le(cd, static_cast<uint32_t>(e.data.size()), 4);
    Le(cd, static_cast<uint32_t>(e.name.size()), 2);
    Le(cd, 0, 2);
    Le(cd, 0, 2);
    Le(cd, 0, 2);
    Le(cd, 0, 2);
    Le(cd, 0, 4);
    Le(cd, offset, 4);
    cd += e.name;
  }
  const uint32_t cd_offset = static_cast<uint32_t>(zip.size());
  zip += cd;
  Le(zip, 0x06054b50, 4);
  Le(zip, 0, 4);
  Le(zip, static_cast<uint32_t>(entries.size()), 2);
  Le(zip, static_cast<uint32_t>(entries.size()), 2);
  Le(zip, static_cast<uint32_t>(cd.size()), 4);
  Le(zip, cd_offset, 4);
  Le(zip, 0, 2);
  return header ? std::string("SYSB\x02\x00\x00\x00", 8) + zip : zip;
}

}  // namespace service::testing
