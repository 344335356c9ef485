// libFuzzer target for the capture scanners (message normalization, URL
// patterns, user agents). Built only with Clang (tests/fuzz/CMakeLists.txt):
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang
//   ninja -C build-fuzz capture_fuzz
//   build-fuzz/tests/fuzz/capture_fuzz -dict=tests/fuzz/capture.dict -max_len=512 \
//       -max_total_time=60 /tmp/capture-corpus tests/fuzz/corpus
// Any crash, sanitizer report or broken promise (below) aborts the run.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "areas/capture/domain/normalize.h"
#include "areas/capture/domain/text.h"
#include "areas/capture/domain/user_agent.h"

namespace {

using service::domain::text::Utf8SeqLen;

bool ValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t l = Utf8SeqLen(s, i);
    if (l == 0) return false;
    i += l;
  }
  return true;
}

void Check(bool ok, const char* what, std::string_view in, std::string_view out) {
  if (ok) return;
  std::fprintf(stderr, "%s\n  in:  %.*s\n  out: %.*s\n", what, static_cast<int>(in.size()), in.data(),
               static_cast<int>(out.size()), out.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);

  const std::string message = service::domain::capture::NormalizeMessage(in);
  Check(ValidUtf8(message), "NormalizeMessage: invalid UTF-8", in, message);
  Check(message.find("  ") == std::string::npos, "NormalizeMessage: double space", in, message);
  Check(message.empty() || (message.front() != ' ' && message.back() != ' '), "NormalizeMessage: untrimmed",
        in, message);
  for (unsigned char c : message)
    Check(c >= 0x20 && c != 0x7f, "NormalizeMessage: control character", in, message);
  Check(service::domain::capture::NormalizeMessage(message) == message, "NormalizeMessage: not idempotent",
        in, message);

  const std::string url = service::domain::capture::UrlPattern(in);
  for (unsigned char c : url) Check(c > 0x20 && c < 0x7f, "UrlPattern: not printable ASCII", in, url);
  Check(service::domain::capture::UrlPattern(url) == url, "UrlPattern: not idempotent", in, url);

  const std::string platform = service::domain::capture::InferPlatform(in);
  Check(!platform.empty(), "InferPlatform: empty", in, platform);
  const auto info = service::domain::capture::ParseUserAgent(in);
  Check(ValidUtf8(info.browser_version) && ValidUtf8(info.os_version), "ParseUserAgent: invalid version", in,
        info.browser_version);
  return 0;
}
