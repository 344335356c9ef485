#include "app/demo/demo.h"

#include <boost/json.hpp>
#include <set>

#include "app/auth/auth.h"
#include "app/capture/ingest.h"
#include "ports/bug_status_repository.h"

namespace service::app {

namespace {

namespace json = boost::json;

struct Template {
  const char* title;
  const char* platform;
  const char* user_agent;
  const char* event_type;
  const char* error_name;
  const char* message;  // "%d" replaced by a varying number (normalised away)
  const char* url;
  const char* severity;
  int weight;  // relative frequency
};

// Realistic reports across platforms. Volatile parts (ids, numbers) differ
// per report and are normalised by the fingerprint, so each template groups.
const Template kTemplates[] = {
    {"Cannot read properties of undefined (reading 'total')", "web",
     "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 "
     "Safari/537.36",
     "error", "TypeError", "Cannot read properties of undefined (reading 'total') at cart.js:%d",
     "https://shop.example.com/cart/%d", "high", 8},
    {"Checkout request failed with 502", "web",
     "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 "
     "Safari/605.1.15",
     "network", "", "POST /api/checkout/%d returned 502", "https://shop.example.com/checkout", "critical", 5},
    {"ResizeObserver loop limit exceeded", "web",
     "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "error", "Error",
     "ResizeObserver loop limit exceeded", "https://shop.example.com/products/%d", "low", 4},
    {"Fatal error: Unexpectedly found nil while unwrapping an Optional value", "ios",
     "ShopApp/3.2 CFNetwork/1494.0.7 Darwin/23.4.0 (iPhone15,2; iOS 17.4)", "error", "EXC_BREAKPOINT",
     "Fatal error: Unexpectedly found nil at ProfileViewController.swift:%d", "app://profile", "critical", 3},
    {"java.lang.NullPointerException in OrderAdapter", "android",
     "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP1A.240405.002)", "error", "NullPointerException",
     "Attempt to invoke virtual method 'int java.util.List.size()' on a null object reference (id %d)",
     "app://orders", "high", 4},
    {"Network request failed: timeout after 30000 ms", "react-native",
     "ShopApp/3.2 (ReactNative 0.73; iOS 17.4)", "error", "TypeError",
     "Network request failed for session %d", "app://feed", "medium", 3},
    {"Null check operator used on a null value", "flutter", "Dart/3.3 (dart:io) Flutter", "error",
     "_CastError", "Null check operator used on a null value in widget %d", "app://settings", "medium", 2},
    {"psycopg2.OperationalError: could not connect to server", "server", "python-requests/2.31", "error",
     "OperationalError",
     "could not connect to server: Connection refused. Is the server running on host 10.0.3.%d and accepting "
     "TCP/IP connections on port 5432?",
     "https://api.example.com/v2/orders/%d", "critical", 3},
    {"Slow request: GET /api/search took 4.2 s", "web",
     "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 "
     "Safari/537.36",
     "network", "", "GET /api/search?q=%d took 4200 ms", "https://shop.example.com/search", "low", 3},
    {"User report: the coupon field does not accept my code", "web",
     "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "Mobile/15E148",
     "", "", "", "https://shop.example.com/cart", "medium", 2},
    {"SDK self-test", "web", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0", "console", "",
     "service sdk self-test ping %d", "https://shop.example.com/", "low", 1},
};

std::string Fill(const char* pattern, int n) {
  std::string out;
  for (const char* p = pattern; *p; ++p) {
    if (p[0] == '%' && p[1] == 'd') {
      out += std::to_string(n);
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

capture::ReportInput MakeReport(const Template& t, int n, int64_t now) {
  capture::ReportInput r;
  r.title = t.title;
  r.severity = t.severity;
  r.url = Fill(t.url, 1000 + n % 37);
  r.user_agent = t.user_agent;
  r.platform = t.platform;
  r.viewport = "1440x900";
  static const char* kReleases[] = {"3.1.0", "3.1.1", "3.2.0", "3.2.1"};
  static const char* kEnvs[] = {"production", "production", "production", "staging"};
  r.release = kReleases[(n / 7) % 4];
  r.environment = kEnvs[n % 4];
  r.user_id = "user-" + std::to_string(1 + n % 40);
  r.session_id = "sess-" + std::to_string(1 + n % 90);
  if (n % 5 == 0) r.reporter_email = "customer" + std::to_string(n % 12) + "@example.org";
  r.metadata = json::object{{"demo", true}, {"build", 4100 + n % 9}};
  // A breadcrumb trail, then the failure itself.
  for (int i = 0; i < 6; ++i) {
    domain::Event e;
    e.type = i % 2 ? "click" : "navigation";
    e.timestamp_ms = now - (6 - i) * 1500;
    e.data = json::object{{"target", i % 2 ? "button#buy" : "/cart"}};
    r.events.push_back(std::move(e));
  }
  if (*t.event_type) {
    domain::Event e;
    e.type = t.event_type;
    e.timestamp_ms = now;
    if (std::string_view(t.event_type) == "network") {
      const bool slow = std::string_view(t.title).find("Slow") == 0;
      e.data = json::object{{"method", slow ? "GET" : "POST"},
                            {"url", Fill(t.message, n)},
                            {"status", slow ? 200 : 502},
                            {"duration", slow ? 4200 : 310}};
    } else if (std::string_view(t.event_type) == "console") {
      e.data = json::object{{"level", "info"}, {"message", Fill(t.message, n)}};
    } else {
      e.data = json::object{{"name", t.error_name}, {"message", Fill(t.message, n)}};
    }
    r.events.push_back(std::move(e));
  }
  if (std::string_view(t.title) == "SDK self-test") r.metadata.as_object()["kind"] = "self_test";
  return r;
}

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
  SV_ASSIGN_OR_RETURN(Workspace ws,
                      deps.register_account({result.email, result.password, "Demo Admin", result.org_name}));
  result.api_key = ws.api_key;
  result.dsn = ws.dsn;
  SV_RETURN_IF_ERROR(deps.db->Write(
      [&](ports::Tx& tx) { return deps.users->MarkEmailVerified(tx, ws.user.id, deps.Now()); }));

  capture::ReportSource source;
  source.org_id = ws.org.id;
  source.project_id = ws.project.id;
  source.project_name = ws.project.name;
  source.plan = ws.org.plan;

  int total_weight = 0;
  for (const Template& t : kTemplates) total_weight += t.weight;
  std::set<std::string> bugs;
  std::string regress_bug;
  const Template* regress_template = nullptr;
  auto send = [&](const Template& t, int n) -> Status {
    source.client_ip = "203.0.113." + std::to_string(1 + n % 200);
    SV_ASSIGN_OR_RETURN(capture::IngestResult r, deps.ingest(source, MakeReport(t, n, deps.Now())));
    bugs.insert(r.bug_id);
    ++result.reports;
    if (!regress_template && &t == &kTemplates[2]) {
      regress_template = &t;
      regress_bug = r.bug_id;
    }
    return Status::Ok();
  };
  for (int n = 0; n < 320; ++n) {
    int pick = (n * 7919) % total_weight;
    for (const Template& t : kTemplates) {
      if (pick < t.weight) {
        SV_RETURN_IF_ERROR(send(t, n));
        break;
      }
      pick -= t.weight;
    }
  }
  // One bug is fixed in 3.2.0 ... and comes back: a regression.
  if (regress_template) {
    SV_RETURN_IF_ERROR(deps.db->Write([&](ports::Tx& tx) -> Status {
      SV_ASSIGN_OR_RETURN(auto old,
                          deps.statuses->SetStatus(tx, ws.org.id, regress_bug, "resolved", deps.Now()));
      if (!old) return NotFound("demo bug vanished");
      return deps.capture_bugs->AddStatusHistory(tx, deps.ids->NewId(), regress_bug, ws.org.id, *old,
                                                 "resolved", "Fixed in 3.2.0", ws.user.id, deps.Now());
    }));
    SV_RETURN_IF_ERROR(send(*regress_template, 9001));
  }
  result.bugs = static_cast<int>(bugs.size());
  result.created = true;
  return result;
}

}  // namespace service::app
