// A Sentry event (develop.sentry.dev "Event Payloads") mapped into the
// service's report model (issue 13; README "Using a Sentry SDK"):
//
//   title        "<type>: <value>" of the outermost exception (the last of
//                exception.values), else logentry/message, else
//                "<unlabeled event>"; one line, at most 500 characters
//   description  the exception chain (outermost first) or the message
//   severity     level: fatal -> critical, error -> high, warning -> medium,
//                info, debug, log -> low; absent -> high (an error)
//   url          request.url; user agent from request.headers
//   release, environment, user.id, user.email, user.ip_address ("{{auto}}"
//                means the client address: left to the caller)
//   platform     PlatformFor (below)
//   events       the breadcrumbs in order (console, network, navigation,
//                click, breadcrumb), then one `error` event for the
//                outermost exception: {name, message, stack (the frames as
//                text, innermost call first), frames[], mechanism, chain[]
//                of the inner exceptions}; a message event has `message`
//   metadata     {sentry: {event_id, sdk{name, version}, platform, logger,
//                server_name, transaction, tags, contexts, extra}} (each
//                cut to a bounded size)
//   fingerprint  the SDK's `fingerprint` strings ("{{ default }}" kept for
//                the caller to expand)
//
// Pure; safe from any thread.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/storage_ptr.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "areas/capture/domain/event.h"

namespace service::domain::sentry {

struct MappedEvent {
  std::string event_id;  // 32 lower-case hex digits, or empty
  std::string title;
  std::string description;
  std::string severity = "high";
  std::string url;
  std::optional<std::string> user_agent;
  std::optional<std::string> release;
  std::optional<std::string> environment;
  std::optional<std::string> user_id;
  std::optional<std::string> user_email;
  std::optional<std::string> ip_address;  // an explicit address, never "{{auto}}"
  std::string platform;                   // one of the service's platforms
  std::vector<domain::capture::Event> events;
  boost::json::object metadata;
  std::vector<std::string> fingerprint;  // the SDK's, empty when none
  bool is_message = false;               // no exception: a captured message
};

inline constexpr size_t kMaxTitleChars = 500;
inline constexpr size_t kMaxEvents = 1000;

// `received_ms` stands in for a missing or malformed timestamp. The JSON
// values of the result (events' data, metadata) are allocated from `sp`
// (a request's arena; default: the heap).
MappedEvent MapEvent(const boost::json::object& event, int64_t received_ms, boost::json::storage_ptr sp = {});

// The stack text of stored frames (FramesJson's, Sentry's order) under
// `headline`, innermost call first: "    at fn (file:line:col)", at most
// 100 frames (the text written again after source map resolution).
std::string StackText(const boost::json::array& frames, std::string_view headline);

// The service platform of an event: `platform` javascript -> web (or
// react-native when the SDK is sentry.javascript.react-native, server when
// it is a Node SDK), node/python/java/go/ruby/php/csharp/elixir/perl/native
// -> server (android when the os context says Android), cocoa/objc/swift ->
// ios, android (java with an Android os context, or an sdk named
// sentry.java.android) -> android, dart/flutter -> flutter; else other.
std::string PlatformFor(std::string_view platform, std::string_view sdk_name, std::string_view os_name);

// fatal -> critical, error -> high, warning -> medium, info/debug/log -> low.
std::string SeverityFor(std::string_view level);

// A Sentry timestamp: seconds since the epoch (number, fractions allowed) or
// an RFC 3339 string; nullopt otherwise.
std::optional<int64_t> TimestampMs(const boost::json::value& v);

// A valid event id (32 hex digits, dashes allowed) lower-cased without
// dashes, else "".
std::string NormalizeEventId(std::string_view id);

}  // namespace service::domain::sentry
