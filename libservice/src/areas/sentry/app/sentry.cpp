#include "areas/sentry/app/sentry.h"

#include <boost/json.hpp>

#include "app/retention.h"
#include "areas/capture/app/ingest.h"
#include "areas/capture/app/runtime.h"
#include "areas/sentry/domain/envelope.h"
#include "areas/sentry/domain/event.h"
#include "util/crypto.h"
#include "util/decompress.h"

namespace service::app::sentry {
namespace {

namespace json = boost::json;

constexpr size_t kArenaBytes = 32 * 1024;

Result<json::object> ParseObject(std::string_view text, const char* what, json::storage_ptr sp = {}) {
  json::parse_options opts;
  opts.max_depth = 64;
  boost::system::error_code ec;
  json::value v = json::parse(text, ec, std::move(sp), opts);
  if (ec || !v.is_object()) return InvalidArgument(std::string(what) + " is not a JSON object");
  return std::move(v.get_object());
}

// The legacy store body: JSON, or base64 of zlib-compressed JSON.
Result<json::object> StoreBody(std::string_view body, const json::storage_ptr& sp) {
  size_t i = 0;
  while (i < body.size() && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t')) ++i;
  if (i < body.size() && body[i] == '{') return ParseObject(body, "the event", sp);
  // Base64 in either alphabet, possibly wrapped and padded.
  std::string compact;
  for (char c : body) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
    if (c != '\n' && c != '\r' && c != ' ' && c != '=') compact.push_back(c);
  }
  std::string raw;
  if (!util::Base64UrlDecode(compact, &raw)) return InvalidArgument("the body is neither JSON nor base64");
  SV_ASSIGN_OR_RETURN(std::string inflated,
                      util::Decompress(raw, util::Encoding::kDeflate, kMaxDecompressedBytes));
  return ParseObject(inflated, "the event", sp);
}

std::string NewEventId(const capture::CaptureDeps& deps) {
  std::string id;
  for (char c : deps.ids->NewId()) {
    if (c != '-') id.push_back(c);
  }
  return id;
}

capture::ReportInput ToReport(domain::sentry::MappedEvent m, const std::string& event_id) {
  capture::ReportInput in;
  in.title = std::move(m.title);
  in.description = std::move(m.description);
  in.severity = std::move(m.severity);
  in.url = std::move(m.url);
  in.user_agent = std::move(m.user_agent);
  in.events = std::move(m.events);
  in.reporter_email = std::move(m.user_email);
  in.user_id = std::move(m.user_id);
  in.release = std::move(m.release);
  in.environment = std::move(m.environment);
  in.platform = std::move(m.platform);
  m.metadata["autoReport"] = "sentry";
  in.metadata = std::move(m.metadata);
  in.fingerprint_parts = std::move(m.fingerprint);
  in.delivery_id = "sentry:" + event_id;
  return in;
}

// The error event's frames through the source map resolver; true when one
// was resolved (then data.stack is the stack as resolved and
// data.minified_stack the one as sent).
bool ResolveFrames(FrameResolver& resolver, const capture::ReportSource& source, const json::object& event,
                   domain::sentry::MappedEvent& m) {
  if (m.events.empty() || m.events.back().type != "error") return false;
  json::object* data = m.events.back().data.if_object();
  if (data == nullptr) return false;
  json::value* frames = data->if_contains("frames");
  if (frames == nullptr || !frames->is_array() || frames->get_array().empty()) return false;
  if (resolver.Resolve(source.org_id, source.project_id, event, frames->get_array()) == 0) return false;
  json::value sent = data->contains("stack") ? data->at("stack") : json::value();
  std::string_view headline = sent.is_string() ? std::string_view(sent.get_string()) : std::string_view();
  headline = headline.substr(0, headline.find('\n'));
  std::string resolved = domain::sentry::StackText(frames->get_array(), headline);
  (*data)["minified_stack"] = std::move(sent);
  (*data)["stack"] = std::move(resolved);
  return true;
}

}  // namespace

Status ForgetOldDeliveries(const SentryDeps& deps) {
  const capture::CaptureDeps& cap = *deps.capture;
  const int64_t before = cap.Now() - cap.retention.sentry_event_ids_ms;
  return SweepInBatches(*cap.db, kRetentionBatchRows,
                        [&](ports::Tx& tx, int64_t limit) {
                          return cap.capture_bugs->ForgetDeliveries(tx, before, limit);
                        })
      .status();
}

std::string KeyFromDsn(std::string_view dsn) {
  const size_t scheme = dsn.find("://");
  if (scheme == std::string_view::npos) return {};
  std::string_view rest = dsn.substr(scheme + 3);
  const size_t at = rest.find('@');
  const size_t slash = rest.find('/');
  if (at == std::string_view::npos || (slash != std::string_view::npos && slash < at)) return {};
  std::string_view user = rest.substr(0, at);
  return std::string(user.substr(0, user.find(':')));  // "public:secret" in old DSNs
}

std::string KeyFromAuthHeader(std::string_view value) {
  // "Sentry sentry_key=abc, sentry_version=7, sentry_client=..."
  const size_t at = value.find("sentry_key=");
  if (at == std::string_view::npos) return {};
  std::string_view rest = value.substr(at + 11);
  const size_t end = rest.find_first_of(", \t");
  return std::string(rest.substr(0, end));
}

Result<SentryResult> Receive(const SentryDeps& deps, const SentryRequest& req) {
  const capture::CaptureDeps& cap = *deps.capture;
  SentryResult out;
  // Everything parsed and mapped lives in one arena freed with the request
  // (as native ingest does): an event is a few hundred JSON values.
  json::monotonic_resource arena(kArenaBytes);
  const json::storage_ptr sp(&arena);

  // 1. The body: the events it carries (one for a store body).
  std::vector<json::object> events;
  std::string header_event_id;
  std::string key = req.key;
  if (req.envelope) {
    SV_ASSIGN_OR_RETURN(domain::sentry::Envelope env, domain::sentry::ParseEnvelope(req.body));
    if (const auto* id = env.header.if_contains("event_id"); id != nullptr && id->is_string()) {
      header_event_id = domain::sentry::NormalizeEventId(id->get_string());
    }
    if (key.empty()) {
      if (const auto* dsn = env.header.if_contains("dsn"); dsn != nullptr && dsn->is_string()) {
        key = KeyFromDsn(dsn->get_string());
      }
    }
    for (const domain::sentry::EnvelopeItem& item : env.items) {
      if (item.type != "event") {
        ++out.skipped;  // transaction, session(s), client_report, attachment, profile, replay, ...
        continue;
      }
      SV_ASSIGN_OR_RETURN(json::object e, ParseObject(item.payload, "an event item", sp));
      events.push_back(std::move(e));
    }
  } else {
    SV_ASSIGN_OR_RETURN(json::object e, StoreBody(req.body, sp));
    events.push_back(std::move(e));
  }

  // 2. The key: an active capture key of this very project.
  if (key.empty()) return Status(Code::kUnauthenticated, "Missing sentry_key");
  SV_ASSIGN_OR_RETURN(capture::VerifiedKey verified, cap.capture->VerifyKey(key));
  if (verified.project_number != req.project_number) {
    return PermissionDenied("The key does not belong to project " + std::to_string(req.project_number));
  }
  capture::ReportSource source;
  source.org_id = verified.org_id;
  source.project_id = verified.project_id;
  source.project_name = verified.project_name;
  source.key_env = verified.env;
  source.plan = verified.plan;
  source.grouping_v3_shadow = verified.grouping_v3_shadow;
  source.user_agent_header = req.user_agent;

  // 3. Each event through the native pipeline. An envelope carries one
  //    event in practice; more are taken in order, the header's event_id
  //    standing for the first that has none.
  const int64_t now = cap.Now();
  for (size_t i = 0; i < events.size(); ++i) {
    domain::sentry::MappedEvent m = domain::sentry::MapEvent(events[i], now, sp);
    std::string event_id = m.event_id;
    if (event_id.empty() && i == 0) event_id = header_event_id;
    if (event_id.empty()) event_id = NewEventId(cap);
    if (out.event_id.empty()) out.event_id = i == 0 && !header_event_id.empty() ? header_event_id : event_id;
    capture::ReportSource src = source;
    src.client_ip = m.ip_address ? *m.ip_address : req.client_ip;
    const bool mapped = deps.frames != nullptr && ResolveFrames(*deps.frames, source, events[i], m);
    capture::ReportInput in = ToReport(std::move(m), event_id);
    in.source_mapped = mapped;
    Result<capture::IngestResult> r = capture::Ingest(cap, src, std::move(in));
    if (!r.ok()) {
      if (r.status().code() == Code::kConflict && r.status().error_code() == "DUPLICATE_DELIVERY") {
        ++out.duplicates;
        continue;
      }
      return r.status();
    }
    ++out.stored;
  }
  if (out.event_id.empty()) out.event_id = header_event_id.empty() ? NewEventId(cap) : header_event_id;
  return out;
}

}  // namespace service::app::sentry
