// The live stream (Spec 1 "Events"): one Subscription per open
// GET /v1/bugs/stream, fed by the event bus with the events of the caller's
// organization and projects, and pulled by the transport as server-sent
// events.
//
// Stream rules, as implemented:
//  1. Before each delivery (the events queued since the last one) the
//     caller's access is checked again: the account (active, same session
//     revision), the membership of the organization, and the projects the
//     organization owns now (an event of a project it no longer owns is
//     dropped). The streams of one organization share these reads: a
//     delivery uses the organization's latest read if that read began after
//     the delivery's events were published (one read per event burst and
//     organization, however many streams it has), else it reads again.
//  2. Every heartbeat_ms (15 s) the same check runs and refreshes the project
//     list; the stream then sends an SSE comment (": heartbeat").
//  3. The access token's expiry closes the stream at once (the hub wakes it
//     at that time). A revoked account or membership closes it at the next
//     heartbeat at the latest.
//  4. A failed lookup, a backlog above max_backlog (100) undelivered events,
//     or (in the transport) a reader that does not take a piece within the
//     write timeout closes the stream; the client reconnects and re-reads.
//  5. At open, a failed lookup is 503 AUTH_UNAVAILABLE and a rejected
//     session 401 (the bearer authenticator's answers).
// Diagnostics (capture events of bugs classified "diagnostic") are left out
// unless the stream asked for them (includeDiagnostics=true).
//
// Events come from this process's bus: with several server processes on
// one PostgreSQL database, a stream sees the events of the process it is
// connected to (see the README).
//
// Thread-safety: the bus callback, Wake and Close may run on any thread; Poll
// runs on one thread at a time (the transport's contract).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "areas/accounts/app/accounts.h"
#include "areas/projects/ports/project_repository.h"
#include "ports/event_bus.h"
#include "ports/transaction.h"
#include "service/clock.h"
#include "service/status.h"
#include "util/mutex.h"

namespace service::app::stream {

// The event types Spec 1 "Events" names for the stream (new_bug, duplicate,
// regression, status_change, deleted, comment, presence); the bus carries
// others (assigned, for outbound deliveries) that streams leave out.
bool IsStreamEventType(std::string_view type);

inline constexpr int64_t kHeartbeatMs = 15'000;
inline constexpr size_t kMaxBacklog = 100;

struct StreamDeps {
  ports::EventBus* bus = nullptr;
  Clock* clock = nullptr;
  ports::Transactions* db = nullptr;
  ports::ProjectRepository* projects = nullptr;
  const app::accounts::AccountsDeps* accounts = nullptr;  // access checks
  int64_t heartbeat_ms = kHeartbeatMs;
  size_t max_backlog = kMaxBacklog;

  int64_t Now() const { return clock->NowMillis(); }
};

class Hub;

class Subscription {
 public:
  enum class Poll { kData, kPending, kEnd };

  // Use Hub::Open.
  Subscription(const StreamDeps& deps, Hub* hub, std::string token, std::string user_id, std::string org_id,
               int64_t token_expires_ms, bool include_diagnostics);
  ~Subscription();
  Subscription(const Subscription&) = delete;
  Subscription& operator=(const Subscription&) = delete;

  // Called (any thread) whenever Poll may have something new.
  void SetWaker(std::function<void()> wake);
  // The next piece of the event stream: SSE text for the events queued (after
  // the access check), a heartbeat comment when one is due, kPending when
  // there is nothing, kEnd when the stream must close (see the rules above).
  Poll Next(std::string* out);
  // Ends the subscription (idempotent): no more events are queued.
  void Close();

  // When the hub must wake it next (heartbeat or token expiry), Unix ms.
  int64_t DueAt() const;
  void Wake();
  bool closed() const;
  // Why it ended ("backlog", "expired", "access", "lookup", "closed"); "" while open.
  std::string end_reason() const;
  const std::string& org_id() const { return org_id_; }
  const std::string& user_id() const { return user_id_; }

 private:
  friend class Hub;
  // Access check and project refresh against a read that began after event
  // `need_seq` and at or after `need_ms`. Sets end_reason on failure.
  bool Recheck(int64_t now, uint64_t need_seq, int64_t need_ms);
  void OnEvent(const ports::Event& event);

  const StreamDeps& deps_;
  Hub* const hub_;
  const std::string token_;
  const std::string user_id_;
  const std::string org_id_;
  const int64_t token_expires_ms_;
  const bool include_diagnostics_;
  uint64_t bus_handle_ = 0;

  mutable util::Mutex mu_;
  std::deque<ports::Event> queue_ SV_GUARDED_BY(mu_);
  uint64_t queue_seq_ SV_GUARDED_BY(mu_) = 0;  // the newest queued event's publish sequence
  std::set<std::string> projects_ SV_GUARDED_BY(mu_);
  std::function<void()> wake_ SV_GUARDED_BY(mu_);
  bool overflow_ SV_GUARDED_BY(mu_) = false;
  bool closed_ SV_GUARDED_BY(mu_) = false;
  std::string end_reason_ SV_GUARDED_BY(mu_);
  int64_t next_heartbeat_ms_ SV_GUARDED_BY(mu_) = 0;
  uint64_t sequence_ SV_GUARDED_BY(mu_) = 0;
  bool started_ SV_GUARDED_BY(mu_) = false;
};

// The open subscriptions of one service: opens them, and wakes the ones
// whose heartbeat or token expiry is due (Tick, a background task every
// second).
class Hub {
 public:
  explicit Hub(const StreamDeps& deps) : deps_(deps) {}

  // One organization's access read, shared by its streams.
  struct Access {
    int64_t read_at_ms = 0;    // when the read began
    uint64_t read_at_seq = 0;  // events counted when the read began
    Status status;             // a failed lookup
    app::accounts::AccessSnapshot access;
    std::set<std::string> projects;
  };
  // The newest read of `org_id` that began after event `need_seq` and at or
  // after `need_ms` and includes `user_id`; reads again (once, however many
  // streams ask at the same time) when there is none.
  std::shared_ptr<const Access> AccessFor(const std::string& org_id, uint64_t need_seq, int64_t need_ms,
                                          const std::string& user_id);
  // Counts a published event as a subscription receives it.
  uint64_t NextSeq() { return ++seq_; }

  // Opens a stream for the bearer `token` (already authenticated for
  // `org_id`). Reads the organization's projects: a failed read is 503
  // AUTH_UNAVAILABLE. Events of diagnostic bugs are left out unless
  // `include_diagnostics`.
  Result<std::shared_ptr<Subscription>> Open(const std::string& token, const std::string& org_id,
                                             bool include_diagnostics = false);
  // Wakes every subscription that is due; forgets closed ones.
  Status Tick();
  size_t open_count() const;

 private:
  struct OrgState {
    util::Mutex mu;  // one read at a time per organization
    std::shared_ptr<const Access> last SV_GUARDED_BY(mu);
  };

  const StreamDeps& deps_;
  std::atomic<uint64_t> seq_{0};
  mutable util::Mutex mu_;
  std::vector<std::weak_ptr<Subscription>> subs_ SV_GUARDED_BY(mu_);
  std::map<std::string, std::shared_ptr<OrgState>> orgs_ SV_GUARDED_BY(mu_);
};

}  // namespace service::app::stream
