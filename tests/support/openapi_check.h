// Checks answers against GET /v1/openapi.json (issue 34 item 4): a small JSON
// Schema validator for the subset the catalogue uses (type, with type arrays
// for nullable; properties, required, additionalProperties, items, enum,
// const, pattern, $ref to the document, allOf/anyOf/oneOf; format and
// descriptions ignored), and the check of one answer against its operation:
// the status must be documented (exactly, as "2XX" or by "default") and a
// JSON body must match that response's application/json schema.
//
// Every answer of TestService::Request to a routed request is checked (a
// mismatch fails the test it occurs in) unless SERVICE_TEST_OPENAPI=0; with
// SERVICE_TEST_OPENAPI=report mismatches are only counted. Either way the
// process prints "openapi: N answers validated, M mismatches" (and each
// distinct mismatch once) on exit.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "support/api_harness.h"

namespace service::testing {

// The problems of `instance` against `schema` ("$.path: what"), empty when it
// conforms. `root` is the document "$ref"s ("#/components/schemas/X") resolve in.
std::vector<std::string> ValidateSchema(const boost::json::value& root, const boost::json::value& schema,
                                        const boost::json::value& instance);

// The problems of `res`, an answer of `route` ("METHOD pattern", as
// TestResponse::route), against `document`'s operation. `checked` is false
// when there was nothing to check (no such route, HEAD).
struct AnswerCheck {
  bool checked = false;
  std::vector<std::string> problems;
};
AnswerCheck CheckAnswer(const boost::json::value& document, const std::string& method,
                        const TestResponse& res);

// The document `s` serves (built from its route table as GET /v1/openapi.json
// builds it; cached while the route table stays the same).
const boost::json::value& OpenApiDocumentOf(Service& s);

// The harness hook (api_harness.cpp): checks `res` unless SERVICE_TEST_OPENAPI=0.
void CheckAnswerIfEnabled(Service& s, const std::string& method, const TestResponse& res);

// The problems of `body`, a request body sent to `route` ("METHOD pattern"),
// against the operation's requestBody application/json schema. `checked` is
// false when there was nothing to check (no such operation or schema, a body
// that is not JSON).
AnswerCheck CheckRequestBody(const boost::json::value& document, const std::string& route,
                             const std::string& body);

// The harness hook for request bodies: when `req` carried a JSON body
// (Content-Type application/json) and got a 2xx answer `res`, checks the body
// against the document; counted and reported like the answers.
void CheckRequestIfEnabled(Service& s, const api::Request& req, const TestResponse& res);

}  // namespace service::testing
