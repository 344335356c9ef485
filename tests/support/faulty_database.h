// FaultyDatabase: forwards to a real Database until told to fail, so tests can
// observe how the service behaves when its database becomes unreachable, or
// when its writes fail with a driver error (whose text carries SQL, as real
// driver errors do).
//
// Install it into a running TestService: move PlatformOf(s).db into it, put
// it back in its place and Rebind PlatformOf(s).tx to it.
#pragma once

#include <atomic>
#include <memory>

#include "store/database.h"

namespace service::testing {

class FaultyDatabase final : public store::Database {
 public:
  explicit FaultyDatabase(std::unique_ptr<store::Database> inner) : inner_(std::move(inner)) {}

  void SetUnreachable(bool down) { down_ = down; }
  // Every Write/WriteAlone fails with kInternal and a driver-like message
  // quoting SQL; reads still work.
  void SetWritesFail(bool fail) { writes_fail_ = fail; }
  static constexpr const char* kDriverText =
      "sqlite: disk I/O error (INSERT INTO users (id, email, password_hash) VALUES (?, ?, ?))";

  store::Dialect dialect() const override { return inner_->dialect(); }
  std::string_view backend_name() const override { return inner_->backend_name(); }
  Status Read(const std::function<Status(store::Connection&)>& fn) override {
    if (down_) return Unavailable("database unreachable (injected)");
    return inner_->Read(fn);
  }
  Status Write(const std::function<Status(store::Connection&)>& fn) override {
    if (down_) return Unavailable("database unreachable (injected)");
    if (writes_fail_) return Internal(kDriverText);
    return inner_->Write(fn);
  }
  Status WriteAlone(const std::function<Status(store::Connection&)>& fn) override {
    if (down_) return Unavailable("database unreachable (injected)");
    if (writes_fail_) return Internal(kDriverText);
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
  std::atomic<bool> writes_fail_{false};
};

}  // namespace service::testing
