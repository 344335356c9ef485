#include "areas/sourcemaps/domain/artifact_bundle.h"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <boost/json.hpp>
#include <map>
#include <memory>

#include "areas/sourcemaps/domain/resolve.h"
#include "util/strings.h"

namespace service::domain::sourcemaps {
namespace {

namespace json = boost::json;

Status Bad(std::string message) { return Status(Code::kInvalidArgument, std::move(message)); }

uint32_t U16(std::string_view b, size_t at) {
  return static_cast<uint32_t>(static_cast<unsigned char>(b[at])) |
         (static_cast<uint32_t>(static_cast<unsigned char>(b[at + 1])) << 8);
}
uint32_t U32(std::string_view b, size_t at) { return U16(b, at) | (U16(b, at + 2) << 16); }

constexpr uint32_t kEocd = 0x06054b50;
constexpr uint32_t kCentral = 0x02014b50;
constexpr uint32_t kLocal = 0x04034b50;

struct Entry {
  std::string name;
  int method = 0;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t size = 0;
  uint64_t data_offset = 0;
};

// Inflates raw deflate data, producing at most `max_bytes`.
Result<std::string> RawInflate(std::string_view in, uint64_t max_bytes) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) return Status(Code::kInternal, "inflateInit2 failed");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string out;
  for (;;) {
    const size_t before = out.size();
    const size_t room = 64 * 1024;
    out.resize(before + room);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + before);
    zs.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out.resize(before + room - zs.avail_out);
    if (out.size() > max_bytes) return Bad("a file of the bundle is larger than it says");
    if (rc == Z_STREAM_END) return out;
    if (rc != Z_OK && !(rc == Z_BUF_ERROR && zs.avail_in > 0))
      return Bad("a file of the bundle is not valid deflate data");
    if (zs.avail_in == 0 && zs.avail_out != 0) return Bad("a file of the bundle is truncated");
  }
}

Result<std::vector<Entry>> ReadDirectory(std::string_view b) {
  if (b.size() < 22) return Bad("the bundle is not a zip archive");
  // The end record: the last signature within its 64 KiB comment's reach.
  size_t eocd = std::string_view::npos;
  const size_t lowest = b.size() > 22 + 65535 ? b.size() - 22 - 65535 : 0;
  for (size_t at = b.size() - 22 + 1; at-- > lowest;) {
    if (U32(b, at) == kEocd && at + 22 + U16(b, at + 20) == b.size()) {
      eocd = at;
      break;
    }
  }
  if (eocd == std::string_view::npos) return Bad("the bundle is not a zip archive");
  const uint64_t count = U16(b, eocd + 10);
  const uint64_t cd_size = U32(b, eocd + 12);
  const uint64_t cd_offset = U32(b, eocd + 16);
  if (count == 0xffff || cd_size == 0xffffffff || cd_offset == 0xffffffff)
    return Bad("zip64 bundles are not supported");
  if (U16(b, eocd + 4) != 0 || U16(b, eocd + 6) != 0 || U16(b, eocd + 8) != count)
    return Bad("multi-part zip archives are not supported");
  if (count > kMaxEntries) return Bad("the bundle has more than 10000 files");
  if (cd_size + cd_offset > eocd) return Bad("the bundle's zip directory is damaged");
  const uint64_t base = eocd - cd_size - cd_offset;  // the archive's first byte (after any header)
  std::vector<Entry> out;
  out.reserve(count);
  uint64_t at = base + cd_offset;
  const uint64_t end = at + cd_size;
  for (uint64_t i = 0; i < count; ++i) {
    if (at + 46 > end || U32(b, at) != kCentral) return Bad("the bundle's zip directory is damaged");
    Entry e;
    const uint32_t flags = U16(b, at + 8);
    e.method = static_cast<int>(U16(b, at + 10));
    e.crc32 = U32(b, at + 16);
    e.compressed_size = U32(b, at + 20);
    e.size = U32(b, at + 24);
    const uint64_t nlen = U16(b, at + 28), elen = U16(b, at + 30), clen = U16(b, at + 32);
    const uint64_t local = base + U32(b, at + 42);
    if (at + 46 + nlen + elen + clen > end) return Bad("the bundle's zip directory is damaged");
    e.name = std::string(b.substr(at + 46, nlen));
    at += 46 + nlen + elen + clen;
    if (flags & 1) return Bad("encrypted zip entries are not supported");
    if (e.method != 0 && e.method != 8)
      return Bad("zip entry " + e.name + " uses an unsupported compression method");
    if (e.compressed_size == 0xffffffff || e.size == 0xffffffff)
      return Bad("zip64 bundles are not supported");
    if (local + 30 > b.size() || U32(b, local) != kLocal)
      return Bad("zip entry " + e.name + " has no local header");
    e.data_offset = local + 30 + U16(b, local + 26) + U16(b, local + 28);
    if (e.data_offset + e.compressed_size > b.size()) return Bad("zip entry " + e.name + " is truncated");
    if (e.method == 0 && e.compressed_size != e.size) return Bad("zip entry " + e.name + " is damaged");
    out.push_back(std::move(e));
  }
  return out;
}

