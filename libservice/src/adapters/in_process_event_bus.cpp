#include <map>
#include <mutex>
#include <shared_mutex>

#include "ports/event_bus.h"

namespace service::ports {
namespace {

class InProcessEventBus final : public EventBus {
 public:
  void Publish(const Event& event) override {
    std::shared_lock lock(mu_);
    for (auto& [id, fn] : subs_) fn(event);
  }
  uint64_t Subscribe(std::function<void(const Event&)> fn) override {
    std::unique_lock lock(mu_);
    subs_.emplace(++next_, std::move(fn));
    return next_;
  }
  void Unsubscribe(uint64_t handle) override {
    std::unique_lock lock(mu_);
    subs_.erase(handle);
  }

 private:
  std::shared_mutex mu_;
  std::map<uint64_t, std::function<void(const Event&)>> subs_;
  uint64_t next_ = 0;
};

}  // namespace

std::unique_ptr<EventBus> NewInProcessEventBus() { return std::make_unique<InProcessEventBus>(); }

}  // namespace service::ports
