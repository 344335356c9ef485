// A VFS shim over SQLite's default VFS that coalesces a transaction's WAL
// writes into one write() call.
//
// SQLite appends each WAL frame with two writes (a 24-byte header, then the
// page), so a commit of 200 pages costs 400 system calls; on the ingest path
// those calls were a seventh of the server's CPU time. Through this VFS,
// appends to a "-wal" file are gathered in memory and written at once when
// the commit publishes them.
//
// Why that is exactly as safe as SQLite's own writes:
//  - A commit becomes visible to readers only when the writer rewrites the
//    WAL-index header, and SQLite issues xShmBarrier on the database file
//    between the two copies of that header (readers accept a header only
//    when both copies match). The shim writes every buffered frame to the
//    file in that barrier, so no reader (in this process or another) and no
//    checkpointer can see a frame that is not in the file yet.
//  - Any other access to a WAL file with buffered bytes (a read, a write that
//    does not append, a sync, a truncate, a size query, a close) writes the
//    buffer first, so the file reads as if every write had gone straight
//    through.
//  - Durability is unchanged: with synchronous=NORMAL SQLite does not sync
//    the WAL at commit anyway; the bytes are in the operating system's cache
//    before COMMIT returns, so a crash of the process loses nothing that was
//    acknowledged.
//
// Thread-safety: registration is idempotent and thread-safe; each file's
// buffer has its own mutex (a barrier may come from another connection's
// thread).
#pragma once

namespace service::store {

// The name of the VFS (registered, not made the default, on first call).
// Returns nullptr if registration failed; callers then use the default VFS.
const char* WalWriteVfsName();

}  // namespace service::store
