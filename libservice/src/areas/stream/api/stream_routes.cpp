// GET /v1/bugs/stream: the live stream (Spec 1 "Events") as server-sent
// events. The route opens a subscription and returns it as a streamed
// response; the transport pulls it (see api::ResponseStream), so an open
// stream holds no thread between events.
#include "api/json.h"
#include "areas/bugs/api/bug_params.h"
#include "areas/stream/api/routes.h"
#include "domain/roles.h"

namespace service::api {

namespace {

// The subscription as a response body.
class LiveEventStream final : public ResponseStream {
 public:
  explicit LiveEventStream(std::shared_ptr<app::stream::Subscription> sub) : sub_(std::move(sub)) {}
  // Closing here (the transport's thread) unsubscribes from the bus outside
  // any bus callback.
  ~LiveEventStream() override { sub_->Close(); }

  void Start(std::function<void()> wake) override { sub_->SetWaker(std::move(wake)); }
  State Next(std::string* chunk) override {
    switch (sub_->Next(chunk)) {
      case app::stream::Subscription::Poll::kData:
        return State::kData;
      case app::stream::Subscription::Poll::kPending:
        return State::kPending;
      case app::stream::Subscription::Poll::kEnd:
        break;
    }
    sub_->Close();
    return State::kEnd;
  }
  void Close() override { sub_->Close(); }

 private:
  std::shared_ptr<app::stream::Subscription> sub_;
};

}  // namespace

void RegisterStreamRoutes(Pipeline& p, app::stream::Hub& hub) {
  p.router().Add("GET", "/v1/bugs/stream", RateClass::kGeneral, AuthMode::kJwtOrg,
                 domain::Capability::kViewBugs, [&hub](Context& ctx) -> Response {
                   // The bearer authenticator has checked the token, the
                   // account and the membership.
                   auto diagnostics = BoolParam(ctx, "includeDiagnostics", false);
                   if (!diagnostics.ok()) return StatusResponse(diagnostics.status());
                   auto sub = hub.Open(BearerToken(ctx.req), ctx.principal.org_id, *diagnostics);
                   if (!sub.ok()) return StatusResponse(sub.status());
                   Response res;
                   res.status = 200;
                   res.headers.Add("Content-Type", "text/event-stream; charset=utf-8");
                   res.headers.Add("Cache-Control", "no-cache, no-store");
                   res.headers.Add("X-Accel-Buffering", "no");  // reverse proxies: do not buffer
                   res.stream = std::make_shared<LiveEventStream>(std::move(*sub));
                   return res;
                 });
}

}  // namespace service::api
