#include "areas/openapi/api/openapi_document.h"

#include <algorithm>
#include <set>

#include "domain/roles.h"

namespace service::api::openapi {

namespace json = boost::json;

namespace {

std::string Key(std::string_view method, std::string_view pattern) {
  return std::string(method) + " " + std::string(pattern);
}

std::vector<std::string> PathParameters(std::string_view pattern) {
  std::vector<std::string> out;
  size_t i = 0;
  while ((i = pattern.find("/:", i)) != std::string_view::npos) {
    const size_t start = i + 2;
    size_t end = pattern.find('/', start);
    if (end == std::string_view::npos) end = pattern.size();
    out.emplace_back(pattern.substr(start, end - start));
    i = end;
  }
  return out;
}

// "get_v1_bugs_id": unique per method and pattern.
std::string OperationId(std::string_view method, std::string_view pattern) {
  std::string out;
  for (char c : method) out.push_back(static_cast<char>(c - 'A' + 'a'));
  bool sep = true;
  for (char c : pattern) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!word) {
      sep = true;
      continue;
    }
    if (sep) out.push_back('_');
    sep = false;
    out.push_back(c);
  }
  return out;
}

json::object Ref(std::string_view kind, std::string_view name) {
  return json::object{{"$ref", "#/components/" + std::string(kind) + "/" + std::string(name)}};
}

// The security requirement of an AuthMode (or of the catalogue's "security"
// override, for routes that authenticate inside their handler).
json::array Security(std::string_view mode) {
  auto req = [](std::initializer_list<const char*> schemes) {
    json::object o;
    for (const char* s : schemes) o[s] = json::array();
    return json::value(std::move(o));
  };
  if (mode == "captureKey") return json::array{req({"captureKey"})};
  if (mode == "jwt") return json::array{req({"bearerJwt"})};
  if (mode == "jwtOrg") return json::array{req({"bearerJwt", "organization"})};
  if (mode == "superadmin") return json::array{req({"superadmin"})};
  if (mode == "agentToken") return json::array{req({"agentToken"})};
  if (mode == "jwtOrgOrAgent") return json::array{req({"bearerJwt", "organization"}), req({"agentToken"})};
  if (mode == "jwtOrAgent") return json::array{req({"bearerJwt"}), req({"agentToken"})};
  // X-Sentry-Auth, ?sentry_key=, or no credential at all: the envelope's
  // own header carries the DSN.
  if (mode == "sentry") return json::array{req({"sentryKey"}), req({"sentryKeyQuery"}), json::object()};
  return json::array();  // public
}

std::string_view ModeName(AuthMode mode) {
  switch (mode) {
    case AuthMode::kNone:
      return "none";
    case AuthMode::kCaptureKey:
      return "captureKey";
    case AuthMode::kJwt:
      return "jwt";
    case AuthMode::kJwtOrg:
      return "jwtOrg";
    case AuthMode::kSuperadmin:
      return "superadmin";
    case AuthMode::kAgentToken:
      return "agentToken";
    case AuthMode::kJwtOrgOrAgent:
      return "jwtOrgOrAgent";
  }
  return "none";
}

std::string_view Str(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string_view(v->as_string()) : std::string_view();
}

// The media types of a body or response named by the catalogue: a schema
// name (application/json) or one of "#binary", "#anybinary" (any media type), "#sse", "#text", "#csv"
// (or "#csv:Name", whose JSON form is the schema Name),
// "#empty", "#json" (any JSON).
json::object Content(std::string_view what, std::set<std::string>& refs) {
  if (what == "#empty") return {};
  if (what == "#binary")
    return json::object{
        {"application/octet-stream",
         json::object{{"schema",
                       json::object{{"type", "string"}, {"contentMediaType", "application/octet-stream"}}}}}};
  if (what == "#anybinary") return json::object{{"*/*", json::object{{"schema", json::object()}}}};
  if (what == "#sse")
    return json::object{{"text/event-stream", json::object{{"schema", json::object{{"type", "string"}}}}}};
  if (what == "#text")
    return json::object{{"text/plain", json::object{{"schema", json::object{{"type", "string"}}}}}};
  // "#csv:Name": CSV, or JSON (?format=json) of the schema Name.
  if (what.substr(0, 4) == "#csv") {
    const std::string json_schema(what.size() > 5 ? what.substr(5) : std::string_view("OpenObject"));
    refs.emplace(json_schema);
    return json::object{{"text/csv", json::object{{"schema", json::object{{"type", "string"}}}}},
                        {"application/json", json::object{{"schema", Ref("schemas", json_schema)}}}};
  }
  if (what == "#multipart")
    return json::object{{"multipart/form-data", json::object{{"schema", json::object{{"type", "object"}}}}}};
  if (what == "#json") return json::object{{"application/json", json::object{{"schema", json::object()}}}};
  refs.emplace(what);
  return json::object{{"application/json", json::object{{"schema", Ref("schemas", what)}}}};
}

