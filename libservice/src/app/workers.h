// Workers: the background jobs of one Service (mail sending, batched
// bookkeeping, expiry sweeps). Areas register periodic tasks at open; the
// shell (or embedder) starts them with Service::StartWorkers. On shutdown
// every task runs one last time (flush) before the threads stop.
//
// A task reports failure by returning a non-OK Status (or, for a bug, by
// throwing): the failure is logged with the task's name and the task runs
// again at its next interval. The same failure repeated is logged at most
// once a minute (with how many times it happened), so a database outage
// does not flood the log.
//
// Thread-safety: Add before Start; Start/Stop from one thread. Each task runs
// on its own thread, never concurrently with itself.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "service/logger.h"
#include "service/status.h"
#include "util/mutex.h"

namespace service::app {

// The delay before retrying outbox work that failed `attempts` times (the
// failed attempt included): `first_ms`, doubling, at most `max_ms`.
inline int64_t RetryBackoffMs(int64_t attempts, int64_t first_ms, int64_t max_ms) {
  int64_t delay = first_ms;
  for (int64_t i = 1; i < attempts && delay < max_ms; ++i) delay *= 2;
  return delay < max_ms ? delay : max_ms;
}

class Workers {
 public:
  Workers() = default;
  // Where task failures go. REQUIRES: before Start; `log` outlives this.
  void SetLogger(Logger* log) { log_ = log; }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;
  ~Workers() { Stop(); }

  // `task` runs every `interval_ms` (and once more at Stop). It should return
  // quickly when there is nothing to do.
  void Add(std::string name, int64_t interval_ms, std::function<Status()> task);
  // A long-running service with threads of its own (the delivery engine):
  // `start` runs at Start after the tasks' threads; `stop` at Stop after the
  // tasks' last run (it returns when its threads are joined).
  void AddService(std::function<void()> start, std::function<void()> stop);
  // Wakes every task now (tests and callers that just queued work).
  void Kick();
  void Start();
  void Stop();
  bool running() const { return running_.load(); }

 private:
  struct Task {
    std::string name;
    int64_t interval_ms;
    std::function<Status()> fn;
  };
  struct FailureLog {
    std::string last_message;
    int64_t last_logged_ms = 0;
    int64_t suppressed = 0;
  };
  // Runs one task once and logs its failure.
  void RunTask(const Task& task, FailureLog& failures);

  Logger* log_ = nullptr;
  std::vector<Task> tasks_;
  std::vector<std::pair<std::function<void()>, std::function<void()>>> services_;
  std::vector<std::thread> threads_;
  util::Mutex mu_;
  util::CondVar cv_;
  uint64_t kicks_ SV_GUARDED_BY(mu_) = 0;
  bool stopping_ SV_GUARDED_BY(mu_) = false;
  std::atomic<bool> running_{false};
};

}  // namespace service::app
