// The web console (issue "A web console"): static files embedded in the
// library at build time (cmake/EmbedConsole.cmake from console/), served by
// the pipeline for GET requests outside /v1/ and /api/ that no
// route takes. A file's own path answers with it; any other path answers
// with index.html (the console routes on the client). Hashed file names
// are cached for a year, index.html never; gzip when the client accepts it
// (compressed once, at start); a strict Content-Security-Policy (no inline
// script or style, nothing from another origin), no sniffing, no referrer,
// no framing.
//
// Built only with the CMake option SERVICE_CONSOLE (default ON); an
// embedder who builds without it serves its own pages or none.
// Thread-safety: immutable after construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/http.h"

namespace service::api {

struct ConsoleAsset {
  std::string_view path;  // "/index.html", "/app.3f2a9c01be77.js"
  std::string_view content_type;
  bool immutable = false;  // a hashed name: its content never changes
  std::string_view data;
};

// The files of console/ (generated; absent when SERVICE_CONSOLE is OFF).
const std::vector<ConsoleAsset>& EmbeddedConsoleAssets();

class Console {
 public:
  explicit Console(const std::vector<ConsoleAsset>& assets);

  // The answer to `req` when it is the console's (GET outside /v1/ and
  // /api/), else nullopt.
  std::optional<Response> Serve(const Request& req) const;

 private:
  struct File {
    const ConsoleAsset* asset;
    std::string gzip;  // "" when compressing did not pay
  };
  std::vector<File> files_;
  const File* index_ = nullptr;
};

}  // namespace service::api
