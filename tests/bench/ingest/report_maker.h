// ReportMaker: the reports of the ingest benchmark. A realistic browser
// report of about 4 KB with 20 events (navigation, clicks, console output,
// fetches, one TypeError); one in `new_every` carries a new error message (a
// new fingerprint), the others repeat a message sent before with volatile
// numbers and ids that normalization removes. Not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace bench {

// Letters only, so message normalization keeps it: 0 -> "a", 27 -> "bb".
inline std::string Word(uint64_t n) {
  std::string s;
  do {
    s.push_back(static_cast<char>('a' + n % 26));
    n /= 26;
  } while (n > 0);
  return s;
}

inline const char* const kMessages[] = {
    "Cannot read properties of undefined (reading 'id')",
    "Cannot read properties of null (reading 'addEventListener')",
    "undefined is not a function",
    "Failed to fetch",
    "NetworkError when attempting to fetch resource.",
    "Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON",
    "Maximum call stack size exceeded",
    "ResizeObserver loop completed with undelivered notifications.",
    "Request failed with status code 500",
    "Loading chunk 42 failed.",
};

inline const char* const kPages[] = {"/checkout/",         "/orders/",   "/users/",
                                     "/settings/profile/", "/products/", "/cart/"};

// The bundle of the mapped envelopes (run.sh builds it from
// sourcemap/generate.js): what a browser loads from kBundleUrl.
inline constexpr const char* kBundleUrl = "https://shop.example.com/assets/checkout.8f3a1c.js";

class ReportMaker {
 public:
  ReportMaker(uint64_t seed, int new_every) : rng_(seed), new_every_(new_every) {
    for (const char* m : kMessages) messages_.emplace_back(m);
  }

