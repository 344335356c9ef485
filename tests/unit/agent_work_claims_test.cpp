// The claim rules of the agent-work area (areas/agent_work/domain/claims.h),
// table-driven: strict parsing of the command bodies, the counters'
// decimal strings, the lease check, effective status, fingerprints and the
// claim's JSON both ways.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/agent_work/domain/claims.h"

namespace service::domain::agent_work {
namespace {

namespace json = boost::json;

constexpr const char* kCmd = "0190f000-0000-7000-8000-000000000001";
constexpr const char* kProject = "0190f000-0000-7000-8000-000000000002";
constexpr const char* kIssue = "0190f000-0000-7000-8000-000000000003";
constexpr const char* kClaimId = "0190f000-0000-7000-8000-000000000004";

json::object ClaimBody() {
  return json::object{{"commandId", kCmd}, {"projectId", kProject}, {"issueId", kIssue}};
}

json::object LeaseBody() {
  json::object b = ClaimBody();
  b["claimId"] = kClaimId;
  b["generation"] = "3";
  b["fencingToken"] = "7";
  return b;
}

// The fields a failed parse names.
std::vector<std::string> Fields(const Status& s) {
  std::vector<std::string> out;
  const json::value v = json::parse(s.payload_json());
  for (const auto& d : v.at("details").as_array()) out.emplace_back(d.at("field").as_string());
  return out;
}

}  // namespace

TEST_CASE("counters are positive decimal strings without leading zeros, at most 18 digits") {
  struct Row {
    const char* text;
    std::optional<int64_t> want;
  };
  const Row rows[] = {{"1", 1},
                      {"42", 42},
                      {"999999999999999999", 999999999999999999LL},
                      {"0", std::nullopt},
                      {"01", std::nullopt},
                      {"-1", std::nullopt},
                      {"+1", std::nullopt},
                      {"1.0", std::nullopt},
                      {" 1", std::nullopt},
                      {"", std::nullopt},
                      {"1000000000000000000", std::nullopt},
                      {"1e3", std::nullopt}};
  for (const Row& r : rows) {
    CAPTURE(r.text);
    CHECK(ParseCounter(r.text) == r.want);
  }
}

TEST_CASE("a claim body is parsed strictly") {
  SUBCASE("valid, ids lower-cased, TTL optional") {
    json::object b = ClaimBody();
    b["issueId"] = "0190F000-0000-7000-8000-00000000000A";
    auto in = ParseClaimInput(b);
    REQUIRE(in.ok());
    CHECK(in->command_id == kCmd);
    CHECK(in->issue_id == "0190f000-0000-7000-8000-00000000000a");
    CHECK_FALSE(in->ttl_seconds.has_value());
    b["ttlSeconds"] = 60;
    CHECK(ParseClaimInput(b)->ttl_seconds == 60);
    b["ttlSeconds"] = 900;
    CHECK(ParseClaimInput(b)->ttl_seconds == 900);
  }
  struct Row {
    const char* name;
    json::value body;
    std::vector<std::string> fields;
  };
  auto with = [](const char* key, json::value v) {
    json::object b = ClaimBody();
    b[key] = std::move(v);
    return json::value(b);
  };
  auto without = [](const char* key) {
    json::object b = ClaimBody();
    b.erase(key);
    return json::value(b);
  };
  const std::vector<Row> rows = {
      {"not an object", json::array{1}, {"body"}},
      {"unknown field", with("claimId", kClaimId), {"claimId"}},
      {"missing commandId", without("commandId"), {"commandId"}},
      {"missing projectId and issueId", json::object{{"commandId", kCmd}}, {"projectId", "issueId"}},
      {"commandId not a UUID", with("commandId", "cmd-1"), {"commandId"}},
      {"issueId a number", with("issueId", 12), {"issueId"}},
      {"ttl too small", with("ttlSeconds", 59), {"ttlSeconds"}},
      {"ttl too large", with("ttlSeconds", 901), {"ttlSeconds"}},
      {"ttl a string", with("ttlSeconds", "300"), {"ttlSeconds"}},
      {"ttl a fraction", with("ttlSeconds", 120.5), {"ttlSeconds"}},
      {"ttl null", with("ttlSeconds", nullptr), {"ttlSeconds"}},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    auto in = ParseClaimInput(r.body);
    REQUIRE_FALSE(in.ok());
    CHECK(in.status().code() == Code::kInvalidArgument);
    CHECK(in.status().error_code() == "VALIDATION_ERROR");
    CHECK(Fields(in.status()) == r.fields);
  }
}

TEST_CASE("lease bodies take the lease fields and only their own extras") {
  auto renew = ParseLeaseInput(CommandKind::kRenew, LeaseBody());
  REQUIRE(renew.ok());
  CHECK(renew->claim_id == kClaimId);
  CHECK(renew->generation == 3);
  CHECK(renew->fencing_token == 7);

  json::object b = LeaseBody();
  b["ttlSeconds"] = 120;
  CHECK(ParseLeaseInput(CommandKind::kRenew, b)->ttl_seconds == 120);
  // Release takes no TTL and no receipt.
  CHECK(Fields(ParseLeaseInput(CommandKind::kRelease, b).status()) == std::vector<std::string>{"ttlSeconds"});

  // Complete requires a non-empty receiptId.
  CHECK(Fields(ParseLeaseInput(CommandKind::kComplete, LeaseBody()).status()) ==
        std::vector<std::string>{"receiptId"});
  json::object c = LeaseBody();
  c["receiptId"] = "";
  CHECK(Fields(ParseLeaseInput(CommandKind::kComplete, c).status()) == std::vector<std::string>{"receiptId"});
  c["receiptId"] = std::string(201, 'r');
  CHECK(Fields(ParseLeaseInput(CommandKind::kComplete, c).status()) == std::vector<std::string>{"receiptId"});
  c["receiptId"] = "receipt-1";
  CHECK(ParseLeaseInput(CommandKind::kComplete, c)->receipt_id == "receipt-1");

  // Generation and fencing token: strings only.
  json::object n = LeaseBody();
  n["generation"] = 3;
  n["fencingToken"] = "07";
  n.erase("claimId");
  CHECK(Fields(ParseLeaseInput(CommandKind::kRelease, n).status()) ==
        std::vector<std::string>{"claimId", "generation", "fencingToken"});
}

TEST_CASE("a lease is live only when every field matches and it has not expired") {
  const StoredLease live{kIssue, kProject, 3, 7, "active", 10'000};
  struct Row {
    const char* name;
    std::optional<StoredLease> stored;
    std::string issue;
    int64_t generation;
    int64_t fence;
    int64_t now;
    bool ok;
  };
  StoredLease released = live;
  released.status = "released";
  StoredLease completed = live;
  completed.status = "completed";
  StoredLease other_project = live;
  other_project.project_id = kIssue;
  const std::vector<Row> rows = {
      {"matching and live", live, kIssue, 3, 7, 9'999, true},
      {"at its expiry", live, kIssue, 3, 7, 10'000, false},
      {"after its expiry", live, kIssue, 3, 7, 20'000, false},
      {"wrong generation", live, kIssue, 2, 7, 0, false},
      {"wrong fencing token", live, kIssue, 3, 8, 0, false},
      {"another issue", live, kProject, 3, 7, 0, false},
      {"another project", other_project, kIssue, 3, 7, 0, false},
      {"released", released, kIssue, 3, 7, 0, false},
      {"completed", completed, kIssue, 3, 7, 0, false},
      {"no such claim", std::nullopt, kIssue, 3, 7, 0, false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    const Status s = CheckLease(r.stored, r.issue, kProject, r.generation, r.fence, r.now);
    CHECK(s.ok() == r.ok);
    if (!r.ok) {
      CHECK(s.code() == Code::kConflict);
      CHECK(s.error_code() == "LEASE_STALE");
    }
  }
}

TEST_CASE("an active claim reads as expired from its expiry on") {
  CHECK(EffectiveStatus("active", 1000, 999) == "active");
  CHECK(EffectiveStatus("active", 1000, 1000) == "expired");
  CHECK(EffectiveStatus("released", 1000, 0) == "released");
  CHECK(EffectiveStatus("completed", 1000, 5000) == "completed");
  CHECK(EffectiveStatus("expired", 1000, 0) == "expired");
  CHECK(IsLive("active", 1000, 999));
  CHECK_FALSE(IsLive("active", 1000, 1000));
  CHECK_FALSE(IsLive("released", 1000, 0));
}

TEST_CASE("fingerprints tell a resent command from other input") {
  auto claim = ParseClaimInput(ClaimBody());
  REQUIRE(claim.ok());
  ClaimInput other = *claim;
  CHECK(Fingerprint("t1", *claim) == Fingerprint("t1", other));
  other.ttl_seconds = 300;  // the default, but not the same input
  CHECK(Fingerprint("t1", *claim) != Fingerprint("t1", other));
  CHECK(Fingerprint("t1", *claim) != Fingerprint("t2", *claim));

  auto lease = ParseLeaseInput(CommandKind::kRelease, LeaseBody());
  REQUIRE(lease.ok());
  CHECK(Fingerprint(CommandKind::kRelease, "t1", *lease) != Fingerprint(CommandKind::kRenew, "t1", *lease));
  LeaseInput moved = *lease;
  moved.fencing_token = 8;
  CHECK(Fingerprint(CommandKind::kRelease, "t1", *lease) != Fingerprint(CommandKind::kRelease, "t1", moved));
}

TEST_CASE("a claim's JSON has decimal-string counters and reads back") {
  const ClaimView c{kClaimId, 12, 34, kProject, kIssue, "active", 1768471500000};
  const json::object o = ClaimJson(c);
  CHECK(o.at("generation").as_string() == "12");
  CHECK(o.at("fencingToken").as_string() == "34");
  CHECK(o.at("expiresAt").as_string() == "2026-01-15T10:05:00.000Z");
  CHECK(o.at("status").as_string() == "active");
  const auto back = ClaimFromJson(o);
  REQUIRE(back.has_value());
  CHECK(back->claim_id == c.claim_id);
  CHECK(back->generation == 12);
  CHECK(back->fencing_token == 34);
  CHECK(back->expires_at == c.expires_at);
  CHECK_FALSE(ClaimFromJson(json::object{{"claimId", kClaimId}}).has_value());
}

}  // namespace service::domain::agent_work
