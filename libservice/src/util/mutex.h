// Mutex, SharedMutex, their scoped locks and CondVar: std::mutex and friends
// with clang's thread-safety annotations (util/thread_annotations.h), like
// leveldb's port::Mutex, MutexLock and port::CondVar. Members guarded by one
// are declared SV_GUARDED_BY(mu_); a clang build with -Wthread-safety
// (SERVICE_THREAD_SAFETY_ANALYSIS) checks every access.
//
// Thread-safety: what the standard types guarantee.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <shared_mutex>

#include "util/thread_annotations.h"

namespace service::util {

class SV_CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() SV_ACQUIRE() { mu_.lock(); }
  void Unlock() SV_RELEASE() { mu_.unlock(); }
  // Tells the analysis that the caller holds the lock (no run-time check).
  void AssertHeld() SV_ASSERT_CAPABILITY(this) {}

 private:
  friend class CondVar;
  std::mutex mu_;
};

class SV_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) SV_ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() SV_RELEASE() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

// Waits on a Mutex the caller holds; each wait names it, so the analysis
// checks that it is held.
class CondVar {
 public:
  CondVar() = default;
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  // Releases `mu` while waiting; holds it again on return.
  void Wait(Mutex* mu) SV_REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // Like Wait, until `deadline`. Returns false when it passed.
  template <typename Clock, typename Duration>
  bool WaitUntil(Mutex* mu, std::chrono::time_point<Clock, Duration> deadline) SV_REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    const bool woken = cv_.wait_until(lock, deadline) == std::cv_status::no_timeout;
    lock.release();
    return woken;
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

class SV_CAPABILITY("shared_mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() SV_ACQUIRE() { mu_.lock(); }
  void Unlock() SV_RELEASE() { mu_.unlock(); }
  void ReaderLock() SV_ACQUIRE_SHARED() { mu_.lock_shared(); }
  void ReaderUnlock() SV_RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

class SV_SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex* mu) SV_ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~WriterLock() SV_RELEASE() { mu_->Unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex* const mu_;
};

class SV_SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex* mu) SV_ACQUIRE_SHARED(mu) : mu_(mu) { mu_->ReaderLock(); }
  ~ReaderLock() SV_RELEASE() { mu_->ReaderUnlock(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex* const mu_;
};

}  // namespace service::util
