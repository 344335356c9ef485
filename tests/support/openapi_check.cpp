#include "support/openapi_check.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>
#include <set>

#include "areas/openapi/api/openapi_document.h"
#include "service_internal.h"

namespace service::testing {

namespace json = boost::json;

namespace {

const json::value* Resolve(const json::value& root, std::string_view ref) {
  if (ref.substr(0, 2) != "#/") return nullptr;
  const json::value* at = &root;
  size_t i = 2;
  while (i <= ref.size()) {
    size_t j = ref.find('/', i);
    if (j == std::string_view::npos) j = ref.size();
    if (!at->is_object()) return nullptr;
    at = at->as_object().if_contains(ref.substr(i, j - i));
    if (!at) return nullptr;
    i = j + 1;
  }
  return at;
}

bool HasType(const json::value& v, std::string_view type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_bool();
  if (type == "string") return v.is_string();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "number") return v.is_number();
  if (type == "integer") {
    if (v.is_int64() || v.is_uint64()) return true;
    return v.is_double() && v.as_double() == static_cast<double>(static_cast<int64_t>(v.as_double()));
  }
  return false;
}

std::string Short(const json::value& v) {
  std::string s = json::serialize(v);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

void Validate(const json::value& root, const json::value& schema, const json::value& v, const std::string& at,
              std::vector<std::string>& out, int depth) {
  if (depth > 64) {
    out.push_back(at + ": schema nesting too deep");
    return;
  }
  if (schema.is_bool()) {
    if (!schema.as_bool()) out.push_back(at + ": no value is allowed here");
    return;
  }
  if (!schema.is_object()) return;
  const json::object& s = schema.as_object();
  if (const json::value* ref = s.if_contains("$ref")) {
    const json::value* target = ref->is_string() ? Resolve(root, ref->as_string()) : nullptr;
    if (!target) {
      out.push_back(at + ": unresolved $ref " + Short(*ref));
      return;
    }
    Validate(root, *target, v, at, out, depth + 1);
  }
  if (const json::value* type = s.if_contains("type")) {
    bool ok = false;
    if (type->is_string()) {
      ok = HasType(v, type->as_string());
    } else if (type->is_array()) {
      for (const json::value& t : type->as_array())
        if (t.is_string() && HasType(v, t.as_string())) ok = true;
    }
    if (!ok) {
      out.push_back(at + ": " + Short(v) + " is not of type " + json::serialize(*type));
      return;  // the other keywords would only repeat it
    }
  }
  if (const json::value* c = s.if_contains("const"))
    if (*c != v) out.push_back(at + ": " + Short(v) + " is not " + Short(*c));
  if (const json::value* e = s.if_contains("enum")) {
    bool found = false;
    for (const json::value& x : e->as_array())
      if (x == v) found = true;
    if (!found) out.push_back(at + ": " + Short(v) + " is not one of " + Short(*e));
  }
  if (const json::value* p = s.if_contains("pattern"); p && v.is_string()) {
    if (!std::regex_search(std::string(v.as_string()), std::regex(std::string(p->as_string()))))
      out.push_back(at + ": " + Short(v) + " does not match " + std::string(p->as_string()));
  }
  if (v.is_object()) {
    const json::object& o = v.as_object();
    if (const json::value* req = s.if_contains("required"))
      for (const json::value& name : req->as_array())
        if (!o.contains(name.as_string()))
          out.push_back(at + ": required member \"" + std::string(name.as_string()) + "\" missing");
    const json::object* props = s.contains("properties") ? &s.at("properties").as_object() : nullptr;
    const json::value* additional = s.if_contains("additionalProperties");
    for (const auto& kv : o) {
      const std::string child = at + "." + std::string(kv.key());
      if (props && props->contains(kv.key())) {
        Validate(root, props->at(kv.key()), kv.value(), child, out, depth + 1);
      } else if (additional) {
        if (additional->is_bool() && !additional->as_bool())
          out.push_back(at + ": member \"" + std::string(kv.key()) + "\" is not in the schema");
        else
          Validate(root, *additional, kv.value(), child, out, depth + 1);
      }
    }
  }
  if (v.is_array()) {
    if (const json::value* items = s.if_contains("items")) {
      const json::array& a = v.as_array();
      for (size_t i = 0; i < a.size(); ++i)
        Validate(root, *items, a[i], at + "[" + std::to_string(i) + "]", out, depth + 1);
    }
  }
  if (const json::value* all = s.if_contains("allOf"))
    for (const json::value& sub : all->as_array()) Validate(root, sub, v, at, out, depth + 1);
  auto matches = [&](const json::value& sub) {
    std::vector<std::string> ignored;
    Validate(root, sub, v, at, ignored, depth + 1);
    return ignored.empty();
  };
  if (const json::value* any = s.if_contains("anyOf")) {
    bool ok = false;
    for (const json::value& sub : any->as_array()) ok = ok || matches(sub);
    if (!ok) out.push_back(at + ": " + Short(v) + " matches none of anyOf");
  }
  if (const json::value* one = s.if_contains("oneOf")) {
    int n = 0;
    for (const json::value& sub : one->as_array()) n += matches(sub) ? 1 : 0;
    if (n != 1)
      out.push_back(at + ": " + Short(v) + " matches " + std::to_string(n) + " of oneOf (1 wanted)");
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

// The process-wide tally of the harness hook, printed on exit.
struct Tally {
  std::mutex mu;
  int64_t validated = 0;
  int64_t requests = 0;  // request bodies validated
  int64_t mismatches = 0;
  std::map<std::string, int64_t> distinct;  // "route status: problem" -> count
  ~Tally() {
    if (validated == 0 && mismatches == 0) return;
    std::fprintf(stderr,
                 "openapi: %lld answers and %lld request bodies validated, %lld mismatches (%zu distinct)\n",
                 static_cast<long long>(validated), static_cast<long long>(requests),
                 static_cast<long long>(mismatches), distinct.size());
    for (const auto& [what, n] : distinct)
      std::fprintf(stderr, "  %lldx %s\n", static_cast<long long>(n), what.c_str());
  }
};

Tally& TheTally() {
  static Tally* tally = new Tally;  // destroyed by the atexit below, after the tests
  static const bool registered = [] {
    std::atexit([] { delete tally; });
    return true;
  }();
  (void)registered;
  return *tally;
}

}  // namespace

std::vector<std::string> ValidateSchema(const json::value& root, const json::value& schema,
                                        const json::value& instance) {
  std::vector<std::string> out;
  Validate(root, schema, instance, "$", out, 0);
  return out;
}

AnswerCheck CheckAnswer(const json::value& document, const std::string& method, const TestResponse& res) {
  AnswerCheck check;
  const size_t space = res.route.find(' ');
  if (method == "HEAD" || method == "OPTIONS" || space == std::string::npos) return check;
  const std::string path = api::openapi::TemplatedPath(res.route.substr(space + 1));
  const json::value* op = nullptr;
  if (const json::value* item = document.at("paths").as_object().if_contains(path))
    op = item->as_object().if_contains(Lower(res.route.substr(0, space)));
  check.checked = true;
  const std::string status = std::to_string(res.status);
  if (!op) {
    check.problems.push_back("no operation " + res.route + " in the document");
    return check;
  }
  const json::object& responses = op->at("responses").as_object();
  const json::value* response = responses.if_contains(status);
  if (!response) response = responses.if_contains(status.substr(0, 1) + "XX");
  if (!response) response = responses.if_contains("default");
  if (!response) {
    check.problems.push_back("status " + status + " is not documented");
    return check;
  }
  if (const json::value* ref = response->as_object().if_contains("$ref"))
    response = Resolve(document, ref->as_string());
  if (!response) {
    check.problems.push_back("unresolved response $ref");
    return check;
  }
  const json::object* content =
      response->as_object().contains("content") ? &response->at("content").as_object() : nullptr;
  const std::string type = res.Header("Content-Type");
  const std::string media = type.substr(0, type.find(';'));
  if (res.body.empty() && (res.status == 204 || !content)) return check;
  if (!content) {
    check.problems.push_back("status " + status + " documents no body, the answer has " +
                             (media.empty() ? std::string("one") : media));
    return check;
  }
  if (content->contains("*/*")) return check;
  const json::value* declared = content->if_contains(media);
  if (!declared) {
    std::string listed;
    for (const auto& kv : *content) listed += (listed.empty() ? "" : ", ") + std::string(kv.key());
    check.problems.push_back("status " + status + " answers " + (media.empty() ? "no Content-Type" : media) +
                             ", the document lists " + listed);
    return check;
  }
  if (media != "application/json") return check;
  if (res.json.is_null() && !res.body.empty() && res.body != "null") {
    check.problems.push_back("status " + status + " body is not JSON");
    return check;
  }
  if (const json::value* schema = declared->as_object().if_contains("schema"))
    for (std::string& p : ValidateSchema(document, *schema, res.json))
      check.problems.push_back(status + " " + p);
  return check;
}

AnswerCheck CheckRequestBody(const json::value& document, const std::string& route, const std::string& body) {
  AnswerCheck check;
  const size_t space = route.find(' ');
  if (space == std::string::npos || body.empty()) return check;
  const std::string path = api::openapi::TemplatedPath(route.substr(space + 1));
  const json::value* op = nullptr;
  if (const json::value* item = document.at("paths").as_object().if_contains(path))
    op = item->as_object().if_contains(Lower(route.substr(0, space)));
  if (!op) return check;  // CheckAnswer reports the missing operation
  const json::value* rb = op->as_object().if_contains("requestBody");
  if (rb && rb->as_object().contains("$ref")) rb = Resolve(document, rb->at("$ref").as_string());
  const json::value* content = rb ? rb->as_object().if_contains("content") : nullptr;
  const json::value* media = content ? content->as_object().if_contains("application/json") : nullptr;
  const json::value* schema = media ? media->as_object().if_contains("schema") : nullptr;
  if (!schema) return check;
  boost::system::error_code ec;
  const json::value instance = json::parse(body, ec);
  if (ec) return check;  // not JSON: the handler's business (it answered 2xx to something else)
  check.checked = true;
  for (std::string& p : ValidateSchema(document, *schema, instance)) check.problems.push_back("request " + p);
  return check;
}

const json::value& OpenApiDocumentOf(Service& s) {
  static std::mutex mu;
  static std::string cached_key;
  static json::value cached;
  const auto routes = internal::PipelineOf(s).router().Routes();
  std::string key;
  for (const api::Route* r : routes) key += r->method + " " + r->pattern + "\n";
  std::lock_guard<std::mutex> lock(mu);
  if (key != cached_key) {
    cached = api::openapi::BuildDocument(routes, api::openapi::CatalogueText(), "test").document;
    cached_key = std::move(key);
  }
  return cached;
}

void CheckAnswerIfEnabled(Service& s, const std::string& method, const TestResponse& res) {
  // On unless SERVICE_TEST_OPENAPI=0 (or empty); "report" only counts.
  static const char* env = std::getenv("SERVICE_TEST_OPENAPI");
  static const std::string_view mode = env == nullptr ? "1" : env;
  if (mode.empty() || mode == "0" || res.route.empty()) return;
  const AnswerCheck check = CheckAnswer(OpenApiDocumentOf(s), method, res);
  if (!check.checked) return;
  Tally& tally = TheTally();
  {
    std::lock_guard<std::mutex> lock(tally.mu);
    ++tally.validated;
    if (!check.problems.empty()) ++tally.mismatches;
    // Array positions dropped: one line per distinct problem.
    static const std::regex kIndex(R"(\[[0-9]+\])");
    for (const std::string& p : check.problems)
      ++tally.distinct[res.route + " " + std::regex_replace(p, kIndex, "[]")];
  }
  // SERVICE_TEST_OPENAPI_DUMP=FILE: each checked JSON answer appended as a line
  // {"route","status","body"} (to derive or review schemas).
  static const char* dump = std::getenv("SERVICE_TEST_OPENAPI_DUMP");
  if (dump != nullptr && *dump != '\0' && !res.json.is_null()) {
    std::lock_guard<std::mutex> lock(tally.mu);
    if (FILE* f = std::fopen(dump, "a")) {
      const std::string line =
          json::serialize(json::object{{"route", res.route}, {"status", res.status}, {"body", res.json}});
      std::fprintf(f, "%s\n", line.c_str());
      std::fclose(f);
    }
  }
  if (mode != "report")
    for (const std::string& p : check.problems) FAIL_CHECK("openapi: " << res.route << " " << p);
}

void CheckRequestIfEnabled(Service& s, const api::Request& req, const TestResponse& res) {
  static const char* env = std::getenv("SERVICE_TEST_OPENAPI");
  static const std::string_view mode = env == nullptr ? "1" : env;
  if (mode.empty() || mode == "0" || res.route.empty() || res.status < 200 || res.status > 299) return;
  if (req.body.empty() || req.headers.Get("Content-Type").rfind("application/json", 0) != 0) return;
  const AnswerCheck check = CheckRequestBody(OpenApiDocumentOf(s), res.route, req.body);
  if (!check.checked) return;
  Tally& tally = TheTally();
  {
    std::lock_guard<std::mutex> lock(tally.mu);
    ++tally.requests;
    if (!check.problems.empty()) ++tally.mismatches;
    static const std::regex kIndex(R"(\[[0-9]+\])");
    for (const std::string& p : check.problems)
      ++tally.distinct[res.route + " " + std::regex_replace(p, kIndex, "[]")];
  }
  if (mode != "report")
    for (const std::string& p : check.problems) FAIL_CHECK("openapi: " << res.route << " " << p);
}

}  // namespace service::testing
