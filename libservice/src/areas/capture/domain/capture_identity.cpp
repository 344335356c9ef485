#include "areas/capture/domain/capture_identity.h"

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

namespace service::domain::capture {
namespace {

std::string Member(const boost::json::object& o, std::string_view key) {
  const boost::json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string() || v->get_string().size() > kMaxIdentityChars) return {};
  return std::string(v->get_string());
}

}  // namespace

std::optional<CaptureIdentity> ReadCaptureIdentity(const boost::json::object& metadata) {
  const boost::json::value* v = metadata.if_contains("capture");
  if (v == nullptr || !v->is_object()) return std::nullopt;
  const boost::json::object& o = v->get_object();
  CaptureIdentity id;
  id.application_id = Member(o, "applicationId");
  id.installation_id = Member(o, "installationId");
  id.sdk_name = Member(o, "sdkName");
  id.sdk_version = Member(o, "sdkVersion");
  id.source = Member(o, "source");
  id.framework = Member(o, "framework");
  id.runtime = Member(o, "runtime");
  id.os_family = Member(o, "osFamily");
  id.capture_id = Member(o, "captureId");
  return id;
}

std::vector<std::string> ReadEvidenceIds(const boost::json::object& metadata) {
  std::vector<std::string> ids;
  const boost::json::value* v = metadata.if_contains("evidence");
  if (v == nullptr || !v->is_array()) return ids;
  for (const boost::json::value& e : v->get_array()) {
    if (ids.size() >= kMaxEvidenceIds) break;
    if (!e.is_string() || e.get_string().empty() || e.get_string().size() > kMaxEvidenceIdChars) continue;
    ids.emplace_back(e.get_string());
  }
  return ids;
}

}  // namespace service::domain::capture
