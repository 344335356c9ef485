// Destination policy of the outbound HTTP client: which IP addresses the
// service may connect to on a caller's behalf (webhooks, the AI provider).
// Pure functions over address bytes, so the table is unit-tested without a
// network.
//
// Refused unless private destinations are allowed: loopback, private
// (RFC 1918, 100.64/10 shared, fc00::/7 unique-local, fec0::/10 site-local),
// link-local (169.254/16, fe80::/10), multicast, unspecified (0/8, ::),
// IPv4-mapped IPv6 (::ffff:0:0/96), and reserved or special-purpose ranges
// (documentation, benchmarking, 240/4 and broadcast, IPv4-compatible IPv6,
// Teredo, discard-only). NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses
// are judged by the IPv4 address they embed.
//
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace service::adapters::outbound {

enum class AddressClass {
  kPublic,
  kLoopback,
  kPrivate,
  kLinkLocal,
  kMulticast,
  kUnspecified,
  kMappedIpv4,
  kReserved,
  kInvalid,  // not an IP address literal
};

const char* AddressClassName(AddressClass c);

AddressClass ClassifyIpv4(const std::array<uint8_t, 4>& a);
AddressClass ClassifyIpv6(const std::array<uint8_t, 16>& a);
// An address literal: "10.0.0.1", "::1", "[fe80::1]". Anything else: kInvalid.
AddressClass ClassifyIpLiteral(std::string_view text);

// True when a connection to an address of class `c` is permitted.
inline bool DestinationAllowed(AddressClass c, bool allow_private) {
  if (c == AddressClass::kInvalid) return false;
  return allow_private || c == AddressClass::kPublic;
}

}  // namespace service::adapters::outbound
