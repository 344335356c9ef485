// The triage area: the rows people attach to bugs (comments, watchers,
// status history, assignments, notifications and their preferences). Its
// routes come with the triage issues; today it owns what an organization's,
// a member's or an account's deletion must remove or clear of them.
#pragma once

#include <memory>

#include "modules/module.h"
#include "ports/triage_repository.h"

namespace service::modules {

class TriageModule final : public Module {
 public:
  std::string_view name() const override { return "triage"; }
  Status Open(Platform& platform) override;

 private:
  std::unique_ptr<ports::TriageRepository> triage_;
};

}  // namespace service::modules
