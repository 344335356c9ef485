// The application registry's rules (areas/applications/domain/applications.h)
// and capture's reading of metadata.capture / metadata.evidence
// (areas/capture/domain/capture_identity.h), table-driven: which managed
// identities create a first-capture receipt, the strict create bodies, the
// list cursor.
#include <doctest/doctest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "areas/applications/domain/applications.h"
#include "areas/capture/domain/capture_identity.h"

namespace service::domain::applications {
namespace {

namespace json = boost::json;
using capture::CaptureIdentity;

constexpr const char* kApp = "0190f000-0000-7000-8000-00000000000a";
constexpr const char* kInst = "0190f000-0000-7000-8000-00000000000b";
constexpr const char* kReq = "0190f000-0000-7000-8000-00000000000c";

CaptureIdentity Browser(std::string source = "automatic") {
  CaptureIdentity id;
  id.application_id = kApp;
  id.installation_id = kInst;
  id.sdk_name = "service-browser";
  id.sdk_version = "2.3.1";
  id.source = std::move(source);
  return id;
}

CaptureIdentity Swift(std::string source = "handled_error", std::string os = "ios") {
  CaptureIdentity id;
  id.application_id = kApp;
  id.installation_id = kInst;
  id.sdk_name = "service-swift";
  id.sdk_version = "1.0.0";
  id.source = std::move(source);
  id.framework = "native";
  id.runtime = "swift";
  id.os_family = std::move(os);
  return id;
}

TEST_CASE("applications: the managed identities that create a receipt, and every other one") {
  struct Row {
    const char* name;
    CaptureIdentity id;
    const char* platform;
    bool native_on;
    ReceiptDecision want;
  };
  auto with = [](CaptureIdentity id, auto change) {
    change(id);
    return id;
  };
  const std::vector<Row> rows = {
      {"browser automatic on web", Browser("automatic"), "web", false, ReceiptDecision::kQualifies},
      {"browser user_report on web", Browser("user_report"), "web", false, ReceiptDecision::kQualifies},
      {"browser with native flag on too", Browser(), "web", true, ReceiptDecision::kQualifies},
      {"browser on ios", Browser(), "ios", false, ReceiptDecision::kBrowserPlatform},
      {"browser on other", Browser(), "other", false, ReceiptDecision::kBrowserPlatform},
      {"browser console sample", Browser("console"), "web", false, ReceiptDecision::kBrowserSource},
      {"browser handled_error", Browser("handled_error"), "web", false, ReceiptDecision::kBrowserSource},
      {"browser legacy null source", Browser(""), "web", false, ReceiptDecision::kBrowserSource},
      {"browser source in upper case", Browser("Automatic"), "web", false, ReceiptDecision::kBrowserSource},
      {"browser without version", with(Browser(), [](auto& i) { i.sdk_version.clear(); }), "web", false,
       ReceiptDecision::kNoSdkVersion},
      {"browser without installation", with(Browser(), [](auto& i) { i.installation_id.clear(); }), "web",
       false, ReceiptDecision::kNoIds},
      {"browser without application", with(Browser(), [](auto& i) { i.application_id.clear(); }), "web",
       false, ReceiptDecision::kNoIds},
      {"another sdk", with(Browser(), [](auto& i) { i.sdk_name = "service-android"; }), "web", false,
       ReceiptDecision::kUnknownSdk},
      {"sdk name in other case", with(Browser(), [](auto& i) { i.sdk_name = "Service-Browser"; }), "web",
       false, ReceiptDecision::kUnknownSdk},
      {"no sdk name", with(Browser(), [](auto& i) { i.sdk_name.clear(); }), "web", false,
       ReceiptDecision::kUnknownSdk},
      {"swift handled_error ios/ios", Swift("handled_error", "ios"), "ios", true,
       ReceiptDecision::kQualifies},
      {"swift user_report ios/ios", Swift("user_report", "ios"), "ios", true, ReceiptDecision::kQualifies},
      {"swift handled_error other/macos", Swift("handled_error", "macos"), "other", true,
       ReceiptDecision::kQualifies},
      {"swift with the flag off", Swift(), "ios", false, ReceiptDecision::kNativeDisabled},
      {"swift fatal", Swift("fatal"), "ios", true, ReceiptDecision::kNativeSource},
      {"swift crash", Swift("crash"), "ios", true, ReceiptDecision::kNativeSource},
      {"swift automatic", Swift("automatic"), "ios", true, ReceiptDecision::kNativeSource},
      {"swift legacy null source", Swift(""), "ios", true, ReceiptDecision::kNativeSource},
      {"swift ios/macos", Swift("handled_error", "macos"), "ios", true, ReceiptDecision::kNativePlatformOs},
      {"swift other/ios", Swift("handled_error", "ios"), "other", true, ReceiptDecision::kNativePlatformOs},
      {"swift web/ios", Swift(), "web", true, ReceiptDecision::kNativePlatformOs},
      {"swift ios/ipados", Swift("handled_error", "ipados"), "ios", true, ReceiptDecision::kNativePlatformOs},
      {"swift without osFamily", Swift("handled_error", ""), "ios", true, ReceiptDecision::kNativePlatformOs},
      {"swift framework swiftui", with(Swift(), [](auto& i) { i.framework = "swiftui"; }), "ios", true,
       ReceiptDecision::kNativeFramework},
      {"swift without framework", with(Swift(), [](auto& i) { i.framework.clear(); }), "ios", true,
       ReceiptDecision::kNativeFramework},
      {"swift runtime objc", with(Swift(), [](auto& i) { i.runtime = "objc"; }), "ios", true,
       ReceiptDecision::kNativeRuntime},
      {"swift without version", with(Swift(), [](auto& i) { i.sdk_version.clear(); }), "ios", true,
       ReceiptDecision::kNoSdkVersion},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    CHECK(ReceiptDecisionName(DecideReceipt(r.id, r.platform, r.native_on)) == ReceiptDecisionName(r.want));
  }
}

TEST_CASE("applications: metadata.capture and metadata.evidence are read leniently, as sent") {
  json::object m =
      json::parse(R"({"capture": {"applicationId": "A", "installationId": "I", "sdkName": "service-browser",
      "sdkVersion": "2", "source": "automatic", "framework": 5, "runtime": null, "osFamily": "web",
      "captureId": "c-1", "extra": true}, "evidence": ["e1", 7, "", "e2"]})")
          .as_object();
  std::optional<CaptureIdentity> id = capture::ReadCaptureIdentity(m);
  REQUIRE(id);
  CHECK(id->application_id == "A");
  CHECK(id->installation_id == "I");
  CHECK(id->sdk_name == "service-browser");
  CHECK(id->sdk_version == "2");
  CHECK(id->source == "automatic");
  CHECK(id->framework.empty());  // not a string
  CHECK(id->runtime.empty());    // null
  CHECK(id->os_family == "web");
  CHECK(id->capture_id == "c-1");
  CHECK(capture::ReadEvidenceIds(m) == std::vector<std::string>{"e1", "e2"});

