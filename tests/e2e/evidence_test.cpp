// Evidence through the real server and its socket (issue 30 item 1): on each
// backend, a service-server with SERVICE_EVIDENCE_DIR takes a 10 MiB replay
// (the largest admitted size) with Content-Length and another one chunked,
// both spooled by the transport (each of the two), and answers the exact bytes back; a body
// over the route's limit is 413, a wrong byte is EVIDENCE_MISMATCH; no
// spool file is left behind; the files live under the folder's blobs/.
#include <dirent.h>
#include <doctest/doctest.h>
#include <httplib.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "server_process.h"
#include "util/crypto.h"

namespace service::e2e {
namespace {

namespace json = boost::json;

json::value Parse(const std::string& body) {
  boost::system::error_code ec;
  json::value v = json::parse(body, ec);
  return ec ? json::value() : v;
}

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  ::closedir(d);
  return out;
}

std::string Replay(char seed) {
  std::string r = "[";
  while (r.size() < 10 * 1024 * 1024 - 64) {
    r += "{\"t\":";
    r += std::to_string(r.size());
    r += ",\"e\":\"move\",\"s\":\"";
    r += seed;
    r += "\"},";
  }
  r.back() = ']';
  r.resize(10 * 1024 * 1024, ' ');
  return r;
}

}  // namespace

TEST_CASE(
    "evidence: a 10 MiB replay goes through the server's socket and comes back intact, on each backend") {
  TempDir dir;
  int run = 0;
  for (const Backend& backend : Backends(dir)) {
    // Both transports spool the upload (SERVICE_TRANSPORT).
    for (const char* transport : {"events", "threads"}) {
      CAPTURE(backend.name);
      CAPTURE(transport);
      const std::string evidence = dir.path() + "/evidence-" + std::to_string(++run);
      RunningServer server(backend.url, {"SERVICE_RATE_LIMITS=off", "SERVICE_EVIDENCE_DIR=" + evidence,
                                         std::string("SERVICE_TRANSPORT=") + transport,
                                         "SERVICE_JWT_SECRET=evidence-e2e-secret-0123456789abcdef0123"});
      REQUIRE_MESSAGE(server.ok(), server.process().Stderr());
      httplib::Client cli("127.0.0.1", server.port());
      cli.set_read_timeout(30, 0);
      cli.set_write_timeout(30, 0);
      auto reg = cli.Post(
          "/v1/auth/register",
          "{\"email\":\"evidence-" + std::to_string(run) +
              "@example.com\",\"password\":\"evidence-password-1\",\"name\":\"E\",\"orgName\":\"Ev\"}",
          "application/json");
      REQUIRE(reg);
      REQUIRE_MESSAGE(reg->status == 201, reg->body);
      const json::value v = Parse(reg->body);
      const std::string token(v.at("accessToken").as_string());
      const std::string org(v.at("org").at("id").as_string());
      const std::string project(v.at("project").at("id").as_string());
      const httplib::Headers auth = {{"Authorization", "Bearer " + token}, {"X-Service-Org", org}};
      const std::string base = "/v1/evidence/projects/" + project + "/artifacts";

      auto reserve = [&](const std::string& bytes) {
        const std::string body = json::serialize(json::object{{"kind", "replay"},
                                                              {"contentType", "application/json"},
                                                              {"byteCount", bytes.size()},
                                                              {"sha256", util::Sha256Hex(bytes)}});
        auto r = cli.Post(base, auth, body, "application/json");
        REQUIRE(r);
        REQUIRE_MESSAGE(r->status == 201, r->body);
        return std::string(Parse(r->body).at("artifact").at("id").as_string());
      };

      // With Content-Length.
      const std::string replay = Replay('a');
      REQUIRE(replay.size() == 10 * 1024 * 1024);
      const std::string id = reserve(replay);
      auto put = cli.Put(base + "/" + id + "/content", auth, replay, "application/json");
      REQUIRE(put);
      REQUIRE_MESSAGE(put->status == 200, put->body);
      CHECK(Parse(put->body).at("artifact").at("state") == "ready");
      auto got = cli.Get(base + "/" + id + "/content", auth);
      REQUIRE(got);
      CHECK(got->status == 200);
      CHECK(got->get_header_value("Content-Type") == "application/json");
      CHECK(got->get_header_value("Content-Disposition") == "attachment; filename=\"" + id + ".json\"");
      CHECK(got->get_header_value("X-Content-Type-Options") == "nosniff");
      CHECK(got->body.size() == replay.size());
      CHECK(got->body == replay);

      // Chunked, in pieces of 256 KiB.
      const std::string chunked = Replay('b');
      const std::string chunked_id = reserve(chunked);
      auto put2 = cli.Put(
          base + "/" + chunked_id + "/content", auth,
          [&](size_t offset, httplib::DataSink& sink) {
            if (offset >= chunked.size()) {
              sink.done();
              return true;
            }
            const size_t n = std::min<size_t>(256 * 1024, chunked.size() - offset);
            return sink.write(chunked.data() + offset, n);
          },
          "application/json");
      REQUIRE(put2);
      REQUIRE_MESSAGE(put2->status == 200, put2->body);
      auto got2 = cli.Get(base + "/" + chunked_id + "/content", auth);
      REQUIRE(got2);
      CHECK(got2->body == chunked);

      // One byte over the route's limit: 413 (the global limit is not larger).
      const std::string over_id = reserve(Replay('c'));
      auto over = cli.Put(base + "/" + over_id + "/content", auth, Replay('c') + "x", "application/json");
      REQUIRE(over);
      CHECK(over->status == 413);
      // A wrong byte: EVIDENCE_MISMATCH, nothing stored.
      std::string wrong = Replay('c');
      wrong[100] = 'Z';
      auto mismatch = cli.Put(base + "/" + over_id + "/content", auth, wrong, "application/json");
      REQUIRE(mismatch);
      CHECK(mismatch->status == 400);
      CHECK(Parse(mismatch->body).at("code") == "EVIDENCE_MISMATCH");

      // Two blobs stored, no spool or temporary file left.
      size_t blobs = 0;
      for (const std::string& sub : Entries(evidence + "/blobs"))
        blobs += Entries(evidence + "/blobs/" + sub).size();
      CHECK(blobs == 2);
      CHECK(Entries(evidence + "/tmp").empty());
      REQUIRE(server.Stop() == 0);
    }
  }
}

}  // namespace service::e2e
