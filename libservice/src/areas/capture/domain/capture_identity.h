// The managed capture identity and the evidence ids an ingest names in its
// metadata (contract "Capture identity (applications and receipts)" and
// "Evidence"): `metadata.capture` (an object) and `metadata.evidence` (an
// array of strings). Read leniently: the metadata object stays free-form
// (Spec 1), so nothing here refuses a report; a member of the wrong type
// reads as absent. Pure functions; safe from any thread.
#pragma once

#include <boost/json/object.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace service::domain::capture {

// `metadata.capture`, every member as sent: a member that is absent, not a
// string, or longer than kMaxIdentityChars bytes reads as "" (so such a
// capture never matches a managed identity).
struct CaptureIdentity {
  std::string application_id;   // applicationId
  std::string installation_id;  // installationId
  std::string sdk_name;         // sdkName
  std::string sdk_version;      // sdkVersion
  std::string source;           // source
  std::string framework;        // framework
  std::string runtime;          // runtime
  std::string os_family;        // osFamily
  std::string capture_id;       // captureId: the client's id of this capture, kept across its retries
};

inline constexpr size_t kMaxIdentityChars = 200;
// At most this many evidence ids are read; longer strings are skipped.
inline constexpr size_t kMaxEvidenceIds = 100;
inline constexpr size_t kMaxEvidenceIdChars = 64;

// `metadata.capture` when it is an object, else nullopt.
std::optional<CaptureIdentity> ReadCaptureIdentity(const boost::json::object& metadata);

// The strings of `metadata.evidence` when it is an array (others skipped,
// see the limits above), else empty.
std::vector<std::string> ReadEvidenceIds(const boost::json::object& metadata);

}  // namespace service::domain::capture
