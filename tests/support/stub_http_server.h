// StubHttpServer: a small real HTTP server for tests (cpp-httplib), bound to
// 127.0.0.1 on a free port. It records every request and answers GET and POST
// on any path from canned responses: a handler for the path if one is set,
// else the next queued one-shot response for the path, else the path's
// default response, else 404 {"error":"no canned response"}.
//
// Thread-safety: all public methods are safe from any thread; requests are
// served on the server's own threads.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace service::testing {

struct RecordedRequest {
  std::string method;
  std::string path;  // without the query
  std::string query;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // First value of `name` (case-insensitive), or "".
  std::string Header(std::string_view name) const;
};

struct CannedResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  int delay_ms = 0;  // sleep before answering (timeout tests)
};

using StubHandler = std::function<CannedResponse(const RecordedRequest&)>;

class StubHttpServer {
 public:
  StubHttpServer();   // listening when it returns
  ~StubHttpServer();  // stops and joins the server thread
  StubHttpServer(const StubHttpServer&) = delete;
  StubHttpServer& operator=(const StubHttpServer&) = delete;

  int port() const { return port_; }
  // "http://127.0.0.1:PORT" + path.
  std::string url(std::string_view path = "") const;

  void SetResponse(const std::string& path, CannedResponse response);
  void QueueResponse(const std::string& path, CannedResponse response);
  void SetHandler(const std::string& path, StubHandler handler);

  std::vector<RecordedRequest> requests() const;
  size_t request_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace service::testing
