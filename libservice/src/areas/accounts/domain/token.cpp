#include "areas/accounts/domain/token.h"

#include <boost/json.hpp>
#include <limits>
#include <optional>
#include <utility>

#include "util/crypto.h"

namespace service::domain::accounts {
namespace {

namespace json = boost::json;

constexpr std::string_view kHeaderJson = R"({"alg":"HS256","typ":"JWT"})";
constexpr std::string_view kInvalidTokenMessage = "Invalid or expired token";

Status Invalid() { return Unauthenticated(std::string(kInvalidTokenMessage)); }

// Strict base64url: the text must be exactly what Base64UrlEncode produces
// for the decoded bytes (no padding, no '+' or '/', no stray trailing bits),
// so each token has one spelling.
bool DecodeSegment(std::string_view text, std::string* out) {
  if (text.empty()) return false;
  if (!util::Base64UrlDecode(text, out)) return false;
  return util::Base64UrlEncode(*out) == text;
}

std::optional<json::object> ParseObject(std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

// Integers only: a JSON double (1.5, 1e9) is not a valid claim value.
std::optional<int64_t> AsInt(const json::value& v) {
  if (const auto* i = v.if_int64()) return *i;
  if (const auto* u = v.if_uint64()) {
    if (*u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return static_cast<int64_t>(*u);
  }
  return std::nullopt;
}

// Absent or null: `fallback`; otherwise a string or a failure.
std::optional<std::string> OptionalString(const json::object& o, std::string_view key, std::string fallback) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return fallback;
  if (const auto* s = v->if_string()) return std::string(s->data(), s->size());
  return std::nullopt;
}

std::optional<TokenClaims> ClaimsFromJson(const json::object& o) {
  TokenClaims c;
  const json::value* sub = o.if_contains("sub");
  if (sub == nullptr || !sub->is_string() || sub->as_string().empty()) return std::nullopt;
  c.sub = std::string(sub->as_string());

  const json::value* typ = o.if_contains("typ");
  if (typ == nullptr || !typ->is_string()) return std::nullopt;
  c.typ = std::string(typ->as_string());

  auto org = OptionalString(o, "org", "");
  auto jti = OptionalString(o, "jti", "");
  auto sid = OptionalString(o, "sid", "");
  if (!org || !jti || !sid) return std::nullopt;
  c.org = std::move(*org);
  c.jti = std::move(*jti);
  c.sid = std::move(*sid);

  const json::value* ver = o.if_contains("ver");
  if (ver == nullptr) return std::nullopt;
  const auto ver_int = AsInt(*ver);
  if (!ver_int || *ver_int != kTokenVersion) return std::nullopt;
  c.ver = kTokenVersion;

  // Tokens issued before revisions existed carry none: revision 0.
  if (const json::value* rev = o.if_contains("rev"); rev != nullptr && !rev->is_null()) {
    const auto r = AsInt(*rev);
    if (!r || *r < 0) return std::nullopt;
    c.rev = *r;
  }

  const json::value* iat = o.if_contains("iat");
  const json::value* exp = o.if_contains("exp");
  if (iat == nullptr || exp == nullptr) return std::nullopt;
  const auto iat_int = AsInt(*iat);
  const auto exp_int = AsInt(*exp);
  if (!iat_int || !exp_int) return std::nullopt;
  c.iat = *iat_int;
  c.exp = *exp_int;
  return c;
}

}  // namespace

TokenClaims MakeAccessClaims(std::string user_id, std::string org_id, int64_t revision, int64_t now_ms) {
  TokenClaims c;
  c.sub = std::move(user_id);
  c.org = std::move(org_id);
  c.typ = std::string(kAccessTokenType);
  c.rev = revision;
  c.iat = now_ms / 1000;
  c.exp = c.iat + kAccessTokenLifetimeSeconds;
  return c;
}

TokenClaims MakeRefreshClaims(std::string user_id, std::string org_id, int64_t revision, std::string jti,
                              int64_t now_ms) {
  TokenClaims c;
  c.sub = std::move(user_id);
  c.org = std::move(org_id);
  c.typ = std::string(kRefreshTokenType);
  c.rev = revision;
  c.iat = now_ms / 1000;
  c.exp = c.iat + kRefreshTokenLifetimeSeconds;
  c.jti = std::move(jti);
  return c;
}

std::string SignToken(const TokenClaims& claims, std::string_view secret) {
  json::object payload;
  payload["sub"] = claims.sub;
  if (!claims.org.empty()) payload["org"] = claims.org;
  payload["typ"] = claims.typ;
  payload["ver"] = claims.ver;
  payload["rev"] = claims.rev;
  payload["iat"] = claims.iat;
  payload["exp"] = claims.exp;
  if (!claims.jti.empty()) payload["jti"] = claims.jti;
  if (!claims.sid.empty()) payload["sid"] = claims.sid;

  std::string signing_input = util::Base64UrlEncode(kHeaderJson);
  signing_input += '.';
  signing_input += util::Base64UrlEncode(json::serialize(payload));
  const std::string signature = util::HmacSha256(secret, signing_input);
  signing_input += '.';
  signing_input += util::Base64UrlEncode(signature);
  return signing_input;
}

Result<TokenClaims> VerifyToken(std::string_view token, std::string_view secret, int64_t now_ms,
                                std::string_view expected_typ) {
  if (secret.empty() || token.empty() || token.size() > kMaxTokenBytes) return Invalid();

  const size_t dot1 = token.find('.');
  if (dot1 == std::string_view::npos) return Invalid();
  const size_t dot2 = token.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos) return Invalid();
  const std::string_view header_b64 = token.substr(0, dot1);
  const std::string_view payload_b64 = token.substr(dot1 + 1, dot2 - dot1 - 1);
  const std::string_view signature_b64 = token.substr(dot2 + 1);

  // The header names the algorithm; only HS256 is accepted ("none", HS512,
  // RS256 and anything else are refused) and no critical extensions.
  std::string header_text;
  if (!DecodeSegment(header_b64, &header_text)) return Invalid();
  const auto header = ParseObject(header_text);
  if (!header) return Invalid();
  const json::value* alg = header->if_contains("alg");
  if (alg == nullptr || !alg->is_string() || alg->as_string() != "HS256") return Invalid();
  if (header->contains("crit")) return Invalid();
  if (const json::value* typ = header->if_contains("typ"); typ != nullptr) {
    if (!typ->is_string() || typ->as_string() != "JWT") return Invalid();
  }

  std::string signature;
  if (!DecodeSegment(signature_b64, &signature)) return Invalid();
  const std::string expected = util::HmacSha256(secret, token.substr(0, dot2));
  if (!util::ConstantTimeEquals(signature, expected)) return Invalid();

  std::string payload_text;
  if (!DecodeSegment(payload_b64, &payload_text)) return Invalid();
  const auto payload = ParseObject(payload_text);
  if (!payload) return Invalid();
  auto claims = ClaimsFromJson(*payload);
  if (!claims) return Invalid();

  if (claims->typ != expected_typ) return Invalid();
  if (claims->typ == kRefreshTokenType && claims->jti.empty()) return Invalid();
  // Expired once `now` reaches `exp` (whole seconds).
  if (now_ms / 1000 >= claims->exp) return Invalid();
  return std::move(*claims);
}

}  // namespace service::domain::accounts
