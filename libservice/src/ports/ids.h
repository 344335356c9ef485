// Ids: the source of identifiers and randomness, so tests control both.
//
// Thread-safety: implementations must be safe to call from any thread.
#pragma once

#include <memory>
#include <string>

#include "service/clock.h"

namespace service::ports {

class Ids {
 public:
  Ids() = default;
  Ids(const Ids&) = delete;
  Ids& operator=(const Ids&) = delete;
  virtual ~Ids() = default;

  // A new UUID (version 7: time-ordered), lower-case text.
  virtual std::string NewId() = 0;
  // `n` bytes from a CSPRNG.
  virtual std::string RandomBytes(size_t n) = 0;
  // `n` characters from [A-Za-z0-9], uniformly, from a CSPRNG.
  virtual std::string RandomAlnum(size_t n) = 0;
};

// UUIDv7 from `clock` and OpenSSL's RAND_bytes.
std::unique_ptr<Ids> NewSystemIds(std::shared_ptr<Clock> clock);

}  // namespace service::ports
