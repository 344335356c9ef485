// Notifications: the in-app list, read marks, preferences, email digests
// and chat posts.
#include <algorithm>

#include <boost/json.hpp>

#include "app/retention.h"
#include "areas/triage/app/digests.h"
#include "areas/triage/app/internal.h"
#include "areas/triage/app/triage.h"
#include "areas/triage/domain/notify.h"
#include "domain/roles.h"
#include "util/time.h"

namespace service::app::triage {
namespace {

namespace json = boost::json;

constexpr const char* kChatKind = "chat";
constexpr int64_t kChatLeaseMs = 60'000;
constexpr int kChatBatch = 20;
constexpr int64_t kChatTimeoutMs = 10'000;
constexpr int64_t kDigestOwnersPerRun = 500;

int64_t ChatBackoffMs(int64_t attempts) { return RetryBackoffMs(attempts, 10'000, 3'600'000); }

Status FailForGood(const TriageDeps& deps, const ports::OutboxItem& item, const std::string& error) {
  return deps.outbox->MarkFailed(*deps.db, item, error, deps.Now());
}

Status PostChat(const TriageDeps& deps, const ports::OutboxItem& item) {
  boost::system::error_code ec;
  const json::value payload = json::parse(item.payload, ec);
  const json::object* o = ec ? nullptr : payload.if_object();
  const json::string* url = o && o->contains("url") ? o->at("url").if_string() : nullptr;
  const json::string* text = o && o->contains("text") ? o->at("text").if_string() : nullptr;
  if (!url || !text) return FailForGood(deps, item, "malformed chat payload");
  Result<ports::HttpResponse> r = deps.http->Post(
      std::string(*url), json::serialize(json::object{{"text", *text}}),
      {{"Content-Type", "application/json"}, {"User-Agent", "Service-Notifications/1.0"}}, kChatTimeoutMs);
  const int64_t now = deps.Now();
  if (!r.ok()) {
    // A refused destination or a malformed URL will not get better.
    if (r.status().code() == Code::kPermissionDenied || r.status().code() == Code::kInvalidArgument) {
      return FailForGood(deps, item, r.status().message());
    }
    return deps.outbox->MarkRetry(*deps.db, item, r.status().message(), now,
                                  now + ChatBackoffMs(item.attempts));
  }
  if (r->status >= 200 && r->status < 300) return deps.outbox->MarkDone(*deps.db, item.id, now);
  const std::string error = "chat webhook answered HTTP " + std::to_string(r->status);
  if (r->status >= 400 && r->status < 500 && r->status != 408 && r->status != 429) {
    return FailForGood(deps, item, error);
  }
  return deps.outbox->MarkRetry(*deps.db, item, error, now, now + ChatBackoffMs(item.attempts));
}

std::string DigestText(const TriageDeps& deps, const std::vector<ports::NotificationRow>& items, bool full) {
  std::string text = std::to_string(items.size()) + (items.size() == 1 ? " notification" : " notifications") +
                     " since your last digest:\n";
  for (const auto& n : items) {
    text += "\n- " + util::FormatIso8601(n.created_at) + "  " + n.title + "\n";
    if (full && !n.body.empty())
      text += "  " + n.body.substr(0, 500) + (n.body.size() > 500 ? "..." : "") + "\n";
    if (n.bug_id) text += "  " + internal::BugLink(deps, *n.bug_id) + "\n";
  }
  text += "\nYou receive this digest because of your notification preferences in the console.\n";
  return text;
}

// Sends one member's waiting items when their digest is due.
Status SendDigestIfDue(const TriageDeps& deps, const ports::DigestOwner& owner) {
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::NotificationPreferences> stored,
                        deps.triage->FindPreferences(tx, owner.org_id, owner.user_id));
    const ports::NotificationPreferences prefs = stored.value_or(ports::NotificationPreferences{});
    const int64_t period = domain::triage::DigestPeriodMs(prefs.email_level, prefs.digest_freq,
                                                          deps.digest_hourly_ms, deps.digest_daily_ms);
    if (!domain::triage::DigestDue(period, owner.oldest_at, deps.Now())) return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::vector<ports::NotificationRow> items,
                        deps.triage->TakeDigest(tx, owner.org_id, owner.user_id, deps.Now()));
    if (items.empty()) return Status::Ok();  // another process took them
    // Email turned off, or the member left: the items are dropped from email.
    if (prefs.email_level == "off") return Status::Ok();
    SV_ASSIGN_OR_RETURN(std::optional<ports::ActiveMember> member,
                        deps.triage->FindActiveMember(tx, owner.org_id, owner.user_id));
    if (!member) return Status::Ok();
    const std::string subject = prefs.digest_freq == "daily" ? "Your daily digest" : "Your hourly digest";
    std::vector<std::string> ids;
    ids.reserve(items.size());
    for (const ports::NotificationRow& n : items) ids.push_back(n.id);
    return QueueAlertEmail(deps, tx, owner.org_id, owner.user_id, "digest",
                           subject + " (" + std::to_string(items.size()) + ")",
                           DigestText(deps, items, prefs.email_level != "notification"), ids);
  });
}

