#include "areas/demo/app/demo.h"

#include <algorithm>
#include <boost/json.hpp>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "areas/accounts/app/accounts.h"
#include "areas/capture/app/ingest.h"

namespace service::app::demo {

namespace {

namespace json = boost::json;

constexpr int64_t kHourMs = 3'600'000;
constexpr int64_t kDayMs = 24 * kHourMs;

// What a report carries besides its error event.
enum class Extra {
  kNone,
  kFailedRequest,  // a POST answered 502 just before the error
  kSlowRequest,    // no error: a slow GET (its title is its fingerprint)
  kSelfTest,       // no error: an SDK self-test ping (a diagnostic)
  kUserReport,     // no error: a person's own report (its own group)
};

struct Frame {
  const char* function;
  const char* file;
  int line;
  bool in_app;
};

// One error as an application keeps sending it. Its message is the same on
// every page (volatile parts are normalised away), so each page is one bug
// and the pages together are one group (the signature is the error type and
// the normalised message, without the URL).
struct Kind {
  const char* title;
  const char* platform;
  const char* user_agent;
  const char* severity;
  const char* error_name;          // "": no error event (see extra)
  const char* message;             // "%n": a 4-digit number, "%o": an address octet
  const char* stack;               // the text a console shows
  std::vector<Frame> frames;       // oldest first (Sentry's order); empty: none
  std::vector<const char*> pages;  // "%n": a record id (a URL pattern's <id>)
  int reports;                     // sent between first_day and last_day
  int first_day;                   // days ago
  int last_day;
  Extra extra = Extra::kNone;
  const char* description = "";
};

constexpr const char* kChrome =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 "
    "Safari/537.36";
constexpr const char* kSafariIphone =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.4 Mobile/15E148 Safari/604.1";
constexpr const char* kFirefox = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0";

// The Android crash the demo shows on two screens (Kinds() 5 and 6).
constexpr const char* kOrdersNpeMessage =
    "Attempt to invoke virtual method 'int java.util.List.size()' on a null object reference";
constexpr const char* kOrdersNpeStack =
    "java.lang.NullPointerException: Attempt to invoke virtual method 'int java.util.List.size()' on a null "
    "object reference\n"
    "    at com.shop.orders.OrderAdapter.onBindViewHolder(OrderAdapter.kt:57)\n"
    "    at androidx.recyclerview.widget.RecyclerView$Adapter.bindViewHolder(RecyclerView.java:7254)\n"
    "    at android.os.Handler.dispatchMessage(Handler.java:106)";
std::vector<Frame> OrdersNpeFrames() {
  return {{"dispatchMessage", "Handler.java", 106, false},
          {"bindViewHolder", "RecyclerView.java", 7254, false},
          {"onBindViewHolder", "OrderAdapter.kt", 57, true}};
}

// Indexes into Kinds() of the bugs the demo triages.
constexpr size_t kCartChrome = 0;       // its /checkout bug is assigned (page 1)
constexpr size_t kOrdersAndroid = 5;    // resolved in 3.2.0, regresses in 3.2.1
constexpr size_t kFlutterSettings = 7;  // resolved, stays resolved

const std::vector<Kind>& Kinds() {
  static const std::vector<Kind> kinds = {
      // 0. Browser: one crash on four pages -> one group of four bugs.
      {"TypeError: Cannot read properties of undefined (reading 'total')",
       "web",
       kChrome,
       "high",
       "TypeError",
       "Cannot read properties of undefined (reading 'total')",
       "TypeError: Cannot read properties of undefined (reading 'total')\n"
       "    at CartSummary (https://shop.example.com/assets/cart.js:212:18)\n"
       "    at renderWithHooks (https://shop.example.com/assets/vendor.js:11512:22)\n"
       "    at mountIndeterminateComponent (https://shop.example.com/assets/vendor.js:14972:13)\n"
       "    at beginWork (https://shop.example.com/assets/vendor.js:16421:16)",
       {},
       {"https://shop.example.com/cart", "https://shop.example.com/checkout",
        "https://shop.example.com/products/%n", "https://shop.example.com/account/orders"},
       70,
       14,
       0},
      // 1. The same crash in Safari's words: another signature, so another
      // group, but the same crashing frame: a duplicate candidate of group 0.
      {"TypeError: undefined is not an object (evaluating 'cart.total')",
       "web",
       kSafariIphone,
       "high",
       "TypeError",
       "undefined is not an object (evaluating 'cart.total')",
       "CartSummary@https://shop.example.com/assets/cart.js:212:18\n"
       "renderWithHooks@https://shop.example.com/assets/vendor.js:11512:22\n"
       "beginWork@https://shop.example.com/assets/vendor.js:16421:16",
       {{"beginWork", "https://shop.example.com/assets/vendor.js", 16421, false},
        {"renderWithHooks", "https://shop.example.com/assets/vendor.js", 11512, false},
        {"CartSummary", "https://shop.example.com/assets/cart.js", 212, true}},
       {"https://shop.example.com/cart", "https://shop.example.com/checkout"},
       24,
       11,
       0},
      // 2. Browser: the payment call fails (the request, then the error).
      {"AxiosError: Request failed with status code 502",
       "web",
       kChrome,
       "critical",
       "AxiosError",
       "Request failed with status code 502",
       "AxiosError: Request failed with status code 502\n"
       "    at settle (https://shop.example.com/assets/vendor.js:2201:12)\n"
       "    at XMLHttpRequest.onloadend (https://shop.example.com/assets/vendor.js:2274:7)\n"
       "    at submitPayment (https://shop.example.com/assets/checkout.js:88:11)",
       {},
       {"https://shop.example.com/checkout", "https://shop.example.com/checkout/payment"},
       26,
       9,
       0,
       Extra::kFailedRequest},
      // 3. Browser noise on three pages.
      {"ResizeObserver loop completed with undelivered notifications",
       "web",
       kFirefox,
       "low",
       "Error",
       "ResizeObserver loop completed with undelivered notifications.",
       "",
       {},
       {"https://shop.example.com/products/%n", "https://shop.example.com/search",
        "https://shop.example.com/"},
       20,
       14,
       0},
      // 4. iOS: a crash on three screens.
      {"Fatal error: Unexpectedly found nil while unwrapping an Optional value",
       "ios",
       "ShopApp/3.2 CFNetwork/1494.0.7 Darwin/23.4.0 (iPhone15,2; iOS 17.4)",
       "critical",
       "EXC_BREAKPOINT",
       "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
       "0  ShopApp     ProfileViewController.avatarURL.getter (ProfileViewController.swift:88)\n"
       "1  ShopApp     ProfileViewController.viewDidLoad() (ProfileViewController.swift:41)\n"
       "2  UIKitCore   -[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]\n"
       "3  UIKitCore   UIApplicationMain\n"
       "4  ShopApp     main (AppDelegate.swift:12)",
       {{"main", "AppDelegate.swift", 12, true},
        {"UIApplicationMain", "UIKitCore", 0, false},
        {"ProfileViewController.viewDidLoad()", "ProfileViewController.swift", 41, true},
        {"ProfileViewController.avatarURL.getter", "ProfileViewController.swift", 88, true}},
       {"app://profile", "app://profile/edit", "app://settings/account"},
       22,
       13,
       0},
      // 5. Android: the orders list crashes; fixed in 3.2.0 on one screen
      // (resolved), it comes back in 3.2.1 (a regression).
      {"NullPointerException in OrderAdapter.onBindViewHolder",
       "android",
       "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP1A.240405.002)",
       "high",
       "NullPointerException",
       kOrdersNpeMessage,
       kOrdersNpeStack,
       OrdersNpeFrames(),
       {"app://orders"},
       18,
       14,
       6},
      // 6. The same crash on the order history screen, never fixed.
      {"NullPointerException in OrderAdapter.onBindViewHolder",
       "android",
       "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP1A.240405.002)",
       "high",
       "NullPointerException",
       kOrdersNpeMessage,
       kOrdersNpeStack,
       OrdersNpeFrames(),
       {"app://orders/history"},
       10,
       12,
       0},
      // 7. Flutter: fixed in 3.2.0 and quiet since (resolved).
      {"Null check operator used on a null value",
       "flutter",
       "Dart/3.3 (dart:io) Flutter",
       "medium",
       "_TypeError",
       "Null check operator used on a null value",
       "#0      SettingsPage.build (package:shop/settings/settings_page.dart:64:38)\n"
       "#1      StatelessElement.build (package:flutter/src/widgets/framework.dart:5550:49)\n"
       "#2      ComponentElement.performRebuild (package:flutter/src/widgets/framework.dart:5480:15)",
       {{"ComponentElement.performRebuild", "package:flutter/src/widgets/framework.dart", 5480, false},
        {"SettingsPage.build", "package:shop/settings/settings_page.dart", 64, true}},
       {"app://settings"},
       8,
       14,
       4},
      // 8. React Native: requests fail on two screens.
      {"TypeError: Network request failed",
       "react-native",
       "ShopApp/3.2 (ReactNative 0.73; iOS 17.4)",
       "medium",
       "TypeError",
       "Network request failed",
       "TypeError: Network request failed\n"
       "    at XMLHttpRequest.xhr.onerror (index.bundle:1:33421)\n"
       "    at dispatchEvent (index.bundle:1:120877)",
       {},
       {"app://feed", "app://search"},
       16,
       10,
       0},
      // 9. Server (Python): the database went away for two days; the host's
      // address and the order id vary and are normalised away.
      {"OperationalError: could not connect to server",
       "server",
       "sentry.python/2.19.0",
       "critical",
       "OperationalError",
       "could not connect to server: Connection refused. Is the server running on host \"10.0.3.%o\" and "
       "accepting TCP/IP connections on port 5432?",
       "Traceback (most recent call last):\n"
       "  File \"/srv/shop/api/orders/views.py\", line 41, in get_order\n"
       "    order = repo.load(order_id)\n"
       "  File \"/srv/shop/api/db.py\", line 18, in connect\n"
       "    return psycopg2.connect(DSN)\n"
       "psycopg2.OperationalError: could not connect to server: Connection refused",
       {{"dispatch_request", "flask/app.py", 880, false},
        {"get_order", "/srv/shop/api/orders/views.py", 41, true},
        {"connect", "/srv/shop/api/db.py", 18, true},
        {"connect", "psycopg2/__init__.py", 122, false}},
       {"https://api.example.com/v2/orders/%n", "https://api.example.com/v2/cart",
        "https://api.example.com/v2/payments"},
       30,
       8,
       7},
      // 10. Server (Go): a nil pointer in two handlers.
      {"runtime error: invalid memory address or nil pointer dereference",
       "server",
       "sentry.go/0.27.0",
       "high",
       "runtime.Error",
       "runtime error: invalid memory address or nil pointer dereference",
       "goroutine 41 [running]:\n"
       "main.(*InventoryService).Reserve(0x0, {0xc0001a2000, 0x24})\n"
       "\t/srv/inventory/service.go:73 +0x1c\n"
       "main.reserveHandler({0x9a4f28, 0xc0002c4000}, 0xc0001b6300)\n"
       "\t/srv/inventory/http.go:40 +0x85",
       {{"main.reserveHandler", "/srv/inventory/http.go", 40, true},
        {"main.(*InventoryService).Reserve", "/srv/inventory/service.go", 73, true}},
       {"https://api.example.com/v2/inventory/reserve", "https://api.example.com/v2/inventory/release"},
       12,
       6,
       0},
      // 11. A person's report: its own group.
      {"The coupon field does not accept my code",
       "web",
       kSafariIphone,
       "medium",
       "",
       "",
       "",
       {},
       {"https://shop.example.com/cart"},
       3,
       5,
       1,
       Extra::kUserReport,
       "I type SPRING24 and press Apply, nothing happens. Tried twice on my phone."},
      // 12. A slow request (no error: the title is the fingerprint).
      {"Slow request: GET /api/search took 4.2 s",
       "web",
       kChrome,
       "low",
       "",
       "",
       "",
       {},
       {"https://shop.example.com/search"},
       6,
       7,
       0,
       Extra::kSlowRequest},
      // 13. An SDK self-test (a diagnostic, hidden unless asked for).
      {"SDK self-test",
       "web",
       kChrome,
       "low",
       "",
       "",
       "",
       {},
       {"https://shop.example.com/"},
       1,
       14,
       14,
       Extra::kSelfTest},
  };
  return kinds;
}

// A small deterministic generator, so every demo is the same.
class Random {
 public:
  uint32_t Next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state_ >> 33);
  }
  int Below(int n) { return static_cast<int>(Next() % static_cast<uint32_t>(n)); }

