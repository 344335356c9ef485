#include "adapters/curl_easy.h"

#include <mutex>

namespace service::adapters::curl {
namespace {

// The options every handle of this library sets.
void Configure(CURL* c, const EasyOptions& options) {
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, options.protocols);
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, options.protocols);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_PROXY, "");  // ignore http_proxy and friends
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, options.timeout_ms);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, options.connect_timeout_ms);
}

}  // namespace

Result<Easy> NewEasy(const EasyOptions& options) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  Easy handle(curl_easy_init());
  if (!handle) return Internal("curl_easy_init failed");
  Configure(handle.get(), options);
  return handle;
}

void Reuse(CURL* c, const EasyOptions& options) {
  curl_easy_reset(c);
  Configure(c, options);
}

bool Append(List& list, const std::string& line) {
  // curl_slist_append returns the head, or null leaving the list intact.
  curl_slist* head = curl_slist_append(list.get(), line.c_str());
  if (head == nullptr) return false;
  if (!list) list.reset(head);
  return true;
}

}  // namespace service::adapters::curl
