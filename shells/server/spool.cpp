#include "spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace service::shell {
namespace {

// The spooled body, read back from its file; removes the file at the end
// unless the handler kept it.
class FileBodySource final : public api::BodySource {
 public:
  FileBodySource(int fd, std::string path, uint64_t size) : fd_(fd), path_(std::move(path)), size_(size) {}
  ~FileBodySource() override {
    if (fd_ >= 0) ::close(fd_);
    if (!kept_) ::unlink(path_.c_str());
  }
  uint64_t size() const override { return size_; }
  int64_t Read(char* buf, size_t n) override {
    for (;;) {
      const ssize_t got = ::read(fd_, buf, n);
      if (got < 0 && errno == EINTR) continue;
      return got < 0 ? -1 : static_cast<int64_t>(got);
    }
  }
  bool Rewind() override { return ::lseek(fd_, 0, SEEK_SET) == 0; }
  const std::string* path() const override { return &path_; }
  void Keep() override { kept_ = true; }

 private:
  int fd_;
  std::string path_;
  uint64_t size_;
  bool kept_ = false;
};

}  // namespace

std::unique_ptr<SpoolFile> SpoolFile::Create(const std::string& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::path folder =
      dir.empty() ? std::filesystem::temp_directory_path(ec) : std::filesystem::path(dir);
  if (ec) {
    *error = "no temporary folder: " + ec.message();
    return nullptr;
  }
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    *error = "cannot create the spool folder " + folder.string() + ": " + ec.message();
    return nullptr;
  }
  std::string pattern = (folder / "upload-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot create a spool file in " + folder.string() + ": " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<SpoolFile>(new SpoolFile(fd, std::string(name.data())));
}

SpoolFile::~SpoolFile() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(path_.c_str());
}

bool SpoolFile::Write(const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd_, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += w;
    n -= static_cast<size_t>(w);
    size_ += static_cast<uint64_t>(w);
  }
  return true;
}

std::shared_ptr<api::BodySource> SpoolFile::Finish() {
  if (::lseek(fd_, 0, SEEK_SET) != 0) return nullptr;
  auto source = std::make_shared<FileBodySource>(fd_, std::move(path_), size_);
  fd_ = -1;
  return source;
}

}  // namespace service::shell
