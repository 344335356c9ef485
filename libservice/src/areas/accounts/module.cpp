#include "areas/accounts/module.h"

#include "areas/accounts/api/routes.h"
#include "areas/accounts/store/repositories.h"

namespace service::modules {
namespace {

Status ApplyJwtSecret(Options& options, std::string_view value) {
  const std::string var = "SERVICE_JWT_SECRET";
  // Not trimmed: every byte of a secret counts. Never echoed.
  if (!value.empty() && value.size() < 32) {
    return InvalidArgument(var + " must be at least 32 characters long (got " + std::to_string(value.size()) +
                           "); leave it unset to have one generated and kept in the database");
  }
  options.jwt_secret = std::string(value);
  return Status::Ok();
}

}  // namespace

void AccountsModule::AddSettings(std::vector<SettingInfo>& rows) const {
  rows.push_back({"SERVICE_JWT_SECRET", "", "", "signing secret for console tokens, at least 32 characters",
                  "generated once and kept in the database", ApplyJwtSecret});
}

void AccountsModule::Provide(Platform& p) {
  p.Share(store::NewSqlUserRepository());
  p.Share(store::NewSqlOrgRepository());
  p.Share(store::NewSqlMembershipRepository());
}

Status AccountsModule::Open(Platform& p) {
  sessions_ = store::NewSqlSessionRepository();
  email_tokens_ = store::NewSqlEmailTokenRepository();
  invitations_ = store::NewSqlInvitationRepository();
  waitlist_ = store::NewSqlWaitlistRepository();
  account_data_ = store::NewSqlAccountDataRepository();

  deps_.db = p.tx.get();
  deps_.clock = p.clock.get();
  deps_.ids = p.ids.get();
  deps_.users = p.Shared<ports::UserRepository>();
  deps_.orgs = p.Shared<ports::OrgRepository>();
  deps_.memberships = p.Shared<ports::MembershipRepository>();
  deps_.sessions = sessions_.get();
  deps_.email_tokens = email_tokens_.get();
  deps_.invitations = invitations_.get();
  deps_.waitlist = waitlist_.get();
  deps_.account_data = account_data_.get();
  deps_.mail = p.Shared<app::mail::MailOutbox>();
  deps_.deletion = &p.deletion;
  deps_.jwt_secret = p.jwt_secret;
  deps_.password_params = &password_params_;
  deps_.public_url = p.options.EffectivePublicUrl();
  deps_.require_email_verification = p.options.EffectiveRequireEmailVerification();
  deps_.superadmin_emails = p.options.superadmin_emails;
  deps_.plan_limits = p.options.plan_limits;
  production_ = p.options.production;

  // Account rows that point at an organization or account without a
  // cascading foreign key.
  ports::UserRepository* users = p.Shared<ports::UserRepository>();
  p.deletion.OnOrganizationDeleted(
      [users](ports::Tx& tx, const std::string& org_id) { return users->ForgetLastOrg(tx, org_id); });
  ports::AccountDataRepository* data = account_data_.get();
  p.deletion.OnAccountDeleted(
      [data](ports::Tx& tx, const std::string& user_id) { return data->ClearInviter(tx, user_id); });
  return Status::Ok();
}

void AccountsModule::RegisterRoutes(api::Pipeline& pipeline) {
  api::RegisterBearerAuthenticator(pipeline, deps_);
  api::RegisterAuthRoutes(pipeline, deps_, production_);
  api::RegisterTeamRoutes(pipeline, deps_);
}

}  // namespace service::modules
