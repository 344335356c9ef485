// The settings tables are the one list of settings: the library's
// (service::Settings(): the platform's rows and each area's) and the bundled
// server's transport rows (shells/server/transport_settings.h). ApplySetting,
// the shell's --help and flags, and the configuration table of
// docs/configuration.md follow them (the README's short table is a subset).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "service/options.h"
#include "transport_settings.h"

namespace {

using service::Options;
using service::SettingInfo;

// What every row documents, whichever table it is in.
struct Documented {
  std::string_view variable;
  std::string_view flag;
  std::string_view value_hint;
  std::string_view meaning;
  std::string_view default_text;
};

// The library's rows, then the shell's.
std::vector<Documented> AllRows() {
  std::vector<Documented> rows;
  for (const SettingInfo& s : service::Settings())
    rows.push_back({s.variable, s.flag, s.value_hint, s.meaning, s.default_text});
  for (const service::shell::TransportSetting& s : service::shell::TransportSettings())
    rows.push_back({s.variable, s.flag, s.value_hint, s.meaning, s.default_text});
  return rows;
}

// The configuration table of a Markdown page: the rows (lines starting
// "| `") of the section whose heading line is `heading`, up to the next
// heading.
std::vector<std::string> TableRows(const std::string& relative_path, const std::string& heading) {
  std::ifstream in(std::string(SERVICE_SOURCE_DIR) + "/" + relative_path);
  REQUIRE_MESSAGE(in.good(), relative_path);
  std::string line;
  bool in_section = false;
  std::vector<std::string> rows;
  const std::regex any_heading(R"(^#{1,6} )");
  while (std::getline(in, line)) {
    if (std::regex_search(line, any_heading)) {
      in_section = line == heading;
      continue;
    }
    if (in_section && line.rfind("| `", 0) == 0) rows.push_back(line);
  }
  return rows;
}

// Each variable named in a row's first column, with the flag named in the
// same cell ("" when none).
std::map<std::string, std::string> SettingsOf(const std::vector<std::string>& rows) {
  std::map<std::string, std::string> out;
  const std::regex variable(R"(`(SERVICE_[A-Z0-9_]+)`)");
  const std::regex flag(R"(`(--[a-z-]+)`)");
  for (const std::string& line : rows) {
    const std::string first_cell = line.substr(1, line.find('|', 1) - 1);
    std::smatch f;
    const std::string flag_name = std::regex_search(first_cell, f, flag) ? f[1].str() : "";
    for (auto it = std::sregex_iterator(first_cell.begin(), first_cell.end(), variable);
         it != std::sregex_iterator(); ++it) {
      out[(*it)[1].str()] = flag_name;
    }
  }
  return out;
}

// docs/configuration.md holds every setting; the README's "### Configuration"
// shows the most used ones.
std::map<std::string, std::string> DocumentedSettings() {
  return SettingsOf(TableRows("docs/configuration.md", "# Configuration"));
}

}  // namespace

TEST_CASE("docs/configuration.md lists exactly the settings tables, flags included") {
  const std::map<std::string, std::string> readme = DocumentedSettings();
  REQUIRE_FALSE(readme.empty());
  std::set<std::string> table;
  for (const Documented& s : AllRows()) {
    table.insert(std::string(s.variable));
    auto it = readme.find(std::string(s.variable));
    CHECK_MESSAGE(it != readme.end(), s.variable,
                  " is a setting but not a row of the table in docs/configuration.md");
    if (it != readme.end()) {
      CHECK_MESSAGE(it->second == s.flag, s.variable, ": docs/configuration.md names flag '", it->second,
                    "', the table '", s.flag, "'");
    }
  }
  for (const auto& entry : readme) {
    const auto& variable = entry.first;
    CHECK_MESSAGE(table.count(variable) == 1, variable,
                  " is in the table of docs/configuration.md but not a setting");
  }
}

TEST_CASE("the README's short configuration table is rows of docs/configuration.md") {
  const std::vector<std::string> full = TableRows("docs/configuration.md", "# Configuration");
  const std::vector<std::string> readme = TableRows("README.md", "### Configuration");
  REQUIRE_FALSE(readme.empty());
  CHECK(readme.size() < full.size());
  const std::set<std::string> rows(full.begin(), full.end());
  for (const std::string& row : readme) {
    CHECK_MESSAGE(rows.count(row) == 1,
                  "README.md's row is not a row of docs/configuration.md (copy it from there): ", row);
  }
}

TEST_CASE("every setting is documented once, in one table or the other") {
  std::set<std::string_view> seen_variables, seen_flags;
  for (const Documented& s : AllRows()) {
    CAPTURE(s.variable);
    CHECK(s.variable.rfind("SERVICE_", 0) == 0);
    CHECK(seen_variables.insert(s.variable).second);
    if (!s.flag.empty()) {
      CHECK(s.flag.rfind("--", 0) == 0);
      CHECK_FALSE(s.value_hint.empty());
      CHECK(seen_flags.insert(s.flag).second);
    }
    CHECK_FALSE(s.meaning.empty());
    CHECK_FALSE(s.default_text.empty());
  }
}

TEST_CASE("every setting applies and takes an empty value as its default") {
  for (const SettingInfo& s : service::Settings()) {
    CAPTURE(s.variable);
    REQUIRE(static_cast<bool>(s.apply));
    Options options;
    CHECK(s.apply(options, "").ok());
    CHECK(service::ApplySetting(options, s.variable, "").ok());
  }
  for (const service::shell::TransportSetting& s : service::shell::TransportSettings()) {
    CAPTURE(s.variable);
    REQUIRE(static_cast<bool>(s.apply));
    service::shell::TransportOptions options;
    CHECK(s.apply(options, "").ok());
    CHECK(service::shell::ApplyTransportSetting(options, s.variable, "").ok());
  }
  CHECK(service::ConfigVariableNames().size() == service::Settings().size());
}

TEST_CASE("a bad value fails with a message naming the setting") {
  const std::map<std::string, std::string> bad = {
      {"SERVICE_LISTEN", "no-port"},
      {"SERVICE_DATABASE_URL", "mysql://x"},
      {"SERVICE_ENV", "staging"},
      {"SERVICE_JWT_SECRET", "short"},
      {"SERVICE_SUPERADMIN_EMAILS", "not-an-email"},
      {"SERVICE_MAIL_URL", "ftp://mail"},
      {"SERVICE_REQUIRE_EMAIL_VERIFICATION", "maybe"},
      {"SERVICE_PUBLIC_URL", "ftp://x"},
      {"SERVICE_TRUST_PROXY", "maybe"},
      {"SERVICE_RATE_LIMITS", "general=-1"},
      {"SERVICE_PLAN_LIMITS", "gold:projects=1"},
      {"SERVICE_CORS_ORIGINS", "not a url"},
      {"SERVICE_AI_URL", "ftp://x"},
      {"SERVICE_ALLOW_PRIVATE_DESTINATIONS", "maybe"},
  };
  for (const auto& entry : bad) {
    const auto& variable = entry.first;
    const auto& value = entry.second;
    CAPTURE(variable);
    Options options;
    const service::Status s = service::ApplySetting(options, variable, value);
    CHECK_FALSE(s.ok());
    CHECK(s.code() == service::Code::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(variable) != std::string::npos, s.message());
  }
  Options options;
  CHECK_FALSE(service::ApplySetting(options, "SERVICE_NOPE", "1").ok());
}
