#include "areas/stream/app/stream.h"

#include <algorithm>
#include <utility>

#include "areas/accounts/domain/token.h"

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

Subscription::Subscription(const StreamDeps& deps, Hub* hub, std::string token, std::string user_id,
                           std::string org_id, int64_t token_expires_ms, bool include_diagnostics)
    : deps_(deps),
      hub_(hub),
      token_(std::move(token)),
      user_id_(std::move(user_id)),
      org_id_(std::move(org_id)),
      token_expires_ms_(token_expires_ms),
      include_diagnostics_(include_diagnostics) {}

Subscription::~Subscription() { Close(); }

void Subscription::SetWaker(std::function<void()> wake) {
  util::MutexLock lock(&mu_);
  wake_ = std::move(wake);
}

bool IsStreamEventType(std::string_view type) {
  static constexpr std::string_view kTypes[] = {"new_bug", "duplicate", "regression", "status_change",
                                                "deleted", "comment",   "presence"};
  return std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes);
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
  if (!IsStreamEventType(event.type)) return;
  if (!include_diagnostics_ && event.signal_class == "diagnostic") return;
  {
    util::MutexLock lock(&mu_);
    if (closed_ || overflow_) return;
    if (!event.project_id.empty() && projects_.count(event.project_id) == 0) return;
    queue_.push_back(event);
    queue_seq_ = hub_->NextSeq();
    // A reader this far behind re-reads current state instead.
    if (queue_.size() > deps_.max_backlog) {
      overflow_ = true;
      queue_.clear();
    }
  }
  Wake();
}

bool Subscription::Recheck(int64_t now, uint64_t need_seq, int64_t need_ms) {
  std::shared_ptr<const Hub::Access> access = hub_->AccessFor(org_id_, need_seq, need_ms, user_id_);
  std::string reason;
  if (!access->status.ok()) {
    reason = "lookup";
  } else {
    auto caller = app::accounts::CheckAccess(*deps_.accounts, token_, access->access);
    if (!caller.ok()) {
      reason = caller.status().code() == Code::kUnavailable ? "lookup" : "access";
    } else if (!caller->membership) {
      reason = "access";
    }
  }
  util::MutexLock lock(&mu_);
  if (!reason.empty()) {
    if (end_reason_.empty()) end_reason_ = reason;
    return false;
  }
  projects_ = access->projects;
  next_heartbeat_ms_ = now + deps_.heartbeat_ms;
  return true;
}

Subscription::Poll Subscription::Next(std::string* out) {
  const int64_t now = deps_.Now();
  std::deque<ports::Event> batch;
  uint64_t batch_seq = 0;
  int64_t heartbeat_due = 0;
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
    batch_seq = queue_seq_;
    heartbeat = batch.empty() && now >= next_heartbeat_ms_;
    heartbeat_due = next_heartbeat_ms_;
  }
  if (batch.empty() && !heartbeat) return Poll::kPending;
  // Rules 1 and 2: the access check before a delivery (a read that began
  // after these events), and at a heartbeat (a read from its due time on).
  if (!Recheck(now, batch_seq, heartbeat ? heartbeat_due : 0)) return Poll::kEnd;
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
  auto claims = domain::accounts::VerifyToken(token, deps_.accounts->jwt_secret, now,
                                              domain::accounts::kAccessTokenType);
  if (!claims.ok()) return claims.status();
  auto projects = OrgProjects(deps_, org_id);
  if (!projects.ok()) return app::accounts::AuthUnavailable();
  auto sub = std::make_shared<Subscription>(deps_, this, token, claims->sub, org_id, claims->exp * 1000,
                                            include_diagnostics);
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

std::shared_ptr<const Hub::Access> Hub::AccessFor(const std::string& org_id, uint64_t need_seq,
                                                  int64_t need_ms, const std::string& user_id) {
  std::shared_ptr<OrgState> state;
  {
    util::MutexLock lock(&mu_);
    std::shared_ptr<OrgState>& slot = orgs_[org_id];
    if (!slot) slot = std::make_shared<OrgState>();
    state = slot;
  }
  OrgState* st = state.get();  // a plain pointer: clang's lock analysis follows it
  util::MutexLock lock(&st->mu);
  const std::shared_ptr<const Access> last = st->last;
  if (last && last->read_at_seq >= need_seq && last->read_at_ms >= need_ms &&
      last->access.users.count(user_id)) {
    return last;
  }
  auto fresh = std::make_shared<Access>();
  fresh->read_at_seq = seq_.load();
  fresh->read_at_ms = deps_.Now();
  // Every caller with an open stream in this organization, read at once.
  std::vector<std::string> users = {user_id};
  {
    util::MutexLock hub_lock(&mu_);
    for (const auto& w : subs_) {
      if (auto s = w.lock(); s && s->org_id() == org_id) users.push_back(s->user_id());
    }
  }
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
  auto read = app::accounts::ReadAccess(*deps_.accounts, org_id, users);
  auto projects = OrgProjects(deps_, org_id);
  if (!read.ok()) {
    fresh->status = read.status();
  } else if (!projects.ok()) {
    fresh->status = app::accounts::AuthUnavailable();
  } else {
    fresh->access = std::move(*read);
    fresh->projects = std::move(*projects);
  }
  // A failed read is not kept: the next delivery reads again.
  if (fresh->status.ok()) st->last = fresh;
  return fresh;
}

Status Hub::Tick() {
  const int64_t now = deps_.Now();
  std::vector<std::shared_ptr<Subscription>> due;
  {
    util::MutexLock lock(&mu_);
    std::set<std::string> orgs_open;
    std::erase_if(subs_, [&](const std::weak_ptr<Subscription>& w) {
      auto s = w.lock();
      if (!s || s->closed()) return true;
      orgs_open.insert(s->org_id());
      if (s->DueAt() <= now) due.push_back(std::move(s));
      return false;
    });
    // Forget the reads of organizations without open streams.
    std::erase_if(orgs_, [&](const auto& entry) { return orgs_open.count(entry.first) == 0; });
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
