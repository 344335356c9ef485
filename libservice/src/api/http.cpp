#include "service/http.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "util/strings.h"

namespace service::api {

void Headers::Set(std::string name, std::string value) {
  std::erase_if(items_, [&](const auto& kv) { return util::EqualsIgnoreCase(kv.first, name); });
  items_.emplace_back(std::move(name), std::move(value));
}

const std::string* Headers::Find(std::string_view name) const {
  for (const auto& kv : items_)
    if (util::EqualsIgnoreCase(kv.first, name)) return &kv.second;
  return nullptr;
}

namespace {

class StringBodySource final : public BodySource {
 public:
  explicit StringBodySource(std::string data) : data_(std::move(data)) {}
  uint64_t size() const override { return data_.size(); }
  int64_t Read(char* buf, size_t n) override {
    const size_t k = std::min(n, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, k);
    pos_ += k;
    return static_cast<int64_t>(k);
  }
  bool Rewind() override {
    pos_ = 0;
    return true;
  }

 private:
  std::string data_;
  size_t pos_ = 0;
};

// Wakes a thread blocked in DrainStream. Shared with the stream's waker,
// which may outlive the call.
struct DrainSignal {
  std::mutex mu;
  std::condition_variable cv;
  bool woken = false;
};

}  // namespace

std::shared_ptr<BodySource> NewStringBodySource(std::string data) {
  return std::make_shared<StringBodySource>(std::move(data));
}

bool DrainStream(ResponseStream& stream, const std::function<bool(std::string_view piece)>& write,
                 int64_t give_up_after_ms) {
  auto signal = std::make_shared<DrainSignal>();
  stream.Start([signal] {
    {
      std::lock_guard<std::mutex> lock(signal->mu);
      signal->woken = true;
    }
    signal->cv.notify_all();
  });
  for (;;) {
    std::string chunk;
    {
      std::lock_guard<std::mutex> lock(signal->mu);
      signal->woken = false;
    }
    switch (stream.Next(&chunk)) {
      case ResponseStream::State::kEnd:
        return true;
      case ResponseStream::State::kData:
        if (!chunk.empty() && !write(chunk)) {
          stream.Close();
          return false;
        }
        break;
      case ResponseStream::State::kPending: {
        std::unique_lock<std::mutex> lock(signal->mu);
        const auto woken = [&] { return signal->woken; };
        if (give_up_after_ms > 0) {
          if (!signal->cv.wait_for(lock, std::chrono::milliseconds(give_up_after_ms), woken)) {
            lock.unlock();
            stream.Close();
            return false;
          }
        } else {
          signal->cv.wait(lock, woken);
        }
        break;
      }
    }
  }
}

}  // namespace service::api
