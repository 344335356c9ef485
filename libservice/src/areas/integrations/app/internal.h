// Helpers shared by the integration use cases (not part of the area's API).
#pragma once

#include <boost/json.hpp>
#include <string>

#include "areas/integrations/app/integrations.h"

namespace service::app::integrations::internal {

// How long a sender (or a request sending now) holds a delivery row.
inline constexpr int64_t kSendLeaseMs = 30'000;
// A claimed row is sent only while this much of its lease is left (the
// receiver's deadline and a margin); otherwise the next claim takes it.
inline constexpr int64_t kLeaseMarginMs = domain::integrations::kReceiverTimeoutMs + 2'000;

// The config as sealed: {url, token, repo, bridgeUrl, address, preset} (set keys only).
std::string ConfigJson(const domain::integrations::Config& c);
// What reads show: URLs redacted to scheme and host, the token as
// {present, last4}, the repo, address and preset as they are, the signing
// secret masked.
boost::json::object ConfigView(const std::string& type, const domain::integrations::Config& c,
                               const std::string& secret_mask);
// The stored config of `row`, opened (its secret not included).
Result<domain::integrations::Config> OpenConfig(const IntegrationsDeps& deps,
                                                const ports::IntegrationRow& row);

// Whether a delivery of `event_type` still goes to `dest`: `test` always;
// agent_notify to a code_host integration always (every code host is a
// handoff channel, Spec 2 "Agent handoff"); otherwise when `dest` lists it.
bool TakesEvent(const ports::IntegrationRow& dest, std::string_view event_type);

// The payload of a `test` delivery.
boost::json::object TestPayload(const IntegrationsDeps& deps, const ports::IntegrationRow& row,
                                int64_t now_ms);

// A manual retry's recheck of the rules of today: the subscription, the
// alert policy (409 excluded), quiet hours on the capture path (409 held).
Status RecheckRules(const IntegrationsDeps& deps, ports::Tx& tx, const ports::IntegrationRow& row,
                    const ports::DeliveryRow& d, int64_t now_ms);

// 404 "Project not found" unless the project is the actor's organization's.
Status RequireProject(const IntegrationsDeps& deps, ports::Tx& tx, const ConsoleActor& actor,
                      const std::string& project_id);

// The base of links ("https://console.example.com", no trailing slash).
std::string LinkBase(const IntegrationsDeps& deps);

}  // namespace service::app::integrations::internal
