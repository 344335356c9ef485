// The file provider: one .eml file per message, written atomically.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <system_error>

#include "adapters/mail/mailers.h"
#include "adapters/mail/message.h"

namespace service::adapters::mail {
namespace {

std::string ErrnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

// Writes all of `data` to a new file at `path` (mode 0600: messages carry
// tokens) and syncs it. Returns an errno text on failure.
std::string WriteNewFile(const std::string& path, const std::string& data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return ErrnoText(errno);
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return ErrnoText(err);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoText(err);
  }
  if (::close(fd) != 0) return ErrnoText(errno);
  return "";
}

class FileMailer final : public ports::Mailer {
 public:
  FileMailer(MailUrl url, Mailbox from, std::string domain)
      : dir_(std::move(url.dir)), from_(std::move(from)), domain_(std::move(domain)) {}

  std::string_view provider() const override { return "file"; }

  Status Send(const ports::OutgoingMail& mail) override {
    SV_ASSIGN_OR_RETURN(const std::string data, ComposeMessage(mail, from_, domain_));
    std::string name;
    for (char c : mail.id)
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') name += c;
    if (name.empty()) return ports::PermanentMailFailure("file: the message has no usable id");

    const std::filesystem::path dir(dir_);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
      return ports::TransientMailFailure("file: cannot create the mail folder " + dir_ + ": " + ec.message());

    static std::atomic<uint64_t> counter{0};
    // Hidden and without the .eml suffix: readers looking for *.eml skip it.
    const std::string tmp = (dir / ("." + name + ".tmp-" + std::to_string(::getpid()) + "-" +
                                    std::to_string(counter.fetch_add(1))))
                                .string();
    const std::string final_path = (dir / (name + ".eml")).string();
    if (std::string err = WriteNewFile(tmp, data); !err.empty()) {
      ::unlink(tmp.c_str());
      return ports::TransientMailFailure("file: cannot write " + tmp + ": " + err);
    }
    if (::rename(tmp.c_str(), final_path.c_str()) != 0) {
      const int err = errno;
      ::unlink(tmp.c_str());
      return ports::TransientMailFailure("file: cannot rename to " + final_path + ": " + ErrnoText(err));
    }
    // Make the rename itself durable before the outbox marks the mail done.
    const int dfd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
    return Status::Ok();
  }

 private:
  const std::string dir_;
  const Mailbox from_;
  const std::string domain_;
};

}  // namespace

std::unique_ptr<ports::Mailer> NewFileMailer(MailUrl url, Mailbox from, std::string domain) {
  return std::make_unique<FileMailer>(std::move(url), std::move(from), std::move(domain));
}

}  // namespace service::adapters::mail
