#include "api/router.h"

#include <algorithm>

#include "util/strings.h"

namespace service::api {

namespace {
std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '/') {
      ++i;
      continue;
    }
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    out.push_back(path.substr(i, j - i));
    i = j;
  }
  return out;
}
}  // namespace

std::string PathParams::Get(std::string_view name) const {
  for (const auto& [k, v] : items)
    if (k == name) return v;
  return {};
}

void Router::Add(Route route) {
  Compiled c;
  for (auto seg : Segments(route.pattern)) c.segments.emplace_back(seg);
  // Literal segments earlier in the path weigh more than later ones.
  for (size_t i = 0; i < c.segments.size(); ++i)
    if (c.segments[i][0] != ':') c.literal_score |= 1 << (30 - std::min<size_t>(i, 30));
  c.route = std::move(route);
  c.metrics = std::make_shared<RouteMetrics>();
  routes_.push_back(std::move(c));
  std::stable_sort(routes_.begin(), routes_.end(),
                   [](const Compiled& a, const Compiled& b) { return a.literal_score > b.literal_score; });
}

Router::Match Router::Find(std::string_view method, std::string_view path) const {
  Match m;
  const auto segs = Segments(path);
  for (const Compiled& c : routes_) {
    if (c.segments.size() != segs.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < segs.size() && ok; ++i)
      ok = c.segments[i][0] == ':' ? !segs[i].empty() : c.segments[i] == segs[i];
    if (!ok) continue;
    if (c.route.method != method) {
      m.path_exists = true;
      continue;
    }
    m.route = &c.route;
    m.metrics = c.metrics.get();
    for (size_t i = 0; i < segs.size(); ++i)
      if (c.segments[i][0] == ':')
        m.params.items.emplace_back(c.segments[i].substr(1), util::UrlDecode(segs[i], false));
    return m;
  }
  return m;
}

std::vector<std::pair<const Route*, const RouteMetrics*>> Router::MeteredRoutes() const {
  std::vector<std::pair<const Route*, const RouteMetrics*>> out;
  out.reserve(routes_.size());
  for (const Compiled& c : routes_) out.emplace_back(&c.route, c.metrics.get());
  return out;
}

bool Router::SetBodyPolicy(std::string_view method, std::string_view pattern, BodyPolicy policy) {
  for (Compiled& c : routes_) {
    if (c.route.method == method && c.route.pattern == pattern) {
      c.route.body_policy = std::move(policy);
      return true;
    }
  }
  return false;
}

BodyPolicy Router::BodyPolicyFor(std::string_view method, std::string_view path) const {
  const Match m = Find(method, path);
  if (m.route && m.route->body_policy) return *m.route->body_policy;
  return BodyPolicy{};
}

std::vector<std::string> Router::MethodsFor(std::string_view path) const {
  std::vector<std::string> out;
  const auto segs = Segments(path);
  for (const Compiled& c : routes_) {
    if (c.segments.size() != segs.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < segs.size() && ok; ++i) ok = c.segments[i][0] == ':' || c.segments[i] == segs[i];
    if (ok && std::find(out.begin(), out.end(), c.route.method) == out.end()) out.push_back(c.route.method);
  }
  return out;
}

std::vector<const Route*> Router::Routes() const {
  std::vector<const Route*> out;
  out.reserve(routes_.size());
  for (const Compiled& c : routes_) out.push_back(&c.route);
  return out;
}

}  // namespace service::api
