#include "areas/capture/app/ingest.h"

#include <boost/json.hpp>

#include "areas/capture/app/deps.h"
#include "areas/capture/app/report_writer.h"
#include "areas/capture/app/runtime.h"
#include "areas/capture/app/scrubbing.h"
#include "areas/capture/domain/classify.h"
#include "areas/capture/domain/embedding.h"
#include "areas/capture/domain/end_user.h"
#include "areas/capture/domain/fingerprint.h"
#include "areas/capture/domain/grouping_v3.h"
#include "areas/capture/domain/text.h"
#include "areas/capture/domain/user_agent.h"
#include "areas/capture/domain/vocabulary.h"
#include "areas/operations/domain/plans.h"
#include "util/json_writer.h"
#include "util/time.h"

namespace service::app::capture {
namespace {

namespace json = boost::json;

constexpr size_t kMaxUserAgentBytes = 2000;  // the header fallback, cut on a character boundary

// [{"type":..., "timestamp":..., "data":...}, ...] in submission order.
std::string EventsJson(const std::vector<domain::capture::Event>& events) {
  if (events.empty()) return {};
  std::string out;
  out.reserve(events.size() * 160);
  json::serializer sr;
  char buf[2048];
  out.push_back('[');
  for (size_t i = 0; i < events.size(); ++i) {
    const domain::capture::Event& e = events[i];
    if (i > 0) out.push_back(',');
    out += "{\"type\":";
    util::JsonWriter::AppendString(out, e.type);
    out += ",\"timestamp\":";
    out += std::to_string(e.timestamp_ms);
    out += ",\"data\":";
    sr.reset(&e.data);
    while (!sr.done()) out += sr.read(buf);
    out.push_back('}');
  }
  out.push_back(']');
  return out;
}

std::string MetadataJson(json::value& metadata, const ReportInput& in) {
  if (!metadata.is_object()) metadata = json::object();
  json::object& o = metadata.as_object();
  if (in.device) o["device"] = *in.device;
  if (in.os_version) o["osVersion"] = *in.os_version;
  return json::serialize(o);
}

std::optional<std::string> NonEmpty(std::string s) {
  if (s.empty()) return std::nullopt;
  return s;
}

// Shadow grouping: proposes the new bug as a duplicate of open bugs of its
// project in other groups (domain::capture::ProposeDuplicates). Evidence
// only, written after the report's own commit: a failure is logged and the
// report stands.
constexpr int64_t kDuplicatePeers = 200;  // the most recently seen open bugs compared

void ProposeDuplicatesFor(const CaptureDeps& deps, const ports::BugReportWrite& w, const std::string& bug_id,
                          const std::vector<int8_t>& embedding) {
  const std::string group_key = w.signature_hash.empty() ? bug_id : w.signature_hash;
  const Status st = deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(
        std::vector<ports::DuplicatePeerRecord> rows,
        deps.duplicates->Peers(tx, w.project_id, group_key, w.grouping_v3_key, kDuplicatePeers));
    std::vector<domain::capture::DuplicatePeer> peers;
    peers.reserve(rows.size());
    for (auto& row : rows) {
      std::vector<int8_t> v = domain::capture::DecodeEmbedding(row.embedding).value_or(std::vector<int8_t>());
      peers.push_back(
          {std::move(row.bug_id), std::move(row.group_key), std::move(row.identity_hash), std::move(v)});
    }
    const std::vector<domain::capture::DuplicateProposal> proposals =
        domain::capture::ProposeDuplicates({bug_id, group_key, w.grouping_v3_key, embedding}, peers);
    if (proposals.empty()) return Status::Ok();
    std::vector<ports::DuplicateCandidateWrite> writes;
    for (const auto& p : proposals) {
      writes.push_back({deps.ids->NewId(), p.other_bug_id, p.score, p.reason, p.confidence,
                        domain::capture::kDuplicateAlgorithm});
    }
    return deps.duplicates->Insert(tx, w.org_id, bug_id, writes, deps.Now());
  });
  if (!st.ok() && deps.log != nullptr) {
    deps.log->Log(LogLevel::kError, "duplicate proposals failed",
                  {{"bug_id", bug_id}, {"error", st.message()}});
  }
}

}  // namespace