std::string HeaderValue(const json::object& headers, std::string_view name) {
  // Header names are case-insensitive.
  for (const auto& kv : headers) {
    if (util::ToLower(kv.key()) == name && kv.value().is_string()) return std::string(kv.value().as_string());
  }
  return "";
}

std::string OptString(const json::object& o, std::string_view key) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_string() ? std::string(it->value().as_string()) : std::string();
}

}  // namespace

Result<Bundle> ParseBundle(std::string_view bytes) {
  SV_ASSIGN_OR_RETURN(std::vector<Entry> entries, ReadDirectory(bytes));
  std::map<std::string, const Entry*> by_name;
  for (const Entry& e : entries) by_name.emplace(e.name, &e);
  auto manifest_entry = by_name.find("manifest.json");
  if (manifest_entry == by_name.end()) return Bad("the bundle has no manifest.json");
  BundleFile mf;
  mf.method = manifest_entry->second->method;
  mf.size = manifest_entry->second->size;
  mf.compressed_size = manifest_entry->second->compressed_size;
  mf.crc32 = manifest_entry->second->crc32;
  if (mf.size > kMaxManifestBytes) return Bad("the bundle's manifest.json is larger than 16 MiB");
  SV_ASSIGN_OR_RETURN(std::string manifest_text,
                      InflateFile(bytes.substr(manifest_entry->second->data_offset, mf.compressed_size), mf,
                                  kMaxManifestBytes));
  boost::system::error_code ec;
  json::parse_options opts;
  opts.max_depth = 16;
  json::value manifest = json::parse(manifest_text, ec, json::storage_ptr(), opts);
  if (ec || !manifest.is_object()) return Bad("the bundle's manifest.json is not a JSON object");
  const json::object& m = manifest.as_object();
  Bundle out;
  out.bundle_id = NormalizeDebugId(OptString(m, "debug_id"));
  out.release = OptString(m, "release");
  out.dist = OptString(m, "dist");
  auto files = m.find("files");
  if (files == m.end() || !files->value().is_object()) return Bad("the bundle's manifest.json has no files");
  std::vector<std::string> names;
  for (const auto& kv : files->value().as_object()) names.emplace_back(kv.key());
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const json::value& v = files->value().as_object().at(name);
    if (!v.is_object()) return Bad("manifest entry " + name + " is not an object");
    const json::object& f = v.as_object();
    auto entry = by_name.find(name);
    if (entry == by_name.end())
      return Bad("manifest.json names " + name + ", which the bundle does not hold");
    BundleFile bf;
    bf.path = name;
    bf.url = OptString(f, "url");
    bf.type = OptString(f, "type");
    if (bf.url.empty() || bf.url.size() > kMaxUrlBytes || !util::IsValidUtf8(bf.url))
      return Bad("manifest entry " + name + " has no valid url");
    if (bf.type.empty() || bf.type.size() > 64 || !util::IsValidUtf8(bf.type))
      return Bad("manifest entry " + name + " has no valid type");
    if (!util::IsValidUtf8(name) || name.size() > kMaxUrlBytes)
      return Bad("a zip entry name is not valid UTF-8");
    bf.url_path = NormalizeUrlPath(bf.url);
    if (auto h = f.find("headers"); h != f.end() && h->value().is_object()) {
      bf.debug_id = NormalizeDebugId(HeaderValue(h->value().as_object(), "debug-id"));
      bf.sourcemap = HeaderValue(h->value().as_object(), "sourcemap");
      if (bf.sourcemap.size() > kMaxHeaderBytes || !util::IsValidUtf8(bf.sourcemap)) bf.sourcemap.clear();
    }
    const Entry& e = *entry->second;
    bf.method = e.method;
    bf.data_offset = e.data_offset;
    bf.compressed_size = e.compressed_size;
    bf.size = e.size;
    bf.crc32 = e.crc32;
    out.files.push_back(std::move(bf));
  }
  if (out.release.size() > 250 || !util::IsValidUtf8(out.release)) out.release.clear();
  if (out.dist.size() > 64 || !util::IsValidUtf8(out.dist)) out.dist.clear();
  return out;
}

