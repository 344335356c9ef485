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

// Runs `command`, returns its exit status and what it printed.
std::pair<int, std::string> RunCapture(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return {-1, "popen failed"};
  std::array<char, 4096> buf{};
  while (size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  return {::pclose(p), out};
}

void RequireBrowser() {
  REQUIRE_MESSAGE(
      std::filesystem::exists(BrowserDir() + "/node_modules/puppeteer-core"),
      "puppeteer-core is not installed: scripts/install-deps.sh --test runs npm ci in tests/browser");
  REQUIRE_MESSAGE(std::filesystem::exists("/usr/bin/chromium"),
                  "Chromium is not installed: scripts/install-deps.sh --test installs Debian's chromium");
}

}  // namespace

TEST_CASE("a person signs up, sees a report arrive live, resolves and comments on it in the browser") {
  RequireBrowser();
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
  const auto [status, out] = RunCapture(command);
  MESSAGE(out);
  CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), out);
}

// tests/browser/operations.mjs: the operator approves a waitlist entry, the
// person completes signup through the mailed link, a support session shows
// its banner; an admin's budget stops a credit purchase with the 402
// figures; a ticket moves across the board. On SQLite files, and on one
// PostgreSQL database shared by every server of the run when the test has
// one.
TEST_CASE("an operator, a billing admin and a ticket board in the browser, on each backend") {
  RequireBrowser();
  const std::string shots = std::filesystem::current_path().string() + "/operations-screenshots";
  service::e2e::TempDir dir;
  for (const service::e2e::Backend& backend : service::e2e::Backends(dir)) {
    const std::string database = backend.name == "sqlite" ? "" : backend.url;
    const std::string command = "cd '" + BrowserDir() + "' && OPS_DATABASE='" + database +
                                "' timeout 300 node operations.mjs '" + std::string(SERVICE_SERVER_BINARY) +
                                "' '" + shots + "/" + backend.name + "' /usr/bin/chromium 2>&1";
    const auto [status, out] = RunCapture(command);
    MESSAGE(backend.name, ": ", out);
    CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), (backend.name + ": " + out));
  }
}

// tests/browser/agents.mjs: an agent token made in the console reads a bug
// and is edited and revoked; "Hand to an agent" reaches an agent channel and
// the project's agent settings turn on auto-notify. On SQLite files, and on one
// PostgreSQL database shared by every server of the run when the test has
// one.
TEST_CASE("agent tokens and the handoff in the browser, on each backend") {
  RequireBrowser();
  const std::string shots = std::filesystem::current_path().string() + "/agents-screenshots";
  service::e2e::TempDir dir;
  for (const service::e2e::Backend& backend : service::e2e::Backends(dir)) {
    const std::string database = backend.name == "sqlite" ? "" : backend.url;
    const std::string command = "cd '" + BrowserDir() + "' && OPS_DATABASE='" + database +
                                "' timeout 300 node agents.mjs '" + std::string(SERVICE_SERVER_BINARY) +
                                "' '" + shots + "/" + backend.name + "' /usr/bin/chromium 2>&1";
    const auto [status, out] = RunCapture(command);
    MESSAGE(backend.name, ": ", out);
    CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), (backend.name + ": " + out));
  }
}
