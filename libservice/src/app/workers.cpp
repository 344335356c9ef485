#include "app/workers.h"

#include <chrono>

namespace service::app {

namespace {

constexpr int64_t kRepeatLogIntervalMs = 60'000;

int64_t SteadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void Workers::RunTask(const Task& task, FailureLog& failures) {
  std::string message;
  try {
    Status st = task.fn();
    if (st.ok()) {
      failures.last_message.clear();
      failures.suppressed = 0;
      return;
    }
    message = st.ToString();
  } catch (const std::exception& e) {
    message = std::string("exception: ") + e.what();
  } catch (...) {
    message = "unknown exception";
  }
  const int64_t now = SteadyMillis();
  if (message == failures.last_message && now - failures.last_logged_ms < kRepeatLogIntervalMs) {
    ++failures.suppressed;
    return;
  }
  std::vector<LogField> fields{{"task", task.name}, {"error", message}};
  if (failures.suppressed > 0) fields.push_back({"repeated", std::to_string(failures.suppressed)});
  if (log_ != nullptr) log_->Log(LogLevel::kError, "background task failed", fields);
  failures.last_message = std::move(message);
  failures.last_logged_ms = now;
  failures.suppressed = 0;
}

void Workers::Add(std::string name, int64_t interval_ms, std::function<Status()> task) {
  tasks_.push_back({std::move(name), interval_ms, std::move(task)});
}

void Workers::AddService(std::function<void()> start, std::function<void()> stop) {
  services_.emplace_back(std::move(start), std::move(stop));
}

void Workers::Kick() {
  {
    util::MutexLock lock(&mu_);
    ++kicks_;
  }
  cv_.SignalAll();
}

void Workers::Start() {
  if (running_.exchange(true)) return;
  {
    util::MutexLock lock(&mu_);
    stopping_ = false;
  }
  for (const Task& t : tasks_) {
    threads_.emplace_back([this, &t] {
      uint64_t seen = 0;
      FailureLog failures;
      for (;;) {
        {
          util::MutexLock lock(&mu_);
          const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(t.interval_ms);
          while (!stopping_ && kicks_ == seen) {
            if (!cv_.WaitUntil(&mu_, deadline)) break;
          }
          seen = kicks_;
          if (stopping_) break;
        }
        RunTask(t, failures);  // a failure is logged; the task runs again next interval
      }
      RunTask(t, failures);  // final flush
    });
  }
  for (auto& service : services_) service.first();
}

void Workers::Stop() {
  if (!running_.exchange(false)) return;
  {
    util::MutexLock lock(&mu_);
    stopping_ = true;
  }
  cv_.SignalAll();
  for (auto& th : threads_) th.join();
  threads_.clear();
  for (auto& service : services_) service.second();
}

}  // namespace service::app
