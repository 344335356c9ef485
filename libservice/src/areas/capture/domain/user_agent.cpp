#include "areas/capture/domain/user_agent.h"

#include <array>

#include "areas/capture/domain/text.h"

namespace service::domain::capture {
namespace {

using text::ContainsCi;
using text::IsDigit;

bool Has(std::string_view s, std::string_view token) { return s.find(token) != std::string_view::npos; }

// Version digits right after `pos`: [0-9._]*, '_' written as '.', at most
// 32 characters, no trailing dot.
std::string VersionAt(std::string_view s, size_t pos) {
  std::string v;
  while (pos < s.size() && v.size() < 32 && (IsDigit(s[pos]) || s[pos] == '.' || s[pos] == '_')) {
    v.push_back(s[pos] == '_' ? '.' : s[pos]);
    ++pos;
  }
  while (!v.empty() && v.back() == '.') v.pop_back();
  if (!v.empty() && v.front() == '.') v.clear();
  return v;
}

// Version after the first occurrence of `token`, or empty.
std::string VersionAfter(std::string_view s, std::string_view token) {
  const size_t p = s.find(token);
  return p == std::string_view::npos ? std::string() : VersionAt(s, p + token.size());
}

struct BrowserRule {
  std::string_view token;    // must occur
  std::string_view name;     // browser name
  std::string_view version;  // token the version follows
};

// First match wins; see ParseUserAgent for why the order matters.
constexpr std::array<BrowserRule, 16> kBrowserRules = {{
    {"Edg/", "Edge", "Edg/"},
    {"EdgA/", "Edge", "EdgA/"},
    {"EdgiOS/", "Edge", "EdgiOS/"},
    {"Edge/", "Edge", "Edge/"},
    {"OPR/", "Opera", "OPR/"},
    {"Opera", "Opera", "Version/"},
    {"SamsungBrowser/", "Samsung Internet", "SamsungBrowser/"},
    {"YaBrowser/", "Yandex", "YaBrowser/"},
    {"Vivaldi/", "Vivaldi", "Vivaldi/"},
    {"FxiOS/", "Firefox", "FxiOS/"},
    {"Firefox/", "Firefox", "Firefox/"},
    {"CriOS/", "Chrome", "CriOS/"},
    {"; wv)", "Android WebView", "Chrome/"},
    {"Chromium/", "Chromium", "Chromium/"},
    {"Chrome/", "Chrome", "Chrome/"},
    {"MSIE ", "Internet Explorer", "MSIE "},
}};

constexpr std::array<std::string_view, 3> kFlutterMarkers = {"dart/", "dart:io", "flutter"};
constexpr std::array<std::string_view, 5> kReactNativeMarkers = {"reactnative", "react-native", "expo/",
                                                                 "hermes", "react native"};
constexpr std::array<std::string_view, 6> kIosMarkers = {"iphone",    "ipad",    "ipod",
                                                         "cfnetwork", "darwin/", "alamofire"};
constexpr std::array<std::string_view, 3> kAndroidMarkers = {"android", "dalvik", "okhttp"};
constexpr std::array<std::string_view, 25> kServerMarkers = {"curl/",
                                                             "wget/",
                                                             "python-requests",
                                                             "python-urllib",
                                                             "python/",
                                                             "aiohttp",
                                                             "httpx",
                                                             "go-http-client",
                                                             "node-fetch",
                                                             "node/",
                                                             "node.js",
                                                             "undici",
                                                             "axios",
                                                             "deno/",
                                                             "bun/",
                                                             "java/",
                                                             "apache-httpclient",
                                                             "ruby",
                                                             "faraday",
                                                             "guzzle",
                                                             "php/",
                                                             "libcurl",
                                                             "reqwest",
                                                             "postmanruntime",
                                                             "service-server-sdk"};

// `lower` is the user agent lower-cased once; markers are lower-case.
template <size_t N>
bool AnyOf(std::string_view lower, const std::array<std::string_view, N>& markers) {
  for (std::string_view m : markers) {
    if (lower.find(m) != std::string_view::npos) return true;
  }
  return false;
}

// `word` (lower-case) with no letter on either side, e.g. "iOS" but not "axios".
bool HasWordCi(std::string_view s, std::string_view word) {
  for (size_t i = 0; i + word.size() <= s.size(); ++i) {
    if ((i == 0 || !text::IsAlpha(s[i - 1])) && text::StartsWithCi(s.substr(i), word) &&
        (i + word.size() == s.size() || !text::IsAlpha(s[i + word.size()]))) {
      return true;
    }
  }
  return false;
}

bool IsBlank(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) > 0x20) return false;
  }
  return true;
}

}  // namespace

