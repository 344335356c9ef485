// The filesystem BlobStore (adapters/fs_blob_store.h).
#include "adapters/fs_blob_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

#include "util/crypto.h"

namespace service::adapters {
namespace {

constexpr std::string_view kKeyPrefix = "sha256/";
constexpr std::string_view kTempPrefix = "put-";
constexpr std::string_view kTempSuffix = ".part";
// A temporary file of a Put older than this is a crash's leftover.
constexpr int64_t kStaleTempSeconds = 3600;

bool IsLowerHex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// The digest text lower-cased when it is 64 hex digits, else "".
std::string NormalizeDigest(std::string_view s) {
  if (s.size() != 64) return {};
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  return IsLowerHex64(out) ? out : std::string();
}

Status BadKey() { return Status(Code::kInvalidArgument, "Malformed blob key", ports::kBlobBadKey); }

Status Mismatch(std::string message) {
  return Status(Code::kInvalidArgument, std::move(message), ports::kBlobMismatch);
}

Status Errno(const std::string& what) {
  return Internal("blob store: " + what + ": " + std::strerror(errno));
}

// mkdir that accepts an existing folder.
bool MakeDir(const std::string& path) { return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST; }

// fsync of a folder (so a rename or a new entry in it survives a crash).
void SyncDir(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

bool WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

class Sha256Stream {
 public:
  Sha256Stream() : ctx_(EVP_MD_CTX_new()) {
    if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1) ok_ = false;
  }
  ~Sha256Stream() { EVP_MD_CTX_free(ctx_); }
  Sha256Stream(const Sha256Stream&) = delete;
  Sha256Stream& operator=(const Sha256Stream&) = delete;

  void Update(const char* p, size_t n) {
    if (ok_ && EVP_DigestUpdate(ctx_, p, n) != 1) ok_ = false;
  }
  // 64 lower-case hex digits, or "" on a failure of OpenSSL.
  std::string HexDigest() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!ok_ || EVP_DigestFinal_ex(ctx_, md, &len) != 1) return {};
    return util::HexEncode(std::string_view(reinterpret_cast<const char*>(md), len));
  }

 private:
  EVP_MD_CTX* ctx_;
  bool ok_ = true;
};

class FsBlobReader final : public ports::BlobReader {
 public:
  FsBlobReader(int fd, uint64_t size) : fd_(fd), size_(size) {}
  ~FsBlobReader() override { ::close(fd_); }
  uint64_t size() const override { return size_; }
  int64_t Read(char* buf, size_t n) override {
    while (true) {
      const ssize_t r = ::read(fd_, buf, n);
      if (r < 0 && errno == EINTR) continue;
      return r < 0 ? -1 : static_cast<int64_t>(r);
    }
  }

 private:
  int fd_;
  uint64_t size_;
};

class FsBlobStore final : public ports::BlobStore {
 public:
  explicit FsBlobStore(std::string dir)
      : dir_(std::move(dir)), blobs_(dir_ + "/blobs"), tmp_(dir_ + "/tmp") {}

  Status Init() {
    if (!MakeDir(dir_) || !MakeDir(blobs_) || !MakeDir(tmp_)) {
      return Internal("evidence folder " + dir_ + " cannot be created: " + std::strerror(errno));
    }
    if (::access(blobs_.c_str(), W_OK) != 0 || ::access(tmp_.c_str(), W_OK) != 0) {
      return Internal("evidence folder " + dir_ + " is not writable");
    }
    RemoveStaleTemps();
    return Status::Ok();
  }

  Result<std::string> KeyFor(std::string_view sha256_hex) const override {
    const std::string digest = NormalizeDigest(sha256_hex);
    if (digest.empty()) return BadKey();
    return std::string(kKeyPrefix) + digest;
  }

