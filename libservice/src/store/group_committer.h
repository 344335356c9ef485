// GroupCommitter: the SQL backends' ports::BatchCommitter (group commit at
// the application level). Concurrent
// callers hand in items (reports); up to `max_writers` leader threads each
// take the items waiting (at most `max_batch`) and write them with ONE call
// of the batch function inside ONE Database::WriteAlone (a transaction of its
// own: the batch function orders its row locks, which sharing a transaction
// with another batch would undo), so many reports share
// one transaction, one commit (one fsync on PostgreSQL) and, where the
// repositories allow, one statement per table.
//
// The batch function records each item's own result in the item (an
// outcome such as a plan limit must leave no writes behind). It returns a
// non-OK Status only when the database failed: then the shared transaction
// is rolled back and tried once more, then every item of that batch is
// written again alone, so one bad report never fails the others (a lone
// write that fails is tried once more). An item may therefore be written more than once: the batch
// function must reset an item's results first.
//
// Thread-safety: Run may be called from any thread; it blocks until the
// item's transaction committed (or failed). Header-only; created through
// ports::Transactions::NewBatchCommitter.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

#include "ports/transaction.h"
#include "service/status.h"
#include "store/database.h"
#include "util/mutex.h"

namespace service::store {

class GroupCommitter final : public ports::BatchCommitter {
 public:
  using T = void;
  using BatchWrite = ports::BatchCommitter::BatchFn;

  // REQUIRES: `db` outlives this; max_writers >= 1; max_batch >= 1.
  GroupCommitter(ports::Transactions& db, BatchWrite write, int max_writers, size_t max_batch)
      : db_(db),
        write_(std::move(write)),
        max_writers_(max_writers < 1 ? 1 : max_writers),
        max_batch_(max_batch < 1 ? 1 : max_batch) {}
  GroupCommitter(const GroupCommitter&) = delete;
  GroupCommitter& operator=(const GroupCommitter&) = delete;

  // Writes `item` in a shared transaction. OK: committed (the item's own
  // result is in the item); otherwise the failure that prevented it.
  Status Run(void* item) override {
    Pending self;
    self.item = item;
    mu_.Lock();
    queue_.push_back(&self);
    while (!self.done) {
      if (writers_ < max_writers_ && !queue_.empty()) {
        // Lead: write what is waiting (this item among it, or a batch ahead).
        ++writers_;
        std::vector<Pending*> batch;
        while (!queue_.empty() && batch.size() < max_batch_) {
          batch.push_back(queue_.front());
          queue_.pop_front();
        }
        ++stats_.batches;
        stats_.items += batch.size();
        size_t bucket = 0;
        while (bucket + 1 < kBatchSizeBuckets && batch.size() > kBatchSizeBounds[bucket]) ++bucket;
        ++stats_.batch_sizes[bucket];
        mu_.Unlock();
        const bool fell_back = WriteBatch(batch);
        mu_.Lock();
        if (fell_back) ++stats_.fallbacks;
        --writers_;
        for (Pending* p : batch) {
          p->done = true;
          // Under the lock: the waiter cannot return (and destroy p) first.
          p->cv.Signal();
        }
        // Items still waiting need a leader: the first of them takes over.
        if (!queue_.empty()) queue_.front()->cv.Signal();
        continue;
      }
      self.cv.Wait(&mu_);
    }
    mu_.Unlock();
    if (self.exception) std::rethrow_exception(self.exception);
    return std::move(self.status);
  }

  Stats stats() const override {
    util::MutexLock lock(&mu_);
    Stats s = stats_;
    s.queued = queue_.size();
    s.writing = static_cast<uint64_t>(writers_);
    return s;
  }

 private:
  // Lives on its caller's stack; `done` and the results are handed back
  // under mu_.
  struct Pending {
    T* item = nullptr;
    Status status;
    std::exception_ptr exception;
    bool done = false;
    util::CondVar cv;  // wakes this item's thread only
  };

  // Returns true when the batch fell back to one transaction per item.
  // Writes `items` in one transaction, and once more if that fails: the
  // first attempt can lose a race (a deadlock, a bug created by a concurrent
  // batch or process) that the second, seeing the other's commit, does not.
  Status WriteTwice(const std::vector<T*>& items) {
    Status st = db_.WriteAlone([&](ports::Tx& tx) { return write_(tx, items); });
    if (st.ok()) return st;
    return db_.WriteAlone([&](ports::Tx& tx) { return write_(tx, items); });
  }

  bool WriteBatch(const std::vector<Pending*>& batch) {
    if (batch.size() > 1) {
      std::vector<T*> items;
      items.reserve(batch.size());
      for (Pending* p : batch) items.push_back(p->item);
      try {
        if (WriteTwice(items).ok()) return false;
      } catch (...) {
        // Each item alone below; the one that throws gets the exception.
      }
    }
    for (Pending* p : batch) {
      try {
        p->status = WriteTwice({p->item});
      } catch (...) {
        p->exception = std::current_exception();
      }
    }
    return batch.size() > 1;
  }

  ports::Transactions& db_;
  const BatchWrite write_;
  const int max_writers_;
  const size_t max_batch_;
  mutable util::Mutex mu_;
  std::deque<Pending*> queue_ SV_GUARDED_BY(mu_);
  int writers_ SV_GUARDED_BY(mu_) = 0;
  Stats stats_ SV_GUARDED_BY(mu_);
};

}  // namespace service::store
