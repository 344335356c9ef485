// A verification runner's side, written for the tests apart from the
// product's code (README "Verification", the signed receipt): an Ed25519
// key pair made and used with OpenSSL's EVP interface directly, and a small
// RFC 8785 (JCS) writer of its own for the submissions the tests sign.
//
// The JCS writer covers what a runner sends: objects (members sorted by
// their names' UTF-16 code units), arrays, strings (escaped as RFC 8785
// 3.2.2.2 says), integers, booleans and null. Doubles are not written (a
// submission carries none).
#pragma once

#include <boost/json.hpp>
#include <string>

namespace service::testing {

class Ed25519Signer {
 public:
  Ed25519Signer();  // a fresh key pair
  ~Ed25519Signer();
  Ed25519Signer(const Ed25519Signer&) = delete;
  Ed25519Signer& operator=(const Ed25519Signer&) = delete;

  std::string PublicKeyPem() const;   // -----BEGIN PUBLIC KEY----- ...
  std::string PrivateKeyPem() const;  // -----BEGIN PRIVATE KEY----- ... (PKCS#8)
  // The raw 64-byte signature of `message`, and its standard base64.
  std::string Sign(const std::string& message) const;
  std::string SignBase64(const std::string& message) const;

 private:
  void* key_;  // EVP_PKEY*
};

// PEM public keys of other types, for the refusals.
std::string RsaPublicKeyPem();
std::string EcPublicKeyPem();

// RFC 8785 canonical JSON of `v` (see above).
std::string TestCanonicalJson(const boost::json::value& v);

}  // namespace service::testing
