#include "areas/bugs/app/bugs.h"

#include <algorithm>
#include <boost/json.hpp>

namespace service::app::bugs {
namespace {

Status BugNotFound() { return NotFound("Bug not found"); }

// Runs `fn` in one read after checking that the bug belongs to the actor's
// organization.
template <typename Fn>
Status ReadOwnBug(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id, Fn fn) {
  return deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::BugRecord> bug, deps.bugs->Find(c, actor.org_id, bug_id));
    if (!bug) return BugNotFound();
    return fn(c, *bug);
  });
}

}  // namespace

Result<ports::BugPage> ListBugs(const BugsDeps& deps, const ports::BugFilter& filter, int64_t limit,
                                int64_t offset) {
  ports::BugPage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(page, deps.bugs->List(c, filter, limit, offset));
    return Status::Ok();
  }));
  return page;
}

Result<ports::GroupPage> ListGroups(const BugsDeps& deps, const ports::BugFilter& filter,
                                    ports::GroupSort sort, bool descending, int64_t limit, int64_t offset) {
  ports::GroupPage page;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(page, deps.bugs->Groups(c, filter, sort, descending, limit, offset));
    return Status::Ok();
  }));
  return page;
}

Result<GroupInstances> ListGroupInstances(const BugsDeps& deps, const ConsoleActor& actor,
                                          const std::string& group_key,
                                          const std::optional<std::string>& project_id, int64_t limit,
                                          int64_t offset) {
  GroupInstances out;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::vector<std::string> projects,
                        deps.bugs->GroupProjects(c, actor.org_id, group_key));
    if (project_id) {
      if (std::find(projects.begin(), projects.end(), *project_id) == projects.end()) {
        return NotFound("Group not found");
      }
      out.project_id = *project_id;
    } else if (projects.empty()) {
      return NotFound("Group not found");
    } else if (projects.size() > 1) {
      return Status(Code::kConflict, "Group key exists in several projects; pass projectId",
                    "GROUP_KEY_AMBIGUOUS");
    } else {
      out.project_id = projects.front();
    }
    SV_ASSIGN_OR_RETURN(out.page,
                        deps.bugs->GroupInstances(c, actor.org_id, out.project_id, group_key, limit, offset));
    return Status::Ok();
  }));
  return out;
}

Result<std::string> BugProject(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id) {
  std::string project_id;
  SV_RETURN_IF_ERROR(ReadOwnBug(deps, actor, bug_id, [&](ports::Tx&, const ports::BugRecord& bug) -> Status {
    project_id = bug.project_id;
    return Status::Ok();
  }));
  return project_id;
}

Result<BugDetail> GetBug(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id) {
  BugDetail d;
  SV_RETURN_IF_ERROR(
      ReadOwnBug(deps, actor, bug_id, [&](ports::Tx& c, const ports::BugRecord& bug) -> Status {
        d.bug = bug;
        SV_ASSIGN_OR_RETURN(d.reporters, deps.bugs->Reporters(c, bug_id, kDetailReporters));
        SV_ASSIGN_OR_RETURN(
            d.recent_occurrences,
            deps.occurrences->ListForBug(c, actor.org_id, bug_id, std::nullopt, kDetailOccurrences, 0));
        SV_ASSIGN_OR_RETURN(d.duplicate_candidates,
                            deps.bugs->DuplicateCandidates(c, bug_id, kDetailCandidates));
        if (deps.verified_fix) {
          SV_ASSIGN_OR_RETURN(d.verified_fix, deps.verified_fix(c, bug));
        }
        return Status::Ok();
      }));
  return d;
}

