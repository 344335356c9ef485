// POST /v1/bugs/:id/analyze and POST /v1/bugs/:id/events/:eventId/ai through
// the configured OpenAI-compatible provider.
#include <algorithm>
#include <boost/json.hpp>
#include <charconv>

#include "areas/bugs/domain/anomalies.h"
#include "areas/capture/domain/event.h"
#include "areas/operations/domain/plans.h"
#include "areas/triage/app/triage.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::app::triage {
namespace {

namespace json = boost::json;

constexpr size_t kEventTextBytes = 400;       // per event in a prompt
constexpr size_t kPromptEventBytes = 96'000;  // all events of one prompt
constexpr int64_t kAnalysisOccurrences = 50;  // newest occurrences read for events

Status NotConfigured() { return Status::Public(Code::kUnavailable, "AI service not configured"); }
Status AnalysisFailed() { return Status::Public(Code::kInternal, "Analysis failed"); }

bool IsOneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

bool IsErrorType(std::string_view t) {
  return IsOneOf(t, {"error", "exception", "unhandledrejection", "unhandled_rejection", "crash"});
}
bool IsNetworkType(std::string_view t) { return IsOneOf(t, {"network", "fetch", "xhr", "http", "request"}); }
bool IsUserAction(std::string_view t) {
  return IsOneOf(t, {"click", "tap", "ui.click", "rage_click", "input", "keypress", "submit", "scroll",
                     "navigation", "navigate", "route", "user_action"});
}

// The bug's events, newest occurrences first, at most kMaxAnalysisEvents.
struct LoadedEvents {
  std::vector<domain::capture::Event> events;
  bool truncated = false;
};

LoadedEvents ParseEvents(const std::vector<ports::OccurrenceEvents>& rows) {
  LoadedEvents out;
  for (const ports::OccurrenceEvents& row : rows) {
    const size_t room = kMaxAnalysisEvents + 1 - out.events.size();
    for (domain::capture::Event& e : domain::capture::StoredEvents(row.events_json, row.occurred_at, room)) {
      if (out.events.size() >= kMaxAnalysisEvents) {
        out.truncated = true;
        return out;
      }
      out.events.push_back(std::move(e));
    }
  }
  return out;
}

AnalysisStats ComputeStats(const std::vector<domain::capture::Event>& events) {
  AnalysisStats s;
  s.total_events = static_cast<int64_t>(events.size());
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const domain::capture::Event& e : events) {
    if (IsErrorType(e.type)) ++s.errors;
    if (IsNetworkType(e.type)) ++s.network;
    if (e.type == "console") ++s.console;
    if (IsUserAction(e.type)) ++s.user_actions;
    first = std::min(first, e.timestamp_ms);
    last = std::max(last, e.timestamp_ms);
  }
  if (!events.empty()) s.duration_seconds = (last - first) / 1000;
  for (const auto& a : domain::bugs::DetectAnomalies(events)) {
    if (std::find(s.anomalies.begin(), s.anomalies.end(), a.type) == s.anomalies.end())
      s.anomalies.push_back(a.type);
  }
  return s;
}

std::string EventLine(const domain::capture::Event& e) {
  return util::FormatIso8601(e.timestamp_ms) + " " + e.type + " " +
         util::Utf8Shorten(e.data.is_null() ? std::string() : json::serialize(e.data), kEventTextBytes);
}

std::string BugHeader(const ports::BugRecord& bug) {
  return "Bug: " + bug.title + "\nSeverity: " + bug.severity + "\nStatus: " + bug.status +
         "\nURL: " + bug.url + "\nReports: " + std::to_string(bug.report_count) +
         "\nDescription: " + util::Utf8Shorten(bug.description, 2000) + "\n";
}

constexpr const char* kAnalysisSystem =
    "You are a senior engineer analysing a bug report and the events recorded before it. Answer with ONE "
    "JSON object and nothing else, exactly of this shape:\n"
    "{\"rootCause\":{\"summary\":string,\"category\":string,\"technicalDetail\":string},"
    "\"causalChain\":[{\"step\":integer,\"event\":string,\"timestamp\":string,\"role\":string,"
    "\"explanation\":string}],"
    "\"severity\":{\"level\":\"critical\"|\"high\"|\"medium\"|\"low\",\"reasoning\":string,"
    "\"userImpact\":string},"
    "\"suggestedFix\":{\"summary\":string,\"steps\":[string]},"
    "\"pattern\":{\"name\":string,\"confidence\":number between 0 and 1},"
    "\"confidence\":number between 0 and 1}\n"
    "Base every statement on the events; say so when the evidence is thin.";

// The first '{' to the last '}' of `content`.
std::optional<json::object> ReplyObject(std::string_view content) {
  const size_t open = content.find('{');
  const size_t close = content.rfind('}');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  boost::system::error_code ec;
  json::value v = json::parse(content.substr(open, close - open + 1), ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.get_object());
}

const json::object* Obj(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v ? v->if_object() : nullptr;
}

std::optional<std::string> Text(const json::object& o, std::string_view key,
                                bool required_non_empty = false) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  std::string s(v->get_string());
  if (required_non_empty && s.empty()) return std::nullopt;
  return s;
}

