// SQL pieces of the capture area's rows that other areas' repositories read
// too (occurrences, end users). Written once for both backends.
#include "areas/capture/store/capture_sql.h"

namespace service::store {

std::string OccurrenceColumns(const char* alias) {
  static constexpr const char* kNames[] = {
      "id",          "bug_id",      "project_id",  "org_id",      "reporter_email", "reporter_id",
      "ip_hash",     "session_id",  "end_user_id", "user_key",    "user_kind",      "release_version",
      "environment", "url",         "user_agent",  "viewport",    "browser",        "os",
      "platform",    "event_count", "metadata",    "occurred_at", "created_at"};
  std::string out;
  for (const char* name : kNames) {
    if (!out.empty()) out += ", ";
    out += alias;
    out += name;
  }
  return out;
}

ports::Occurrence OccurrenceFromRow(const Rows& r, size_t i, size_t k) {
  ports::Occurrence o;
  o.id = r.Str(i, k++);
  o.bug_id = r.Str(i, k++);
  o.project_id = r.Str(i, k++);
  o.org_id = r.Str(i, k++);
  o.reporter_email = r.OptStr(i, k++);
  o.reporter_id = r.OptStr(i, k++);
  o.ip_hash = r.OptStr(i, k++);
  o.session_id = r.OptStr(i, k++);
  o.end_user_id = r.OptStr(i, k++);
  o.user_key = r.Str(i, k++);
  o.user_kind = r.Str(i, k++);
  o.release_version = r.OptStr(i, k++);
  o.environment = r.OptStr(i, k++);
  o.url = r.OptStr(i, k++);
  o.user_agent = r.OptStr(i, k++);
  o.viewport = r.OptStr(i, k++);
  o.browser = r.OptStr(i, k++);
  o.os = r.OptStr(i, k++);
  o.platform = r.Str(i, k++);
  o.event_count = r.Int(i, k++);
  o.metadata = r.Str(i, k++);
  o.occurred_at = r.Int(i, k++);
  o.created_at = r.Int(i, k++);
  return o;
}

const char* const kEndUserColumns =
    "org_id, user_key, kind, end_user_id, email, first_seen, last_seen, occurrence_count, platforms, "
    "last_release, last_environment, last_occurrence_id";

ports::EndUser EndUserFromRow(const Rows& r, size_t i) {
  ports::EndUser u;
  u.org_id = r.Str(i, 0);
  u.user_key = r.Str(i, 1);
  u.kind = r.Str(i, 2);
  u.end_user_id = r.OptStr(i, 3);
  u.email = r.OptStr(i, 4);
  u.first_seen = r.Int(i, 5);
  u.last_seen = r.Int(i, 6);
  u.occurrence_count = r.Int(i, 7);
  boost::system::error_code ec;
  boost::json::value platforms = boost::json::parse(r.Str(i, 8), ec);
  if (!ec && platforms.is_array()) {
    for (const auto& p : platforms.as_array()) {
      if (p.is_string()) u.platforms.emplace_back(p.as_string());
    }
  }
  u.last_release = r.OptStr(i, 9);
  u.last_environment = r.OptStr(i, 10);
  u.last_occurrence_id = r.OptStr(i, 11);
  return u;
}

}  // namespace service::store
