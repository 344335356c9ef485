#include "areas/recommendations/app/recommendations.h"

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "areas/bugs/app/insights.h"

namespace service::app::recommendations {
namespace {

namespace json = boost::json;
namespace dr = domain::recommendations;

struct Emitted {
  std::optional<ports::Event> wake;  // published after the commit
  int64_t deliveries = 0;
  bool emitted = false;
};

// Reads the project's top row and emits it when due.
Result<Emitted> RunProject(const RecommendationsDeps& deps, const ports::SubscribedProject& project) {
  Emitted out;
  ports::RecommendedFilter filter;
  filter.org_id = project.org_id;
  filter.project_id = project.project_id;
  SV_ASSIGN_OR_RETURN(bugs::RecommendedPage page, bugs::Recommend(*deps.bugs, filter, dr::kTopSpots));
  if (page.rows.empty()) return out;
  const bugs::RecommendedRow& top = page.rows.front();
  const ports::BugRecord& bug = top.group.representative;
  if (!dr::IsRecommendable(dr::TopRow{bug.id, bug.status, top.score})) return out;

  const std::string event_type(dr::kEvent);
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::Emission> previous,
                        deps.emissions->Find(tx, project.project_id, bug.id));
    std::vector<dr::StatusChange> history;
    if (previous) {
      SV_ASSIGN_OR_RETURN(std::vector<ports::HistoryRecord> records, deps.bugs->bugs->History(tx, bug.id));
      for (const ports::HistoryRecord& h : records) history.push_back({h.new_status, h.changed_at});
    }
    const dr::Due due =
        dr::EmissionDue(previous ? std::optional<int64_t>(previous->emitted_at) : std::nullopt, history);
    if (due == dr::Due::kNo) return Status::Ok();
    const int64_t now = deps.Now();
    bool claimed = false;
    if (due == dr::Due::kFirst) {
      SV_ASSIGN_OR_RETURN(claimed,
                          deps.emissions->ClaimFirst(
                              tx, ports::Emission{project.project_id, bug.id, project.org_id, now, 1, 0}));
    } else {
      SV_ASSIGN_OR_RETURN(
          claimed, deps.emissions->ClaimAgain(tx, project.project_id, bug.id, previous->emitted_at, now));
    }
    if (!claimed) return Status::Ok();  // another run emitted it
    out.emitted = true;
    SV_ASSIGN_OR_RETURN(std::vector<ports::IntegrationRow> dests,
                        deps.integrations->integrations->ActiveFor(tx, project.project_id, event_type));
    const ports::Event event{
        event_type, project.org_id, project.project_id,
        json::serialize(json::object{{"bugId", bug.id}, {"projectId", project.project_id}}),
        bug.signal_class};
    SV_ASSIGN_OR_RETURN(std::vector<integrations::QueuedDelivery> queued,
                        integrations::EnqueueEvent(*deps.integrations, tx, event, dests));
    out.deliveries = static_cast<int64_t>(queued.size());
    SV_RETURN_IF_ERROR(deps.emissions->SetDeliveries(tx, project.project_id, bug.id, out.deliveries));
    if (!queued.empty()) out.wake = event;
    return Status::Ok();
  }));
  return out;
}

}  // namespace

Result<RunSummary> EmitRecommended(const RecommendationsDeps& deps) {
  RunSummary summary;
  std::vector<ports::SubscribedProject> projects;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(projects, deps.emissions->SubscribedProjects(tx, std::string(dr::kEvent)));
    return Status::Ok();
  }));
  summary.projects = static_cast<int64_t>(projects.size());
  Status last = Status::Ok();
  for (const ports::SubscribedProject& p : projects) {
    Result<Emitted> r = RunProject(deps, p);
    if (!r.ok()) {
      if (deps.log != nullptr) {
        deps.log->Log(LogLevel::kError, "recommended_bug not emitted",
                      {{"project_id", p.project_id}, {"error", r.status().ToString()}});
      }
      last = r.status();
      continue;
    }
    if (r->emitted) ++summary.emitted;
    summary.deliveries += r->deliveries;
    // After the commit: the delivery engine looks at once.
    if (r->wake && deps.bus != nullptr) deps.bus->Publish(*r->wake);
  }
  if (!last.ok()) return last;
  return summary;
}

}  // namespace service::app::recommendations
