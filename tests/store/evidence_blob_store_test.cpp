// The filesystem BlobStore (adapters/fs_blob_store.h, ports/blob_store.h):
// content addressing (a key from the digest only, one file for the same
// bytes twice), exact size and digest or nothing stored, no half-written
// file visible after a failure or a crash, streamed reads in chunks,
// deletion, and the folder layout under SERVICE_EVIDENCE_DIR.
#include <doctest/doctest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "adapters/fs_blob_store.h"
#include "support/accounts.h"
#include "util/crypto.h"

namespace service::adapters {
namespace {

using testing::FreshTempDir;

// Every regular file under `dir`, as paths relative to it.
std::vector<std::string> FilesUnder(const std::string& dir, const std::string& prefix = "") {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      for (auto& f : FilesUnder(path, prefix + name + "/")) out.push_back(std::move(f));
    } else {
      out.push_back(prefix + name);
    }
  }
  ::closedir(d);
  return out;
}

std::unique_ptr<ports::BlobStore> Open(const std::string& dir) {
  auto s = OpenFsBlobStore(dir);
  REQUIRE_MESSAGE(s.ok(), s.status().ToString());
  return std::move(*s);
}

std::string ReadAll(ports::BlobReader& r, size_t* chunks = nullptr) {
  std::string out;
  std::vector<char> buf(kBlobChunkBytes);
  size_t n_chunks = 0;
  while (true) {
    const int64_t n = r.Read(buf.data(), buf.size());
    REQUIRE(n >= 0);
    if (n == 0) break;
    ++n_chunks;
    out.append(buf.data(), static_cast<size_t>(n));
  }
  if (chunks) *chunks = n_chunks;
  return out;
}

// A source that yields `bytes` and then fails (a client that went away, a
// crash of the spool).
class FailingSource final : public ports::ByteSource {
 public:
  explicit FailingSource(std::string bytes) : bytes_(std::move(bytes)) {}
  int64_t Read(char* buf, size_t n) override {
    if (pos_ >= bytes_.size()) return -1;
    const size_t take = std::min(n, bytes_.size() - pos_);
    std::copy(bytes_.data() + pos_, bytes_.data() + pos_ + take, buf);
    pos_ += take;
    return static_cast<int64_t>(take);
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

TEST_CASE("blob store: a put stores the exact bytes under a key from their digest, read back in chunks") {
  const std::string dir = FreshTempDir("blobs");
  auto store = Open(dir);
  std::string bytes(3 * kBlobChunkBytes + 17, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + 3);
  const std::string sha = util::Sha256Hex(bytes);
  ports::StringByteSource src(bytes);
  Result<ports::BlobRef> ref = store->Put(src, bytes.size(), sha);
  REQUIRE_MESSAGE(ref.ok(), ref.status().ToString());
  CHECK(ref->size == bytes.size());
  CHECK(ref->sha256 == sha);
  CHECK(ref->key == "sha256/" + sha);
  CHECK(store->KeyFor(sha).value() == ref->key);
  CHECK(store->Exists(ref->key).value());
  // The file's name is the digest: nothing from a caller names a path.
  CHECK(FilesUnder(dir) == std::vector<std::string>{"blobs/" + sha.substr(0, 2) + "/" + sha});
  struct stat st {};
  REQUIRE(::stat((dir + "/blobs/" + sha.substr(0, 2) + "/" + sha).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);

  auto reader = store->Open(ref->key);
  REQUIRE(reader.ok());
  CHECK((*reader)->size() == bytes.size());
  size_t chunks = 0;
  CHECK(ReadAll(**reader, &chunks) == bytes);
  CHECK(chunks == 4);  // never the whole blob in one read
}

TEST_CASE("blob store: the same bytes put twice are one file") {
  const std::string dir = FreshTempDir("blobs");
  auto store = Open(dir);
  const std::string bytes = "the same log line\n";
  const std::string sha = util::Sha256Hex(bytes);
  for (int i = 0; i < 2; ++i) {
    ports::StringByteSource src(bytes);
    std::string upper = sha;  // the digest's case does not matter
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    REQUIRE(store->Put(src, bytes.size(), i == 0 ? upper : sha).ok());
  }
  CHECK(FilesUnder(dir).size() == 1);
  // Concurrent puts of the same bytes race harmlessly.
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      ports::StringByteSource src(bytes);
      CHECK(store->Put(src, bytes.size(), sha).ok());
    });
  }
  for (auto& t : threads) t.join();
  CHECK(FilesUnder(dir).size() == 1);
  auto reader = store->Open("sha256/" + sha);
  REQUIRE(reader.ok());
  CHECK(ReadAll(**reader) == bytes);
}