std::optional<double> Fraction(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return std::nullopt;
  double d = 0;
  if (v->is_double()) {
    d = v->get_double();
  } else if (v->is_int64()) {
    d = static_cast<double>(v->get_int64());
  } else if (v->is_uint64()) {
    d = static_cast<double>(v->get_uint64());
  } else {
    return std::nullopt;
  }
  if (!(d >= 0 && d <= 1)) return std::nullopt;
  return d;
}

// The actor's bug and the stored events of up to `max_occurrences` of its
// newest occurrences (`occurrence_id` narrows to one). 404 "Bug not found".
struct BugEvents {
  ports::BugRecord bug;
  std::vector<ports::OccurrenceEvents> rows;
};
Result<BugEvents> ReadBugEvents(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id,
                                const std::optional<std::string>& occurrence_id, int64_t max_occurrences) {
  BugEvents out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> found, deps.reads->Find(c, actor.org_id, bug_id));
    if (!found) return NotFound("Bug not found");
    out.bug = std::move(*found);
    if (max_occurrences <= 0) return Status::Ok();
    SV_ASSIGN_OR_RETURN(out.rows, deps.reads->Events(c, bug_id, occurrence_id, max_occurrences));
    return Status::Ok();
  }));
  return out;
}

// One provider call, counted in the organization's AI usage whether it
// was answered or not; a failure is logged and answers 500 "Analysis failed".
// `feature` names the call in the AI usage record (GET /v1/admin/ai-usage),
// `what` in the log.
Result<ports::ChatReply> Ask(const TriageDeps& deps, const ConsoleActor& actor, ports::ChatRequest request,
                             std::string_view feature, std::string_view what) {
  request.feature = std::string(feature);
  request.org_id = actor.org_id;
  Result<ports::ChatReply> reply = deps.ai->Complete(request);
  const std::string month = domain::operations::UsageMonth(deps.Now());
  SV_RETURN_IF_ERROR(deps.db->Write(
      [&](ports::Tx& tx) -> Status { return deps.usage->CountAiRequest(tx, actor.org_id, month); }));
  if (!reply.ok()) {
    if (deps.log)
      deps.log->Log(LogLevel::kWarning, std::string(what) + " failed: " + reply.status().message());
    return AnalysisFailed();
  }
  return reply;
}

}  // namespace

Result<std::string> ParseAnalysisReply(std::string_view content) {
  std::optional<json::object> o = ReplyObject(content);
  if (!o) return AnalysisFailed();
  const json::object* root = Obj(*o, "rootCause");
  const json::object* sev = Obj(*o, "severity");
  const json::object* fix = Obj(*o, "suggestedFix");
  const json::object* pattern = Obj(*o, "pattern");
  const json::value* chain = o->if_contains("causalChain");
  if (!root || !sev || !fix || !pattern || !chain || !chain->is_array()) return AnalysisFailed();

  json::object out;
  {
    auto summary = Text(*root, "summary", true), category = Text(*root, "category"),
         detail = Text(*root, "technicalDetail");
    if (!summary || !category || !detail) return AnalysisFailed();
    out["rootCause"] =
        json::object{{"summary", *summary}, {"category", *category}, {"technicalDetail", *detail}};
  }
  {
    json::array steps;
    int64_t n = 0;
    for (const json::value& v : chain->get_array()) {
      const json::object* s = v.if_object();
      if (!s) return AnalysisFailed();
      ++n;
      int64_t step = n;
      if (const json::value* st = s->if_contains("step")) {
        if (st->is_int64()) {
          step = st->get_int64();
        } else if (st->is_uint64()) {
          step = static_cast<int64_t>(st->get_uint64());
        } else {
          return AnalysisFailed();
        }
      } else {
        return AnalysisFailed();
      }
      auto event = Text(*s, "event"), role = Text(*s, "role"), explanation = Text(*s, "explanation");
      std::optional<std::string> ts = Text(*s, "timestamp");
      if (!ts) {
        const json::value* t = s->if_contains("timestamp");
        if (t && t->is_int64()) ts = util::FormatIso8601(t->get_int64());
        if (t && t->is_null()) ts = "";
      }
      if (!event || !role || !explanation || !ts) return AnalysisFailed();
      steps.push_back(json::object{{"step", step},
                                   {"event", *event},
                                   {"timestamp", *ts},
                                   {"role", *role},
                                   {"explanation", *explanation}});
    }
    out["causalChain"] = std::move(steps);
  }
  {
    auto level = Text(*sev, "level"), reasoning = Text(*sev, "reasoning"), impact = Text(*sev, "userImpact");
    if (!level || !IsOneOf(*level, {"critical", "high", "medium", "low"}) || !reasoning || !impact)
      return AnalysisFailed();
    out["severity"] = json::object{{"level", *level}, {"reasoning", *reasoning}, {"userImpact", *impact}};
  }
  {
    auto summary = Text(*fix, "summary", true);
    const json::value* steps = fix->if_contains("steps");
    if (!summary || !steps || !steps->is_array()) return AnalysisFailed();
    json::array list;
    for (const json::value& v : steps->get_array()) {
      if (!v.is_string()) return AnalysisFailed();
      list.push_back(v);
    }
    out["suggestedFix"] = json::object{{"summary", *summary}, {"steps", std::move(list)}};
  }
  {
    auto name = Text(*pattern, "name");
    auto confidence = Fraction(*pattern, "confidence");
    if (!name || !confidence) return AnalysisFailed();
    out["pattern"] = json::object{{"name", *name}, {"confidence", *confidence}};
  }
  auto confidence = Fraction(*o, "confidence");
  if (!confidence) return AnalysisFailed();
  out["confidence"] = *confidence;
  return json::serialize(out);
}