Result<IngestResult> Ingest(const CaptureDeps& deps, const ReportSource& source, ReportInput in) {
  const int64_t now = deps.Now();

  // --- Scrubbing first: nothing below (fingerprint, signature, search
  //     text, stored JSON) ever sees a scrubbed value. ---
  bool store_ip = true;
  SV_RETURN_IF_ERROR(ScrubReport(deps, source, in, &store_ip));

  // --- Everything computable without the database, before the write. ---
  const std::string auto_kind =
      source.console_manual ? std::string() : domain::capture::AutoReportKind(in.metadata);
  const bool is_manual = domain::capture::FingerprintsAsManual(
      in.events, source.console_manual, domain::capture::IsMarkedUserReport(in.metadata));
  domain::capture::Fingerprint fp =
      domain::capture::FingerprintReport(in.events, is_manual, in.title, in.url);
  if (in.source_mapped && !is_manual) {
    // After scrubbing: a context line read from a map is scrubbed like the rest.
    const std::string stack_key = domain::capture::MappedStackKey(in.events);
    if (!stack_key.empty()) fp = domain::capture::ComputeStackFingerprint(fp.error_type, stack_key, in.url);
  }
  if (!in.fingerprint_parts.empty()) fp = domain::capture::CustomFingerprint(in.fingerprint_parts, fp);
  const domain::capture::Classification cls = domain::capture::Classify({in.events, in.title, auto_kind});

  std::optional<std::string> user_agent = std::move(in.user_agent);
  if (!user_agent && !source.user_agent_header.empty()) {
    user_agent = NonEmpty(domain::text::CleanText(source.user_agent_header, kMaxUserAgentBytes));
  }
  const std::string ua = user_agent.value_or("");
  const std::string platform = in.platform ? *in.platform : domain::capture::InferPlatform(ua);
  const domain::capture::UserAgentInfo ua_info = domain::capture::ParseUserAgent(ua);
  const std::string ip_hash = store_ip ? deps.capture->HashClientIp(source.client_ip) : std::string();
  const domain::capture::EndUserIdentity identity =
      domain::capture::EndUserKey(in.user_id.value_or(""), in.reporter_email.value_or(""), ip_hash);

  PreparedReport r;
  r.source = &source;
  r.delivery_id = std::move(in.delivery_id);
  r.capture_identity = std::move(in.capture_identity);
  r.evidence_ids = std::move(in.evidence_ids);
  if (in.reporter_email) r.reporter_email_key = domain::text::LowerAsciiCopy(*in.reporter_email);
  r.month = domain::operations::UsageMonth(now);
  r.bugs_per_month = domain::operations::LimitsFor(source.plan, deps.plan_limits).bugs_per_month;

  ports::Occurrence& occ = r.occurrence;
  occ.id = deps.ids->NewId();
  occ.project_id = source.project_id;
  occ.org_id = source.org_id;
  occ.reporter_email = in.reporter_email;
  occ.reporter_id = in.reporter_id;
  occ.ip_hash = NonEmpty(ip_hash);
  occ.session_id = in.session_id;
  occ.end_user_id = in.user_id;
  occ.user_key = identity.user_key;
  occ.user_kind = identity.kind;
  occ.release_version = in.release;
  occ.environment = in.environment;
  occ.url = NonEmpty(in.url);
  occ.user_agent = user_agent;
  occ.viewport = in.viewport;
  occ.browser = NonEmpty(ua_info.browser);
  occ.os = NonEmpty(ua_info.os);
  occ.platform = platform;
  occ.event_count = static_cast<int64_t>(in.events.size());
  occ.metadata = MetadataJson(in.metadata, in);
  occ.occurred_at = now;
  occ.created_at = now;
  occ.events_json = EventsJson(in.events);

  ports::BugReportWrite& w = r.bug_write;
  w.org_id = source.org_id;
  w.project_id = source.project_id;
  w.key_env = source.key_env;
  w.fingerprint = fp.short_hex;
  w.signature = fp.signature;
  w.signature_hash = fp.signature_hash;
  const std::vector<int8_t> embedding =
      domain::capture::Embed(domain::capture::SearchText(in.title, in.description, fp.signature));
  w.embedding = domain::capture::EncodeEmbedding(embedding);
  if (source.grouping_v3_shadow) {
    // Evidence of the bug's first occurrence; kept only when it creates the bug.
    const domain::capture::GroupingV3Evidence v3 =
        domain::capture::EvaluateGroupingV3(in.events, is_manual, fp.error_type);
    w.grouping_v3_json = domain::capture::GroupingV3Json(v3, occ.id, now);
    w.grouping_v3_key = v3.identity_hash;
  }
  w.ui_ux = domain::capture::IsUiUx(in.title, in.description, cls.signal_class, cls.signal_family, in.events);
  w.new_bug_id = deps.ids->NewId();
  w.occurrence_id = occ.id;
  w.title = std::move(in.title);
  w.description = std::move(in.description);
  w.url = in.url;
  w.severity = std::move(in.severity);
  w.platform = platform;
  w.platforms = domain::capture::PlatformBit(platform);
  w.release = in.release.value_or("");
  w.environment = in.environment.value_or("");
  w.signal_class = cls.signal_class;
  w.signal_family = cls.signal_family;
  w.signal_reason = cls.signal_reason;
  w.classifier_confidence = cls.classifier_confidence;
  w.ai_summary_json = std::move(in.ai_summary_json);
  w.seen_at = now;

  ports::EndUserSighting& s = r.sighting;
  s.org_id = source.org_id;
  s.user_key = identity.user_key;
  s.kind = identity.kind;
  s.end_user_id = in.user_id;
  s.email = r.reporter_email_key;
  s.platform = platform;
  s.release = in.release;
  s.environment = in.environment;
  s.occurrence_id = occ.id;
  s.seen_at = now;

  // --- The write, shared with concurrent reports (group commit). ---
  const Status written = deps.capture->committer().Run(&r);
  const Status& refused = written.ok() ? r.outcome : written;
  if (!refused.ok()) {
    const CaptureDeps::Counters& n = deps.counters;
    util::metrics::Counter* c = refused.code() == Code::kPaymentRequired ? n.plan_limit
                                : refused.code() >= Code::kInternal      ? n.error
                                                                         : nullptr;
    if (c != nullptr) c->Inc();
    return refused;
  }

  if (source.grouping_v3_shadow && r.bug.created && deps.duplicates != nullptr) {
    ProposeDuplicatesFor(deps, w, r.bug.id, embedding);
  }

  if (r.event.payload.empty()) r.event = OutcomeEvent(r);
  deps.bus->Publish(r.event);

  util::metrics::Counter* accepted = r.event.type == "new_bug"      ? deps.counters.new_bug
                                     : r.event.type == "regression" ? deps.counters.regression
                                                                    : deps.counters.duplicate;
  if (accepted != nullptr) accepted->Inc();

  IngestResult out;
  out.bug_id = r.bug.id;
  out.occurrence_id = occ.id;
  out.fingerprint = fp.short_hex;
  out.deduplicated = !r.bug.created;
  out.regression = r.bug.regression;
  out.event_type = r.event.type;
  return out;
}

}  // namespace service::app::capture
