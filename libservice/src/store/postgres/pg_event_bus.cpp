// The event bus of a service on PostgreSQL: local subscribers get an event at
// once, and every other process on the same database gets it through
// LISTEN/NOTIFY on the channel "service_events".
//
// Publish hands the event to a sender thread, which sends what has queued
// with one statement (`SELECT pg_notify(...) FROM unnest($1::text[])`), so
// the ingest path never waits on the database for it. A listener thread
// holds its own connection with LISTEN and hands other processes' events to
// the local subscribers; each notification carries the sending process's
// random id, so a process skips its own. Both reconnect after a failure
// (with a pause) and log it; events published while the database is
// unreachable reach only local subscribers (streams re-read state on
// reconnect; this is a live feed, not a queue).
//
// Notification payloads are limited to 8,000 bytes by PostgreSQL; larger
// events (a report with a very long title and URL) go to local subscribers
// only and are logged.
#include <libpq-fe.h>
#include <poll.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "ports/event_bus.h"
#include "service/logger.h"
#include "store/database.h"
#include "store/postgres/libpq_connect.h"
#include "util/mutex.h"

namespace service::store {
namespace {

constexpr size_t kMaxNotifyBytes = 7'900;  // PostgreSQL's limit is 8,000
constexpr auto kRetryPause = std::chrono::seconds(1);

std::string Trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// The wire form: origin, type, org, project, signal class, then the payload,
// separated by newlines (ids, types and classes never contain one; the
// payload is last).
std::string Encode(const std::string& origin, const ports::Event& e) {
  return origin + "\n" + e.type + "\n" + e.org_id + "\n" + e.project_id + "\n" + e.signal_class + "\n" +
         e.payload;
}

bool Decode(std::string_view text, std::string* origin, ports::Event* e) {
  std::string* parts[] = {origin, &e->type, &e->org_id, &e->project_id, &e->signal_class};
  for (std::string* part : parts) {
    const size_t nl = text.find('\n');
    if (nl == std::string_view::npos) return false;
    *part = std::string(text.substr(0, nl));
    text.remove_prefix(nl + 1);
  }
  e->payload = std::string(text);
  return true;
}

class PostgresEventBus final : public ports::EventBus {
 public:
  PostgresEventBus(std::string conninfo, std::string origin, Logger* log)
      : conninfo_(std::move(conninfo)), origin_(std::move(origin)), log_(log) {
    sender_ = std::thread([this] { SendLoop(); });
    listener_ = std::thread([this] { ListenLoop(); });
  }

  ~PostgresEventBus() override {
    {
      util::MutexLock lock(&queue_mu_);
      stopping_ = true;
    }
    queue_cv_.SignalAll();
    stop_.store(true);
    sender_.join();
    listener_.join();
  }

