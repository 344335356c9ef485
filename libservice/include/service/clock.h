// Clock: the only source of time in the library, so tests control it.
//
// Thread-safety: implementations must be safe to call from any thread.
#pragma once

#include <cstdint>
#include <memory>

namespace service {

class Clock {
 public:
  Clock() = default;
  Clock(const Clock&) = delete;
  Clock& operator=(const Clock&) = delete;
  virtual ~Clock() = default;

  // Wall-clock time in Unix milliseconds.
  virtual int64_t NowMillis() = 0;
};

// The real wall clock.
std::shared_ptr<Clock> SystemClock();

// A clock that only moves when told to. Starts at `start_millis`.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_millis);
  int64_t NowMillis() override;
  void Advance(int64_t millis);
  void Set(int64_t millis);

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace service
