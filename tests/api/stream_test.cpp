// GET /v1/bugs/stream (Spec 1 "Events"), in-process: the stream is pulled
// the way the transport pulls it (Start, then Next until pending), with the
// manual clock for heartbeats and token expiry.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "support/capture_fixture.h"

namespace service::testing {
namespace {

namespace json = boost::json;

// One open stream as the transport sees it.
struct Reader {
  std::shared_ptr<api::ResponseStream> stream;
  int wakes = 0;
  bool ended = false;

  explicit Reader(api::Response res) : stream(std::move(res.stream)) {
    REQUIRE(stream);
    stream->Start([this] { ++wakes; });
  }
  ~Reader() {
    if (stream) stream->Close();
  }
  // Everything available now.
  std::string Poll() {
    std::string out;
    for (int i = 0; i < 1000 && !ended; ++i) {
      std::string piece;
      const auto state = stream->Next(&piece);
      out += piece;
      if (state == api::ResponseStream::State::kEnd) ended = true;
      if (state != api::ResponseStream::State::kData) break;
    }
    return out;
  }
};

// The event types of an SSE text, in order.
std::vector<std::string> Types(const std::string& sse) {
  std::vector<std::string> out;
  for (size_t at = sse.find("event: "); at != std::string::npos; at = sse.find("event: ", at + 1)) {
    out.push_back(sse.substr(at + 7, sse.find('\n', at) - at - 7));
  }
  return out;
}

// The data of the first event.
json::value FirstData(const std::string& sse) {
  const size_t at = sse.find("data: ");
  if (at == std::string::npos) return nullptr;
  return json::parse(sse.substr(at + 6, sse.find('\n', at) - at - 6));
}

}  // namespace

TEST_CASE("the stream carries its organization's capture events and nothing of another organization") {
  TestService t;
  CaptureSetup a = NewCaptureSetup(t);
  CaptureSetup b = NewCaptureSetup(t);
  api::Response res = t.Open("/v1/bugs/stream", a.admin.headers());
  REQUIRE(res.status == 200);
  CHECK(res.headers.Get("Content-Type").rfind("text/event-stream", 0) == 0);
  CHECK(res.headers.Get("Cache-Control").find("no-cache") != std::string::npos);
  Reader r(std::move(res));
  CHECK(r.Poll() == "retry: 3000\n\n");
  CHECK(r.Poll().empty());  // nothing yet: pending, no thread held

  REQUIRE(Ingest(t, a.key, Report("Checkout fails")).status == 201);
  REQUIRE(Ingest(t, a.key, Report("Checkout fails")).status == 201);
  REQUIRE(Ingest(t, b.key, Report("Other org's bug")).status == 201);
  CHECK(r.wakes >= 2);
  const std::string sse = r.Poll();
  CHECK(Types(sse) == std::vector<std::string>{"new_bug", "duplicate"});
  CHECK(sse.rfind("id: 1\n", 0) == 0);
  CHECK(sse.find("id: 2\n") != std::string::npos);
  const json::value first = FirstData(sse);
  REQUIRE(first.is_object());
  CHECK(first.at("title") == "Checkout fails");
  CHECK(first.at("projectId") == json::value(a.project_id));
  CHECK(sse.find("Other org") == std::string::npos);
  CHECK_FALSE(r.ended);
}

TEST_CASE("the stream needs a member's access token and the organization header") {
  TestService t;
  CaptureSetup a = NewCaptureSetup(t);
  CHECK(t.Open("/v1/bugs/stream").status == 401);
  CHECK(t.Open("/v1/bugs/stream", {{"Authorization", "Bearer " + a.admin.token}}).status == 400);
  CHECK(t.Open("/v1/bugs/stream", {{"Authorization", "Bearer " + a.key}, {"X-Service-Org", a.admin.org_id}})
            .status == 401);
  Member stranger = NewOrgWithMember(t);
  CHECK(t.Open("/v1/bugs/stream",
               {{"Authorization", "Bearer " + stranger.token}, {"X-Service-Org", a.admin.org_id}})
            .status == 403);
}

TEST_CASE("access is checked before each delivery: a removed member's stream ends") {
  TestService t;
  CaptureSetup a = NewCaptureSetup(t);
  Member viewer = AddMemberWithRole(t, a.admin.org_id, "viewer");
  Reader r(t.Open("/v1/bugs/stream", viewer.headers()));
  r.Poll();
  REQUIRE(Ingest(t, a.key, Report("First")).status == 201);
  CHECK(Types(r.Poll()) == std::vector<std::string>{"new_bug"});

  // The admin's stream is read first: the organization's access read it
  // triggers (after the event) is the one the viewer's delivery uses.
  Reader admin(t.Open("/v1/bugs/stream", a.admin.headers()));
  admin.Poll();
  REQUIRE(t.Delete("/v1/team/" + viewer.user_id, a.admin.headers()).status == 200);
  REQUIRE(Ingest(t, a.key, Report("Second")).status == 201);
  CHECK(Types(admin.Poll()).size() == 1);
  const std::string after = r.Poll();
  CHECK(Types(after).empty());  // never delivered to the removed member
  CHECK(r.ended);
  CHECK_FALSE(admin.ended);
}

TEST_CASE("a heartbeat every 15 s re-checks access, the token's expiry ends the stream at once") {
  TestService t;
  CaptureSetup a = NewCaptureSetup(t);
  Reader r(t.Open("/v1/bugs/stream", a.admin.headers()));
  r.Poll();
  t.clock().Advance(14'000);
  CHECK(r.Poll().empty());
  t.clock().Advance(1'000);
  CHECK(r.Poll() == ": heartbeat\n\n");
  CHECK(r.Poll().empty());  // the next one is 15 s later
  t.clock().Advance(15'000);
  CHECK(r.Poll() == ": heartbeat\n\n");
  // The access token lives one hour from its issue.
  t.clock().Advance(3'600'000);
  r.Poll();
  CHECK(r.ended);
}

TEST_CASE("a reader more than 100 events behind loses its stream, others keep theirs") {
  TestService t;
  CaptureSetup a = NewCaptureSetup(t);
  Reader slow(t.Open("/v1/bugs/stream", a.admin.headers()));
  Reader fast(t.Open("/v1/bugs/stream", a.admin.headers()));
  slow.Poll();
  fast.Poll();
  int delivered = 0;
  for (int i = 0; i < 101; ++i) {
    REQUIRE(Ingest(t, a.key, Report("Burst " + std::to_string(i % 3))).status == 201);
    delivered += static_cast<int>(Types(fast.Poll()).size());
  }
  CHECK(delivered == 101);
  CHECK_FALSE(fast.ended);
  slow.Poll();
  CHECK(slow.ended);
  // Reconnecting works: a new stream for the same member.
  Reader again(t.Open("/v1/bugs/stream", a.admin.headers()));
  again.Poll();
  REQUIRE(Ingest(t, a.key, Report("After reconnect")).status == 201);
  CHECK(Types(again.Poll()).size() == 1);
}

}  // namespace service::testing

namespace service::testing {

TEST_CASE("diagnostics are not streamed unless the stream asks for them") {
  TestService t;
  CaptureSetup a = NewCaptureSetup(t);
  const json::object diagnostic{
      {"title", "Console chatter"},
      {"url", "https://app.example.com/debug"},
      {"events", json::array{json::object{{"type", "console"},
                                          {"timestamp", 1768471100000},
                                          {"data", json::object{{"level", "info"}, {"message", "hello"}}}}}},
      {"metadata", json::object{{"autoReport", "console"}}}};
  Reader plain(t.Open("/v1/bugs/stream", a.admin.headers()));
  Reader all(t.Open("/v1/bugs/stream?includeDiagnostics=true", a.admin.headers()));
  plain.Poll();
  all.Poll();
  REQUIRE(Ingest(t, a.key, diagnostic).status == 201);
  REQUIRE(Ingest(t, a.key, Report("A real error")).status == 201);
  const std::string p = plain.Poll();
  const std::string d = all.Poll();
  CHECK(Types(p).size() == 1);
  CHECK(p.find("Console chatter") == std::string::npos);
  CHECK(Types(d).size() == 2);
  CHECK(d.find("\"signal_class\":\"diagnostic\"") != std::string::npos);
  CHECK(t.Open("/v1/bugs/stream?includeDiagnostics=maybe", a.admin.headers()).status == 400);
}

TEST_CASE("triage writes reach the stream: status_change, regression, comment and deleted") {
  TestService t;
  CaptureSetup a = NewCaptureSetup(t);
  Member other = AddMemberWithRole(t, a.admin.org_id, "member");
  TestResponse ingest = Ingest(t, a.key, Report("Checkout fails"));
  REQUIRE(ingest.status == 201);
  const std::string bug(ingest.json.at("id").as_string());
  Reader r(t.Open("/v1/bugs/stream", a.admin.headers()));
  r.Poll();

  const std::string path = "/v1/bugs/" + bug;
  REQUIRE(t.Patch(path, json::object{{"status", "resolved"}}, a.admin.headers()).status == 200);
  REQUIRE(t.Patch(path, json::object{{"status", "known"}, {"assignedTo", other.user_id}}, a.admin.headers())
              .status == 200);
  REQUIRE(t.Post(path + "/comments", json::object{{"content", "looking"}}, other.headers()).status == 201);
  REQUIRE(t.Delete(path, a.admin.headers()).status == 200);
  const std::string sse = r.Poll();
  // The assignment is not one of the stream's event types.
  CHECK(Types(sse) ==
        std::vector<std::string>{"status_change", "status_change", "regression", "comment", "deleted"});
  const json::value first = FirstData(sse);
  CHECK(first.at("bugId") == json::value(bug));
  CHECK(first.at("oldStatus") == "new");
  CHECK(first.at("newStatus") == "resolved");
  CHECK(first.at("title") == "Checkout fails");
}

}  // namespace service::testing
