// The canonical end-user key: user id, else email, else hashed address.
#include <doctest/doctest.h>

#include <string>

#include "domain/capture/end_user.h"

using service::domain::EndUserKey;
using service::domain::HashClientAddress;

TEST_CASE("EndUserKey prefers the application's user id") {
  const auto id = EndUserKey(" u_123 ", "Ann@Example.com", "abcdef0123456789abcdef");
  CHECK(id.user_key == "user:u_123");
  CHECK(id.kind == "user");
  // Ids are case-sensitive: two users may differ only in case.
  CHECK(EndUserKey("AbC", "", "").user_key != EndUserKey("abc", "", "").user_key);
}

TEST_CASE("EndUserKey falls back to the lower-cased email") {
  const auto id = EndUserKey("", "  Ann@Example.COM ", "abcdef0123456789abcdef");
  CHECK(id.user_key == "email:ann@example.com");
  CHECK(id.kind == "email");
  CHECK(EndUserKey("   ", "ann@example.com", "x").user_key == id.user_key);
}

TEST_CASE("EndUserKey is anonymous from the address hash") {
  const auto id = EndUserKey("", "", "ABCDEF0123456789FFFF0000");
  CHECK(id.user_key == "anon:abcdef0123456789");
  CHECK(id.kind == "anonymous");
  CHECK(EndUserKey("", "", "").user_key == "anon:unknown");
  CHECK(EndUserKey("", "", "").kind == "anonymous");
}

TEST_CASE("HashClientAddress is keyed, stable and does not reveal the address") {
  const std::string a = HashClientAddress("secret-1", "203.0.113.7");
  CHECK(a.size() == 64);
  CHECK(a == HashClientAddress("secret-1", "203.0.113.7"));
  CHECK(a != HashClientAddress("secret-2", "203.0.113.7"));
  CHECK(a != HashClientAddress("secret-1", "203.0.113.8"));
  CHECK(a.find("203") == std::string::npos);
  CHECK(EndUserKey("", "", a).user_key == "anon:" + a.substr(0, 16));
}
