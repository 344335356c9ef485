// The canonical end-user key: user id, else email, else hashed address.
#include <doctest/doctest.h>

#include <string>

#include "areas/capture/domain/end_user.h"

using service::domain::capture::EndUserKey;
using service::domain::capture::HashClientAddress;

TEST_CASE("EndUserKey is the application's own id, else the email, else derived from the address") {
  struct Row {
    const char* user_id;
    const char* email;
    const char* ip_hash;
    const char* key;
    const char* kind;
  };
  const Row rows[] = {
      // The id as the application sent it (trimmed, case kept): no prefix.
      {" u_123 ", "Ann@Example.com", "abcdef0123456789abcdef", "u_123", "user"},
      {"cust-42", "", "", "cust-42", "user"},
      {"AbC", "", "", "AbC", "user"},
      {"ann@example.com", "", "", "ann@example.com", "user"},
      // The reporter email, trimmed and lower-cased.
      {"", "  Ann@Example.COM ", "abcdef0123456789abcdef", "ann@example.com", "email"},
      {"   ", "ann@example.com", "x", "ann@example.com", "email"},
      // Derived: "anon:" and 16 lower-case hex digits of the keyed hash.
      {"", "", "ABCDEF0123456789FFFF0000", "anon:abcdef0123456789", "anonymous"},
      {"", "", "", "anon:unknown", "anonymous"},
      {" ", " ", " ", "anon:unknown", "anonymous"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.user_id);
    CAPTURE(r.email);
    const auto id = EndUserKey(r.user_id, r.email, r.ip_hash);
    CHECK(id.user_key == r.key);
    CHECK(id.kind == r.kind);
  }
  // Ids are case-sensitive: two users may differ only in case.
  CHECK(EndUserKey("AbC", "", "").user_key != EndUserKey("abc", "", "").user_key);
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
