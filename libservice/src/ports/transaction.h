// Tx and Transactions: how the application runs work atomically without
// knowing how the work is stored.
//
// A Tx is an opaque handle on one open transaction (or one consistent read
// snapshot). Use cases receive it from Transactions::Read/Write and pass it,
// unopened, to repository methods; only the repository implementations that
// belong to the same backend know what is inside (the SQL repositories of
// store/ turn it back into a store::Connection). app/ therefore cannot run
// SQL, and an embedder may supply a repository of their own that ignores the
// handle (its writes then do not take part in the transaction's rollback).
//
// Thread-safety: Transactions is safe from any thread. A Tx is valid only
// inside the callback that received it, on that thread.
// Failure: every call returns a Status; an unreachable backend is
// kUnavailable, a lost race kConflict, anything else kInternal (whose text
// is for logs only, never for clients).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

#include "service/status.h"

namespace service::ports {

class Tx {
 public:
  Tx(const Tx&) = delete;
  Tx& operator=(const Tx&) = delete;
  virtual ~Tx() = default;

 protected:
  Tx() = default;
};

using TxFn = std::function<Status(Tx&)>;

// Group commit at the application level: concurrent callers hand in items;
// leader threads write the items waiting with ONE call of the batch
// function inside one transaction of its own (Transactions::WriteAlone).
// The batch function records each item's own result in the item and returns
// non-OK only when the backend failed: then the batch is tried again, then
// item by item, so one bad item never fails the others (an item may be
// written more than once: the batch function resets an item's results).
class BatchCommitter {
 public:
  using BatchFn = std::function<Status(Tx& tx, const std::vector<void*>& items)>;
  // Upper bounds of the batch-size buckets (items per transaction).
  static constexpr uint64_t kBatchSizeBounds[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  static constexpr size_t kBatchSizeBuckets = std::size(kBatchSizeBounds) + 1;  // and larger
  struct Stats {
    uint64_t batches = 0;    // transactions written
    uint64_t items = 0;      // items they carried
    uint64_t fallbacks = 0;  // batches rolled back and written item by item
    uint64_t queued = 0;     // items waiting for a writer now
    uint64_t writing = 0;    // batches being written now
    // Batches by size: [i] counts sizes in (kBatchSizeBounds[i-1],
    // kBatchSizeBounds[i]]; the last, larger ones (not cumulative).
    std::array<uint64_t, kBatchSizeBuckets> batch_sizes{};
  };

  BatchCommitter() = default;
  BatchCommitter(const BatchCommitter&) = delete;
  BatchCommitter& operator=(const BatchCommitter&) = delete;
  virtual ~BatchCommitter() = default;

  // Blocks until `item` was committed (OK; its own result is in the item)
  // or could not be (the backend's failure).
  virtual Status Run(void* item) = 0;
  virtual Stats stats() const = 0;
};

class Transactions {
 public:
  Transactions() = default;
  Transactions(const Transactions&) = delete;
  Transactions& operator=(const Transactions&) = delete;
  virtual ~Transactions() = default;

  // "sqlite" or "postgresql" (health checks, logs).
  virtual std::string_view backend_name() const = 0;
  // True when one process owns the database (SQLite: the event bus and the
  // delivery queue's claims live in that process's memory); false when
  // several processes may share it, so claims must be leased in rows.
  virtual bool single_process() const { return false; }

  // Runs `fn` on one consistent snapshot. `fn` must not write.
  virtual Status Read(const TxFn& fn) = 0;
  // Runs `fn` in a transaction: OK means committed and durable; a failing
  // `fn` leaves nothing behind. Concurrent calls may share one transaction
  // (group commit), each in its own savepoint.
  virtual Status Write(const TxFn& fn) = 0;
  // Like Write, but never shares the transaction with other callbacks on a
  // backend with row locks (for callers that order their locks themselves).
  virtual Status WriteAlone(const TxFn& fn) = 0;
  // A cheap round trip proving the backend answers.
  virtual Status Ping() = 0;

  // A group committer writing through WriteAlone. REQUIRES: max_writers >= 1,
  // max_batch >= 1 (smaller values are raised to 1).
  virtual std::unique_ptr<BatchCommitter> NewBatchCommitter(BatchCommitter::BatchFn fn, int max_writers,
                                                            size_t max_batch) = 0;
};

// A typed view of a BatchCommitter for items of type T.
template <typename T>
class TypedBatchCommitter {
 public:
  using Fn = std::function<Status(Tx& tx, const std::vector<T*>& items)>;

  TypedBatchCommitter(Transactions& tx, Fn fn, int max_writers, size_t max_batch)
      : inner_(tx.NewBatchCommitter(
            [fn = std::move(fn)](Tx& t, const std::vector<void*>& raw) {
              std::vector<T*> items;
              items.reserve(raw.size());
              for (void* p : raw) items.push_back(static_cast<T*>(p));
              return fn(t, items);
            },
            max_writers, max_batch)) {}

  Status Run(T* item) { return inner_->Run(item); }
  BatchCommitter::Stats stats() const { return inner_->stats(); }

 private:
  std::unique_ptr<BatchCommitter> inner_;
};

}  // namespace service::ports
