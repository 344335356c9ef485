// libFuzzer target for the ingest body: the bytes of a POST /v1/ingest
// request through the validator (api::ParseIngestBody) and, when accepted,
// through the fingerprint and the signal classification, as the ingest use
// case runs them. Built only with Clang, with the whole library instrumented
// (tests/fuzz/CMakeLists.txt):
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++
//         -DCMAKE_C_COMPILER=clang -DSERVICE_FUZZ=ON
//   ninja -C build-fuzz ingest_fuzz
//   build-fuzz/tests/fuzz/ingest_fuzz -dict=tests/fuzz/ingest.dict -max_len=8192
//       -max_total_time=600 /tmp/ingest-corpus tests/fuzz/ingest_corpus
// (each command on one line).
// What it checks, beyond "no crash, no sanitizer report, no exception":
//   refused: a 400 "Validation failed" or invalid JSON, never another code;
//   accepted: the limits of Spec 1's ingest table hold (title 1-500
//   characters, at most 1,000 events, text without NUL or invalid UTF-8,
//   metadata an object or absent), the fingerprint is 16 lower-case hex
//   characters, and the classification is one of the three classes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "areas/capture/api/capture_validation.h"
#include "areas/capture/domain/classify.h"
#include "areas/capture/domain/event.h"
#include "areas/capture/domain/fingerprint.h"
#include "service/status.h"
#include "util/strings.h"

namespace {

void Check(bool ok, const char* what, std::string_view in) {
  if (ok) return;
  std::fprintf(stderr, "%s\n  in: %.*s\n", what, static_cast<int>(in.size() > 2000 ? 2000 : in.size()),
               in.data());
  std::abort();
}

bool CleanText(std::string_view s) {
  return service::util::IsValidUtf8(s) && s.find('\0') == std::string_view::npos;
}

bool CleanOptional(const std::optional<std::string>& s) { return !s || CleanText(*s); }

bool LowerHex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace domain = service::domain;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  constexpr int64_t kNow = 1767225600000;  // 2026-01-01

  auto parsed = service::api::ParseIngestBody(in, kNow);
  if (!parsed.ok()) {
    Check(parsed.status().code() == service::Code::kInvalidArgument, "refused with a code other than 400",
          in);
    return 0;
  }
  const service::app::capture::ReportInput& r = *parsed;
  const size_t title_chars = service::util::Utf8Length(r.title);
  Check(title_chars >= 1 && title_chars <= 500, "accepted a title outside 1-500 characters", in);
  Check(r.events.size() <= service::api::kMaxIngestEvents, "accepted more than 1,000 events", in);
  Check(CleanText(r.title) && CleanText(r.description) && CleanText(r.url) && CleanText(r.severity),
        "accepted text with NUL or invalid UTF-8", in);
  Check(CleanOptional(r.user_agent) && CleanOptional(r.viewport) && CleanOptional(r.reporter_email) &&
            CleanOptional(r.reporter_id) && CleanOptional(r.session_id) && CleanOptional(r.user_id) &&
            CleanOptional(r.release) && CleanOptional(r.environment) && CleanOptional(r.platform) &&
            CleanOptional(r.device) && CleanOptional(r.os_version),
        "accepted an optional field with NUL or invalid UTF-8", in);
  Check(r.metadata.is_null() || r.metadata.is_object(), "accepted metadata that is not an object", in);

  const domain::capture::Fingerprint fp =
      domain::capture::FingerprintReport(r.events, /*is_manual=*/false, r.title, r.url);
  Check(fp.short_hex.size() == 16 && LowerHex(fp.short_hex), "fingerprint is not 16 lower-case hex", in);
  Check(fp.sha256_hex.rfind(fp.short_hex, 0) == 0, "fingerprint is not the hash's prefix", in);
  Check(service::util::IsValidUtf8(fp.canonical), "fingerprint input is not valid UTF-8", in);

  const domain::capture::Classification c = domain::capture::Classify(
      domain::capture::ClassifyInput{r.events, r.title, domain::capture::AutoReportKind(r.metadata)});
  Check(c.signal_class == domain::capture::kSignalIssue || c.signal_class == domain::capture::kSignalWatch ||
            c.signal_class == domain::capture::kSignalDiagnostic,
        "unknown signal class", in);
  Check(!c.signal_family.empty() && !c.signal_reason.empty() && !c.classifier_confidence.empty(),
        "empty classification field", in);
  return 0;
}
