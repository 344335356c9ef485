// EventBus: in-process fan-out of domain events (new_bug, duplicate,
// regression, status_change, deleted, comment, presence) to subscribers such
// as the live stream and the webhook outbox hook.
//
// Thread-safety: Publish, Subscribe and Unsubscribe are safe from any thread.
// Subscribers are called on the publisher's thread and must not block; a
// subscriber must not call Subscribe/Unsubscribe from inside its callback.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace service::ports {

struct Event {
  std::string type;  // e.g. "new_bug"
  std::string org_id;
  std::string project_id;  // "" for org-wide events (presence snapshot)
  std::string payload;     // JSON object text, the stream's data
  // The bug's signal class ("issue", "watch", "diagnostic") for capture
  // events; "" for others. Streams leave diagnostics out unless asked.
  std::string signal_class;
  // Set on delivery when another server process published it (PostgreSQL's
  // bus); publishers leave it false.
  bool from_other_process = false;
};

class EventBus {
 public:
  EventBus() = default;
  EventBus(const EventBus&) = delete;
  EventBus& operator=(const EventBus&) = delete;
  virtual ~EventBus() = default;

  virtual void Publish(const Event& event) = 0;
  // Returns a handle for Unsubscribe.
  virtual uint64_t Subscribe(std::function<void(const Event&)> fn) = 0;
  virtual void Unsubscribe(uint64_t handle) = 0;
};

std::unique_ptr<EventBus> NewInProcessEventBus();

}  // namespace service::ports
