#include "areas/accounts/domain/password.h"

#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <memory>
#include <optional>
#include <vector>

#include "util/crypto.h"
#include "util/strings.h"

namespace service::domain::accounts {
namespace {

constexpr std::string_view kScheme = "scrypt";
constexpr uint64_t kMaxScryptMemory = uint64_t{256} << 20;  // 256 MiB

struct KdfCtxDeleter {
  void operator()(EVP_KDF_CTX* c) const { EVP_KDF_CTX_free(c); }
};

// Fetched once; an EVP_KDF is immutable and may be shared between threads.
EVP_KDF* ScryptKdf() {
  static EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "SCRYPT", nullptr);
  return kdf;
}

Status CheckParams(const ScryptParams& p) {
  if (p.log2_n < 1 || p.log2_n > 20) return InvalidArgument("scrypt log2 N must be 1..20");
  if (p.r < 1 || p.r > 32) return InvalidArgument("scrypt r must be 1..32");
  if (p.p < 1 || p.p > 16) return InvalidArgument("scrypt p must be 1..16");
  if (p.key_bytes < 16 || p.key_bytes > 64) return InvalidArgument("scrypt key length must be 16..64 bytes");
  if (ScryptMemoryBytes(p) > kMaxScryptMemory)
    return InvalidArgument("scrypt parameters need too much memory");
  return Status::Ok();
}

Status CheckSalt(std::string_view salt) {
  if (salt.size() < 8 || salt.size() > 64) return InvalidArgument("password salt must be 8..64 bytes");
  return Status::Ok();
}

// REQUIRES: CheckParams(params) and CheckSalt(salt) passed.
Result<std::string> Derive(std::string_view password, std::string_view salt, const ScryptParams& params) {
  EVP_KDF* kdf = ScryptKdf();
  if (kdf == nullptr) return Internal("scrypt is not available in this OpenSSL");
  std::unique_ptr<EVP_KDF_CTX, KdfCtxDeleter> ctx(EVP_KDF_CTX_new(kdf));
  if (!ctx) return Internal("scrypt context allocation failed");

  // OpenSSL copies the octet strings; a zero-length password still needs a
  // valid pointer.
  static const char kEmpty[1] = {0};
  void* pw = const_cast<char*>(password.empty() ? kEmpty : password.data());
  void* sa = const_cast<char*>(salt.data());
  uint64_t n = uint64_t{1} << params.log2_n;
  uint32_t r = params.r;
  uint32_t p = params.p;
  uint64_t maxmem = ScryptMemoryBytes(params);
  const OSSL_PARAM ossl_params[] = {
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, pw, password.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, sa, salt.size()),
      OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n),
      OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r),
      OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p),
      OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem),
      OSSL_PARAM_construct_end(),
  };
  std::string out(params.key_bytes, '\0');
  if (EVP_KDF_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), out.size(), ossl_params) != 1) {
    return Internal("scrypt derivation failed");
  }
  return out;
}

std::optional<uint32_t> ParseSmallInt(std::string_view s) {
  if (s.empty() || s.size() > 3 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  uint32_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint32_t>(c - '0');
  }
  return v;
}

// Strict unpadded base64url (one spelling per byte string).
bool DecodeB64(std::string_view text, std::string* out) {
  if (text.empty() || !util::Base64UrlDecode(text, out)) return false;
  return util::Base64UrlEncode(*out) == text;
}

}  // namespace

uint64_t ScryptMemoryBytes(const ScryptParams& params) {
  if (params.log2_n < 0 || params.log2_n > 40) return UINT64_MAX;
  const uint64_t n = uint64_t{1} << params.log2_n;
  return uint64_t{128} * params.r * params.p + uint64_t{128} * params.r * (n + 2);
}

Result<std::string> HashPassword(std::string_view password, std::string_view salt,
                                 const ScryptParams& params) {
  SV_RETURN_IF_ERROR(CheckParams(params));
  SV_RETURN_IF_ERROR(CheckSalt(salt));
  SV_ASSIGN_OR_RETURN(std::string hash, Derive(password, salt, params));
  std::string encoded(kScheme);
  encoded += '$' + std::to_string(params.log2_n);
  encoded += '$' + std::to_string(params.r);
  encoded += '$' + std::to_string(params.p);
  encoded += '$' + util::Base64UrlEncode(salt);
  encoded += '$' + util::Base64UrlEncode(hash);
  return encoded;
}

Result<PasswordHash> ParsePasswordHash(std::string_view encoded) {
  const std::vector<std::string> parts = util::Split(encoded, '$');
  if (parts.size() != 6 || parts[0] != kScheme) return InvalidArgument("malformed password hash");
  const auto log2_n = ParseSmallInt(parts[1]);
  const auto r = ParseSmallInt(parts[2]);
  const auto p = ParseSmallInt(parts[3]);
  if (!log2_n || !r || !p) return InvalidArgument("malformed password hash parameters");
  PasswordHash h;
  if (!DecodeB64(parts[4], &h.salt) || !DecodeB64(parts[5], &h.hash)) {
    return InvalidArgument("malformed password hash encoding");
  }
  h.params.log2_n = static_cast<int>(*log2_n);
  h.params.r = *r;
  h.params.p = *p;
  h.params.key_bytes = h.hash.size();
  SV_RETURN_IF_ERROR(CheckParams(h.params));
  SV_RETURN_IF_ERROR(CheckSalt(h.salt));
  return h;
}

bool VerifyPassword(std::string_view password, std::string_view encoded) {
  auto parsed = ParsePasswordHash(encoded);
  if (!parsed.ok()) return false;
  // HMAC zero-pads its key, so "pw" and "pw\0" derive the same hash; the
  // policy never lets a NUL into a password, so one in the input is wrong.
  if (password.find('\0') != std::string_view::npos) {
    DummyVerify(password, parsed->params);
    return false;
  }
  auto derived = Derive(password, parsed->salt, parsed->params);
  if (!derived.ok()) return false;
  return util::ConstantTimeEquals(*derived, parsed->hash);
}

void DummyVerify(std::string_view password, const ScryptParams& params) {
  static const std::string kSalt(kPasswordSaltBytes, '\x5a');
  if (!CheckParams(params).ok()) return;
  auto derived = Derive(password, kSalt, params);
  if (!derived.ok()) return;
  // Mirror the real comparison; the result is always discarded.
  const std::string unmatched(params.key_bytes, '\0');
  (void)util::ConstantTimeEquals(*derived, unmatched);
}

bool NeedsRehash(std::string_view encoded, const ScryptParams& params) {
  auto parsed = ParsePasswordHash(encoded);
  if (!parsed.ok()) return true;
  const ScryptParams& have = parsed->params;
  return have.log2_n != params.log2_n || have.r != params.r || have.p != params.p ||
         have.key_bytes != params.key_bytes || parsed->salt.size() < kPasswordSaltBytes;
}

Status CheckPasswordPolicy(std::string_view password, const PasswordPolicy& policy) {
  if (password.size() > policy.max_bytes) {
    return InvalidArgument("Password must be at most " + std::to_string(policy.max_bytes) + " bytes");
  }
  if (!util::IsValidUtf8(password)) return InvalidArgument("Password must be valid UTF-8");
  if (password.find('\0') != std::string_view::npos) return InvalidArgument("Password must not contain NUL");
  if (util::Utf8Length(password) < policy.min_chars) {
    return InvalidArgument("Password must be at least " + std::to_string(policy.min_chars) + " characters");
  }
  return Status::Ok();
}

}  // namespace service::domain::accounts
