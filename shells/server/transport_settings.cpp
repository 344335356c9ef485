#include "transport_settings.h"

#include <string>

namespace service::shell {
namespace {

constexpr std::string_view kSpace = " \t\n\v\f\r";

std::string_view Trimmed(std::string_view value) {
  const size_t first = value.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return value.substr(first, value.find_last_not_of(kSpace) - first + 1);
}

Status ApplyTransport(TransportOptions& options, std::string_view value) {
  const std::string_view trimmed = Trimmed(value);
  if (trimmed.empty() || trimmed == "events") {
    options.event_loop = true;
  } else if (trimmed == "threads") {
    options.event_loop = false;
  } else {
    return InvalidArgument("SERVICE_TRANSPORT must be events or threads");
  }
  return Status::Ok();
}

// A whole number (ParseSettingCount) or seconds (ParseSettingSeconds) in a
// range, into a field of the event loop's settings; an empty value restores
// the default.
#define SV_TRANSPORT_SETTING(Fn, Parse, VAR, field, min, max, fallback)         \
  Status Fn(TransportOptions& options, std::string_view value) {                \
    if (Trimmed(value).empty()) {                                               \
      options.events.field = fallback;                                          \
      return Status::Ok();                                                      \
    }                                                                           \
    SV_ASSIGN_OR_RETURN(const int64_t parsed, Parse(VAR, value, min, max));     \
    options.events.field = static_cast<decltype(options.events.field)>(parsed); \
    return Status::Ok();                                                        \
  }

SV_TRANSPORT_SETTING(ApplyWorkerThreads, ParseSettingCount, "SERVICE_WORKER_THREADS", worker_threads, 1, 4096,
                     0)
SV_TRANSPORT_SETTING(ApplyHeaderTimeout, ParseSettingSeconds, "SERVICE_HEADER_TIMEOUT", header_timeout_ms,
                     100, 600'000, 10'000)
SV_TRANSPORT_SETTING(ApplyMinBodyRate, ParseSettingCount, "SERVICE_MIN_BODY_RATE", min_body_rate, 0,
                     1'000'000'000, 1024)
SV_TRANSPORT_SETTING(ApplyKeepAliveTimeout, ParseSettingSeconds, "SERVICE_KEEP_ALIVE_TIMEOUT",
                     keep_alive_timeout_ms, 100, 3'600'000, 30'000)
SV_TRANSPORT_SETTING(ApplyWriteTimeout, ParseSettingSeconds, "SERVICE_WRITE_TIMEOUT", write_timeout_ms, 100,
                     600'000, 10'000)
SV_TRANSPORT_SETTING(ApplyMaxHeaderSize, ParseSettingCount, "SERVICE_MAX_HEADER_SIZE", max_header_bytes, 1024,
                     1024 * 1024, 16 * 1024)
SV_TRANSPORT_SETTING(ApplyMaxConnections, ParseSettingCount, "SERVICE_MAX_CONNECTIONS", max_connections, 0,
                     10'000'000, 10'000)
SV_TRANSPORT_SETTING(ApplyMaxConnectionsPerClient, ParseSettingCount, "SERVICE_MAX_CONNECTIONS_PER_CLIENT",
                     max_connections_per_client, 0, 10'000'000, 256)

#undef SV_TRANSPORT_SETTING

Status ApplyMetricsListen(TransportOptions& options, std::string_view value) {
  const std::string trimmed(Trimmed(value));
  if (!trimmed.empty()) {
    std::string host;
    int port = 0;
    if (const Status s = ParseListen(trimmed, &host, &port); !s.ok()) {
      return InvalidArgument("SERVICE_METRICS_LISTEN must be HOST:PORT, e.g. 127.0.0.1:9464");
    }
  }
  options.metrics_listen = trimmed;
  return Status::Ok();
}

}  // namespace

const std::vector<TransportSetting>& TransportSettings() {
  static const std::vector<TransportSetting> kSettings = {
      {"SERVICE_TRANSPORT", "", "",
       "events (connections on an event loop; a thread only while a request runs) or threads (the "
       "previous thread per connection, kept as a fallback and as the benchmark's baseline)",
       "events", ApplyTransport},
      {"SERVICE_WORKER_THREADS", "", "", "threads that run requests (events transport)",
       "max(64, 16 x hardware threads)", ApplyWorkerThreads},
      {"SERVICE_HEADER_TIMEOUT", "", "",
       "seconds (decimals allowed) for a request line and its headers to arrive, from the first byte; "
       "beyond it 408 and close",
       "10", ApplyHeaderTimeout},
      {"SERVICE_MIN_BODY_RATE", "", "",
       "bytes per second a request body must average after an allowance of SERVICE_HEADER_TIMEOUT; "
       "slower: 408 and close; 0: no rate",
       "1024", ApplyMinBodyRate},
      {"SERVICE_KEEP_ALIVE_TIMEOUT", "", "", "seconds an idle keep-alive connection stays open", "30",
       ApplyKeepAliveTimeout},
      {"SERVICE_WRITE_TIMEOUT", "", "",
       "seconds a client may take to accept a response or a piece of a stream; slower readers are "
       "disconnected (their stream ends)",
       "10", ApplyWriteTimeout},
      {"SERVICE_MAX_HEADER_SIZE", "", "", "bytes of request line plus headers; larger: 431", "16384",
       ApplyMaxHeaderSize},
      {"SERVICE_MAX_CONNECTIONS", "", "",
       "open connections in total; beyond it new ones get 503 at once; 0: no cap (always kept below the "
       "process's file limit)",
       "10000", ApplyMaxConnections},
      {"SERVICE_MAX_CONNECTIONS_PER_CLIENT", "", "",
       "open connections from one peer address (the TCP peer, also behind a proxy); beyond it 503 at "
       "once; 0: no cap",
       "256", ApplyMaxConnectionsPerClient},
      {"SERVICE_METRICS_LISTEN", "", "",
       "HOST:PORT of a second listener serving only GET /metrics (Prometheus text format), without a "
       "token: keep it on a private address",
       "unset: no metrics listener", ApplyMetricsListen},
  };
  return kSettings;
}

Status ApplyTransportSetting(TransportOptions& options, std::string_view variable, std::string_view value) {
  for (const TransportSetting& setting : TransportSettings()) {
    if (setting.variable == variable) return setting.apply(options, value);
  }
  return InvalidArgument("unknown transport variable \"" + std::string(variable) + "\"");
}

}  // namespace service::shell
