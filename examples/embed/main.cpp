// embed_example: opens a Service in-process and asks it for its health.
//
//   embed_example [DATABASE_URL]     default: sqlite::memory:
//
// Builds an api::Request by hand, calls Service::Handle and prints the
// response. No socket, no HTTP server: an embedder's own server would convert
// its request type into api::Request the same way. Exits 0 only on 200.
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "service/http.h"
#include "service/options.h"
#include "service/service.h"

int main(int argc, char** argv) {
  service::Options options;
  options.database_url = argc > 1 ? argv[1] : "sqlite::memory:";

  service::Result<std::unique_ptr<service::Service>> opened = service::Service::Open(std::move(options));
  if (!opened.ok()) {
    std::fprintf(stderr, "embed_example: cannot open the service: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  std::unique_ptr<service::Service> svc = std::move(opened).value();

  service::api::Request request;
  request.method = "GET";
  request.path = "/v1/health";
  request.headers.Add("Accept", "application/json");
  request.remote_addr = "127.0.0.1";

  service::api::Response response = svc->Handle(request);
  std::printf("service %s\n", service::Version());
  std::printf("GET /v1/health -> %d\n%s\n", response.status, response.body.c_str());

  svc->Shutdown();
  return response.status == 200 ? 0 : 1;
}
