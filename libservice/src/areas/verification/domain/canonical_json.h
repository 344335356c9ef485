// The JSON Canonicalization Scheme (RFC 8785, "JCS"): the exact bytes a
// verification runner signs (README "Verification", the signed receipt).
//
//  - no whitespace;
//  - object members sorted by their names' UTF-16 code units (RFC 8785
//    3.2.3), recursively; array order kept;
//  - strings: `"` and `\` escaped, U+0008, U+0009, U+000A, U+000C, U+000D
//    as \b \t \n \f \r, other controls below U+0020 as \u00xx (lower-case
//    hex), everything else (also `/`, DEL and non-ASCII) as its UTF-8 bytes;
//  - numbers as ECMAScript's Number.prototype.toString of the IEEE 754
//    double (RFC 8785 3.2.2.3): integers without a fraction or exponent,
//    -0 as 0, the shortest digits that round-trip, exponent form at or
//    above 1e21 and below 1e-6 ("1e+21", "1e-7");
//  - literals true, false, null.
//
// Failure (kInvalidArgument): NaN or an infinity, an integer whose
// magnitude exceeds 2^53 (not exactly a double: a signer and a verifier
// could disagree), a string or name that is not valid UTF-8.
//
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>

#include "service/status.h"

namespace service::domain::verification {

Result<std::string> CanonicalJson(const boost::json::value& v);
// One number in the ECMAScript form above (REQUIRES: finite).
std::string CanonicalNumber(double d);

}  // namespace service::domain::verification