Result<BugAnalysis> AnalyzeBug(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id) {
  SV_ASSIGN_OR_RETURN(BugEvents read, ReadBugEvents(deps, actor, bug_id, std::nullopt, kAnalysisOccurrences));
  const ports::BugRecord& bug = read.bug;
  if (deps.ai == nullptr) return NotConfigured();
  LoadedEvents loaded = ParseEvents(read.rows);
  std::sort(loaded.events.begin(), loaded.events.end(),
            [](const domain::capture::Event& a, const domain::capture::Event& b) {
              return a.timestamp_ms < b.timestamp_ms;
            });
  BugAnalysis out;
  out.stats = ComputeStats(loaded.events);

  std::string user = BugHeader(bug) + "\nEvents (" + std::to_string(loaded.events.size()) +
                     (loaded.truncated ? ", the newest 500" : "") + ", oldest first):\n";
  size_t budget = kPromptEventBytes;
  for (const domain::capture::Event& e : loaded.events) {
    std::string line = EventLine(e) + "\n";
    if (line.size() > budget) break;
    budget -= line.size();
    user += line;
  }
  ports::ChatRequest request;
  request.messages = {{"system", kAnalysisSystem}, {"user", std::move(user)}};
  request.json_object = true;
  request.max_tokens = 1500;
  SV_ASSIGN_OR_RETURN(ports::ChatReply reply,
                      Ask(deps, actor, std::move(request), "ai_analysis", "AI analysis"));
  SV_ASSIGN_OR_RETURN(out.analysis_json, ParseAnalysisReply(reply.content));
  return out;
}

Result<std::string> AssessEvent(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id,
                                const std::string& event_id, const std::string& mode) {
  // Event ids are "<occurrenceId>:<index>" (GET /v1/bugs/:id/events).
  const size_t colon = event_id.rfind(':');
  size_t index = 0;
  const char* digits = event_id.data() + (colon == std::string::npos ? event_id.size() : colon + 1);
  const char* end = event_id.data() + event_id.size();
  const auto parsed = std::from_chars(digits, end, index);
  const bool well_formed = colon != std::string::npos && colon > 0 && digits != end &&
                           parsed.ec == std::errc() && parsed.ptr == end;
  SV_ASSIGN_OR_RETURN(BugEvents read,
                      ReadBugEvents(deps, actor, bug_id,
                                    well_formed ? std::optional(event_id.substr(0, colon)) : std::nullopt,
                                    well_formed ? 1 : 0));
  const ports::BugRecord& bug = read.bug;
  const std::vector<ports::OccurrenceEvents>& rows = read.rows;
  std::optional<domain::capture::Event> event;
  std::vector<domain::capture::Event> before;  // up to 20 events before it, for context
  if (!rows.empty()) {
    std::vector<domain::capture::Event> all =
        domain::capture::StoredEvents(rows.front().events_json, rows.front().occurred_at, index + 1);
    if (index < all.size()) {
      event = std::move(all[index]);
      all.resize(index);
      const size_t first = index > 20 ? index - 20 : 0;
      before.assign(std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(first)),
                    std::make_move_iterator(all.end()));
    }
  }
  if (!event) return NotFound("Event not found");
  if (deps.ai == nullptr) return NotConfigured();

  std::string user = BugHeader(bug) + "\nEvents before it:\n";
  for (const auto& e : before) user += EventLine(e) + "\n";
  user += "\nThe event:\n" + util::FormatIso8601(event->timestamp_ms) + " " + event->type + " " +
          util::Utf8Shorten(event->data.is_null() ? std::string() : json::serialize(event->data), 8000) +
          "\n";
  const std::string system =
      mode == "fix"
          ? "You are a senior engineer. Propose a concrete fix for the problem this event shows: what to "
            "change "
            "and where, in a few short paragraphs or steps. Plain text."
          : "You are a senior engineer. Explain what this event means, why it likely happened and how it "
            "relates to the bug, in a few short paragraphs. Plain text.";
  ports::ChatRequest request;
  request.messages = {{"system", system}, {"user", std::move(user)}};
  request.max_tokens = 800;
  SV_ASSIGN_OR_RETURN(ports::ChatReply reply,
                      Ask(deps, actor, std::move(request), "ai_event_assessment", "AI event assessment"));
  std::string text = std::move(reply.content);
  const auto not_space = [](unsigned char ch) { return !std::isspace(ch); };
  text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
  text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
  if (text.empty()) return AnalysisFailed();
  return text;
}

}  // namespace service::app::triage
