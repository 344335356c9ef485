// Platform inference and browser / OS names from real user agents.
#include <doctest/doctest.h>

#include <string>

#include "areas/capture/domain/user_agent.h"

using service::domain::capture::InferPlatform;
using service::domain::capture::ParseUserAgent;

namespace {

struct Case {
  const char* ua;
  const char* platform;
  const char* browser;
  const char* browser_version;
  const char* os;
  const char* os_version;
};

const Case kCases[] = {
    {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 "
     "Safari/537.36",
     "web", "Chrome", "120.0.6099.109", "Windows", "10.0"},
    {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
     "Safari/537.36 Edg/120.0.2210.91",
     "web", "Edge", "120.0.2210.91", "Windows", "10.0"},
    {"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 "
     "Safari/605.1.15",
     "web", "Safari", "17.2", "macOS", "10.15.7"},
    {"Mozilla/5.0 (Macintosh; Intel Mac OS X 14.2; rv:121.0) Gecko/20100101 Firefox/121.0", "web", "Firefox",
     "121.0", "macOS", "14.2"},
    {"Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0", "web", "Firefox", "115.0",
     "Linux", ""},
    {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 "
     "OPR/105.0.0.0",
     "web", "Opera", "105.0.0.0", "Linux", ""},
    {"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 "
     "Safari/537.36",
     "web", "Chrome", "120.0.0.0", "Chrome OS", ""},
    {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "Version/17.2 Mobile/15E148 Safari/604.1",
     "web", "Safari", "17.2", "iOS", "17.2"},
    {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1",
     "web", "Chrome", "120.0.6099.119", "iOS", "17.2"},
    {"Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/121.0 "
     "Mobile/15E148 Safari/605.1.15",
     "web", "Firefox", "121.0", "iOS", "16.6"},
    {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "Mobile/15E148",
     "ios", "", "", "iOS", "17.1"},
    {"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 "
     "Mobile Safari/537.36",
     "web", "Chrome", "120.0.6099.144", "Android", "14"},
    {"Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 "
     "Chrome/115.0.0.0 Mobile Safari/537.36",
     "web", "Samsung Internet", "23.0", "Android", "13"},
    {"Mozilla/5.0 (Linux; Android 12; SM-G991B Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like "
     "Gecko) "
     "Version/4.0 Chrome/119.0.6045.193 Mobile Safari/537.36",
     "android", "Android WebView", "119.0.6045.193", "Android", "12"},
    {"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", "web", "Internet Explorer",
     "11.0", "Windows", "6.1"},
    {"MyApp/3.4.1 (com.example.app; build:812; iOS 17.2.1) Alamofire/5.8.0", "ios", "", "", "iOS", "17.2.1"},
    {"MyApp/812 CFNetwork/1474 Darwin/23.2.0", "ios", "", "", "iOS", ""},
    {"Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7 Build/TQ3A.230901.001)", "android", "", "", "Android",
     "13"},
    {"okhttp/4.12.0", "android", "", "", "Android", ""},
    {"okhttp/4.9.2 RN/0.73.1", "react-native", "", "", "Android", ""},
    {"MyApp/1.0 ReactNative/0.72.6 (iPhone; iOS 17.0)", "react-native", "", "", "iOS", "17.0"},
    {"Expo/2.30.8 CFNetwork/1410.0.3 Darwin/22.6.0", "react-native", "", "", "iOS", ""},
    {"Dart/3.2 (dart:io)", "flutter", "", "", "", ""},
    {"MyFlutterApp/1.2.0 (Flutter; Android 14)", "flutter", "", "", "Android", "14"},
    {"curl/8.4.0", "server", "", "", "", ""},
    {"python-requests/2.31.0", "server", "", "", "", ""},
    {"Go-http-client/1.1", "server", "", "", "", ""},
    {"node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", "server", "", "", "", ""},
    {"axios/1.6.2", "server", "", "", "", ""},
    {"Java/17.0.9", "server", "", "", "", ""},
    {"", "other", "", "", "", ""},
    {"   ", "other", "", "", "", ""},
    {"SomethingElse/1.0", "other", "", "", "", ""},
};

}  // namespace

TEST_CASE("InferPlatform maps real user agents to the platform enum") {
  for (const Case& c : kCases) {
    const std::string ua = c.ua;
    CAPTURE(ua);
    CHECK(InferPlatform(c.ua) == c.platform);
  }
}

TEST_CASE("ParseUserAgent names the browser and the operating system") {
  for (const Case& c : kCases) {
    const std::string ua = c.ua;
    CAPTURE(ua);
    const auto info = ParseUserAgent(c.ua);
    CHECK(info.browser == c.browser);
    CHECK(info.browser_version == c.browser_version);
    CHECK(info.os == c.os);
    CHECK(info.os_version == c.os_version);
  }
}
