// The bundled server's transport settings: how service-server holds
// connections (SERVICE_TRANSPORT, SERVICE_WORKER_THREADS, the timeouts and
// caps against slow and abusive clients). They belong to the shell, not to
// the library: service::Options has none of them. Their rows sit beside the
// library's settings table in --help, flag and variable parsing, and the
// README's configuration table (tests/unit/settings_table_test.cpp).
//
// Thread-safety: plain values; the table is built once and read-only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "event_transport.h"
#include "service/options.h"
#include "service/status.h"

namespace service::shell {

struct TransportOptions {
  // true: the event loop (default); false: the previous thread per
  // connection (SERVICE_TRANSPORT=threads).
  bool event_loop = true;
  // The event loop's settings; the rows set worker_threads (0: the
  // transport's default), the timeouts, min_body_rate, max_header_bytes and
  // the connection caps, and keep the transport's defaults otherwise.
  EventTransportSettings events;
  // SERVICE_METRICS_LISTEN: HOST:PORT of a second listener that answers
  // only GET /metrics (Service::MetricsText), without a token. Empty: none.
  std::string metrics_listen;
};

// A row of the shell's table: the same fields as a library row, applied to
// TransportOptions.
using TransportSetting = SettingRow<TransportOptions>;

// The transport rows, in documentation order (after the library's rows).
const std::vector<TransportSetting>& TransportSettings();

// Applies one transport setting by its variable name. An unknown name or a
// bad value: kInvalidArgument naming the variable.
Status ApplyTransportSetting(TransportOptions& options, std::string_view variable, std::string_view value);

}  // namespace service::shell
