#include "support/stub_http_server.h"

#include <httplib.h>

#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace service::testing {

namespace {

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

std::string RecordedRequest::Header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (SameName(k, name)) return v;
  return {};
}

struct StubHttpServer::Impl {
  httplib::Server server;
  std::thread thread;

  mutable std::mutex mu;
  std::vector<RecordedRequest> requests;
  std::map<std::string, CannedResponse> defaults;
  std::map<std::string, std::deque<CannedResponse>> queued;
  std::map<std::string, StubHandler> handlers;

  void Serve(const httplib::Request& req, httplib::Response& res) {
    RecordedRequest rec;
    rec.method = req.method;
    rec.path = req.path;
    const size_t q = req.target.find('?');
    if (q != std::string::npos) rec.query = req.target.substr(q + 1);
    for (const auto& [k, v] : req.headers) rec.headers.emplace_back(k, v);
    rec.body = req.body;

    CannedResponse answer;
    StubHandler handler;
    bool found = false;
    {
      std::lock_guard<std::mutex> lock(mu);
      requests.push_back(rec);
      if (auto h = handlers.find(rec.path); h != handlers.end()) {
        handler = h->second;
      } else if (auto it = queued.find(rec.path); it != queued.end() && !it->second.empty()) {
        answer = std::move(it->second.front());
        it->second.pop_front();
        found = true;
      } else if (auto d = defaults.find(rec.path); d != defaults.end()) {
        answer = d->second;
        found = true;
      }
    }
    if (handler) {
      answer = handler(rec);
    } else if (!found) {
      answer.status = 404;
      answer.body = R"({"error":"no canned response"})";
    }
    if (answer.delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(answer.delay_ms));
    res.status = answer.status;
    for (const auto& [k, v] : answer.headers) res.set_header(k, v);
    res.set_content(answer.body, answer.content_type.c_str());
  }
};

StubHttpServer::StubHttpServer() : impl_(std::make_unique<Impl>()) {
  auto serve = [this](const httplib::Request& req, httplib::Response& res) { impl_->Serve(req, res); };
  impl_->server.Get(".*", serve);
  impl_->server.Post(".*", serve);
  port_ = impl_->server.bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("StubHttpServer: cannot bind 127.0.0.1");
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  for (int i = 0; i < 500 && !impl_->server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

StubHttpServer::~StubHttpServer() {
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

std::string StubHttpServer::url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
}

void StubHttpServer::SetResponse(const std::string& path, CannedResponse response) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->defaults[path] = std::move(response);
}

void StubHttpServer::QueueResponse(const std::string& path, CannedResponse response) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->queued[path].push_back(std::move(response));
}

void StubHttpServer::SetHandler(const std::string& path, StubHandler handler) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->handlers[path] = std::move(handler);
}

std::vector<RecordedRequest> StubHttpServer::requests() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->requests;
}

size_t StubHttpServer::request_count() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->requests.size();
}

}  // namespace service::testing