std::string InferPlatform(std::string_view ua) {
  if (IsBlank(ua)) return "other";
  const std::string lower_copy = text::LowerAsciiCopy(ua.substr(0, 1024));
  const std::string_view lower = lower_copy;
  if (AnyOf(lower, kFlutterMarkers)) return "flutter";
  if (AnyOf(lower, kReactNativeMarkers)) return "react-native";
  if (Has(lower, "okhttp") && (Has(ua, "RN/") || Has(ua, " RN "))) return "react-native";
  if (lower.starts_with("mozilla/")) {
    if (Has(ua, "Android") && Has(ua, "; wv)")) return "android";
    if ((Has(ua, "iPhone") || Has(ua, "iPad") || Has(ua, "iPod")) && !Has(ua, "Safari/")) return "ios";
    return "web";
  }
  if (AnyOf(lower, kIosMarkers) || HasWordCi(ua, "ios")) return "ios";
  if (AnyOf(lower, kAndroidMarkers)) return "android";
  if (AnyOf(lower, kServerMarkers) || Has(lower, ".net") || Has(lower, "httpclient") ||
      Has(lower, "hyper/")) {
    return "server";
  }
  return "other";
}

UserAgentInfo ParseUserAgent(std::string_view ua) {
  UserAgentInfo info;

  for (const BrowserRule& rule : kBrowserRules) {
    if (Has(ua, rule.token)) {
      info.browser = std::string(rule.name);
      info.browser_version = VersionAfter(ua, rule.version);
      if (rule.token == "Opera" && info.browser_version.empty())
        info.browser_version = VersionAfter(ua, "Opera/");
      break;
    }
  }
  if (info.browser.empty()) {
    if (Has(ua, "Trident/")) {
      info.browser = "Internet Explorer";
      info.browser_version = VersionAfter(ua, "rv:");
    } else if (Has(ua, "Safari/") && (Has(ua, "Version/") || Has(ua, "AppleWebKit/"))) {
      info.browser = "Safari";
      info.browser_version = VersionAfter(ua, "Version/");
    }
  }

  if (Has(ua, "Windows")) {
    info.os = "Windows";
    info.os_version = VersionAfter(ua, "Windows NT ");
  } else if (Has(ua, "iPhone") || Has(ua, "iPad") || Has(ua, "iPod")) {
    info.os = "iOS";
    const size_t p = ua.find(" OS ");
    info.os_version = p != std::string_view::npos ? VersionAt(ua, p + 4) : VersionAfter(ua, "iOS ");
  } else if (Has(ua, "Android")) {
    info.os = "Android";
    info.os_version = VersionAfter(ua, "Android ");
  } else if (Has(ua, "CrOS")) {
    info.os = "Chrome OS";
  } else if (Has(ua, "Macintosh") || Has(ua, "Mac OS X")) {
    info.os = "macOS";
    info.os_version = VersionAfter(ua, "Mac OS X ");
  } else if (Has(ua, "iOS ") || Has(ua, "iOS/")) {
    info.os = "iOS";
    info.os_version = Has(ua, "iOS ") ? VersionAfter(ua, "iOS ") : VersionAfter(ua, "iOS/");
  } else if (Has(ua, "CFNetwork") || Has(ua, "Darwin/")) {
    info.os = "iOS";  // native Apple HTTP stack; macOS apps are rarer than iOS ones here
  } else if (Has(ua, "Dalvik") || ContainsCi(ua, "okhttp")) {
    info.os = "Android";
    info.os_version = VersionAfter(ua, "Android ");
  } else if (Has(ua, "Linux") || Has(ua, "X11") || Has(ua, "Ubuntu") || Has(ua, "Fedora")) {
    info.os = "Linux";
  }
  return info;
}

}  // namespace service::domain::capture