const char* Reason(std::string_view status) {
  static const std::pair<const char*, const char*> kReasons[] = {
      {"200", "OK"},
      {"201", "Created"},
      {"202", "Accepted"},
      {"204", "No content"},
      {"400", "Validation failed or malformed request"},
      {"401", "Missing or invalid credentials"},
      {"402", "Plan limit reached"},
      {"403", "Not allowed (membership, role capability or scope)"},
      {"404", "Not found"},
      {"405", "Method not allowed"},
      {"409", "Conflict"},
      {"410", "Gone"},
      {"413", "Payload too large"},
      {"415", "Unsupported media type"},
      {"422", "Unprocessable"},
      {"429", "Too many requests"},
      {"500", "Internal server error"},
      {"501", "Not implemented"},
      {"502", "Upstream failure"},
      {"503", "Unavailable"},
  };
  for (const auto& [code, text] : kReasons)
    if (status == code) return text;
  return "Response";
}

}  // namespace

std::string TemplatedPath(std::string_view pattern) {
  std::string out;
  size_t i = 0;
  while (i < pattern.size()) {
    if (pattern[i] == ':' && i > 0 && pattern[i - 1] == '/') {
      size_t end = pattern.find('/', i);
      if (end == std::string_view::npos) end = pattern.size();
      out += "{" + std::string(pattern.substr(i + 1, end - i - 1)) + "}";
      i = end;
    } else {
      out.push_back(pattern[i++]);
    }
  }
  return out;
}

