// The Sentry-compatibility area (issue 13): unmodified Sentry SDKs report
// through POST /api/<project_number>/envelope/ and /store/ into the capture
// pipeline. Worker: forgetting old event ids (hourly).
#pragma once

#include "areas/capture/module.h"
#include "areas/sentry/app/sentry.h"
#include "modules/module.h"

namespace service::modules {

class SentryModule final : public Module {
 public:
  explicit SentryModule(CaptureModule& capture) : capture_(capture) {}
  std::string_view name() const override { return "sentry"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;
  // The sourcemaps area's resolver (it outlives the requests: modules close
  // after the server stopped).
  void SetFrameResolver(app::sentry::FrameResolver* resolver) { deps_.frames = resolver; }

 private:
  CaptureModule& capture_;
  app::sentry::SentryDeps deps_;
};

}  // namespace service::modules
