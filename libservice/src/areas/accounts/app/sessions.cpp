// Sessions: login, refresh rotation, the per-request account check, the
// profile and organization switching.
#include "areas/accounts/app/accounts.h"
#include "areas/accounts/app/internal.h"
#include "areas/accounts/domain/account.h"
#include "areas/accounts/domain/password.h"
#include "areas/accounts/domain/secrets.h"
#include "areas/accounts/domain/token.h"
#include "util/strings.h"

namespace service::app::accounts {

Status AuthUnavailable() {
  return Status::Public(Code::kUnavailable, "Authentication is temporarily unavailable, please retry",
                        "AUTH_UNAVAILABLE");
}

namespace {

Status RejectedSession() { return Unauthenticated("Invalid or expired token"); }

domain::accounts::AccountView ViewOf(const AccountsDeps& deps, const ports::User& u) {
  domain::accounts::AccountView v;
  v.email = u.email;
  v.status =
      domain::accounts::ParseAccountStatus(u.status).value_or(domain::accounts::AccountStatus::kDeactivated);
  v.has_password = u.password_hash.has_value() && !u.password_hash->empty();
  // Without required verification an unverified address does not block login.
  v.email_verified = u.email_verified || !deps.require_email_verification;
  v.session_revision = u.session_revision;
  return v;
}

// The organization a session opens in: the last one used while the user
// still belongs to it, else the oldest membership.
std::optional<ports::UserOrg> PickOrg(const ports::User& user, const std::vector<ports::UserOrg>& orgs) {
  if (orgs.empty()) return std::nullopt;
  if (user.last_org_id) {
    for (const auto& o : orgs)
      if (o.org_id == *user.last_org_id) return o;
  }
  return orgs.front();
}

}  // namespace

Result<LoginResult> Login(const AccountsDeps& deps, const std::string& email, const std::string& password) {
  std::optional<ports::User> user;
  std::vector<ports::UserOrg> orgs;
  Status read = deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(user, deps.users->FindByEmail(c, email));
    if (user) {
      SV_ASSIGN_OR_RETURN(orgs, deps.memberships->ListForUser(c, user->id));
    }
    return Status::Ok();
  });
  if (!read.ok()) return AuthUnavailable();

  // Unknown emails and accounts without a password cost one scrypt run too,
  // so the response time does not tell which emails exist.
  bool matches = false;
  if (user && user->password_hash && !user->password_hash->empty()) {
    matches = domain::accounts::VerifyPassword(password, *user->password_hash);
  } else {
    domain::accounts::DummyVerify(password, *deps.password_params);
  }
  if (!user) return domain::accounts::InvalidCredentials();
  SV_RETURN_IF_ERROR(domain::accounts::CheckLogin(ViewOf(deps, *user), matches));

  LoginResult out;
  out.user = *user;
  out.org = PickOrg(*user, orgs);
  const std::string org_id = out.org ? out.org->org_id : "";
  const std::string session_id = deps.ids->NewId();  // this sign-in
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(
        out.tokens, internal::IssueSession(deps, tx, user->id, org_id, user->session_revision, session_id));
    return deps.users->RecordLogin(tx, user->id, org_id, session_id, deps.Now());
  }));
  return out;
}

Result<SessionTokens> Refresh(const AccountsDeps& deps, std::string_view refresh_token) {
  auto claims = domain::accounts::VerifyToken(refresh_token, deps.jwt_secret, deps.Now(),
                                              domain::accounts::kRefreshTokenType);
  if (!claims.ok()) return RejectedSession();
  if (!domain::accounts::IsWellFormedSecret(claims->jti)) return RejectedSession();
  const std::string hash = domain::accounts::SecretHash(domain::accounts::NormalizeSecret(claims->jti));
  SessionTokens out;
  Status s = deps.db->Write([&](ports::Tx& tx) -> Status {
    const int64_t now = deps.Now();
    SV_ASSIGN_OR_RETURN(std::optional<ports::RefreshToken> row, deps.sessions->Consume(tx, hash, now));
    if (!row || row->user_id != claims->sub || row->revision != claims->rev) return RejectedSession();
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, row->user_id));
    if (!user) return RejectedSession();
    SV_RETURN_IF_ERROR(domain::accounts::CheckSession(*claims, ViewOf(deps, *user)));
    std::string org_id = row->org_id;
    if (!org_id.empty()) {
      SV_ASSIGN_OR_RETURN(std::optional<ports::Membership> m, deps.memberships->Find(tx, org_id, user->id));
      if (!m) org_id.clear();
    }
    SV_ASSIGN_OR_RETURN(
        out, internal::IssueSession(deps, tx, user->id, org_id, user->session_revision, claims->sid));
    return Status::Ok();
  });
  if (s.code() == Code::kUnauthenticated) return s;
  if (!s.ok()) return AuthUnavailable();
  return out;
}