 private:
  uint64_t state_ = 20241126;
};

std::string Fill(std::string_view pattern, uint32_t seed) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'n') {
      out += std::to_string(1000 + seed % 9000);
      ++i;
    } else if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'o') {
      out += std::to_string(10 + seed % 20);
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

const char* ReleaseAt(int64_t days_ago) {
  if (days_ago >= 10) return "3.1.0";
  if (days_ago >= 6) return "3.1.1";
  if (days_ago >= 3) return "3.2.0";
  return "3.2.1";
}

// The end users: the application's own ids; some also give an email, a few
// reports come from signed-out visitors (an anonymous key).
constexpr int kEndUsers = 60;
constexpr const char* kNames[] = {"maria.keller", "tomas.novak", "aiko.tanaka", "samir.haddad",
                                  "lena.berg",    "omar.farouk", "ines.duarte", "jonas.weber"};

capture::ReportInput MakeReport(const Kind& k, size_t page, int64_t at, Random& rnd) {
  capture::ReportInput r;
  r.title = k.title;
  r.description = k.description;
  r.severity = k.severity;
  r.url = Fill(k.pages[page], rnd.Next());
  r.user_agent = k.user_agent;
  r.platform = k.platform;
  const bool mobile = std::string_view(k.platform) != "web" && std::string_view(k.platform) != "server";
  if (std::string_view(k.platform) != "server") r.viewport = mobile ? "390x844" : "1440x900";
  const int user = rnd.Below(kEndUsers + 6);
  if (user < kEndUsers) {
    r.user_id = "cust-" + std::to_string(1001 + user);
    if (user < static_cast<int>(std::size(kNames)))
      r.reporter_email = std::string(kNames[user]) + "@example.org";
    r.session_id = "sess-" + std::to_string(1001 + user) + "-" + std::to_string(at / kDayMs);
  }
  if (k.extra == Extra::kUserReport) r.reporter_email = std::string(kNames[rnd.Below(3)]) + "@example.org";
  r.environment = rnd.Below(8) == 0 ? "staging" : "production";
  // What an SDK's automatic capture says of itself (the classification's
  // auto-report kind); a person's report says it is not automatic.
  const bool crash = mobile && std::string_view(k.platform) != "react-native";
  switch (k.extra) {
    case Extra::kUserReport:
      r.metadata = json::object{{"demo", true}, {"autoReport", false}};
      break;
    case Extra::kSlowRequest:
      r.metadata = json::object{{"demo", true}, {"autoReport", "slow_request"}};
      break;
    case Extra::kSelfTest:
      r.metadata = json::object{{"demo", true}, {"selfTest", true}};
      break;
    default:
      r.metadata = json::object{{"demo", true}, {"autoReport", crash ? "crash" : "uncaught_error"}};
  }

  // A breadcrumb trail, then the failure itself.
  const bool app = std::string_view(k.pages[page]).starts_with("app://");
  for (int i = 0; i < 4; ++i) {
    domain::capture::Event e;
    e.type = i % 2 ? (app ? "tap" : "click") : "navigation";
    e.timestamp_ms = at - (5 - i) * 1500;
    if (i % 2) {
      e.data = json::object{{"selector", app ? "OrderRow" : "button.primary"}};
    } else {
      e.data = json::object{{"from", "/"}, {"to", r.url}};
    }
    r.events.push_back(std::move(e));
  }
  if (k.extra == Extra::kFailedRequest) {
    domain::capture::Event e;
    e.type = "network";
    e.timestamp_ms = at - 400;
    e.data = json::object{
        {"method", "POST"},
        {"url", "https://shop.example.com/api/payments/" + std::to_string(1000 + rnd.Below(9000))},
        {"status", 502},
        {"duration", 310}};
    r.events.push_back(std::move(e));
  } else if (k.extra == Extra::kSlowRequest) {
    domain::capture::Event e;
    e.type = "network";
    e.timestamp_ms = at;
    e.data = json::object{{"method", "GET"},
                          {"url", "https://shop.example.com/api/search?q=boots"},
                          {"status", 200},
                          {"duration", 4200}};
    r.events.push_back(std::move(e));
  } else if (k.extra == Extra::kSelfTest) {
    domain::capture::Event e;
    e.type = "console";
    e.timestamp_ms = at;
    e.data = json::object{{"level", "info"}, {"message", "service sdk self-test ping"}};
    r.events.push_back(std::move(e));
  }
  if (*k.error_name) {
    domain::capture::Event e;
    e.type = "error";
    e.timestamp_ms = at;
    json::object data{{"name", k.error_name}, {"message", Fill(k.message, rnd.Next())}};
    if (*k.stack) data["stack"] = k.stack;
    if (!k.frames.empty()) {
      json::array frames;
      for (const Frame& f : k.frames) {
        json::object o{{"function", f.function}, {"filename", f.file}, {"in_app", f.in_app}};
        if (f.line > 0) o["lineno"] = f.line;
        frames.push_back(std::move(o));
      }
      data["frames"] = std::move(frames);
    }
    e.data = std::move(data);
    r.events.push_back(std::move(e));
  }
  return r;
}

// One step of the demo's two weeks: a report, or a person's triage action.
struct Step {
  enum class What { kReport, kResolve, kAssign };
  int64_t at = 0;
  What what = What::kReport;
  size_t kind = 0;
  size_t page = 0;
  const char* note = "";
};

}  // namespace

