// HMAC-SHA256 computed with OpenSSL directly, for tests that check the
// service's signatures independently of its own helpers.
#pragma once

#include <string>

namespace service::testing {

// Lower-case hex of HMAC-SHA256(key, data).
std::string OpensslHmacSha256Hex(const std::string& key, const std::string& data);

}  // namespace service::testing
