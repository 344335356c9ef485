// The mail area: the outbox of mail every other area queues into, and the
// worker that delivers it. Comes first in the module list: the account
// areas need Platform::mail.
#pragma once

#include "modules/module.h"

namespace service::modules {

class MailModule final : public Module {
 public:
  std::string_view name() const override { return "mail"; }
  // SERVICE_MAIL_URL, SERVICE_REQUIRE_EMAIL_VERIFICATION.
  void AddSettings(std::vector<SettingInfo>& rows) const override;
  Status Open(Platform& platform) override;
};

}  // namespace service::modules
