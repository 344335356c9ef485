// The live-stream area (Spec 1 "Events"): GET /v1/bugs/stream over the
// event bus, with a background task that wakes streams whose heartbeat or
// token expiry is due.
#pragma once

#include <memory>

#include "areas/accounts/module.h"
#include "areas/stream/app/stream.h"
#include "modules/module.h"

namespace service::modules {

class StreamModule final : public Module {
 public:
  explicit StreamModule(AccountsModule& accounts) : accounts_(accounts) {}
  std::string_view name() const override { return "stream"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

  app::stream::Hub& hub() { return *hub_; }

 private:
  AccountsModule& accounts_;
  app::stream::StreamDeps deps_;
  std::unique_ptr<app::stream::Hub> hub_;
};

}  // namespace service::modules