Result<OccurrencePage> ListOccurrences(const BugsDeps& deps, const ConsoleActor& actor,
                                       const std::string& bug_id, const std::optional<std::string>& user_key,
                                       int64_t limit, int64_t offset) {
  OccurrencePage page;
  SV_RETURN_IF_ERROR(ReadOwnBug(deps, actor, bug_id, [&](ports::Tx& c, const ports::BugRecord&) -> Status {
    SV_ASSIGN_OR_RETURN(page.total, deps.occurrences->CountForBug(c, actor.org_id, bug_id, user_key));
    SV_ASSIGN_OR_RETURN(page.occurrences,
                        deps.occurrences->ListForBug(c, actor.org_id, bug_id, user_key, limit, offset));
    return Status::Ok();
  }));
  return page;
}

Result<std::vector<BugEvent>> ListEvents(const BugsDeps& deps, const ConsoleActor& actor,
                                         const std::string& bug_id, const std::optional<std::string>& type,
                                         const std::optional<std::string>& occurrence_id, int64_t limit) {
  std::vector<BugEvent> out;
  SV_RETURN_IF_ERROR(ReadOwnBug(deps, actor, bug_id, [&](ports::Tx& c, const ports::BugRecord&) -> Status {
    // An occurrence carries at most 1,000 events: `limit` occurrences always
    // hold `limit` events when the bug has that many.
    SV_ASSIGN_OR_RETURN(std::vector<ports::OccurrenceEvents> rows,
                        deps.bugs->Events(c, bug_id, occurrence_id, limit));
    for (const ports::OccurrenceEvents& row : rows) {
      boost::system::error_code ec;
      boost::json::value events = boost::json::parse(row.events_json, ec);
      if (ec || !events.is_array()) continue;  // written by ingest as an array; never fail a read on one row
      const boost::json::array& list = events.get_array();
      for (size_t i = 0; i < list.size() && static_cast<int64_t>(out.size()) < limit; ++i) {
        const boost::json::object* e = list[i].if_object();
        if (e == nullptr) continue;
        BugEvent ev;
        ev.id = row.occurrence_id + ":" + std::to_string(i);
        ev.occurrence_id = row.occurrence_id;
        if (const auto* t = e->if_contains("type"); t != nullptr && t->is_string())
          ev.event_type = t->get_string();
        if (type && ev.event_type != *type) continue;
        ev.timestamp = row.occurred_at;
        if (const auto* ts = e->if_contains("timestamp"); ts != nullptr && ts->is_int64())
          ev.timestamp = ts->get_int64();
        const auto* data = e->if_contains("data");
        ev.data_json = data != nullptr ? boost::json::serialize(*data) : "null";
        out.push_back(std::move(ev));
      }
      if (static_cast<int64_t>(out.size()) >= limit) break;
    }
    return Status::Ok();
  }));
  return out;
}

Result<std::vector<ports::HistoryRecord>> ListHistory(const BugsDeps& deps, const ConsoleActor& actor,
                                                      const std::string& bug_id) {
  std::vector<ports::HistoryRecord> out;
  SV_RETURN_IF_ERROR(ReadOwnBug(deps, actor, bug_id, [&](ports::Tx& c, const ports::BugRecord&) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.bugs->History(c, bug_id));
    return Status::Ok();
  }));
  return out;
}

Result<std::vector<ports::CommentRecord>> ListComments(const BugsDeps& deps, const ConsoleActor& actor,
                                                       const std::string& bug_id) {
  std::vector<ports::CommentRecord> out;
  SV_RETURN_IF_ERROR(ReadOwnBug(deps, actor, bug_id, [&](ports::Tx& c, const ports::BugRecord&) -> Status {
    SV_ASSIGN_OR_RETURN(out, deps.bugs->Comments(c, bug_id));
    return Status::Ok();
  }));
  return out;
}

Result<bool> IsWatching(const BugsDeps& deps, const ConsoleActor& actor, const std::string& bug_id) {
  bool watching = false;
  SV_RETURN_IF_ERROR(ReadOwnBug(deps, actor, bug_id, [&](ports::Tx& c, const ports::BugRecord&) -> Status {
    SV_ASSIGN_OR_RETURN(watching, deps.bugs->IsWatching(c, bug_id, actor.user_id));
    return Status::Ok();
  }));
  return watching;
}

}  // namespace service::app::bugs