Result<std::string> InflateFile(std::string_view stored, const BundleFile& file, uint64_t max_bytes) {
  if (file.size > max_bytes) return Bad("a file of the bundle is larger than the limit");
  if (stored.size() != file.compressed_size) return Bad("a file of the bundle is truncated");
  std::string out;
  if (file.method == 0) {
    out = std::string(stored);
  } else if (file.method == 8) {
    SV_ASSIGN_OR_RETURN(out, RawInflate(stored, file.size));
  } else {
    return Bad("unsupported compression method");
  }
  if (out.size() != file.size) return Bad("a file of the bundle is not the size its zip entry says");
  const uLong crc =
      crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(out.size()));
  if (static_cast<uint32_t>(crc) != file.crc32) return Bad("a file of the bundle fails its CRC-32");
  return out;
}

bool IsSha1Hex(std::string_view s) {
  if (s.size() != 40) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

std::string Sha1Hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha1(), nullptr);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 15]);
  }
  return out;
}

std::string MultipartBoundary(std::string_view content_type) {
  const std::string lower = util::ToLower(content_type);
  if (lower.rfind("multipart/form-data", 0) != 0) return "";
  const size_t at = lower.find("boundary=");
  if (at == std::string::npos) return "";
  std::string_view b = content_type.substr(at + 9);
  if (const size_t semi = b.find(';'); semi != std::string_view::npos) b = b.substr(0, semi);
  while (!b.empty() && (b.back() == ' ' || b.back() == '\t')) b.remove_suffix(1);
  if (b.size() >= 2 && b.front() == '"' && b.back() == '"') b = b.substr(1, b.size() - 2);
  if (b.empty() || b.size() > 70) return "";
  return std::string(b);
}

namespace {

// The value of `key="..."` (or key=token) in a Content-Disposition value.
std::string DispositionParam(std::string_view value, std::string_view key) {
  size_t at = 0;
  while ((at = value.find(key, at)) != std::string_view::npos) {
    const bool start = at == 0 || value[at - 1] == ' ' || value[at - 1] == ';';
    if (start && at + key.size() < value.size() && value[at + key.size()] == '=') {
      std::string_view v = value.substr(at + key.size() + 1);
      if (!v.empty() && v[0] == '"') {
        const size_t close = v.find('"', 1);
        return std::string(v.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
      }
      return std::string(v.substr(0, v.find(';')));
    }
    at += key.size();
  }
  return "";
}

}  // namespace

Result<std::vector<FormPart>> ParseMultipart(std::string_view body, std::string_view boundary,
                                             size_t max_parts) {
  const std::string delim = "--" + std::string(boundary);
  std::vector<FormPart> parts;
  size_t at = body.find(delim);
  if (at == std::string_view::npos) return Bad("the body has no multipart boundary");
  for (;;) {
    at += delim.size();
    if (body.substr(at, 2) == "--") return parts;  // the closing delimiter
    if (body.substr(at, 2) != "\r\n") return Bad("the multipart body is malformed");
    at += 2;
    const size_t head_end = body.find("\r\n\r\n", at);
    if (head_end == std::string_view::npos) return Bad("the multipart body is malformed");
    std::string_view head = body.substr(at, head_end - at);
    const std::string next_delim = "\r\n" + delim;
    const size_t data_end = body.find(next_delim, head_end + 4);
    if (data_end == std::string_view::npos) return Bad("the multipart body is truncated");
    if (parts.size() == max_parts) return Bad("too many chunks in one request");
    FormPart part;
    size_t line = 0;
    while (line <= head.size()) {
      size_t eol = head.find("\r\n", line);
      if (eol == std::string_view::npos) eol = head.size();
      std::string_view h = head.substr(line, eol - line);
      const size_t colon = h.find(':');
      if (colon != std::string_view::npos && util::ToLower(h.substr(0, colon)) == "content-disposition") {
        std::string_view v = h.substr(colon + 1);
        part.name = DispositionParam(v, "name");
        part.filename = DispositionParam(v, "filename");
      }
      line = eol + 2;
    }
    part.data = body.substr(head_end + 4, data_end - head_end - 4);
    parts.push_back(std::move(part));
    at = data_end + 2;
  }
}

}  // namespace service::domain::sourcemaps
