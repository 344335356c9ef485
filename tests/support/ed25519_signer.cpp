#include "support/ed25519_signer.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace service::testing {
namespace {

namespace json = boost::json;

EVP_PKEY* Key(void* k) { return static_cast<EVP_PKEY*>(k); }

std::string BioText(BIO* b) {
  char* data = nullptr;
  const long n = BIO_get_mem_data(b, &data);
  std::string out(data, static_cast<size_t>(n));
  BIO_free(b);
  return out;
}

std::string PublicPem(EVP_PKEY* key) {
  BIO* b = BIO_new(BIO_s_mem());
  PEM_write_bio_PUBKEY(b, key);
  return BioText(b);
}

std::string Base64(const std::string& bytes) {
  std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
  const int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  return std::string(reinterpret_cast<char*>(out.data()), static_cast<size_t>(n));
}

std::u16string Utf16(const std::string& s) {
  std::u16string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    uint32_t cp;
    int extra;
    if (c < 0x80) {
      cp = c;
      extra = 0;
    } else if (c < 0xE0) {
      cp = c & 0x1F;
      extra = 1;
    } else if (c < 0xF0) {
      cp = c & 0x0F;
      extra = 2;
    } else {
      cp = c & 0x07;
      extra = 3;
    }
    for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += 1 + extra;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 | (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 | (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

void Str(const std::string& s, std::string& out) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\b') {
      out += "\\b";
    } else if (c == '\f') {
      out += "\\f";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

void Write(const json::value& v, std::string& out) {
  if (v.is_null()) {
    out += "null";
  } else if (v.is_bool()) {
    out += v.get_bool() ? "true" : "false";
  } else if (v.is_int64()) {
    out += std::to_string(v.get_int64());
  } else if (v.is_uint64()) {
    out += std::to_string(v.get_uint64());
  } else if (v.is_double()) {
    throw std::runtime_error("TestCanonicalJson: doubles are not written");
  } else if (v.is_string()) {
    Str(std::string(v.get_string()), out);
  } else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& e : v.get_array()) {
      if (!first) out += ',';
      first = false;
      Write(e, out);
    }
    out += ']';
  } else {
    std::vector<std::pair<std::u16string, const json::key_value_pair*>> m;
    for (const auto& kv : v.get_object()) m.emplace_back(Utf16(std::string(kv.key())), &kv);
    std::sort(m.begin(), m.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    out += '{';
    bool first = true;
    for (const auto& [k, kv] : m) {
      if (!first) out += ',';
      first = false;
      Str(std::string(kv->key()), out);
      out += ':';
      Write(kv->value(), out);
    }
    out += '}';
  }
}

}  // namespace

Ed25519Signer::Ed25519Signer() {
  EVP_PKEY* key = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr);
  if (ctx == nullptr || EVP_PKEY_keygen_init(ctx) != 1 || EVP_PKEY_keygen(ctx, &key) != 1) {
    throw std::runtime_error("Ed25519 keygen failed");
  }
  EVP_PKEY_CTX_free(ctx);
  key_ = key;
}

Ed25519Signer::~Ed25519Signer() { EVP_PKEY_free(Key(key_)); }

std::string Ed25519Signer::PublicKeyPem() const { return PublicPem(Key(key_)); }

std::string Ed25519Signer::PrivateKeyPem() const {
  BIO* b = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(b, Key(key_), nullptr, nullptr, 0, nullptr, nullptr);
  return BioText(b);
}

std::string Ed25519Signer::Sign(const std::string& message) const {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::string sig(64, '\0');
  size_t len = sig.size();
  if (EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, Key(key_)) != 1 ||
      EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1) {
    EVP_MD_CTX_free(ctx);
    throw std::runtime_error("Ed25519 sign failed");
  }
  EVP_MD_CTX_free(ctx);
  sig.resize(len);
  return sig;
}

std::string Ed25519Signer::SignBase64(const std::string& message) const { return Base64(Sign(message)); }

std::string RsaPublicKeyPem() {
  EVP_PKEY* key = EVP_RSA_gen(2048);
  std::string pem = PublicPem(key);
  EVP_PKEY_free(key);
  return pem;
}

std::string EcPublicKeyPem() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  std::string pem = PublicPem(key);
  EVP_PKEY_free(key);
  return pem;
}

std::string TestCanonicalJson(const json::value& v) {
  std::string out;
  Write(v, out);
  return out;
}

}  // namespace service::testing