  CHECK_FALSE(capture::ReadCaptureIdentity(json::object{}));
  CHECK_FALSE(capture::ReadCaptureIdentity(json::parse(R"({"capture": "x"})").as_object()));
  CHECK_FALSE(capture::ReadCaptureIdentity(json::parse(R"({"capture": ["x"]})").as_object()));
  CHECK(capture::ReadCaptureIdentity(json::parse(R"({"capture": {}})").as_object()));
  CHECK(capture::ReadEvidenceIds(json::parse(R"({"evidence": "e1"})").as_object()).empty());
  // Too long members read as absent; at most kMaxEvidenceIds ids.
  json::object long_value{{"capture", json::object{{"sdkName", std::string(201, 'x')}}}};
  CHECK(capture::ReadCaptureIdentity(long_value)->sdk_name.empty());
  json::array many;
  for (int i = 0; i < 150; ++i) many.emplace_back("e" + std::to_string(i));
  CHECK(capture::ReadEvidenceIds(json::object{{"evidence", many}}).size() == capture::kMaxEvidenceIds);
}

TEST_CASE("applications: strict create bodies") {
  struct Row {
    const char* body;
    bool ok;
    const char* message_part;
  };
  const std::string req = kReq;
  const std::vector<Row> apps = {
      {R"({"requestId":"0190F000-0000-7000-8000-00000000000C","name":" Shop ","identifier":"com.example.shop"})",
       true, ""},
      {R"({"name":"Shop","identifier":"com.example.shop"})", false, "requestId is required"},
      {R"({"requestId":"nope","name":"Shop","identifier":"x"})", false, "requestId must be a UUID"},
      {R"({"requestId":7,"name":"Shop","identifier":"x"})", false, "requestId must be a string"},
      {R"({"requestId":"0190f000-0000-7000-8000-00000000000c","name":"  ","identifier":"x"})", false,
       "name must not be empty"},
      {R"({"requestId":"0190f000-0000-7000-8000-00000000000c","name":"Shop","identifier":"a b"})", false,
       "identifier must not contain white space"},
      {R"({"requestId":"0190f000-0000-7000-8000-00000000000c","name":"Shop"})", false,
       "identifier is required"},
      {R"({"requestId":"0190f000-0000-7000-8000-00000000000c","name":"Shop","identifier":"x","extra":1})",
       false, "Unknown field: extra"},
      {R"([1])", false, "Body must be a JSON object"},
  };
  for (const Row& r : apps) {
    CAPTURE(r.body);
    Result<ApplicationRequest> p = ParseApplicationRequest(json::parse(r.body));
    CHECK(p.ok() == r.ok);
    if (p.ok()) {
      CHECK(p->request_id == req);  // lower-cased
      CHECK(p->name == "Shop");     // trimmed
    } else {
      CHECK(p.status().error_code() == kValidationError);
      CHECK(p.status().message().find(r.message_part) != std::string::npos);
    }
  }
  CHECK_FALSE(ParseApplicationRequest(
                  json::object{{"requestId", req}, {"name", std::string(201, 'n')}, {"identifier", "x"}})
                  .ok());
  CHECK(ParseApplicationRequest(
            json::object{{"requestId", req}, {"name", std::string(200, 'n')}, {"identifier", "x"}})
            .ok());

  Result<InstallationRequest> inst = ParseInstallationRequest(json::object{{"requestId", req}});
  REQUIRE(inst.ok());
  CHECK_FALSE(inst->label);
  CHECK_FALSE(ParseInstallationRequest(json::object{{"requestId", req}, {"label", nullptr}})->label);
  CHECK(*ParseInstallationRequest(json::object{{"requestId", req}, {"label", "Pixel lab"}})->label ==
        "Pixel lab");
  CHECK_FALSE(ParseInstallationRequest(json::object{{"requestId", req}, {"label", ""}}).ok());
  CHECK_FALSE(ParseInstallationRequest(json::object{{"requestId", req}, {"label", 3}}).ok());
  CHECK_FALSE(ParseInstallationRequest(json::object{{"requestId", req}, {"name", "x"}}).ok());

  const std::string sha(64, 'A');
  Result<BuildRequest> b = ParseBuildRequest(
      json::object{{"requestId", req}, {"sourceRevision", "abc123"}, {"artifactSha256", sha}});
  REQUIRE(b.ok());
  CHECK(b->artifact_sha256 == std::string(64, 'a'));
  CHECK_FALSE(ParseBuildRequest(
                  json::object{{"requestId", req}, {"sourceRevision", "abc"}, {"artifactSha256", sha + "0"}})
                  .ok());
  CHECK_FALSE(ParseBuildRequest(json::object{{"requestId", req},
                                             {"sourceRevision", "abc"},
                                             {"artifactSha256", std::string(64, 'g')}})
                  .ok());
  CHECK_FALSE(ParseBuildRequest(json::object{{"requestId", req}, {"artifactSha256", sha}}).ok());
  CHECK_FALSE(
      ParseBuildRequest(json::object{{"requestId", req}, {"sourceRevision", "a b"}, {"artifactSha256", sha}})
          .ok());
}

