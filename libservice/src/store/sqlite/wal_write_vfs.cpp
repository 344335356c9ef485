// See wal_write_vfs.h. The buffer of a "-wal" file holds the appends of the
// transaction being written; it is written out (one write call):
//   - right after the page of the commit frame (the frame whose header names
//     a database size), so an I/O error is returned to SQLite by that very
//     write and fails the commit as it would without the shim;
//   - before any other operation on the file (read, non-appending write,
//     sync, truncate, size, close, file control);
//   - in xShmBarrier of any database file, as a safety net before a
//     WAL-index header is published;
//   - when it grows past kMaxBuffer.
// Written out means 64 KB write calls: a 200-page commit takes 13 instead
// of 400.
#include "store/sqlite/wal_write_vfs.h"
#include "util/mutex.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_set>

namespace service::store {
namespace {

constexpr int kFrameHeaderBytes = 24;    // SQLite's WAL_FRAME_HDRSIZE
constexpr int kWalHeaderBytes = 32;      // SQLite's WAL_HDRSIZE
constexpr size_t kMaxBuffer = 8u << 20;  // 8 MB, then written out early
constexpr size_t kReserve = 1u << 20;
constexpr size_t kWriteChunk = 64u << 10;

struct ShimFile {
  sqlite3_file base;  // must come first: SQLite sees this
  sqlite3_file* real = nullptr;
  bool wal = false;
  // WAL files only, guarded by g_mu:
  std::string buf;
  sqlite3_int64 start = 0;  // file offset of buf[0]
  bool commit_page_next = false;
};

sqlite3_vfs* g_real = nullptr;
sqlite3_vfs g_vfs;
sqlite3_io_methods g_methods;
// Buffers of every WAL file are guarded by one mutex: only the writer
// connection appends, and barriers from other connections must see them.
util::Mutex g_mu;
std::unordered_set<ShimFile*> g_pending SV_GUARDED_BY(g_mu);  // WAL files with buffered bytes
std::atomic<int> g_pending_count{0};

size_t RealOffset() { return (sizeof(ShimFile) + 15) & ~size_t{15}; }

ShimFile* Shim(sqlite3_file* f) { return reinterpret_cast<ShimFile*>(f); }

// REQUIRES: g_mu held.
int FlushLocked(ShimFile* s) SV_REQUIRES(g_mu) {
  if (s->buf.empty()) return SQLITE_OK;
  int rc = SQLITE_OK;
  // The unix VFS writes at most 128 KB - 1 per call (larger requests fail
  // with SQLITE_FULL), so the buffer goes out in chunks below that.
  for (size_t done = 0; done < s->buf.size() && rc == SQLITE_OK; done += kWriteChunk) {
    const size_t n = std::min(kWriteChunk, s->buf.size() - done);
    rc = s->real->pMethods->xWrite(s->real, s->buf.data() + done, static_cast<int>(n),
                                   s->start + static_cast<sqlite3_int64>(done));
  }
  s->start += static_cast<sqlite3_int64>(s->buf.size());
  s->buf.clear();
  if (g_pending.erase(s) > 0) g_pending_count.fetch_sub(1, std::memory_order_relaxed);
  return rc;
}

int Flush(ShimFile* s) {
  if (!s->wal) return SQLITE_OK;
  util::MutexLock lock(&g_mu);
  return FlushLocked(s);
}

int Close(sqlite3_file* f) {
  ShimFile* s = Shim(f);
  int rc = Flush(s);
  const int rc2 = s->real->pMethods ? s->real->pMethods->xClose(s->real) : SQLITE_OK;
  s->~ShimFile();
  return rc != SQLITE_OK ? rc : rc2;
}

int Read(sqlite3_file* f, void* p, int n, sqlite3_int64 off) {
  ShimFile* s = Shim(f);
  if (int rc = Flush(s); rc != SQLITE_OK) return rc;
  return s->real->pMethods->xRead(s->real, p, n, off);
}

int Write(sqlite3_file* f, const void* p, int n, sqlite3_int64 off) {
  ShimFile* s = Shim(f);
  if (!s->wal) return s->real->pMethods->xWrite(s->real, p, n, off);
  util::MutexLock lock(&g_mu);
  const bool appends = s->buf.empty() || off == s->start + static_cast<sqlite3_int64>(s->buf.size());
  if (!appends) {
    // An overwrite (SQLite rewrites a frame of the open transaction) or a
    // jump: everything before it reaches the file first, then this write.
    if (int rc = FlushLocked(s); rc != SQLITE_OK) return rc;
    s->commit_page_next = false;
    return s->real->pMethods->xWrite(s->real, p, n, off);
  }
  if (s->buf.empty()) {
    s->start = off;
    if (s->buf.capacity() < kReserve) s->buf.reserve(kReserve);
    if (g_pending.insert(s).second) g_pending_count.fetch_add(1, std::memory_order_relaxed);
  }
  const bool commit_page = s->commit_page_next;
  s->commit_page_next = false;
  if (n == kFrameHeaderBytes && off >= kWalHeaderBytes) {
    // A frame header: bytes 4..7 hold the database size after a commit
    // (big-endian), zero for other frames. The page of a commit frame is
    // the transaction's last write.
    const auto* b = static_cast<const unsigned char*>(p);
    const uint32_t db_size = (uint32_t{b[4]} << 24) | (uint32_t{b[5]} << 16) | (uint32_t{b[6]} << 8) | b[7];
    s->commit_page_next = db_size != 0;
  }
  s->buf.append(static_cast<const char*>(p), static_cast<size_t>(n));
  if (commit_page || s->buf.size() >= kMaxBuffer) return FlushLocked(s);
  return SQLITE_OK;
}

int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  ShimFile* s = Shim(f);
  if (int rc = Flush(s); rc != SQLITE_OK) return rc;
  return s->real->pMethods->xTruncate(s->real, size);
}

int Sync(sqlite3_file* f, int flags) {
  ShimFile* s = Shim(f);
  if (int rc = Flush(s); rc != SQLITE_OK) return rc;
  return s->real->pMethods->xSync(s->real, flags);
}

int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  ShimFile* s = Shim(f);
  if (int rc = Flush(s); rc != SQLITE_OK) return rc;
  return s->real->pMethods->xFileSize(s->real, size);
}

