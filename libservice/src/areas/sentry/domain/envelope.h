// Sentry's envelope format (develop.sentry.dev "Envelopes"), as SDKs send
// it to /api/<project>/envelope/:
//
//   <envelope header: one line of JSON>\n
//   <item header: one line of JSON with "type" and optional "length">\n
//   <payload: `length` bytes, or up to the next \n when there is no length>\n
//   ... more items ...
//
// The final newline is optional; empty lines between items are skipped.
// Pure; safe from any thread.
#pragma once

#include <boost/json/object.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "service/status.h"

namespace service::domain::sentry {

struct EnvelopeItem {
  std::string type;
  std::string_view payload;  // into the parsed body
};

struct Envelope {
  boost::json::object header;  // event_id, dsn, sdk, sent_at, ...
  std::vector<EnvelopeItem> items;
};

// Most items one envelope may hold.
inline constexpr size_t kMaxEnvelopeItems = 1000;

// kInvalidArgument (with a message for the client's `detail`) when the
// header or an item header is not a JSON object, a length runs past the
// body, or there are more than kMaxEnvelopeItems items.
Result<Envelope> ParseEnvelope(std::string_view body);

}  // namespace service::domain::sentry
