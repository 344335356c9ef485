// The web console in a real browser (tests/browser/console.mjs): Debian's
// headless Chromium driven by puppeteer-core (pinned in
// tests/browser/package-lock.json, installed by scripts/install-deps.sh
// --test) against real service-server processes: the demo (--demo), one
// with a tight rate limit (a 429 shown and recovered) and the main one.
// Screenshots go to <build>/console-screenshots (the README's three are
// copied from there to docs/screenshots).
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "server_process.h"

namespace {

std::string BrowserDir() { return std::string(SERVICE_SOURCE_DIR) + "/tests/browser"; }

}  // namespace

TEST_CASE("a person signs up, sees a report arrive live, resolves and comments on it in the browser") {
  REQUIRE_MESSAGE(
      std::filesystem::exists(BrowserDir() + "/node_modules/puppeteer-core"),
      "puppeteer-core is not installed: scripts/install-deps.sh --test runs npm ci in tests/browser");
  REQUIRE_MESSAGE(std::filesystem::exists("/usr/bin/chromium"),
                  "Chromium is not installed: scripts/install-deps.sh --test installs Debian's chromium");
  const std::string shots = std::filesystem::current_path().string() + "/console-screenshots";
  // The demo runs on PostgreSQL when the test has one (a fresh schema), the
  // other servers on SQLite files.
  service::e2e::TempDir dir;
  const std::vector<service::e2e::Backend> backends = service::e2e::Backends(dir);
  const std::string demo_database = backends.back().url;
  MESSAGE("demo on ", backends.back().name);
  const std::string command = "cd '" + BrowserDir() + "' && CONSOLE_DEMO_DATABASE='" + demo_database +
                              "' timeout 300 node console.mjs '" + std::string(SERVICE_SERVER_BINARY) +
                              "' '" + shots + "' /usr/bin/chromium 2>&1";
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  while (size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = ::pclose(p);
  MESSAGE(out);
  CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), out);
}
