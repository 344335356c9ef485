// The outbound destination policy: which addresses webhooks and the AI
// provider may reach.
#include <doctest/doctest.h>

#include <string>

#include "adapters/outbound/destination.h"

using service::adapters::outbound::AddressClass;
using service::adapters::outbound::AddressClassName;
using service::adapters::outbound::ClassifyIpLiteral;
using service::adapters::outbound::DestinationAllowed;

namespace {

struct Row {
  const char* address;
  AddressClass expected;
};

}  // namespace

TEST_CASE("non-public addresses are refused unless private destinations are allowed") {
  const Row rows[] = {
      {"127.0.0.1", AddressClass::kLoopback},
      {"127.255.0.9", AddressClass::kLoopback},
      {"10.0.0.1", AddressClass::kPrivate},
      {"10.255.255.255", AddressClass::kPrivate},
      {"172.16.0.1", AddressClass::kPrivate},
      {"172.31.255.254", AddressClass::kPrivate},
      {"192.168.1.1", AddressClass::kPrivate},
      {"100.64.0.1", AddressClass::kPrivate},
      {"169.254.169.254", AddressClass::kLinkLocal},  // cloud metadata
      {"0.0.0.0", AddressClass::kUnspecified},
      {"0.1.2.3", AddressClass::kUnspecified},
      {"224.0.0.1", AddressClass::kMulticast},
      {"239.255.255.250", AddressClass::kMulticast},
      {"255.255.255.255", AddressClass::kReserved},
      {"240.0.0.1", AddressClass::kReserved},
      {"198.18.0.1", AddressClass::kReserved},
      {"192.0.2.10", AddressClass::kReserved},
      {"::1", AddressClass::kLoopback},
      {"[::1]", AddressClass::kLoopback},
      {"::", AddressClass::kUnspecified},
      {"fe80::1", AddressClass::kLinkLocal},
      {"febf::1", AddressClass::kLinkLocal},
      {"fc00::", AddressClass::kPrivate},
      {"fd12:3456:789a::1", AddressClass::kPrivate},
      {"fec0::1", AddressClass::kPrivate},
      {"ff02::1", AddressClass::kMulticast},
      {"::ffff:10.0.0.1", AddressClass::kMappedIpv4},
      {"::ffff:127.0.0.1", AddressClass::kMappedIpv4},
      {"::ffff:8.8.8.8", AddressClass::kMappedIpv4},
      {"::127.0.0.1", AddressClass::kReserved},  // IPv4-compatible
      {"64:ff9b::10.0.0.1", AddressClass::kPrivate},
      {"64:ff9b::7f00:1", AddressClass::kLoopback},
      {"2002:c0a8:0101::1", AddressClass::kPrivate},  // 6to4 of 192.168.1.1
      {"2002:7f00:0001::1", AddressClass::kLoopback},
      {"2001:db8::1", AddressClass::kReserved},
      {"2001:0:4136:e378::1", AddressClass::kReserved},  // Teredo
  };
  for (const Row& row : rows) {
    CAPTURE(row.address);
    const AddressClass c = ClassifyIpLiteral(row.address);
    CHECK(std::string(AddressClassName(c)) == AddressClassName(row.expected));
    CHECK_FALSE(DestinationAllowed(c, /*allow_private=*/false));
    CHECK(DestinationAllowed(c, /*allow_private=*/true));
  }
}

TEST_CASE("public addresses are allowed") {
  for (const char* address :
       {"8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "192.169.0.1", "100.128.0.1", "169.253.1.1",
        "223.255.255.255", "11.0.0.1", "2001:4860::", "2001:4860:4860::8888", "2606:4700:4700::1111",
        "64:ff9b::808:808", "2002:0808:0808::1", "[2a00:1450::1]"}) {
    CAPTURE(address);
    const AddressClass c = ClassifyIpLiteral(address);
    CHECK(c == AddressClass::kPublic);
    CHECK(DestinationAllowed(c, false));
  }
}

TEST_CASE("text that is not an address literal is invalid and never allowed") {
  for (const char* text : {"", "example.com", "localhost", "10.0.0", "1.2.3.4.5", "::ffff::1", "[::1",
                           "999.1.1.1", "0x7f.0.0.1", "2130706433"}) {
    CAPTURE(text);
    const AddressClass c = ClassifyIpLiteral(text);
    CHECK(c == AddressClass::kInvalid);
    CHECK_FALSE(DestinationAllowed(c, true));
  }
}