TEST_CASE("applications: cursors name their list, garbled ones are 400, another list's 404") {
  const std::string project = "0190f000-0000-7000-8000-000000000001";
  const std::string other = "0190f000-0000-7000-8000-000000000002";
  const std::string row = "0190f000-0000-7000-8000-000000000003";
  const std::string c = EncodeCursor(ListKind::kApplications, project, {1234, row});
  Result<CursorPosition> back = DecodeCursor(ListKind::kApplications, project, c);
  REQUIRE(back.ok());
  CHECK(back->created_at == 1234);
  CHECK(back->id == row);
  CHECK(DecodeCursor(ListKind::kApplications, other, c).status().error_code() == kCursorNotFound);
  CHECK(DecodeCursor(ListKind::kBuilds, project, c).status().code() == Code::kNotFound);
  for (const std::string& bad : {std::string(""), std::string("!!"), std::string("abc"), c + "=", c.substr(1),
                                 std::string(500, 'A')}) {
    CAPTURE(bad);
    CHECK(DecodeCursor(ListKind::kApplications, project, bad).status().error_code() == kInvalidCursor);
  }
}

TEST_CASE("applications: client capture ids") {
  CHECK(IsUsableClientCaptureId("0190f000-0000-7000-8000-000000000001"));
  CHECK(IsUsableClientCaptureId("cap:42"));
  CHECK_FALSE(IsUsableClientCaptureId(""));
  CHECK_FALSE(IsUsableClientCaptureId("a b"));
  CHECK_FALSE(IsUsableClientCaptureId(std::string(129, 'x')));
  CHECK_FALSE(IsUsableClientCaptureId("caf\xc3\xa9"));
}

}  // namespace
}  // namespace service::domain::applications
