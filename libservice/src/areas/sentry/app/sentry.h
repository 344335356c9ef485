// Sentry SDK compatibility (issue 13): envelopes and legacy store bodies
// sent by unmodified Sentry SDKs become reports of the capture pipeline
// (same grouping, counts, classification, stream and outbox as native
// ingest). See domain/sentry/event.h for the field mapping and the README's
// "Using a Sentry SDK".
//
// Thread-safety: safe from any thread.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "areas/capture/app/deps.h"
#include "service/status.h"

namespace service::app::sentry {

// Resolves minified frames through uploaded source maps (issue 31). The
// sourcemaps area, above this one, implements it and hands it over while
// the modules open (SentryModule::SetFrameResolver).
class FrameResolver {
 public:
  virtual ~FrameResolver() = default;
  // `event`: the SDK's event (debug_meta, release, dist); `frames`: the
  // stored error event's data.frames (Sentry's order). A resolved frame's
  // function, filename, abs_path, lineno and colno become the original's,
  // with context lines, the values as sent kept in `minified` and
  // `sourcemap` {resolved_with}; a frame it could not resolve keeps its
  // values with `sourcemap` {reason}. Frames are left untouched when the
  // project has no uploads. Returns how
  // many frames were resolved. Never fails: a missing or broken map, or a
  // storage error, leaves a reason.
  virtual int Resolve(const std::string& org_id, const std::string& project_id,
                      const boost::json::object& event, boost::json::array& frames) = 0;
};

struct SentryDeps {
  const capture::CaptureDeps* capture = nullptr;
  FrameResolver* frames = nullptr;  // null: frames stored as sent
};

// Most bytes a body may expand to when decompressed (gzip, deflate, br, or
// the legacy base64+zlib store body): beyond it, 413.
inline constexpr size_t kMaxDecompressedBytes = 20 * 1024 * 1024;

struct SentryRequest {
  int64_t project_number = 0;
  bool envelope = true;    // /envelope/ (else the legacy /store/)
  std::string key;         // from X-Sentry-Auth, Authorization or ?sentry_key; "" = none given
  std::string_view body;   // already decompressed per Content-Encoding
  std::string client_ip;   // after SERVICE_TRUST_PROXY
  std::string user_agent;  // the request's User-Agent
};

struct SentryResult {
  std::string event_id;  // the answer's id: the envelope's event_id, else the first event's, else generated
  int stored = 0;        // events stored now
  int duplicates = 0;    // events whose id was stored before
  int skipped = 0;       // items of other types (transaction, session, attachment, ...)
};

// Errors: kInvalidArgument (a malformed body; the message is the answer's
// `detail`), kUnauthenticated (no key, or not an active capture key),
// kPermissionDenied (a key of another project), kPaymentRequired (the
// plan's monthly bug limit; nothing of that event stored), kPayloadTooLarge.
Result<SentryResult> Receive(const SentryDeps& deps, const SentryRequest& request);

// Forgets event ids stored more than the capture deps'
// retention.sentry_event_ids_ms ago (SERVICE_RETENTION, default 30 days; a
// retry within it is not stored twice), in batches of kRetentionBatchRows
// (the hourly worker).
Status ForgetOldDeliveries(const SentryDeps& deps);

// The public key of a DSN ("https://KEY@host/42" -> "KEY"), or "".
std::string KeyFromDsn(std::string_view dsn);
// The sentry_key of an X-Sentry-Auth / Authorization: Sentry value, or "".
std::string KeyFromAuthHeader(std::string_view value);

}  // namespace service::app::sentry
