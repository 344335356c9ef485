// The artifact bundle reader and the chunk upload's multipart parser
// (areas/sourcemaps/domain/artifact_bundle.h), table-driven over hand-made
// archives and bodies: what sentry-cli writes is read (stored and deflated
// entries, the "SYSB" header or none, header names in any case), everything
// else is refused with the detail the uploader sees.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "areas/sourcemaps/domain/artifact_bundle.h"
#include "support/zip_bundle.h"

namespace service::testing {
namespace {

namespace dsm = domain::sourcemaps;

const std::string kManifest =
    R"({"files":{"files/_/_/b.js.map":{"type":"source_map","url":"https://cdn.example/static/b.js.map?v=2"},)"
    R"("files/_/_/a.js":{"type":"minified_source","url":"~/a.js",)"
    R"("headers":{"Debug-Id":"0123456789ABCDEF0123456789ABCDEF","sourcemap":"a.js.map"}}},)"
    R"("debug_id":"4bc72816-1e5e-5d37-a400-7e1452609eee","release":"r1","dist":"d1"})";

}  // namespace

TEST_CASE("artifact bundles: sentry-cli's layout is read, with where each file's bytes are") {
  for (const bool header : {true, false}) {
    CAPTURE(header);
    const std::string a = "var a=1;//# sourceMappingURL=a.js.map";
    const std::string b = R"({"version":3,"mappings":""})";
    const std::string bytes = ZipBytes(
        {{"files/_/_/a.js", a, true}, {"files/_/_/b.js.map", b, false}, {"manifest.json", kManifest, true}},
        header);
    Result<dsm::Bundle> out = dsm::ParseBundle(bytes);
    REQUIRE_MESSAGE(out.ok(), out.status().ToString());
    CHECK(out->bundle_id == "4bc72816-1e5e-5d37-a400-7e1452609eee");
    CHECK(out->release == "r1");
    CHECK(out->dist == "d1");
    REQUIRE(out->files.size() == 2);  // sorted by entry name; the manifest is not a file
    const dsm::BundleFile& fa = out->files[0];
    CHECK(fa.path == "files/_/_/a.js");
    CHECK(fa.url_path == "/a.js");
    CHECK(fa.type == "minified_source");
    CHECK(fa.debug_id == "01234567-89ab-cdef-0123-456789abcdef");
    CHECK(fa.sourcemap == "a.js.map");
    CHECK(fa.method == 8);
    const dsm::BundleFile& fb = out->files[1];
    CHECK(fb.url_path == "/static/b.js.map");
    CHECK(fb.debug_id.empty());
    CHECK(fb.method == 0);
    for (const auto& [f, want] : {std::pair{fa, a}, std::pair{fb, b}}) {
      Result<std::string> got = dsm::InflateFile(bytes.substr(f.data_offset, f.compressed_size), f, 1 << 20);
      REQUIRE_MESSAGE(got.ok(), got.status().ToString());
      CHECK(*got == want);
    }
    // A CRC that does not match, a limit below the size.
    dsm::BundleFile bad = fa;
    bad.crc32 ^= 1;
    CHECK(
        dsm::InflateFile(bytes.substr(fa.data_offset, fa.compressed_size), bad, 1 << 20).status().message() ==
        "a file of the bundle fails its CRC-32");
    CHECK_FALSE(dsm::InflateFile(bytes.substr(fa.data_offset, fa.compressed_size), fa, 4).ok());
  }
}

TEST_CASE("artifact bundles: damaged, unsupported and inconsistent archives are refused with a detail") {
  const std::string manifest_a = R"({"files":{"a.js":{"type":"minified_source","url":"~/a.js"}}})";
  const std::string good = ZipBytes({{"a.js", "x"}, {"manifest.json", manifest_a}});
  std::string no_cd = good;
  no_cd[no_cd.size() - 22 + 19] = 0x7f;  // central directory offset past the end
  std::string zip64 = good;
  for (int i = 0; i < 4; ++i) zip64[zip64.size() - 22 + 16 + i] = '\xff';
  std::string trailing = good + "junk";
  const struct {
    const char* name;
    std::string bytes;
    std::string detail;
  } cases[] = {
      {"empty", "", "the bundle is not a zip archive"},
      {"text", std::string(100, 'x'), "the bundle is not a zip archive"},
      {"bytes after the end record", trailing, "the bundle is not a zip archive"},
      {"directory past the end", no_cd, "the bundle's zip directory is damaged"},
      {"zip64", zip64, "zip64 bundles are not supported"},
      {"no manifest", ZipBytes({{"a.js", "x"}}), "the bundle has no manifest.json"},
      {"manifest not JSON", ZipBytes({{"manifest.json", "{nope"}}),
       "the bundle's manifest.json is not a JSON object"},
      {"manifest without files", ZipBytes({{"manifest.json", "{}"}}),
       "the bundle's manifest.json has no files"},
      {"a named file missing", ZipBytes({{"manifest.json", manifest_a}}),
       "manifest.json names a.js, which the bundle does not hold"},
      {"no url", ZipBytes({{"a.js", "x"}, {"manifest.json", R"({"files":{"a.js":{"type":"source"}}})"}}),
       "manifest entry a.js has no valid url"},
      {"no type", ZipBytes({{"a.js", "x"}, {"manifest.json", R"({"files":{"a.js":{"url":"~/a.js"}}})"}}),
       "manifest entry a.js has no valid type"},
      {"encrypted", ZipBytes({{"a.js", "x", true, 1}, {"manifest.json", manifest_a}}),
       "encrypted zip entries are not supported"},
      {"another method", ZipBytes({{"a.js", "x", false, 0, 12}, {"manifest.json", manifest_a}}),
       "zip entry a.js uses an unsupported compression method"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Result<dsm::Bundle> out = dsm::ParseBundle(c.bytes);
    REQUIRE_FALSE(out.ok());
    CHECK(out.status().code() == Code::kInvalidArgument);
    CHECK(out.status().message() == c.detail);
  }
  // The same archive, well formed, is read.
  CHECK(dsm::ParseBundle(good).ok());
}

TEST_CASE("chunk uploads: multipart bodies, boundaries and SHA-1 names") {
  CHECK(dsm::MultipartBoundary("multipart/form-data; boundary=abc") == "abc");
  CHECK(dsm::MultipartBoundary("Multipart/Form-Data; boundary=\"a b\"; charset=x") == "a b");
  CHECK(dsm::MultipartBoundary("application/json").empty());
  CHECK(dsm::MultipartBoundary("multipart/form-data").empty());

  const std::string body =
      "--B\r\nContent-Disposition: form-data; name=\"file_gzip\"; filename=\"f1\"\r\n"
      "Content-Type: application/octet-stream\r\n\r\nab\r\ncd\r\n"
      "--B\r\ncontent-disposition: form-data; name=file; filename=\"f2\"\r\n\r\n\r\n--B--\r\n";
  Result<std::vector<dsm::FormPart>> parts = dsm::ParseMultipart(body, "B", 8);
  REQUIRE_MESSAGE(parts.ok(), parts.status().ToString());
  REQUIRE(parts->size() == 2);
  CHECK((*parts)[0].name == "file_gzip");
  CHECK((*parts)[0].filename == "f1");
  CHECK((*parts)[0].data == "ab\r\ncd");
  CHECK((*parts)[1].name == "file");
  CHECK((*parts)[1].filename == "f2");
  CHECK((*parts)[1].data.empty());
  CHECK(dsm::ParseMultipart(body, "B", 1).status().message() == "too many chunks in one request");
  CHECK_FALSE(dsm::ParseMultipart("no boundary here", "B", 8).ok());
  CHECK_FALSE(
      dsm::ParseMultipart("--B\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nabc", "B", 8).ok());
  CHECK_FALSE(dsm::ParseMultipart("--Bx", "B", 8).ok());

  CHECK(dsm::Sha1Hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(dsm::Sha1Hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  CHECK(dsm::IsSha1Hex("A9993E364706816ABA3E25717850C26C9CD0D89D"));
  CHECK_FALSE(dsm::IsSha1Hex("a9993e364706816aba3e25717850c26c9cd0d89"));
  CHECK_FALSE(dsm::IsSha1Hex("g9993e364706816aba3e25717850c26c9cd0d89d"));
}

}  // namespace service::testing
