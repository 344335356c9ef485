// The libcurl setup shared by the SMTP mailer and the outbound HTTP client:
// process-wide initialisation, owning handles, and the options every request
// of this library sets (no signals, an explicit protocol list, timeouts,
// proxies from the environment ignored, redirects never followed).
#ifndef SERVICE_ADAPTERS_CURL_EASY_H_
#define SERVICE_ADAPTERS_CURL_EASY_H_

#include <curl/curl.h>

#include <memory>
#include <string>

#include "service/status.h"

namespace service::adapters::curl {

struct EasyDeleter {
  void operator()(CURL* h) const { curl_easy_cleanup(h); }
};
struct ListDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

using Easy = std::unique_ptr<CURL, EasyDeleter>;
using List = std::unique_ptr<curl_slist, ListDeleter>;

struct EasyOptions {
  const char* protocols = "https";  // CURLOPT_PROTOCOLS_STR, e.g. "smtp,smtps"
  long timeout_ms = 10000;
  long connect_timeout_ms = 10000;
};

// A new handle with `options` applied, after curl_global_init has run once
// for the process. Fails only when libcurl cannot allocate a handle.
Result<Easy> NewEasy(const EasyOptions& options);

// Clears every option a previous request set on `c` (curl_easy_reset) and
// applies `options`, keeping its open connections and DNS cache: the next
// request to the same host and port may reuse a kept-alive connection.
void Reuse(CURL* c, const EasyOptions& options);

// Appends `line` to `list`; false when libcurl could not allocate.
bool Append(List& list, const std::string& line);

}  // namespace service::adapters::curl

#endif  // SERVICE_ADAPTERS_CURL_EASY_H_
