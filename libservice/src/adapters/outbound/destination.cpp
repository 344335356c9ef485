#include "adapters/outbound/destination.h"

#include <arpa/inet.h>

#include <string>

namespace service::adapters::outbound {

const char* AddressClassName(AddressClass c) {
  switch (c) {
    case AddressClass::kPublic:
      return "public";
    case AddressClass::kLoopback:
      return "loopback";
    case AddressClass::kPrivate:
      return "private";
    case AddressClass::kLinkLocal:
      return "link-local";
    case AddressClass::kMulticast:
      return "multicast";
    case AddressClass::kUnspecified:
      return "unspecified";
    case AddressClass::kMappedIpv4:
      return "IPv4-mapped";
    case AddressClass::kReserved:
      return "reserved";
    case AddressClass::kInvalid:
      return "invalid";
  }
  return "invalid";
}

AddressClass ClassifyIpv4(const std::array<uint8_t, 4>& a) {
  const uint8_t b0 = a[0], b1 = a[1], b2 = a[2];
  if (b0 == 0) return AddressClass::kUnspecified;                          // 0.0.0.0/8
  if (b0 == 10) return AddressClass::kPrivate;                             // 10/8
  if (b0 == 100 && (b1 & 0xC0) == 64) return AddressClass::kPrivate;       // 100.64/10 shared
  if (b0 == 127) return AddressClass::kLoopback;                           // 127/8
  if (b0 == 169 && b1 == 254) return AddressClass::kLinkLocal;             // 169.254/16
  if (b0 == 172 && (b1 & 0xF0) == 16) return AddressClass::kPrivate;       // 172.16/12
  if (b0 == 192 && b1 == 0 && b2 == 0) return AddressClass::kReserved;     // 192.0.0/24
  if (b0 == 192 && b1 == 0 && b2 == 2) return AddressClass::kReserved;     // TEST-NET-1
  if (b0 == 192 && b1 == 88 && b2 == 99) return AddressClass::kReserved;   // 6to4 relay
  if (b0 == 192 && b1 == 168) return AddressClass::kPrivate;               // 192.168/16
  if (b0 == 198 && (b1 & 0xFE) == 18) return AddressClass::kReserved;      // 198.18/15
  if (b0 == 198 && b1 == 51 && b2 == 100) return AddressClass::kReserved;  // TEST-NET-2
  if (b0 == 203 && b1 == 0 && b2 == 113) return AddressClass::kReserved;   // TEST-NET-3
  if ((b0 & 0xF0) == 224) return AddressClass::kMulticast;                 // 224/4
  if ((b0 & 0xF0) == 240) return AddressClass::kReserved;                  // 240/4, broadcast
  return AddressClass::kPublic;
}

namespace {

bool AllZero(const std::array<uint8_t, 16>& a, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i)
    if (a[i] != 0) return false;
  return true;
}

std::array<uint8_t, 4> V4At(const std::array<uint8_t, 16>& a, size_t at) {
  return {a[at], a[at + 1], a[at + 2], a[at + 3]};
}

}  // namespace

AddressClass ClassifyIpv6(const std::array<uint8_t, 16>& a) {
  if (AllZero(a, 0, 10)) {
    if (a[10] == 0xFF && a[11] == 0xFF) return AddressClass::kMappedIpv4;  // ::ffff:0:0/96
    if (AllZero(a, 10, 16)) return AddressClass::kUnspecified;             // ::
    if (AllZero(a, 10, 15) && a[15] == 1) return AddressClass::kLoopback;  // ::1
    return AddressClass::kReserved;  // IPv4-compatible ::/96 and the rest of ::/80
  }
  // 64:ff9b::/96 NAT64: the IPv4 address it reaches decides.
  if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xFF && a[3] == 0x9B && AllZero(a, 4, 12)) {
    return ClassifyIpv4(V4At(a, 12));
  }
  if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xFF && a[3] == 0x9B && a[4] == 0x00 && a[5] == 0x01) {
    return AddressClass::kPrivate;  // 64:ff9b:1::/48 local-use NAT64
  }
  if (a[0] == 0x01 && a[1] == 0x00 && AllZero(a, 2, 8)) return AddressClass::kReserved;  // 100::/64 discard
  if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00) return AddressClass::kReserved;  // Teredo
  if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8) return AddressClass::kReserved;  // doc
  if (a[0] == 0x20 && a[1] == 0x02) return ClassifyIpv4(V4At(a, 2));           // 6to4 2002::/16
  if ((a[0] & 0xFE) == 0xFC) return AddressClass::kPrivate;                    // fc00::/7
  if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return AddressClass::kLinkLocal;  // fe80::/10
  if (a[0] == 0xFE && (a[1] & 0xC0) == 0xC0) return AddressClass::kPrivate;    // fec0::/10
  if (a[0] == 0xFF) return AddressClass::kMulticast;                           // ff00::/8
  return AddressClass::kPublic;
}

AddressClass ClassifyIpLiteral(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  if (text.empty() || text.size() > 64) return AddressClass::kInvalid;
  const std::string s(text);
  std::array<uint8_t, 4> v4{};
  if (inet_pton(AF_INET, s.c_str(), v4.data()) == 1) return ClassifyIpv4(v4);
  std::array<uint8_t, 16> v6{};
  if (inet_pton(AF_INET6, s.c_str(), v6.data()) == 1) return ClassifyIpv6(v6);
  return AddressClass::kInvalid;
}

}  // namespace service::adapters::outbound