  void Publish(const ports::Event& event) override {
    DeliverLocally(event);
    std::string wire = Encode(origin_, event);
    if (wire.size() > kMaxNotifyBytes) {
      Log("event too large for other processes; delivered locally only", event.type);
      return;
    }
    {
      util::MutexLock lock(&queue_mu_);
      if (queue_.size() >= 10'000) return;  // the sender is stuck: local delivery only
      queue_.push_back(std::move(wire));
    }
    queue_cv_.Signal();
  }

  uint64_t Subscribe(std::function<void(const ports::Event&)> fn) override {
    util::WriterLock lock(&subs_mu_);
    subs_.emplace(++next_, std::move(fn));
    return next_;
  }

  void Unsubscribe(uint64_t handle) override {
    util::WriterLock lock(&subs_mu_);
    subs_.erase(handle);
  }

 private:
  void DeliverLocally(const ports::Event& event) {
    util::ReaderLock lock(&subs_mu_);
    for (auto& [id, fn] : subs_) fn(event);
  }

  void Log(const std::string& message, const std::string& detail) {
    if (log_) log_->Log(LogLevel::kWarning, "event bus: " + message, {{"detail", detail}});
  }

  void SendLoop() {
    PGconn* conn = nullptr;
    for (;;) {
      std::vector<std::string> batch;
      {
        util::MutexLock lock(&queue_mu_);
        while (!stopping_ && queue_.empty()) queue_cv_.Wait(&queue_mu_);
        if (queue_.empty()) break;  // stopping, nothing left
        while (!queue_.empty() && batch.size() < 500) {
          batch.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
      if (conn == nullptr) {
        std::string error;
        conn = ConnectLibpq(conninfo_, "service-events", &error);
        if (conn == nullptr) {
          Log("cannot connect to send events; other processes miss them", error);
          std::this_thread::sleep_for(kRetryPause);
          continue;
        }
      }
      // A text[] literal: {"a","b"} with quotes and backslashes escaped.
      std::string array = "{";
      for (size_t i = 0; i < batch.size(); ++i) {
        if (i > 0) array.push_back(',');
        array.push_back('"');
        for (char c : batch[i]) {
          if (c == '"' || c == '\\') array.push_back('\\');
          array.push_back(c);
        }
        array.push_back('"');
      }
      array.push_back('}');
      const char* params[] = {array.c_str()};
      PGresult* res = PQexecParams(conn, "SELECT pg_notify('service_events', x) FROM unnest($1::text[]) AS x",
                                   1, nullptr, params, nullptr, nullptr, 0);
      const bool ok = res != nullptr && PQresultStatus(res) == PGRES_TUPLES_OK;
      if (res) PQclear(res);
      if (!ok) {
        Log("sending events failed; other processes miss them", Trimmed(PQerrorMessage(conn)));
        PQfinish(conn);
        conn = nullptr;
      }
    }
    if (conn) PQfinish(conn);
  }

  void ListenLoop() {
    PGconn* conn = nullptr;
    while (!stop_.load()) {
      if (conn == nullptr) {
        std::string error;
        conn = ConnectLibpq(conninfo_, "service-events", &error);
        PGresult* res = conn ? PQexec(conn, "LISTEN service_events") : nullptr;
        const bool ok = res != nullptr && PQresultStatus(res) == PGRES_COMMAND_OK;
        if (res) PQclear(res);
        if (!ok) {
          if (conn) {
            error = Trimmed(PQerrorMessage(conn));
            PQfinish(conn);
            conn = nullptr;
          }
          Log("cannot listen for other processes' events; retrying", error);
          for (int i = 0; i < 10 && !stop_.load(); ++i) std::this_thread::sleep_for(kRetryPause / 10);
          continue;
        }
      }
      pollfd p{PQsocket(conn), POLLIN, 0};
      const int ready = ::poll(&p, 1, 200);  // notices stop_ within 200 ms
      if (ready < 0) continue;
      if (ready > 0 && PQconsumeInput(conn) == 0) {
        Log("lost the listening connection; reconnecting", Trimmed(PQerrorMessage(conn)));
        PQfinish(conn);
        conn = nullptr;
        continue;
      }
      while (PGnotify* n = PQnotifies(conn)) {
        std::string origin;
        ports::Event event;
        if (Decode(n->extra ? n->extra : "", &origin, &event) && origin != origin_) {
          event.from_other_process = true;
          DeliverLocally(event);
        }
        PQfreemem(n);
      }
    }
    if (conn) PQfinish(conn);
  }

  const std::string conninfo_;
  const std::string origin_;
  Logger* const log_;

  util::SharedMutex subs_mu_;
  std::map<uint64_t, std::function<void(const ports::Event&)>> subs_ SV_GUARDED_BY(subs_mu_);
  uint64_t next_ SV_GUARDED_BY(subs_mu_) = 0;

  util::Mutex queue_mu_;
  util::CondVar queue_cv_;
  std::deque<std::string> queue_ SV_GUARDED_BY(queue_mu_);
  bool stopping_ SV_GUARDED_BY(queue_mu_) = false;

  std::atomic<bool> stop_{false};
  std::thread sender_;
  std::thread listener_;
};

}  // namespace

std::unique_ptr<ports::EventBus> NewPostgresEventBus(const std::string& conninfo, const std::string& origin,
                                                     Logger* log) {
  return std::make_unique<PostgresEventBus>(conninfo, origin, log);
}

}  // namespace service::store
