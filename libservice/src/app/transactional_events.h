// TransactionalEvents: the platform's one list of subscribers to the events
// the areas write (capture: new_bug, duplicate, regression; triage:
// regression, status_change, comment, assigned, deleted). Publish calls
// every subscriber, in subscription order, inside the writer's own
// transaction: what a subscriber writes (a webhook delivery, an outbox row)
// commits or rolls back with the change that caused it, and a failing
// subscriber fails the write. After its commit the writer publishes the same
// event on the EventBus (ports/event_bus.h) for readers that must see only
// committed data: the live stream, the delivery engine's nudge.
//
// Thread-safety: subscribe while the service is being assembled (before it
// handles requests; tests may also between requests); Publish may then be
// called from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "ports/event_bus.h"
#include "ports/transaction.h"
#include "service/status.h"

namespace service::app {

// The area that wrote an event, passed to subscribers: the same event type
// may come from either (a regression from a report or from a reopening).
inline constexpr std::string_view kCaptureEvents = "capture";
inline constexpr std::string_view kTriageEvents = "triage";

class TransactionalEvents {
 public:
  using Subscriber = std::function<Status(ports::Tx& tx, const ports::Event& event, std::string_view area)>;

  // Returns a handle for Unsubscribe.
  uint64_t Subscribe(Subscriber subscriber) {
    subscribers_.emplace_back(next_, std::move(subscriber));
    return next_++;
  }
  void Unsubscribe(uint64_t handle) {
    std::erase_if(subscribers_, [handle](const auto& s) { return s.first == handle; });
  }
  // True without subscribers: a writer may skip building the event.
  bool empty() const { return subscribers_.empty(); }

  // REQUIRES: `tx` is the writer's open transaction.
  Status Publish(ports::Tx& tx, const ports::Event& event, std::string_view area) const {
    for (const auto& [handle, subscriber] : subscribers_) SV_RETURN_IF_ERROR(subscriber(tx, event, area));
    return Status::Ok();
  }

 private:
  std::vector<std::pair<uint64_t, Subscriber>> subscribers_;
  uint64_t next_ = 1;
};

}  // namespace service::app
