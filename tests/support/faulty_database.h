// FaultyDatabase: forwards to a real Database until told to fail, so tests can
// observe how the service behaves when its database becomes unreachable.
#pragma once

#include <atomic>
#include <memory>

#include "store/database.h"

namespace service::testing {

class FaultyDatabase final : public store::Database {
 public:
  explicit FaultyDatabase(std::unique_ptr<store::Database> inner) : inner_(std::move(inner)) {}

  void SetUnreachable(bool down) { down_ = down; }

  store::Dialect dialect() const override { return inner_->dialect(); }
  std::string_view backend_name() const override { return inner_->backend_name(); }
  Status Read(const std::function<Status(store::Connection&)>& fn) override {
    if (down_) return Unavailable("database unreachable (injected)");
    return inner_->Read(fn);
  }
  Status Write(const std::function<Status(store::Connection&)>& fn) override {
    if (down_) return Unavailable("database unreachable (injected)");
    return inner_->Write(fn);
  }
  Status WriteAlone(const std::function<Status(store::Connection&)>& fn) override {
    if (down_) return Unavailable("database unreachable (injected)");
    return inner_->WriteAlone(fn);
  }
  Status Ping() override {
    if (down_) return Unavailable("database unreachable (injected)");
    return inner_->Ping();
  }
  void Close() override { inner_->Close(); }

 private:
  std::unique_ptr<store::Database> inner_;
  std::atomic<bool> down_{false};
};

}  // namespace service::testing
