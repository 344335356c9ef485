#include "api/context.h"

#include "api/json.h"

namespace service::api {

Result<const boost::json::value*> Context::Body() {
  if (!body_) {
    SV_ASSIGN_OR_RETURN(boost::json::value v, ParseJsonBody(req.body));
    body_ = std::move(v);
  }
  return &*body_;
}

}  // namespace service::api