  // Loads a frames file (sourcemap/frames.js): "debug_id <uuid>", then
  // "site <fn> <line> <col> <caller fn> <line> <col>" lines. Envelopes then
  // carry the bundle's debug id in debug_meta and, for the message with
  // index i, the frames of a site of its own (so that, resolved, each
  // message is a bug of its own as it is unresolved): site i for the ten
  // fixed messages, site i + site_offset for the new ones (a later process
  // passes the count the earlier ones created, so that its new messages do
  // not land on their sites), modulo the sites. False with `error` when the
  // file is unusable.
  bool LoadFrames(const std::string& path, uint64_t site_offset, std::string* error) {
    site_offset_ = site_offset;
    std::ifstream in(path);
    if (!in) {
      *error = "cannot read " + path;
      return false;
    }
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::string kind;
      words >> kind;
      if (kind == "debug_id") {
        words >> debug_id_;
      } else if (kind == "site") {
        Site s;
        if (!(words >> s.function >> s.lineno >> s.colno >> s.caller >> s.caller_lineno >> s.caller_colno)) {
          *error = "bad line in " + path + ": " + line;
          return false;
        }
        sites_.push_back(std::move(s));
      }
    }
    if (debug_id_.size() != 36 || sites_.empty()) {
      *error = path + " has no debug_id or no site";
      return false;
    }
    return true;
  }

  // The same report as a Sentry envelope (what a Sentry JavaScript SDK sends
  // for an uncaught TypeError: the exception with its frames, 19
  // breadcrumbs, user, release, environment, request, tags), with a fresh
  // event_id; uncompressed (the caller gzips it).
  std::string NextEnvelope() {
    const Parts p = NextParts();
    char id[33];
    // Event ids from their own generator seeded per process: every run (and
    // phase) sends new ids, as SDKs do; a repeated id would be a retry that
    // the service acknowledges without storing.
    std::snprintf(id, sizeof(id), "%016llx%016llx", static_cast<unsigned long long>(id_rng_()),
                  static_cast<unsigned long long>(id_rng_()));
    std::string e;
    e.reserve(6000);
    e += "{\"event_id\":\"" + std::string(id) + "\",\"timestamp\":" + std::to_string(p.now_ms / 1000.0) +
         ",\"platform\":\"javascript\",\"level\":\"error\",";
    e += "\"sdk\":{\"name\":\"sentry.javascript.browser\",\"version\":\"8.55.0\"},";
    e += "\"release\":\"web@4.12." + std::to_string(rng_() % 3) + "\",\"environment\":\"production\",";
    e +=
        "\"request\":{\"url\":\"" + p.url +
        "\",\"headers\":{\"User-Agent\":\"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36\"}},";
    e += "\"user\":{\"id\":\"user-" + std::to_string(p.user) + "\"" +
         (p.user % 4 == 0 ? ",\"email\":\"customer" + std::to_string(p.user) + "@example.com\"" : "") +
         ",\"ip_address\":\"{{auto}}\"},";
    e += "\"tags\":{\"locale\":\"en-US\",\"timezone\":\"Europe/Berlin\",\"cartItems\":\"" +
         std::to_string(rng_() % 9) + "\"},";
    e += "\"contexts\":{\"browser\":{\"name\":\"Chrome\",\"version\":\"120.0.6099\"},"
         "\"os\":{\"name\":\"Mac OS X\",\"version\":\"10.15.7\"}},";
    e += "\"breadcrumbs\":{\"values\":[";
    int64_t t = p.now_ms - 20'000;
    for (int i = 0; i < 19; ++i) {
      if (i > 0) e += ',';
      t += 300 + static_cast<int64_t>(rng_() % 700);
      const std::string ts = std::to_string(t / 1000.0);
      switch (i % 4) {
        case 0:
          e += "{\"timestamp\":" + ts + ",\"category\":\"navigation\",\"data\":{\"from\":\"" + p.url +
               "\",\"to\":\"https://shop.example.com" + p.page + std::to_string(p.order + i) +
               "?step=" + std::to_string(i) + "\"}}";
          break;
        case 1:
          e += "{\"timestamp\":" + ts +
               ",\"category\":\"ui.click\",\"message\":\"form#shipping > div.actions > "
               "button.btn.btn-primary[type=submit]\"}";
          break;
        case 2:
          e += "{\"timestamp\":" + ts +
               ",\"category\":\"console\",\"level\":\"log\",\"message\":\"[checkout] validated address "
               "block " +
               std::to_string(rng_() % 100000) + " in " + std::to_string(rng_() % 40) + " ms\"}";
          break;
        default:
          e += "{\"timestamp\":" + ts +
               ",\"category\":\"fetch\",\"type\":\"http\",\"data\":{\"method\":\"POST\",\"url\":\"https://"
               "api.example.com/v2/checkout/" +
               std::to_string(p.order) + "/shipping\",\"status_code\":" + (i == 15 ? "500" : "200") + "}}";
      }
    }
    e += "]},";
    e += "\"exception\":{\"values\":[{\"type\":\"TypeError\",\"value\":\"" + Escape(p.message) +
         "\",\"mechanism\":{\"type\":\"onerror\",\"handled\":false},\"stacktrace\":{\"frames\":["
         "{\"function\":\"HTMLFormElement.<anonymous>\",\"filename\":\"https://shop.example.com/assets/"
         "vendor.2b9e4d.js\",\"lineno\":2,\"colno\":11873,\"in_app\":true},";
    if (sites_.empty()) {
      e += "{\"function\":\"ShippingForm.submit\",\"filename\":\"" + std::string(kBundleUrl) +
           "\",\"lineno\":1,\"colno\":48213,\"in_app\":true}]}}]}}";
    } else {
      // What the browser SDK sends for a bundle with a debug id: frames
      // named by URL, the bundle's id in debug_meta.
      const uint64_t fixed = sizeof(kMessages) / sizeof(kMessages[0]);
      const Site& s = sites_[(p.index < fixed ? p.index : p.index + site_offset_) % sites_.size()];
      e += Frame(s.caller, s.caller_lineno, s.caller_colno) + "," + Frame(s.function, s.lineno, s.colno) +
           "]}}]},\"debug_meta\":{\"images\":[{\"type\":\"sourcemap\",\"code_file\":\"" +
           std::string(kBundleUrl) + "\",\"debug_id\":\"" + debug_id_ + "\"}]}}";
    }
    return "{\"event_id\":\"" + std::string(id) +
           "\",\"sent_at\":\"2026-01-15T10:00:00.000Z\",\"sdk\":{\"name\":"
           "\"sentry.javascript.browser\",\"version\":\"8.55.0\"}}\n{\"type\":\"event\"}\n" +
           e + "\n";
  }

  struct Parts {
    std::string message;
    size_t index = 0;  // the message's, in the order first sent
    uint64_t user = 0;
    uint64_t order = 0;
    const char* page = nullptr;
    std::string url;
    int64_t now_ms = 0;
  };
  Parts NextParts() {
    size_t index;
    if (new_every_ > 0 && rng_() % static_cast<uint64_t>(new_every_) == 0) {
      messages_.push_back("Feature " + Word(seed_word_base_ + created_++) + " failed to render component " +
                          Word(rng_() % 1000));
      index = messages_.size() - 1;
    } else {
      index = rng_() % messages_.size();
    }
    Parts p;
    p.message = messages_[index];
    p.index = index;
    p.user = rng_() % 5000;
    p.order = 10000 + rng_() % 900000;
    // One page per message: the URL pattern (ids become <id>) stays with it.
    p.page = kPages[index % (sizeof(kPages) / sizeof(kPages[0]))];
    p.url = std::string("https://shop.example.com") + p.page + std::to_string(p.order);
    p.now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
    return p;
  }

  std::string Next() {
    const Parts p = NextParts();
    const std::string& message = p.message;
    const uint64_t user = p.user;
    const uint64_t order = p.order;
    const char* page = p.page;
    const std::string& url = p.url;
    const int64_t now_ms = p.now_ms;
    std::string b;
    b.reserve(4600);
    b += "{\"title\":\"TypeError: ";
    b += Escape(message);
    b += "\",\"description\":\"Captured automatically by the browser SDK after an uncaught exception on the "
         "checkout flow. The user had items in the cart and was entering a shipping address.\",";
    b += "\"severity\":\"high\",\"url\":\"" + url + "\",";
    b += "\"userAgent\":\"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like "
         "Gecko) "
         "Chrome/120.0.6099.109 Safari/537.36\",";
    b += "\"viewport\":\"1440x900\",\"release\":\"web@4.12." + std::to_string(rng_() % 3) +
         "\",\"environment\":\"production\",";
    b += "\"sessionId\":\"sess-" + std::to_string(user) + "-" + std::to_string(rng_() % 4) + "\",";
    b += "\"userId\":\"user-" + std::to_string(user) + "\",";
    if (user % 4 == 0) b += "\"reporterEmail\":\"customer" + std::to_string(user) + "@example.com\",";
    b += "\"metadata\":{\"autoReport\":\"error\",\"sdk\":\"service-browser\",\"sdkVersion\":\"2.3.1\","
         "\"locale\":\"en-US\",\"timezone\":\"Europe/Berlin\",\"cartItems\":" +
         std::to_string(rng_() % 9) + "},";
    b += "\"events\":[";
    int64_t t = now_ms - 20'000;
    for (int i = 0; i < 20; ++i) {
      if (i > 0) b += ',';
      t += 300 + static_cast<int64_t>(rng_() % 700);
      const std::string ts = std::to_string(t);
      switch (i % 5) {
        case 0:
          b += "{\"type\":\"navigation\",\"timestamp\":" + ts + ",\"data\":{\"from\":\"" + url +
               "\",\"to\":\"https://shop.example.com" + page + std::to_string(order + i) +
               "?step=" + std::to_string(i) + "\"}}";
          break;
        case 1:
          b +=
              "{\"type\":\"click\",\"timestamp\":" + ts +
              ",\"data\":{\"selector\":\"form#shipping > div.actions > button.btn.btn-primary[type=submit]\","
              "\"text\":\"Continue to payment\",\"x\":" +
              std::to_string(rng_() % 1400) + ",\"y\":" + std::to_string(rng_() % 900) + "}}";
          break;
        case 2:
          b += "{\"type\":\"console\",\"timestamp\":" + ts +
               ",\"data\":{\"level\":\"log\",\"message\":\"[checkout] validated address block " +
               std::to_string(rng_() % 100000) + " in " + std::to_string(rng_() % 40) + " ms\"}}";
          break;
        case 3:
          b += "{\"type\":\"network\",\"timestamp\":" + ts +
               ",\"data\":{\"method\":\"POST\",\"url\":\"https://api.example.com/v2/checkout/" +
               std::to_string(order) + "/shipping\",\"status\":" + (i == 18 ? "500" : "200") +
               ",\"duration\":" + std::to_string(40 + rng_() % 400) +
               ",\"size\":" + std::to_string(rng_() % 9000) + "}}";
          break;
        default:
          if (i == 14) {
            b += "{\"type\":\"error\",\"timestamp\":" + ts +
                 ",\"data\":{\"name\":\"TypeError\",\"message\":\"" + Escape(message) +
                 "\",\"stack\":\"TypeError: " + Escape(message) +
                 "\\n    at ShippingForm.submit (https://shop.example.com/assets/checkout.8f3a1c.js:1:48213)"
                 "\\n    at HTMLFormElement.<anonymous> "
                 "(https://shop.example.com/assets/vendor.2b9e4d.js:2:11873)\"}}";
          } else {
            b += "{\"type\":\"console\",\"timestamp\":" + ts +
                 ",\"data\":{\"level\":\"info\",\"message\":\"[analytics] queued event checkout_step " +
                 std::to_string(i) + "\"}}";
          }
      }
    }
    b += "]}";
    return b;
  }

  uint64_t created() const { return created_; }

 private:
  struct Site {
    std::string function;
    int64_t lineno = 0;
    int64_t colno = 0;
    std::string caller;
    int64_t caller_lineno = 0;
    int64_t caller_colno = 0;
  };

  static std::string Frame(const std::string& function, int64_t lineno, int64_t colno) {
    return "{\"function\":\"" + Escape(function) + "\",\"filename\":\"" + std::string(kBundleUrl) +
           "\",\"lineno\":" + std::to_string(lineno) + ",\"colno\":" + std::to_string(colno) +
           ",\"in_app\":true}";
  }

  static std::string Escape(const std::string& s) {
    std::string out;
    for (char c : s) {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
    return out;
  }

  std::mt19937_64 rng_;
  std::mt19937_64 id_rng_{std::random_device{}()};
  int new_every_;
  std::vector<std::string> messages_;
  std::string debug_id_;
  std::vector<Site> sites_;
  uint64_t site_offset_ = 0;
  uint64_t created_ = 0;
  uint64_t seed_word_base_ = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                                       std::chrono::system_clock::now().time_since_epoch())
                                                       .count());
};

}  // namespace bench