Result<DemoResult> SeedDemo(const DemoDeps& deps) {
  DemoResult result;
  bool empty = false;
  SV_RETURN_IF_ERROR(deps.db->Read([&](ports::Tx& c) -> Status {
    SV_ASSIGN_OR_RETURN(int64_t orgs, deps.orgs->CountAll(c));
    empty = orgs == 0;
    return Status::Ok();
  }));
  if (!empty) return result;

  result.email = "demo@example.com";
  result.password = "demo-" + deps.ids->RandomAlnum(12);
  result.org_name = "Demo Shop";
  SV_ASSIGN_OR_RETURN(app::accounts::Workspace ws,
                      deps.register_account({result.email, result.password, "Demo Admin", result.org_name}));
  result.api_key = ws.project.api_key;
  result.dsn = ws.project.dsn;
  SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
    SV_RETURN_IF_ERROR(deps.users->MarkEmailVerified(tx, ws.user.id, deps.Now()));
    SV_ASSIGN_OR_RETURN(bool found, deps.projects->SetShadowGrouping(tx, ws.org.id, ws.project.id, true));
    return found ? Status::Ok() : NotFound("demo project vanished");
  }));

  capture::ReportSource source;
  source.org_id = ws.org.id;
  source.project_id = ws.project.id;
  source.project_name = ws.project.name;
  source.plan = ws.org.plan;
  source.grouping_v3_shadow = true;

  // The two weeks, oldest first. The newest report is a few minutes old.
  const int64_t now = deps.Now();
  const std::vector<Kind>& kinds = Kinds();
  Random rnd;
  std::vector<Step> steps;
  for (size_t k = 0; k < kinds.size(); ++k) {
    const Kind& kind = kinds[k];
    const int64_t from = now - kind.first_day * kDayMs - 10 * kHourMs;
    const int64_t to = now - kind.last_day * kDayMs - 5 * 60'000;
    for (int i = 0; i < kind.reports; ++i) {
      Step s;
      s.kind = k;
      // Every page once first (the first at the window's start), then the
      // first page most often.
      if (i < static_cast<int>(kind.pages.size())) {
        s.page = static_cast<size_t>(i);
        s.at = from + i * kHourMs;
      } else {
        s.page = rnd.Below(2) == 0 ? 0 : static_cast<size_t>(rnd.Below(static_cast<int>(kind.pages.size())));
        s.at = from + static_cast<int64_t>(rnd.Next() % static_cast<uint32_t>((to - from) / 1000)) * 1000;
      }
      steps.push_back(s);
    }
  }
  // A person triages: the Android crash is fixed in 3.2.0 ... and comes back
  // in 3.2.1; the Flutter one stays fixed; the checkout crash is taken.
  steps.push_back({now - 5 * kDayMs, Step::What::kResolve, kOrdersAndroid, 0, "Fixed in 3.2.0"});
  steps.push_back({now - 1 * kDayMs - 3 * kHourMs, Step::What::kReport, kOrdersAndroid, 0, ""});
  steps.push_back({now - 50 * 60'000, Step::What::kReport, kOrdersAndroid, 0, ""});
  steps.push_back({now - 3 * kDayMs, Step::What::kResolve, kFlutterSettings, 0, "Fixed in 3.2.0"});
  steps.push_back({now - 2 * kDayMs, Step::What::kAssign, kCartChrome, 1, ""});
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.at < b.at; });

  std::set<std::string> bugs;
  std::map<std::pair<size_t, size_t>, std::string> bug_of;  // (kind, page) -> bug id
  for (const Step& s : steps) {
    const Kind& kind = kinds[s.kind];
    if (s.what == Step::What::kReport) {
      source.client_ip = "203.0.113." + std::to_string(1 + rnd.Below(200));
      capture::ReportInput report = MakeReport(kind, s.page, s.at, rnd);
      report.release = ReleaseAt((now - s.at) / kDayMs);
      SV_ASSIGN_OR_RETURN(capture::IngestResult r, deps.ingest(source, std::move(report), s.at));
      bugs.insert(r.bug_id);
      bug_of[{s.kind, s.page}] = r.bug_id;
      ++result.reports;
      continue;
    }
    auto found = bug_of.find({s.kind, s.page});
    if (found == bug_of.end()) return Internal("demo: no bug to triage yet");
    const std::string& bug_id = found->second;
    SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(std::optional<ports::BugState> state,
                          deps.bug_writes->Lock(tx, ws.org.id, bug_id, s.at));
      if (!state) return NotFound("demo bug vanished");
      ports::BugChange change;
      if (s.what == Step::What::kResolve) {
        change.status = "resolved";
      } else {
        change.status = "working";
        change.assigned_to = std::optional<std::string>(ws.user.id);
      }
      SV_RETURN_IF_ERROR(deps.bug_writes->Apply(tx, bug_id, change, s.at));
      return deps.capture_bugs->AddStatusHistory(tx, deps.ids->NewId(), bug_id, ws.org.id, state->status,
                                                 *change.status, s.note, ws.user.id, s.at);
    }));
  }
  result.bugs = static_cast<int>(bugs.size());
  result.created = true;
  return result;
}

}  // namespace service::app::demo