Document BuildDocument(const std::vector<const Route*>& routes, std::string_view catalogue_text,
                       std::string_view version) {
  Document d;
  const json::object catalogue = json::parse(catalogue_text).as_object();
  const json::object& entries = catalogue.at("routes").as_object();
  const json::object& schemas = catalogue.at("schemas").as_object();
  std::set<std::string> refs;
  std::set<std::string> seen;

  // Sorted by path, then method, for a stable document.
  std::vector<const Route*> sorted = routes;
  std::sort(sorted.begin(), sorted.end(), [](const Route* a, const Route* b) {
    return a->pattern != b->pattern ? a->pattern < b->pattern : a->method < b->method;
  });

  json::object paths;
  for (const Route* r : sorted) {
    const std::string key = Key(r->method, r->pattern);
    const json::value* found = entries.if_contains(key);
    if (!found || !found->is_object()) {
      d.undocumented.push_back(key);
      continue;
    }
    seen.insert(key);
    const json::object& e = found->as_object();
    json::object op;
    op["operationId"] = OperationId(r->method, r->pattern);
    op["summary"] = Str(e, "summary");
    if (const json::value* desc = e.if_contains("description")) op["description"] = *desc;
    op["tags"] = json::array{json::value(Str(e, "tag"))};

    json::array params;
    for (const std::string& name : PathParameters(r->pattern)) {
      params.push_back(json::object{
          {"name", name}, {"in", "path"}, {"required", true}, {"schema", json::object{{"type", "string"}}}});
    }
    if (const json::value* q = e.if_contains("query")) {
      for (const json::value& p : q->as_array()) {
        json::object param = p.as_object();
        param["in"] = "query";
        if (!param.contains("schema")) param["schema"] = json::object{{"type", "string"}};
        params.push_back(std::move(param));
      }
    }
    if (!params.empty()) op["parameters"] = std::move(params);

    const std::string_view request = Str(e, "request");
    if (!request.empty()) {
      op["requestBody"] =
          json::object{{"required", !e.contains("requestOptional")}, {"content", Content(request, refs)}};
    }

    // Security: the route's AuthMode, unless the handler authenticates
    // itself (catalogue "security").
    std::string_view mode = Str(e, "security");
    if (mode.empty()) mode = ModeName(r->auth);
    op["security"] = Security(mode);
    op["x-service-auth"] = mode;
    if (r->capability) op["x-service-capability"] = domain::CapabilityName(*r->capability);

    json::object responses;
    for (const auto& kv : e.at("responses").as_object()) {
      const std::string_view what = kv.value().as_string();
      json::object resp{{"description", Reason(kv.key())}};
      json::object content = Content(what, refs);
      if (!content.empty()) resp["content"] = std::move(content);
      responses[kv.key()] = std::move(resp);
    }
    // The error envelope for every failure the pipeline and handler can give.
    // Sentry-protocol routes answer their clients' {detail} shape instead
    // (catalogue "errorSchema").
    const std::string_view error_schema = Str(e, "errorSchema");
    if (!error_schema.empty()) refs.emplace(error_schema);
    auto error = [&](const char* status) {
      if (responses.contains(status)) return;
      if (error_schema.empty()) {
        responses[status] = Ref("responses", "Error");
      } else {
        responses[status] = json::object{
            {"description", Reason(status)},
            {"content",
             json::object{{"application/json", json::object{{"schema", Ref("schemas", error_schema)}}}}}};
      }
    };
    if (mode != "none") error("401");
    if (mode != "none" && mode != "captureKey" && mode != "jwt") error("403");
    if (r->capability) error("403");
    if (!request.empty()) {
      error("400");
      error("413");
    }
    if (!PathParameters(r->pattern).empty()) error("404");
    if (const json::value* extra = e.if_contains("errors"))
      for (const json::value& s : extra->as_array()) error(s.as_string().c_str());
    if (r->rate != RateClass::kNone) error("429");
    error("500");
    error("default");
    op["responses"] = std::move(responses);

    std::string method;
    for (char c : r->method) method.push_back(static_cast<char>(c - 'A' + 'a'));
    // Aliases: the same operation under another spelling the router takes
    // too (Sentry clients post to ".../envelope/", with the slash).
    if (const json::value* aliases = e.if_contains("aliases")) {
      for (const json::value& a : aliases->as_array()) {
        json::object alias = op;
        alias["operationId"] = OperationId(r->method, r->pattern) + "_slash";
        const std::string alias_path = TemplatedPath(a.as_string());
        if (!paths.contains(alias_path)) paths[alias_path] = json::object();
        paths[alias_path].as_object()[method] = std::move(alias);
      }
    }
    const std::string path = TemplatedPath(r->pattern);
    if (!paths.contains(path)) paths[path] = json::object();
    paths[path].as_object()[method] = std::move(op);
  }
  for (const auto& kv : entries) {
    const std::string key(kv.key());
    if (seen.count(key) || (kv.value().is_object() && kv.value().as_object().contains("optional"))) continue;
    d.unregistered.push_back(key);
  }
  for (const std::string& name : refs)
    if (!schemas.contains(name)) d.missing_schemas.push_back(name);

  json::object info{
      {"title", "service HTTP API"},
      {"version", version},
      {"summary", "Capture, triage, integrations, agents and operations (Specifications 1 and 2)."},
      {"description", catalogue.at("description")},
      {"license", json::object{{"name", "Proprietary"}, {"identifier", "LicenseRef-Proprietary"}}}};
  json::object components;
  components["schemas"] = schemas;
  components["responses"] = json::object{
      {"Error",
       json::object{{"description", "The error envelope"},
                    {"content", json::object{{"application/json",
                                              json::object{{"schema", Ref("schemas", "Error")}}}}}}}};
  components["securitySchemes"] = catalogue.at("securitySchemes");
  d.document = json::object{{"openapi", "3.1.0"},
                            {"info", std::move(info)},
                            {"jsonSchemaDialect", "https://json-schema.org/draft/2020-12/schema"},
                            {"servers", json::array{json::object{{"url", "/"}}}},
                            {"tags", catalogue.at("tags")},
                            {"paths", std::move(paths)},
                            {"components", std::move(components)}};
  return d;
}

}  // namespace service::api::openapi