int Lock(sqlite3_file* f, int level) { return Shim(f)->real->pMethods->xLock(Shim(f)->real, level); }
int Unlock(sqlite3_file* f, int level) { return Shim(f)->real->pMethods->xUnlock(Shim(f)->real, level); }
int CheckReservedLock(sqlite3_file* f, int* out) {
  return Shim(f)->real->pMethods->xCheckReservedLock(Shim(f)->real, out);
}

int FileControl(sqlite3_file* f, int op, void* arg) {
  ShimFile* s = Shim(f);
  if (int rc = Flush(s); rc != SQLITE_OK) return rc;
  return s->real->pMethods->xFileControl(s->real, op, arg);
}

int SectorSize(sqlite3_file* f) { return Shim(f)->real->pMethods->xSectorSize(Shim(f)->real); }
int DeviceCharacteristics(sqlite3_file* f) {
  return Shim(f)->real->pMethods->xDeviceCharacteristics(Shim(f)->real);
}

// Shared memory (version 2) and memory mapping (version 3) are forwarded
// when the real file offers them.
int RealVersion(sqlite3_file* f) { return Shim(f)->real->pMethods->iVersion; }

int ShmMap(sqlite3_file* f, int page, int size, int extend, void volatile** out) {
  if (RealVersion(f) < 2) return SQLITE_IOERR_SHMMAP;
  return Shim(f)->real->pMethods->xShmMap(Shim(f)->real, page, size, extend, out);
}
int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  if (RealVersion(f) < 2) return SQLITE_IOERR_SHMLOCK;
  return Shim(f)->real->pMethods->xShmLock(Shim(f)->real, offset, n, flags);
}
void ShmBarrier(sqlite3_file* f) {
  if (g_pending_count.load(std::memory_order_acquire) > 0) {
    util::MutexLock lock(&g_mu);
    while (!g_pending.empty()) FlushLocked(*g_pending.begin());  // errors: see the header
  }
  if (RealVersion(f) >= 2) Shim(f)->real->pMethods->xShmBarrier(Shim(f)->real);
}
int ShmUnmap(sqlite3_file* f, int delete_flag) {
  if (RealVersion(f) < 2) return SQLITE_OK;
  return Shim(f)->real->pMethods->xShmUnmap(Shim(f)->real, delete_flag);
}
int Fetch(sqlite3_file* f, sqlite3_int64 off, int n, void** out) {
  if (RealVersion(f) < 3) {
    *out = nullptr;
    return SQLITE_OK;
  }
  return Shim(f)->real->pMethods->xFetch(Shim(f)->real, off, n, out);
}
int Unfetch(sqlite3_file* f, sqlite3_int64 off, void* p) {
  if (RealVersion(f) < 3) return SQLITE_OK;
  return Shim(f)->real->pMethods->xUnfetch(Shim(f)->real, off, p);
}

