// POST /v1/bugs/:id/comments, POST and DELETE /v1/bugs/:id/watch.
#include <algorithm>

#include "areas/triage/app/internal.h"
#include "areas/triage/app/triage.h"
#include "areas/triage/domain/notify.h"
#include "util/strings.h"

namespace service::app::triage {
namespace {

namespace json = boost::json;

}  // namespace

Result<ports::CommentRecord> AddComment(const TriageDeps& deps, const ConsoleActor& actor,
                                        const std::string& bug_id, const std::string& content) {
  internal::PendingEvents events;
  ports::CommentRecord out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    events.Clear();
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> bug, deps.bugs->Lock(tx, actor.org_id, bug_id, now));
    if (!bug) return internal::BugNotFound();
    out = ports::CommentRecord{deps.ids->NewId(), bug_id, actor.user_id, std::nullopt, std::nullopt,
                               content,           now};
    SV_ASSIGN_OR_RETURN(std::optional<ports::ActiveMember> author,
                        deps.triage->FindActiveMember(tx, actor.org_id, actor.user_id));
    if (author) {
      out.user_name = author->name;
      out.user_email = author->email;
    }
    SV_RETURN_IF_ERROR(deps.triage->AddComment(
        tx, ports::CommentRow{out.id, bug_id, actor.org_id, actor.user_id, content, now}));

    // Watchers before this comment (they hear of it), then the commenter
    // and the mentioned members subscribe.
    SV_ASSIGN_OR_RETURN(std::vector<ports::ActiveMember> watchers,
                        deps.triage->ActiveWatchers(tx, actor.org_id, bug_id));
    SV_RETURN_IF_ERROR(deps.triage->Watch(tx, actor.org_id, bug_id, actor.user_id, now).status());
    SV_ASSIGN_OR_RETURN(
        std::vector<ports::ActiveMember> mentioned,
        deps.triage->ActiveMembersByEmail(tx, actor.org_id, domain::triage::MentionedEmails(content)));
    const std::string who = author && !author->name.empty() ? author->name : actor.email;
    for (const ports::ActiveMember& m : mentioned) {
      SV_RETURN_IF_ERROR(deps.triage->Watch(tx, actor.org_id, bug_id, m.user_id, now).status());
      if (m.user_id == actor.user_id) continue;
      SV_RETURN_IF_ERROR(internal::Notify(
          deps, tx, m,
          internal::Notice{"mention", who + " mentioned you on " + bug->title, content, actor.user_id},
          *bug));
    }
    for (const ports::ActiveMember& w : watchers) {
      if (w.user_id == actor.user_id) continue;
      const bool was_mentioned =
          std::any_of(mentioned.begin(), mentioned.end(),
                      [&](const ports::ActiveMember& m) { return m.user_id == w.user_id; });
      if (was_mentioned) continue;
      SV_RETURN_IF_ERROR(internal::Notify(
          deps, tx, w,
          internal::Notice{"comment", who + " commented on " + bug->title, content, actor.user_id}, *bug));
    }
    return events.Queue(
        deps, tx,
        internal::BugEvent(
            deps, "comment", *bug,
            json::object{{"commentId", out.id},
                         {"authorId", actor.user_id},
                         {"authorName", who},
                         {"excerpt", util::Utf8Shorten(content.substr(0, content.find('\n')), 280)}}));
  }));
  events.Publish(deps);
  return out;
}

Status SetWatching(const TriageDeps& deps, const ConsoleActor& actor, const std::string& bug_id, bool watch) {
  return deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> bug,
                        deps.bugs->Lock(tx, actor.org_id, bug_id, deps.Now()));
    if (!bug) return internal::BugNotFound();
    if (watch) return deps.triage->Watch(tx, actor.org_id, bug_id, actor.user_id, deps.Now()).status();
    return deps.triage->Unwatch(tx, bug_id, actor.user_id);
  });
}

}  // namespace service::app::triage
