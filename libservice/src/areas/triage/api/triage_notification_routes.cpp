// Notifications, preferences, team activity and usage (Spec 1, JWT+Org):
//   GET   /v1/notifications?unread=&limit=      {notifications, unreadCount}
//   POST  /v1/notifications/read-all            {success}
//   POST  /v1/notifications/:id/read            {success}; 404
//   GET   /v1/team/:userId/notifications        the member's preferences (not in Spec 1:
//                                               the console reads what it edits)
//   PATCH /v1/team/:userId/notifications        {success}
//   GET   /v1/team/activity?limit=              {activity[...]}          view_team
//   GET   /v1/org/usage                         usage object
#include <boost/json.hpp>

#include "api/json.h"
#include "api/validate.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/triage/api/routes.h"
#include "areas/triage/app/triage.h"
#include "areas/triage/domain/notify.h"
#include "util/strings.h"
#include "util/time.h"

namespace service::api {
namespace {

namespace json = boost::json;
using app::triage::TriageDeps;

json::object NotificationJson(const ports::NotificationRow& n) {
  return json::object{{"id", n.id},
                      {"user_id", n.user_id},
                      {"org_id", n.org_id},
                      {"type", n.type},
                      {"title", n.title},
                      {"body", n.body},
                      {"bug_id", OptText(n.bug_id)},
                      {"actor_id", OptText(n.actor_id)},
                      {"read", n.read},
                      {"created_at", util::FormatIso8601(n.created_at)}};
}

Response HandleList(const TriageDeps& deps, Context& ctx) {
  auto unread = BoolParam(ctx, "unread", false);
  if (!unread.ok()) return StatusResponse(unread.status());
  auto limit =
      IntParam(ctx, "limit", app::triage::kDefaultNotificationLimit, 1, app::triage::kMaxNotificationLimit);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto list = app::triage::ListNotifications(deps, Actor(ctx), *unread, *limit);
  if (!list.ok()) return StatusResponse(list.status());
  json::array out;
  for (const auto& n : list->notifications) out.push_back(NotificationJson(n));
  return JsonResponse(200,
                      json::object{{"notifications", std::move(out)}, {"unreadCount", list->unread_count}});
}

Response HandleRead(const TriageDeps& deps, Context& ctx) {
  Status s = app::triage::MarkNotificationRead(deps, Actor(ctx), ctx.params.Get("id"));
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

Response HandleReadAll(const TriageDeps& deps, Context& ctx) {
  Status s = app::triage::MarkAllNotificationsRead(deps, Actor(ctx));
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

json::object PreferencesJson(const ports::NotificationPreferences& p) {
  return json::object{{"userId", p.user_id},
                      {"emailLevel", p.email_level},
                      {"chatEnabled", p.chat_enabled},
                      {"chatWebhook", OptText(p.chat_webhook)},
                      {"inAppEnabled", p.in_app_enabled},
                      {"digestFreq", p.digest_freq}};
}

// The member named in the path, or "" when it cannot be an id.
std::string PathUser(const Context& ctx) {
  std::string id = util::ToLower(ctx.params.Get("userId"));
  return util::IsUuid(id) ? id : std::string();
}

Response HandleGetPreferences(const TriageDeps& deps, Context& ctx) {
  const std::string user = PathUser(ctx);
  if (user.empty()) return ErrorResponse(404, "Member not found");
  auto p = app::triage::GetPreferences(deps, Actor(ctx), user);
  if (!p.ok()) return StatusResponse(p.status());
  return JsonResponse(200, PreferencesJson(*p));
}

bool IsWebhookUrl(std::string_view url) {
  const bool https = url.starts_with("https://"), http = url.starts_with("http://");
  if (!https && !http) return false;
  const std::string_view rest = url.substr(https ? 8 : 7);
  return !rest.empty() && rest.front() != '/' && url.find_first_of(" \t\r\n") == std::string_view::npos;
}

const std::vector<std::string_view> kEmailLevels = {"full", "notification", "digest", "off"};
const std::vector<std::string_view> kDigestFreqs = {"realtime", "hourly", "daily"};

Response HandlePatchPreferences(const TriageDeps& deps, Context& ctx) {
  SV_ASSIGN_OR_RESPOND(const json::value* body, ctx.Body());
  Validator v(*body);
  app::triage::PreferencesPatch patch;
  patch.email_level = v.String("emailLevel", StringRule{.one_of = &kEmailLevels});
  patch.digest_freq = v.String("digestFreq", StringRule{.one_of = &kDigestFreqs});
  patch.chat_enabled = v.Bool("chatEnabled");
  patch.in_app_enabled = v.Bool("inAppEnabled");
  if (v.body() != nullptr) {
    if (const json::value* w = v.body()->if_contains("chatWebhook")) {
      if (w->is_null() || (w->is_string() && w->get_string().empty())) {
        patch.chat_webhook = std::optional<std::string>();
      } else if (!w->is_string() || w->get_string().size() > app::triage::kMaxChatWebhookLength ||
                 !IsWebhookUrl(w->get_string())) {
        v.AddError("chatWebhook", "must be an http or https URL of at most 2000 characters");
      } else {
        patch.chat_webhook = std::optional<std::string>(std::string(w->get_string()));
      }
    }
  }
  if (!v.ok()) return ValidationFailed(v.details());
  const std::string user = PathUser(ctx);
  if (user.empty()) return ErrorResponse(404, "Member not found");
  Status s = app::triage::UpdatePreferences(deps, Actor(ctx), user, patch);
  if (!s.ok()) return StatusResponse(s);
  return JsonResponse(200, json::object{{"success", true}});
}

std::string Summary(const ports::ActivityRecord& a) {
  if (a.type == "comment") {
    return "commented: " + util::Utf8Shorten(a.detail.substr(0, a.detail.find('\n')), 140);
  }
  if (a.type == "status_change") {
    return a.old_status ? "changed status from " + *a.old_status + " to " + a.detail
                        : "set status to " + a.detail;
  }
  return "new " + a.detail + " bug reported";
}

Response HandleActivity(const TriageDeps& deps, Context& ctx) {
  auto limit = IntParam(ctx, "limit", app::triage::kDefaultActivityLimit, 1, app::triage::kMaxActivityLimit);
  if (!limit.ok()) return StatusResponse(limit.status());
  auto list = app::triage::TeamActivity(deps, Actor(ctx), *limit);
  if (!list.ok()) return StatusResponse(list.status());
  json::array out;
  for (const auto& a : *list) {
    json::value actor = nullptr;
    if (a.actor_name && !a.actor_name->empty()) {
      actor = *a.actor_name;
    } else if (a.actor_email) {
      actor = *a.actor_email;
    }
    out.push_back(
        json::object{{"type", a.type},
                     {"actor", actor},
                     {"actorId", a.actor_name || a.actor_email ? OptText(a.actor_id) : json::value()},
                     {"summary", Summary(a)},
                     {"bug_title", a.bug_title},
                     {"bug_id", a.bug_id},
                     {"ts", util::FormatIso8601(a.at)}});
  }
  return JsonResponse(200, json::object{{"activity", std::move(out)}});
}

Response HandleUsage(const TriageDeps& deps, Context& ctx) {
  auto u = app::triage::GetUsage(deps, Actor(ctx));
  if (!u.ok()) return StatusResponse(u.status());
  json::object out{{"plan", u->plan}, {"period", u->period}};
  json::object overage;
  bool any = false;
  for (const auto& r : u->resources) {
    out[r.name] = json::object{{"limit", r.limit < 0 ? json::value(nullptr) : json::value(r.limit)},
                               {"current", r.current},
                               {"atLimit", r.at_limit()},
                               {"overage", r.over()}};
    overage[r.name] = r.over();
    any = any || r.over();
  }
  overage["any"] = any;
  out["overage"] = std::move(overage);
  out["aiRequests"] = json::object{{"current", u->ai_requests}, {"limit", nullptr}};
  out["prepaidCredits"] = u->prepaid_credits;
  out["features"] = json::object{{"mcp", u->mcp}, {"mcp_source", u->mcp_source}};
  return JsonResponse(200, out);
}

}  // namespace

void RegisterNotificationRoutes(Pipeline& p, const app::triage::TriageDeps& deps) {
  Router& r = p.router();
  const auto add = [&](const char* method, const char* pattern, Response (*fn)(const TriageDeps&, Context&)) {
    r.Add(method, pattern, RateClass::kGeneral, AuthMode::kJwtOrg, Bind(deps, fn));
  };
  add("GET", "/v1/notifications", HandleList);
  add("POST", "/v1/notifications/read-all", HandleReadAll);
  add("POST", "/v1/notifications/:id/read", HandleRead);
  add("GET", "/v1/team/:userId/notifications", HandleGetPreferences);
  add("PATCH", "/v1/team/:userId/notifications", HandlePatchPreferences);
  add("GET", "/v1/org/usage", HandleUsage);
  r.Add("GET", "/v1/team/activity", RateClass::kGeneral, AuthMode::kJwtOrg, domain::Capability::kViewTeam,
        Bind(deps, HandleActivity));
}

}  // namespace service::api
