#include "areas/projects/domain/dsn.h"

namespace service::domain::projects {

std::string BuildDsn(std::string_view public_url, std::string_view key, int64_t project_number) {
  std::string_view scheme = "http";
  std::string_view rest = public_url;
  if (const size_t sep = public_url.find("://"); sep != std::string_view::npos) {
    scheme = public_url.substr(0, sep);
    rest = public_url.substr(sep + 3);
  }
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  // Credentials in the public URL (user:pass@) never reach a DSN.
  const size_t at = rest.find('@');
  const size_t slash = rest.find('/');
  if (at != std::string_view::npos && (slash == std::string_view::npos || at < slash))
    rest.remove_prefix(at + 1);
  std::string out;
  out.reserve(scheme.size() + key.size() + rest.size() + 24);
  out.append(scheme).append("://").append(key).append("@").append(rest).append("/");
  out.append(std::to_string(project_number));
  return out;
}

}  // namespace service::domain::projects