namespace {

// The checks of an access token whose claims are verified, against the
// account and membership read for it.
Result<Caller> CheckClaims(const AccountsDeps& deps, const domain::accounts::TokenClaims& claims,
                           const AccessSnapshot& snapshot) {
  auto user = snapshot.users.find(claims.sub);
  if (user == snapshot.users.end()) return NotFound("user not in the access snapshot");
  if (!user->second) return RejectedSession();
  SV_RETURN_IF_ERROR(domain::accounts::CheckSession(claims, ViewOf(deps, *user->second)));
  Caller out;
  out.user = *user->second;
  out.session_id = claims.sid;
  auto m = snapshot.memberships.find(claims.sub);
  if (m != snapshot.memberships.end()) out.membership = m->second;
  return out;
}

}  // namespace

Result<Caller> AuthenticateAccess(const AccountsDeps& deps, std::string_view access_token,
                                  const std::string* org_id) {
  auto claims = domain::accounts::VerifyToken(access_token, deps.jwt_secret, deps.Now(),
                                              domain::accounts::kAccessTokenType);
  if (!claims.ok()) return claims.status();
  SV_ASSIGN_OR_RETURN(AccessSnapshot snapshot, ReadAccess(deps, org_id ? *org_id : "", {claims->sub}));
  return CheckClaims(deps, *claims, snapshot);
}

Result<AccessSnapshot> ReadAccess(const AccountsDeps& deps, const std::string& org_id,
                                  const std::vector<std::string>& user_ids) {
  AccessSnapshot out;
  out.org_id = org_id;
  Status s = deps.db->Read([&](ports::Tx& c) -> Status {
    for (const std::string& id : user_ids) {
      if (out.users.count(id)) continue;
      SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(c, id));
      std::optional<ports::Membership> membership;
      if (user && !org_id.empty()) {
        SV_ASSIGN_OR_RETURN(membership, deps.memberships->Find(c, org_id, id));
      }
      out.users[id] = std::move(user);
      out.memberships[id] = std::move(membership);
    }
    return Status::Ok();
  });
  if (!s.ok()) return AuthUnavailable();
  return out;
}

Result<Caller> CheckAccess(const AccountsDeps& deps, std::string_view access_token,
                           const AccessSnapshot& snapshot) {
  auto claims = domain::accounts::VerifyToken(access_token, deps.jwt_secret, deps.Now(),
                                              domain::accounts::kAccessTokenType);
  if (!claims.ok()) return claims.status();
  return CheckClaims(deps, *claims, snapshot);
}

namespace {
bool OnSuperadminList(const AccountsDeps& deps, std::string_view email) {
  const std::string lower = util::ToLower(email);
  for (const std::string& allowed : deps.superadmin_emails) {
    if (!allowed.empty() && util::ToLower(allowed) == lower) return true;
  }
  return false;
}
}  // namespace

bool IsSuperadmin(const AccountsDeps& deps, const ports::User& user) {
  return user.email_verified && user.status == "active" && OnSuperadminList(deps, user.email);
}

bool IsSuperadmin(const AccountsDeps& deps, std::string_view email) {
  if (!OnSuperadminList(deps, email)) return false;
  std::optional<ports::User> user;
  Status s = deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(user, deps.users->FindByEmail(c, util::ToLower(email)));
    return Status::Ok();
  });
  return s.ok() && user && IsSuperadmin(deps, *user);
}

Result<Profile> GetProfile(const AccountsDeps& deps, const std::string& user_id) {
  Profile out;
  std::optional<ports::User> user;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(user, deps.users->FindById(c, user_id));
    if (user) {
      SV_ASSIGN_OR_RETURN(out.orgs, deps.memberships->ListForUser(c, user_id));
    }
    return Status::Ok();
  }));
  if (!user) return NotFound("User not found");
  out.user = std::move(*user);
  out.superadmin = IsSuperadmin(deps, out.user);
  return out;
}

Result<SwitchedOrg> SwitchOrg(const AccountsDeps& deps, const std::string& user_id, const std::string& org_id,
                              const std::string& session_id) {
  SwitchedOrg out;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_ASSIGN_OR_RETURN(std::optional<ports::User> user, deps.users->FindById(tx, user_id));
    if (!user) return NotFound("User not found");
    SV_ASSIGN_OR_RETURN(std::vector<ports::UserOrg> orgs, deps.memberships->ListForUser(tx, user_id));
    const ports::UserOrg* found = nullptr;
    for (const auto& o : orgs)
      if (o.org_id == org_id) found = &o;
    if (!found) return PermissionDenied("Not a member of this organization");
    out.org = *found;
    SV_ASSIGN_OR_RETURN(
        out.tokens, internal::IssueSession(deps, tx, user_id, org_id, user->session_revision, session_id));
    return deps.users->SetLastOrg(tx, user_id, org_id, deps.Now());
  }));
  return out;
}

}  // namespace service::app::accounts
