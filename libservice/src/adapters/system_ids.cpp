// UUIDv7 ids and CSPRNG bytes from OpenSSL.
#include <openssl/rand.h>

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "ports/ids.h"
#include "util/crypto.h"

namespace service::ports {

namespace {

class SystemIds final : public Ids {
 public:
  explicit SystemIds(std::shared_ptr<Clock> clock) : clock_(std::move(clock)) {}

  std::string NewId() override {
    unsigned char b[16];
    FillIdBits(b + 6, 10);
    // 48-bit big-endian millisecond timestamp, made strictly monotonic so ids
    // created in one process sort in creation order.
    int64_t ms = clock_->NowMillis();
    int64_t prev = last_ms_.load();
    while (true) {
      const int64_t next = ms > prev ? ms : prev;
      if (last_ms_.compare_exchange_weak(prev, next)) {
        ms = next;
        break;
      }
    }
    for (int i = 0; i < 6; ++i) b[i] = static_cast<unsigned char>((ms >> (8 * (5 - i))) & 0xFF);
    b[6] = static_cast<unsigned char>(0x70 | (b[6] & 0x0F));  // version 7
    b[8] = static_cast<unsigned char>(0x80 | (b[8] & 0x3F));  // RFC 4122 variant
    const std::string hex = util::HexEncode(std::string_view(reinterpret_cast<const char*>(b), 16));
    std::string out;
    out.reserve(36);
    out.append(hex, 0, 8).append(1, '-').append(hex, 8, 4).append(1, '-').append(hex, 12, 4).append(1, '-');
    out.append(hex, 16, 4).append(1, '-').append(hex, 20, 12);
    return out;
  }

  std::string RandomBytes(size_t n) override {
    std::string out(n, '\0');
    Fill(reinterpret_cast<unsigned char*>(out.data()), n);
    return out;
  }

  std::string RandomAlnum(size_t n) override {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::string out;
    out.reserve(n);
    while (out.size() < n) {
      unsigned char buf[64];
      Fill(buf, sizeof buf);
      for (unsigned char c : buf) {
        if (c >= 248) continue;  // 248 = 62 * 4: reject to stay uniform
        out += kAlphabet[c % 62];
        if (out.size() == n) break;
      }
    }
    return out;
  }

 private:
  // The random part of ids comes from a per-thread pool refilled from the
  // CSPRNG 1 KB at a time (one RAND_bytes call per ~100 ids on the ingest
  // path). Secrets (RandomBytes, RandomAlnum) still call RAND_bytes directly.
  static void FillIdBits(unsigned char* p, size_t n) {
    constexpr size_t kPool = 1024;
    thread_local unsigned char pool[kPool];
    thread_local size_t used = kPool;
    if (kPool - used < n) {
      Fill(pool, kPool);
      used = 0;
    }
    std::memcpy(p, pool + used, n);  // each byte is handed out once
    used += n;
  }
  static void Fill(unsigned char* p, size_t n) {
    if (RAND_bytes(p, static_cast<int>(n)) != 1) throw std::runtime_error("RAND_bytes failed");
  }
  std::shared_ptr<Clock> clock_;
  std::atomic<int64_t> last_ms_{0};
};

}  // namespace

std::unique_ptr<Ids> NewSystemIds(std::shared_ptr<Clock> clock) {
  return std::make_unique<SystemIds>(std::move(clock));
}

}  // namespace service::ports
