#include <map>
#include <mutex>
#include <shared_mutex>

#include "ports/event_bus.h"
#include "util/mutex.h"

namespace service::ports {
namespace {

class InProcessEventBus final : public EventBus {
 public:
  void Publish(const Event& event) override {
    util::ReaderLock lock(&mu_);
    for (auto& [id, fn] : subs_) fn(event);
  }
  uint64_t Subscribe(std::function<void(const Event&)> fn) override {
    util::WriterLock lock(&mu_);
    subs_.emplace(++next_, std::move(fn));
    return next_;
  }
  void Unsubscribe(uint64_t handle) override {
    util::WriterLock lock(&mu_);
    subs_.erase(handle);
  }

 private:
  util::SharedMutex mu_;
  std::map<uint64_t, std::function<void(const Event&)>> subs_ SV_GUARDED_BY(mu_);
  uint64_t next_ SV_GUARDED_BY(mu_) = 0;
};

}  // namespace

std::unique_ptr<EventBus> NewInProcessEventBus() { return std::make_unique<InProcessEventBus>(); }

}  // namespace service::ports
