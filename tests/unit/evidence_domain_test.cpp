// The evidence rules (areas/evidence/domain): admitted formats, the strict
// reservation body, the listing's bounds, effective states and the JSON an
// artifact is shown as.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>

#include "areas/evidence/domain/evidence.h"

namespace service::domain::evidence {
namespace {

namespace json = boost::json;

const std::string kSha(64, 'a');

json::object Body(json::object extra = {}) {
  json::object o{{"kind", "log"}, {"contentType", "text/plain"}, {"byteCount", 10}, {"sha256", kSha}};
  for (auto& kv : extra) o[kv.key()] = kv.value();
  return o;
}

// The fields a refused body's details name.
std::string Fields(const Status& s) {
  std::string out;
  const json::value payload = json::parse(s.payload_json());
  for (const auto& d : payload.at("details").as_array()) {
    if (!out.empty()) out += ",";
    out += std::string(d.at("field").as_string());
  }
  return out;
}

TEST_CASE(
    "evidence: the admitted formats are log as text/plain (1 MiB) and replay as application/json (10 MiB)") {
  REQUIRE(FindFormat("log", "text/plain") != nullptr);
  CHECK(FindFormat("log", "text/plain")->max_bytes == 1024 * 1024);
  REQUIRE(FindFormat("replay", "application/json") != nullptr);
  CHECK(FindFormat("replay", "application/json")->max_bytes == 10 * 1024 * 1024);
  CHECK(FindFormat("log", "application/json") == nullptr);
  CHECK(FindFormat("replay", "text/plain") == nullptr);
  CHECK(FindFormat("image", "image/png") == nullptr);
  CHECK(FindFormat("audio", "audio/ogg") == nullptr);
  CHECK(FindFormat("LOG", "text/plain") == nullptr);
  CHECK(FindFormat("log", "text/plain; charset=utf-8") == nullptr);
}

TEST_CASE("evidence: a reservation body parses strictly") {
  Result<ReserveInput> ok = ParseReserveInput(Body({{"sha256", std::string(64, 'A')},
                                                    {"occurrenceId", "0190AAAA-0000-7000-8000-000000000001"},
                                                    {"redaction", json::object{{"emails", true}}}}));
  REQUIRE(ok.ok());
  CHECK(ok->kind == "log");
  CHECK(ok->content_type == "text/plain");
  CHECK(ok->byte_count == 10);
  CHECK(ok->sha256 == std::string(64, 'a'));
  CHECK(ok->occurrence_id == "0190aaaa-0000-7000-8000-000000000001");
  CHECK(ok->redaction_json == R"({"emails":true})");
  CHECK(ParseReserveInput(Body({{"occurrenceId", nullptr}, {"redaction", nullptr}})).ok());
  CHECK(ParseReserveInput(
            Body({{"kind", "replay"}, {"contentType", "application/json"}, {"byteCount", 10 * 1024 * 1024}}))
            .ok());

  struct Case {
    const char* name;
    json::value body;
    const char* fields;
  };
  const Case cases[] = {
      {"not an object", json::array{}, "body"},
      {"empty", json::object{}, "kind,contentType,byteCount,sha256"},
      {"unknown field", Body({{"name", "x"}}), "name"},
      {"unknown kind", Body({{"kind", "image"}, {"contentType", "image/png"}}), "kind"},
      {"pair not admitted", Body({{"contentType", "application/json"}}), "contentType"},
      {"byteCount zero", Body({{"byteCount", 0}}), "byteCount"},
      {"byteCount negative", Body({{"byteCount", -1}}), "byteCount"},
      {"log above 1 MiB", Body({{"byteCount", 1024 * 1024 + 1}}), "byteCount"},
      {"replay above 10 MiB",
       Body({{"kind", "replay"}, {"contentType", "application/json"}, {"byteCount", 10 * 1024 * 1024 + 1}}),
       "byteCount"},
      {"byteCount a string", Body({{"byteCount", "10"}}), "byteCount"},
      {"byteCount a fraction", Body({{"byteCount", 1.5}}), "byteCount"},
      {"sha256 short", Body({{"sha256", std::string(63, 'a')}}), "sha256"},
      {"sha256 not hex", Body({{"sha256", std::string(64, 'g')}}), "sha256"},
      {"sha256 a number", Body({{"sha256", 5}}), "sha256"},
      {"occurrenceId not a uuid", Body({{"occurrenceId", "../../etc/passwd"}}), "occurrenceId"},
      {"redaction not an object", Body({{"redaction", "none"}}), "redaction"},
      {"redaction too large", Body({{"redaction", json::object{{"x", std::string(5000, 'x')}}}}),
       "redaction"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Result<ReserveInput> r = ParseReserveInput(c.body);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kInvalidArgument);
    CHECK(r.status().error_code() == "VALIDATION_ERROR");
    CHECK(Fields(r.status()) == c.fields);
  }
}

TEST_CASE("evidence: the occurrence listing takes limit 1-100 and offset 0-10000") {
  Result<ListBounds> d = ParseListBounds(std::nullopt, std::nullopt);
  REQUIRE(d.ok());
  CHECK(d->limit == 20);
  CHECK(d->offset == 0);
  Result<ListBounds> edge = ParseListBounds(std::string("100"), std::string("10000"));
  REQUIRE(edge.ok());
  CHECK(edge->limit == 100);
  CHECK(edge->offset == 10000);
  CHECK(ParseListBounds(std::string("1"), std::string("0")).ok());
  for (const char* bad : {"0", "101", "-1", "abc", "", "1.5", "99999999999"}) {
    CAPTURE(bad);
    CHECK(Fields(ParseListBounds(std::string(bad), std::nullopt).status()) == "limit");
  }
  for (const char* bad : {"-1", "10001", "x"}) {
    CAPTURE(bad);
    CHECK(Fields(ParseListBounds(std::nullopt, std::string(bad)).status()) == "offset");
  }
}

TEST_CASE("evidence: reserved and ready artifacts past their expiry read as expired") {
  CHECK(EffectiveState("reserved", 100, 99) == "reserved");
  CHECK(EffectiveState("reserved", 100, 100) == "expired");
  CHECK(EffectiveState("ready", 100, 50) == "ready");
  CHECK(EffectiveState("ready", 100, 101) == "expired");
  CHECK(EffectiveState("deleted", 100, 50) == "deleted");
  CHECK(EffectiveState("expired", 100, 50) == "expired");
}

TEST_CASE("evidence: an artifact's JSON has the spec's fields and no storage detail") {
  ArtifactView a;
  a.id = "0190aaaa-0000-7000-8000-000000000001";
  a.project_id = "0190aaaa-0000-7000-8000-000000000002";
  a.kind = "replay";
  a.content_type = "application/json";
  a.byte_count = 42;
  a.sha256 = kSha;
  a.state = "ready";
  a.generation = 2;
  a.created_at = 1768471200000;
  a.expires_at = 1768471200000 + kRetentionMs;
  a.redaction_json = R"({"inputs":"masked"})";
  const json::object o = ArtifactJson(a);
  for (const char* k :
       {"id", "artifactId", "projectId", "occurrenceId", "kind", "contentType", "format", "byteCount",
        "sha256", "state", "generation", "createdAt", "expiresAt", "redaction"}) {
    CAPTURE(k);
    CHECK(o.contains(k));
  }
  CHECK(o.size() == 14);
  CHECK(o.at("occurrenceId").is_null());
  CHECK(o.at("createdAt") == "2026-01-15T10:00:00.000Z");
  CHECK(o.at("redaction").at("inputs") == "masked");
  CHECK(o.at("format").at("contentType") == "application/json");
  CHECK(FileName(a) == a.id + ".json");
  a.kind = "log";
  CHECK(FileName(a) == a.id + ".log");
}

}  // namespace
}  // namespace service::domain::evidence