int Open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags) {
  auto* s = new (f) ShimFile();
  s->base.pMethods = nullptr;
  s->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) + RealOffset());
  s->real->pMethods = nullptr;
  s->wal = (flags & SQLITE_OPEN_WAL) != 0;
  const int rc = g_real->xOpen(g_real, name, s->real, flags, out_flags);
  // SQLite calls xClose exactly when pMethods is set, as the real VFS says.
  if (s->real->pMethods != nullptr) {
    s->base.pMethods = &g_methods;
  } else {
    s->~ShimFile();
  }
  return rc;
}

int Delete(sqlite3_vfs*, const char* name, int sync_dir) { return g_real->xDelete(g_real, name, sync_dir); }
int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  return g_real->xAccess(g_real, name, flags, out);
}
int FullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return g_real->xFullPathname(g_real, name, n, out);
}
void* DlOpen(sqlite3_vfs*, const char* name) { return g_real->xDlOpen(g_real, name); }
void DlError(sqlite3_vfs*, int n, char* out) { g_real->xDlError(g_real, n, out); }
void (*DlSym(sqlite3_vfs*, void* h, const char* sym))(void) { return g_real->xDlSym(g_real, h, sym); }
void DlClose(sqlite3_vfs*, void* h) { g_real->xDlClose(g_real, h); }
int Randomness(sqlite3_vfs*, int n, char* out) { return g_real->xRandomness(g_real, n, out); }
int Sleep(sqlite3_vfs*, int us) { return g_real->xSleep(g_real, us); }
int CurrentTime(sqlite3_vfs*, double* out) { return g_real->xCurrentTime(g_real, out); }
int GetLastError(sqlite3_vfs*, int n, char* out) { return g_real->xGetLastError(g_real, n, out); }
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) { return g_real->xCurrentTimeInt64(g_real, out); }

const char* Register() {
  sqlite3_initialize();
  g_real = sqlite3_vfs_find(nullptr);
  // Version 3 methods and version 2 VFS calls are what this shim forwards.
  if (g_real == nullptr || g_real->iVersion < 2) return nullptr;

  std::memset(&g_methods, 0, sizeof g_methods);
  g_methods.iVersion = 3;
  g_methods.xClose = Close;
  g_methods.xRead = Read;
  g_methods.xWrite = Write;
  g_methods.xTruncate = Truncate;
  g_methods.xSync = Sync;
  g_methods.xFileSize = FileSize;
  g_methods.xLock = Lock;
  g_methods.xUnlock = Unlock;
  g_methods.xCheckReservedLock = CheckReservedLock;
  g_methods.xFileControl = FileControl;
  g_methods.xSectorSize = SectorSize;
  g_methods.xDeviceCharacteristics = DeviceCharacteristics;
  g_methods.xShmMap = ShmMap;
  g_methods.xShmLock = ShmLock;
  g_methods.xShmBarrier = ShmBarrier;
  g_methods.xShmUnmap = ShmUnmap;
  g_methods.xFetch = Fetch;
  g_methods.xUnfetch = Unfetch;

  std::memset(&g_vfs, 0, sizeof g_vfs);
  g_vfs.iVersion = 2;
  g_vfs.szOsFile = static_cast<int>(RealOffset()) + g_real->szOsFile;
  g_vfs.mxPathname = g_real->mxPathname;
  g_vfs.zName = "service-wal-writes";
  g_vfs.xOpen = Open;
  g_vfs.xDelete = Delete;
  g_vfs.xAccess = Access;
  g_vfs.xFullPathname = FullPathname;
  g_vfs.xDlOpen = DlOpen;
  g_vfs.xDlError = DlError;
  g_vfs.xDlSym = DlSym;
  g_vfs.xDlClose = DlClose;
  g_vfs.xRandomness = Randomness;
  g_vfs.xSleep = Sleep;
  g_vfs.xCurrentTime = CurrentTime;
  g_vfs.xGetLastError = GetLastError;
  g_vfs.xCurrentTimeInt64 = CurrentTimeInt64;
  if (sqlite3_vfs_register(&g_vfs, /*makeDflt=*/0) != SQLITE_OK) return nullptr;
  return g_vfs.zName;
}

}  // namespace

const char* WalWriteVfsName() {
  static const char* const name = Register();
  return name;
}

}  // namespace service::store