TEST_CASE("blob store: other bytes than declared store nothing") {
  const std::string dir = FreshTempDir("blobs");
  auto store = Open(dir);
  const std::string bytes = "0123456789";
  const std::string sha = util::Sha256Hex(bytes);
  struct Case {
    const char* name;
    std::string body;
    uint64_t size;
    std::string sha;
  };
  const Case cases[] = {
      {"shorter", "012345678", 10, sha},
      {"longer", "0123456789X", 10, sha},
      {"same length, other bytes", "0123456780", 10, sha},
      {"other digest", bytes, 10, util::Sha256Hex("other")},
      {"empty", "", 10, sha},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    ports::StringByteSource src(c.body);
    Result<ports::BlobRef> r = store->Put(src, c.size, c.sha);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kInvalidArgument);
    CHECK(r.status().error_code() == ports::kBlobMismatch);
    CHECK(FilesUnder(dir).empty());
    CHECK_FALSE(store->Exists("sha256/" + c.sha).value());
  }
  ports::StringByteSource src(bytes);
  CHECK(store->Put(src, 10, "not-a-digest").status().error_code() == ports::kBlobBadKey);
}

TEST_CASE("blob store: a source failing midway or a crash leaves no half-written blob visible") {
  const std::string dir = FreshTempDir("blobs");
  auto store = Open(dir);
  const std::string bytes(200 * 1024, 'x');
  const std::string sha = util::Sha256Hex(bytes);
  FailingSource failing(bytes.substr(0, 100 * 1024));
  Result<ports::BlobRef> r = store->Put(failing, bytes.size(), sha);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == Code::kInternal);
  CHECK(FilesUnder(dir).empty());  // the temporary file went too
  CHECK_FALSE(store->Exists("sha256/" + sha).value());
  CHECK(store->Open("sha256/" + sha).status().code() == Code::kNotFound);

  // A crash mid-put leaves a temporary file in tmp/: never visible under a
  // key, and removed when a store opens the folder once it is an hour old
  // (a younger one may be another process's put in progress).
  const std::string stale = dir + "/tmp/put-0123456789abcdef.part";
  const std::string young = dir + "/tmp/put-fedcba9876543210.part";
  const std::string spool = dir + "/tmp/spool-upload-1";  // a transport's, not ours
  for (const std::string& p : {stale, young, spool}) std::ofstream(p) << bytes.substr(0, 1000);
  const struct timeval old_times[2] = {{std::time(nullptr) - 7200, 0}, {std::time(nullptr) - 7200, 0}};
  REQUIRE(::utimes(stale.c_str(), old_times) == 0);
  REQUIRE(::utimes(spool.c_str(), old_times) == 0);
  CHECK_FALSE(store->Exists("sha256/" + sha).value());
  auto reopened = Open(dir);
  const std::vector<std::string> left = FilesUnder(dir);
  CHECK(std::find(left.begin(), left.end(), "tmp/put-0123456789abcdef.part") == left.end());
  CHECK(std::find(left.begin(), left.end(), "tmp/put-fedcba9876543210.part") != left.end());
  CHECK(std::find(left.begin(), left.end(), "tmp/spool-upload-1") != left.end());
  ::unlink(young.c_str());
  ::unlink(spool.c_str());
  // The complete bytes then store normally.
  ports::StringByteSource src(bytes);
  CHECK(reopened->Put(src, bytes.size(), sha).ok());
  CHECK(FilesUnder(dir).size() == 1);
}

TEST_CASE("blob store: malformed keys are refused, deletion removes the blob, an open reader keeps reading") {
  const std::string dir = FreshTempDir("blobs");
  auto store = Open(dir);
  for (const char* bad : {"", "sha256/", "../etc/passwd", "sha256/../../x", "sha256/ABCDEF",
                          "md5/0123456789abcdef0123456789abcdef"}) {
    CAPTURE(bad);
    CHECK(store->Open(bad).status().error_code() == ports::kBlobBadKey);
    CHECK(store->Exists(bad).status().error_code() == ports::kBlobBadKey);
    CHECK(store->Delete(bad).error_code() == ports::kBlobBadKey);
  }
  const std::string sha(64, 'a');
  CHECK(store->Open("sha256/" + sha).status().code() == Code::kNotFound);
  CHECK(store->Delete("sha256/" + sha).ok());  // absent: fine

  const std::string bytes = "evidence";
  ports::StringByteSource src(bytes);
  Result<ports::BlobRef> ref = store->Put(src, bytes.size(), util::Sha256Hex(bytes));
  REQUIRE(ref.ok());
  auto reader = store->Open(ref->key);
  REQUIRE(reader.ok());
  CHECK(store->Delete(ref->key).ok());
  CHECK_FALSE(store->Exists(ref->key).value());
  CHECK(ReadAll(**reader) == bytes);
  CHECK(FilesUnder(dir).empty());
}

TEST_CASE("blob store: a folder that cannot be made is an error naming it") {
  const std::string dir = FreshTempDir("blobs");
  std::ofstream(dir + "/file") << "x";
  Result<std::unique_ptr<ports::BlobStore>> s = OpenFsBlobStore(dir + "/file/sub");
  REQUIRE_FALSE(s.ok());
  CHECK(s.status().code() == Code::kInternal);
  CHECK(s.status().message().find(dir + "/file/sub") != std::string::npos);
}

}  // namespace
}  // namespace service::adapters
