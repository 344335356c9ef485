#include <atomic>
#include <chrono>

#include "service/clock.h"

namespace service {

namespace {
class RealClock final : public Clock {
 public:
  int64_t NowMillis() override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};
}  // namespace

std::shared_ptr<Clock> SystemClock() {
  static const std::shared_ptr<Clock> clock = std::make_shared<RealClock>();
  return clock;
}

struct ManualClock::State {
  std::atomic<int64_t> now;
};

ManualClock::ManualClock(int64_t start_millis) : state_(std::make_shared<State>()) {
  state_->now = start_millis;
}
int64_t ManualClock::NowMillis() { return state_->now.load(); }
void ManualClock::Advance(int64_t millis) { state_->now += millis; }
void ManualClock::Set(int64_t millis) { state_->now = millis; }

}  // namespace service
