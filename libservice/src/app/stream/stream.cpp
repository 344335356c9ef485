#include "app/stream/stream.h"

#include <algorithm>
#include <utility>

#include "domain/auth/token.h"

namespace service::app::stream {

namespace {

// The projects `org_id` owns now.
Result<std::set<std::string>> OrgProjects(const StreamDeps& deps, const std::string& org_id) {
  std::set<std::string> ids;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(std::vector<ports::Project> list, deps.projects->List(c, org_id));
    for (const auto& p : list) ids.insert(p.id);
    return Status::Ok();
  }));
  return ids;
}

// One server-sent event. The payload is one line of JSON (the bus carries
// serialized objects, which never contain a raw newline).
void AppendEvent(std::string* out, uint64_t id, const ports::Event& e) {
  out->append("id: ");
  out->append(std::to_string(id));
  out->append("\nevent: ");
  out->append(e.type);
  out->append("\ndata: ");
  for (char ch : e.payload) {
    if (ch != '\n' && ch != '\r') out->push_back(ch);
  }
  out->append("\n\n");
}

}  // namespace

Subscription::Subscription(const StreamDeps& deps, std::string token, std::string org_id,
                           int64_t token_expires_ms, bool include_diagnostics)
    : deps_(deps),
      token_(std::move(token)),
      org_id_(std::move(org_id)),
      token_expires_ms_(token_expires_ms),
      include_diagnostics_(include_diagnostics) {}

Subscription::~Subscription() { Close(); }

void Subscription::SetWaker(std::function<void()> wake) {
  util::MutexLock lock(&mu_);
  wake_ = std::move(wake);
}

void Subscription::Wake() {
  std::function<void()> wake;
  {
    util::MutexLock lock(&mu_);
    wake = wake_;
  }
  if (wake) wake();
}

void Subscription::OnEvent(const ports::Event& event) {
  if (event.org_id != org_id_) return;
  if (!include_diagnostics_ && event.signal_class == "diagnostic") return;
  if (!include_diagnostics_ && event.signal_class == "diagnostic") return;
  {
    util::MutexLock lock(&mu_);
    if (closed_ || overflow_) return;
    if (!event.project_id.empty() && projects_.count(event.project_id) == 0) return;
    queue_.push_back(event);
    // A reader this far behind re-reads current state instead.
    if (queue_.size() > deps_.max_backlog) {
      overflow_ = true;
      queue_.clear();
    }
  }
  Wake();
}

bool Subscription::Recheck(int64_t now) {
  auto caller = AuthenticateAccess(*deps_.accounts, token_, &org_id_);
  std::string reason;
  if (!caller.ok()) {
    reason = caller.status().code() == Code::kUnavailable ? "lookup" : "access";
  } else if (!caller->membership) {
    reason = "access";
  }
  std::set<std::string> projects;
  if (reason.empty()) {
    auto listed = OrgProjects(deps_, org_id_);
    if (!listed.ok()) {
      reason = "lookup";
    } else {
      projects = std::move(*listed);
    }
  }
  util::MutexLock lock(&mu_);
  if (!reason.empty()) {
    if (end_reason_.empty()) end_reason_ = reason;
    return false;
  }
  projects_ = std::move(projects);
  next_heartbeat_ms_ = now + deps_.heartbeat_ms;
  return true;
}

Subscription::Poll Subscription::Next(std::string* out) {
  const int64_t now = deps_.Now();
  std::deque<ports::Event> batch;
  bool heartbeat = false;
  {
    util::MutexLock lock(&mu_);
    if (closed_) return Poll::kEnd;
    if (now >= token_expires_ms_) {
      end_reason_ = "expired";
      return Poll::kEnd;
    }
    if (overflow_) {
      end_reason_ = "backlog";
      return Poll::kEnd;
    }
    if (!started_) {
      started_ = true;
      // Reconnection delay for EventSource, and the headers go out at once.
      *out = "retry: 3000\n\n";
      return Poll::kData;
    }
    batch.swap(queue_);
    heartbeat = batch.empty() && now >= next_heartbeat_ms_;
  }
  if (batch.empty() && !heartbeat) return Poll::kPending;
  // Rules 1 and 2: the access check before a delivery, and at a heartbeat.
  if (!Recheck(now)) return Poll::kEnd;
  util::MutexLock lock(&mu_);
  for (const ports::Event& e : batch) {
    if (!e.project_id.empty() && projects_.count(e.project_id) == 0) continue;  // no longer the org's
    AppendEvent(out, ++sequence_, e);
  }
  if (heartbeat) out->append(": heartbeat\n\n");
  return Poll::kData;
}

void Subscription::Close() {
  uint64_t handle = 0;
  {
    util::MutexLock lock(&mu_);
    if (closed_) return;
    closed_ = true;
    if (end_reason_.empty()) end_reason_ = "closed";
    queue_.clear();
    wake_ = nullptr;
    handle = bus_handle_;
  }
  if (handle != 0) deps_.bus->Unsubscribe(handle);
}

int64_t Subscription::DueAt() const {
  util::MutexLock lock(&mu_);
  return std::min(next_heartbeat_ms_, token_expires_ms_);
}

bool Subscription::closed() const {
  util::MutexLock lock(&mu_);
  return closed_;
}

std::string Subscription::end_reason() const {
  util::MutexLock lock(&mu_);
  return end_reason_;
}

Result<std::shared_ptr<Subscription>> Hub::Open(const std::string& token, const std::string& org_id,
                                                bool include_diagnostics) {
  const int64_t now = deps_.Now();
  auto claims = domain::VerifyToken(token, deps_.accounts->jwt_secret, now, domain::kAccessTokenType);
  if (!claims.ok()) return claims.status();
  auto projects = OrgProjects(deps_, org_id);
  if (!projects.ok()) return AuthUnavailable();
  auto sub = std::make_shared<Subscription>(deps_, token, org_id, claims->exp * 1000, include_diagnostics);
  {
    util::MutexLock lock(&sub->mu_);
    sub->projects_ = std::move(*projects);
    sub->next_heartbeat_ms_ = now + deps_.heartbeat_ms;
  }
  std::weak_ptr<Subscription> weak = sub;
  const uint64_t handle = deps_.bus->Subscribe([weak](const ports::Event& e) {
    if (auto s = weak.lock()) s->OnEvent(e);
  });
  {
    util::MutexLock lock(&sub->mu_);
    sub->bus_handle_ = handle;
  }
  util::MutexLock lock(&mu_);
  subs_.push_back(sub);
  return sub;
}

Status Hub::Tick() {
  const int64_t now = deps_.Now();
  std::vector<std::shared_ptr<Subscription>> due;
  {
    util::MutexLock lock(&mu_);
    std::erase_if(subs_, [&](const std::weak_ptr<Subscription>& w) {
      auto s = w.lock();
      if (!s || s->closed()) return true;
      if (s->DueAt() <= now) due.push_back(std::move(s));
      return false;
    });
  }
  for (auto& s : due) s->Wake();
  return Status::Ok();
}

size_t Hub::open_count() const {
  util::MutexLock lock(&mu_);
  size_t n = 0;
  for (const auto& w : subs_) {
    auto s = w.lock();
    if (s && !s->closed()) ++n;
  }
  return n;
}

}  // namespace service::app::stream
