// Password hashing (scrypt through OpenSSL 3's EVP_KDF) and the password
// policy.
//
// A stored hash describes itself: "scrypt$<log2 N>$<r>$<p>$<salt>$<hash>",
// salt and hash in unpadded base64url. Verification reads the parameters
// from the stored string, so raising the defaults later keeps old hashes
// valid (see NeedsRehash).
//
// Pure functions over values; safe to call from any thread. Hashing with the
// default parameters costs about 32 MiB of memory and tens of milliseconds
// of CPU per call: callers should not hold locks or transactions around it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "service/status.h"

namespace service::domain::accounts {

// The salt each user gets, from the Ids port's CSPRNG.
inline constexpr size_t kPasswordSaltBytes = 16;

// scrypt cost parameters (RFC 7914).
struct ScryptParams {
  // N = 2^log2_n, the CPU/memory cost. Default: 15 (N = 32768).
  int log2_n = 15;
  // Block size. Default: 8.
  uint32_t r = 8;
  // Parallelism. Default: 1.
  uint32_t p = 1;
  // Derived key length in bytes. Default: 32.
  size_t key_bytes = 32;
};

// Bytes of memory scrypt needs for `params` (128*r*p + 128*r*(N+2)); the
// derivation passes this as OpenSSL's maxmem, whose own default (32 MiB) is
// smaller than what the defaults need.
uint64_t ScryptMemoryBytes(const ScryptParams& params);

// Hashes `password` with `salt` (REQUIRES: 8 to 64 bytes; normally
// kPasswordSaltBytes random bytes). kInvalidArgument for out-of-range
// parameters or salt, kInternal when OpenSSL fails.
Result<std::string> HashPassword(std::string_view password, std::string_view salt,
                                 const ScryptParams& params = ScryptParams{});

// The parts of a stored hash.
struct PasswordHash {
  ScryptParams params;
  std::string salt;  // raw bytes
  std::string hash;  // raw bytes
};

// Parses "scrypt$..."; kInvalidArgument when malformed or when the
// parameters are outside what this library will compute (log2 N 1..20,
// r 1..32, p 1..16, salt 8..64 bytes, hash 16..64 bytes, at most 256 MiB).
Result<PasswordHash> ParsePasswordHash(std::string_view encoded);

// True when `password` matches `encoded`; false when it does not, when
// `encoded` is malformed, or when `password` contains a NUL (which the
// policy refuses, and which HMAC's key padding would otherwise let match
// the same password without it). The final comparison is constant time.
bool VerifyPassword(std::string_view password, std::string_view encoded);

// Costs the same as VerifyPassword against a hash made with `params` and
// always fails. Login calls it for unknown emails and accounts without a
// password, so response time does not reveal which emails exist.
void DummyVerify(std::string_view password, const ScryptParams& params = ScryptParams{});

// True when `encoded` was made with parameters other than `params` (or is
// malformed): the caller re-hashes after the next successful login.
bool NeedsRehash(std::string_view encoded, const ScryptParams& params = ScryptParams{});

struct PasswordPolicy {
  // Minimum length in code points. Default: 8.
  size_t min_chars = 8;
  // Maximum length in bytes. Default: 1024.
  size_t max_bytes = 1024;
};

// kInvalidArgument with a user-facing message when `password` is not valid
// UTF-8, contains a NUL, is shorter than min_chars code points or longer than max_bytes bytes.
// The message never contains the password.
Status CheckPasswordPolicy(std::string_view password, const PasswordPolicy& policy = PasswordPolicy{});

}  // namespace service::domain::accounts