Status CheckPreferenceAccess(const TriageDeps& deps, ports::Tx& tx, const ConsoleActor& actor,
                             const std::string& user_id) {
  if (user_id != actor.user_id && actor.role != "admin") {
    return PermissionDenied("Only admins can change another member's notification preferences");
  }
  SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m, deps.memberships->Find(tx, actor.org_id, user_id));
  if (!m) return NotFound("Member not found");
  return Status::Ok();
}

}  // namespace

Result<NotificationList> ListNotifications(const TriageDeps& deps, const ConsoleActor& actor,
                                           bool unread_only, int64_t limit) {
  NotificationList out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(out.notifications,
                        deps.triage->ListNotifications(c, actor.org_id, actor.user_id, unread_only, limit));
    SV_ASSIGN_OR_RETURN(out.unread_count, deps.triage->UnreadCount(c, actor.org_id, actor.user_id));
    return Status::Ok();
  }));
  return out;
}

Status MarkNotificationRead(const TriageDeps& deps, const ConsoleActor& actor, const std::string& id) {
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(bool found, deps.triage->MarkRead(tx, actor.org_id, actor.user_id, id));
    return found ? Status::Ok() : NotFound("Notification not found");
  });
}

Status MarkAllNotificationsRead(const TriageDeps& deps, const ConsoleActor& actor) {
  return deps.db->Write(
      [&](ports::Tx& tx) -> Status { return deps.triage->MarkAllRead(tx, actor.org_id, actor.user_id); });
}

Result<ports::NotificationPreferences> GetPreferences(const TriageDeps& deps, const ConsoleActor& actor,
                                                      const std::string& user_id) {
  ports::NotificationPreferences out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_RETURN_IF_ERROR(CheckPreferenceAccess(deps, c, actor, user_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::NotificationPreferences> stored,
                        deps.triage->FindPreferences(c, actor.org_id, user_id));
    out = stored.value_or(ports::NotificationPreferences{});
    out.user_id = user_id;
    out.org_id = actor.org_id;
    return Status::Ok();
  }));
  return out;
}

Status UpdatePreferences(const TriageDeps& deps, const ConsoleActor& actor, const std::string& user_id,
                         const PreferencesPatch& patch) {
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(CheckPreferenceAccess(deps, tx, actor, user_id));
    SV_ASSIGN_OR_RETURN(std::optional<ports::NotificationPreferences> stored,
                        deps.triage->FindPreferences(tx, actor.org_id, user_id));
    ports::NotificationPreferences p = stored.value_or(ports::NotificationPreferences{});
    p.user_id = user_id;
    p.org_id = actor.org_id;
    if (patch.email_level) p.email_level = *patch.email_level;
    if (patch.chat_enabled) p.chat_enabled = *patch.chat_enabled;
    if (patch.chat_webhook) p.chat_webhook = *patch.chat_webhook;
    if (patch.in_app_enabled) p.in_app_enabled = *patch.in_app_enabled;
    if (patch.digest_freq) p.digest_freq = *patch.digest_freq;
    if (p.chat_enabled && (!p.chat_webhook || p.chat_webhook->empty())) {
      return InvalidArgument("chatWebhook is required when chatEnabled is true");
    }
    p.updated_at = deps.Now();
    return deps.triage->SavePreferences(tx, p);
  });
}

Status SendDueDigests(const TriageDeps& deps) {
  if (deps.mail == nullptr || !deps.mail->configured()) return Status::Ok();
  std::vector<ports::DigestOwner> owners;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(owners, deps.triage->DigestOwners(c, deps.Now(), kDigestOwnersPerRun));
    return Status::Ok();
  }));
  for (const ports::DigestOwner& owner : owners) SV_RETURN_IF_ERROR(SendDigestIfDue(deps, owner));
  return Status::Ok();
}

Status SendChatPosts(const TriageDeps& deps, const std::function<bool()>& keep_going) {
  for (int round = 0; round < 20 && keep_going(); ++round) {
    SV_ASSIGN_OR_RETURN(std::vector<ports::OutboxItem> items,
                        deps.outbox->Claim(*deps.db, kChatKind, deps.Now(), kChatLeaseMs, kChatBatch));
    for (const ports::OutboxItem& item : items) {
      if (!keep_going()) return Status::Ok();
      SV_RETURN_IF_ERROR(PostChat(deps, item));
    }
    if (static_cast<int>(items.size()) < kChatBatch) break;
  }
  return Status::Ok();
}

void RegisterNotificationWorkers(const TriageDeps& deps, Workers& workers) {
  Workers* w = &workers;
  const TriageDeps* d = &deps;
  // Every minute, or as often as the shortest digest period (SERVICE_DIGEST_PERIODS), at least every second.
  const int64_t every =
      std::clamp<int64_t>(std::min(deps.digest_hourly_ms, deps.digest_daily_ms), 1'000, 60'000);
  workers.Add("notification-digests", every, [d] { return SendDueDigests(*d); });
  workers.Add("digest-batches", 1'000, [d, w] { return SendDueBatches(*d, [w] { return w->running(); }); });
  workers.Add("digest-batches-retention", app::kRetentionSweepIntervalMs,
              [d] { return SweepDigestBatches(*d, kRetentionBatchRows).status(); });
  workers.Add("chat-posts", 1'000, [d, w] { return SendChatPosts(*d, [w] { return w->running(); }); });
}

}  // namespace service::app::triage