  Result<ports::BlobRef> Put(ports::ByteSource& source, uint64_t expected_size,
                             std::string_view expected_sha256) override {
    const std::string expected = NormalizeDigest(expected_sha256);
    if (expected.empty()) return BadKey();
    const std::string temp = NewTempPath();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return Errno("create a temporary file");
    // From here every failure removes the temporary file.
    auto fail = [&](Status s) -> Result<ports::BlobRef> {
      ::close(fd);
      ::unlink(temp.c_str());
      return s;
    };
    Sha256Stream hash;
    std::vector<char> buf(kBlobChunkBytes);
    uint64_t total = 0;
    while (true) {
      const int64_t n = source.Read(buf.data(), buf.size());
      if (n < 0) return fail(Internal("blob store: the source failed while reading"));
      if (n == 0) break;
      total += static_cast<uint64_t>(n);
      if (total > expected_size) {
        return fail(Mismatch("The content is longer than the declared byteCount"));
      }
      hash.Update(buf.data(), static_cast<size_t>(n));
      if (!WriteAll(fd, buf.data(), static_cast<size_t>(n))) return fail(Errno("write a temporary file"));
    }
    if (total != expected_size) return fail(Mismatch("The content is shorter than the declared byteCount"));
    const std::string digest = hash.HexDigest();
    if (digest.empty()) return fail(Internal("blob store: SHA-256 failed"));
    if (digest != expected) return fail(Mismatch("The content's SHA-256 is not the declared sha256"));
    if (::fsync(fd) != 0) return fail(Errno("fsync a temporary file"));
    if (::close(fd) != 0) {
      ::unlink(temp.c_str());
      return Errno("close a temporary file");
    }
    const std::string folder = FolderOf(digest);
    bool made = false;
    if (::mkdir(folder.c_str(), 0700) == 0) {
      made = true;
    } else if (errno != EEXIST) {
      ::unlink(temp.c_str());
      return Errno("create a blob folder");
    }
    if (made) SyncDir(blobs_);
    // Atomic: an existing blob of the same digest (the same bytes) is
    // replaced by an identical one; a reader sees either whole.
    if (::rename(temp.c_str(), PathOf(digest).c_str()) != 0) {
      const Status s = Errno("rename a blob into place");
      ::unlink(temp.c_str());
      return s;
    }
    SyncDir(folder);
    return ports::BlobRef{std::string(kKeyPrefix) + digest, total, digest};
  }

  Result<std::unique_ptr<ports::BlobReader>> Open(std::string_view key) override {
    SV_ASSIGN_OR_RETURN(const std::string digest, DigestOfKey(key));
    const int fd = ::open(PathOf(digest).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return NotFound("Blob not found");
      return Errno("open a blob");
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const Status s = Errno("stat a blob");
      ::close(fd);
      return s;
    }
    return std::unique_ptr<ports::BlobReader>(new FsBlobReader(fd, static_cast<uint64_t>(st.st_size)));
  }

  Result<bool> Exists(std::string_view key) override {
    SV_ASSIGN_OR_RETURN(const std::string digest, DigestOfKey(key));
    struct stat st {};
    if (::stat(PathOf(digest).c_str(), &st) == 0) return true;
    if (errno == ENOENT) return false;
    return Errno("stat a blob");
  }

  Status Delete(std::string_view key) override {
    SV_ASSIGN_OR_RETURN(const std::string digest, DigestOfKey(key));
    if (::unlink(PathOf(digest).c_str()) != 0 && errno != ENOENT) return Errno("delete a blob");
    SyncDir(FolderOf(digest));
    return Status::Ok();
  }

 private:
  // The digest a well-formed key names ("sha256/<64 lower-case hex>").
  static Result<std::string> DigestOfKey(std::string_view key) {
    if (key.substr(0, kKeyPrefix.size()) != kKeyPrefix) return BadKey();
    const std::string_view digest = key.substr(kKeyPrefix.size());
    if (!IsLowerHex64(digest)) return BadKey();
    return std::string(digest);
  }

  std::string FolderOf(const std::string& digest) const { return blobs_ + "/" + digest.substr(0, 2); }
  std::string PathOf(const std::string& digest) const { return FolderOf(digest) + "/" + digest; }

  std::string NewTempPath() const {
    unsigned char r[12];
    if (RAND_bytes(r, sizeof r) != 1) {
      // O_EXCL still keeps two Puts apart; the name only needs to differ.
      const uint64_t t = static_cast<uint64_t>(std::time(nullptr)) ^ static_cast<uint64_t>(::getpid());
      std::memcpy(r, &t, sizeof t);
    }
    return tmp_ + "/" + std::string(kTempPrefix) +
           util::HexEncode(std::string_view(reinterpret_cast<const char*>(r), sizeof r)) +
           std::string(kTempSuffix);
  }

  void RemoveStaleTemps() const {
    DIR* d = ::opendir(tmp_.c_str());
    if (d == nullptr) return;
    const time_t now = std::time(nullptr);
    while (const dirent* e = ::readdir(d)) {
      const std::string_view name = e->d_name;
      if (name.substr(0, kTempPrefix.size()) != kTempPrefix || name.size() <= kTempSuffix.size() ||
          name.substr(name.size() - kTempSuffix.size()) != kTempSuffix) {
        continue;
      }
      const std::string path = tmp_ + "/" + std::string(name);
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime >= kStaleTempSeconds) {
        ::unlink(path.c_str());
      }
    }
    ::closedir(d);
  }

  const std::string dir_;
  const std::string blobs_;
  const std::string tmp_;
};

}  // namespace

Result<std::unique_ptr<ports::BlobStore>> OpenFsBlobStore(const std::string& dir) {
  if (dir.empty()) return InvalidArgument("evidence folder: empty path");
  auto store = std::make_unique<FsBlobStore>(dir);
  SV_RETURN_IF_ERROR(store->Init());
  return std::unique_ptr<ports::BlobStore>(std::move(store));
}

}  // namespace service::adapters
