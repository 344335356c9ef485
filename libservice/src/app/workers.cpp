#include "app/workers.h"

#include <chrono>

namespace service::app {

void Workers::Add(std::string name, int64_t interval_ms, std::function<void()> task) {
  tasks_.push_back({std::move(name), interval_ms, std::move(task)});
}

void Workers::Kick() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++kicks_;
  }
  cv_.notify_all();
}

void Workers::Start() {
  if (running_.exchange(true)) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = false;
  }
  for (const Task& t : tasks_) {
    threads_.emplace_back([this, &t] {
      uint64_t seen = 0;
      for (;;) {
        {
          std::unique_lock<std::mutex> lock(mu_);
          cv_.wait_for(lock, std::chrono::milliseconds(t.interval_ms),
                       [&] { return stopping_ || kicks_ != seen; });
          seen = kicks_;
          if (stopping_) break;
        }
        try {
          t.fn();
        } catch (...) {
          // A task must not take the process down; it retries next interval.
        }
      }
      try {
        t.fn();  // final flush
      } catch (...) {
      }
    });
  }
}

void Workers::Stop() {
  if (!running_.exchange(false)) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& th : threads_) th.join();
  threads_.clear();
}

}  // namespace service::app
