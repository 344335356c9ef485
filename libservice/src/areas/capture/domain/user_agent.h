// Platform, browser and operating-system inference from a User-Agent string
// (Spec 1 "Ingestion": platform is inferred from userAgent when omitted;
// Occurrence.browser and .os). Pure substring tests, no std::regex; safe
// from any thread; any input, including invalid UTF-8, is accepted.
#pragma once

#include <string>
#include <string_view>

namespace service::domain::capture {

// One of the spec's platform values: web, ios, android, react-native,
// flutter, server, other. Markers, tried in this order (case-insensitive):
//   empty or blank                                        -> other
//   "Dart/", "dart:io", "Flutter"                         -> flutter
//   "ReactNative", "React-Native", "react-native", "Expo/",
//   "Hermes", or "okhttp" together with "RN" / "ReactNative" hints
//                                                         -> react-native
//   "Mozilla/" browsers                                   -> web, except an
//       Android WebView ("; wv)") -> android and an iOS WKWebView (iPhone,
//       iPad or iPod without a "Safari/" token) -> ios
//   "iPhone", "iPad", "iPod", the word "iOS", "CFNetwork",
//   "Darwin/", "Alamofire"
//                                                         -> ios
//   "Android", "Dalvik", "okhttp"                         -> android
//   curl, Wget, python-requests, python-urllib, aiohttp, httpx,
//   Go-http-client, node-fetch, node, undici, axios, Deno, Bun, Java/,
//   Apache-HttpClient, Ruby, Faraday, Guzzle, PHP, libcurl, reqwest,
//   hyper, .NET/HttpClient, PostmanRuntime, Service-Server-SDK
//                                                         -> server
//   anything else                                         -> other
std::string InferPlatform(std::string_view user_agent);

struct UserAgentInfo {
  // Chrome, Firefox, Safari, Edge, Opera, Samsung Internet, Yandex,
  // Vivaldi, Internet Explorer, Android WebView; empty when not a browser.
  std::string browser;
  // Dotted version as written (e.g. "120.0.6099.109"); empty when unknown.
  std::string browser_version;
  // Windows, macOS, iOS, Android, Chrome OS, Linux; empty when unknown.
  std::string os;
  // e.g. "10.15.7" (macOS), "17.0" (iOS), "14" (Android), "10.0" (Windows NT).
  std::string os_version;
};

// Extracts browser and operating-system names. Order matters because
// user agents name their ancestors: Edge and Opera before Chrome, Chrome
// before Safari; iOS before macOS ("like Mac OS X") and Android before Linux.
UserAgentInfo ParseUserAgent(std::string_view user_agent);

}  // namespace service::domain::capture
