// SMTP / SMTPS delivery through libcurl.
#include <algorithm>
#include <cstring>

#include "adapters/curl_easy.h"
#include "adapters/mail/mailers.h"
#include "adapters/mail/message.h"
#include "util/strings.h"

namespace service::adapters::mail {
namespace {

struct Upload {
  const std::string* data = nullptr;
  size_t pos = 0;
};

size_t ReadBody(char* buffer, size_t size, size_t nitems, void* userdata) {
  auto* up = static_cast<Upload*>(userdata);
  const size_t n = std::min(size * nitems, up->data->size() - up->pos);
  std::memcpy(buffer, up->data->data() + up->pos, n);
  up->pos += n;
  return n;
}

// What the relay answered: the last reply line (e.g. "550 5.1.1 no such
// user"), whether DATA was accepted with 354, and whether any reply came
// after that 354 (the answer to the message itself). Only server-to-client
// text is looked at: what the client sends (AUTH) is never recorded.
struct Replies {
  std::string last;
  bool data_accepted = false;  // a 354 arrived
  bool after_data = false;     // a reply arrived after the 354
};

int OnDebug(CURL*, curl_infotype type, char* data, size_t size, void* userdata) {
  if (type != CURLINFO_HEADER_IN) return 0;
  auto* replies = static_cast<Replies*>(userdata);
  std::string line;
  for (size_t i = 0; i < size && line.size() < 200; ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (c == '\r' || c == '\n') break;
    line += (c >= 0x20 && c < 0x7F) ? static_cast<char>(c) : '?';
  }
  if (line.empty()) return 0;
  if (replies->data_accepted) {
    replies->after_data = true;
  } else if (line.starts_with("354")) {
    replies->data_accepted = true;
  }
  replies->last = std::move(line);
  return 0;
}

// Authentication refusals are configuration problems an operator can fix:
// keep the mail and retry rather than fail it for good.
bool IsAuthReply(long reply) { return reply == 530 || reply == 534 || reply == 535 || reply == 538; }

class SmtpMailer final : public ports::Mailer {
 public:
  SmtpMailer(MailUrl url, Mailbox from, std::string domain, int64_t timeout_ms)
      : url_(std::move(url)), from_(std::move(from)), domain_(std::move(domain)), timeout_ms_(timeout_ms) {
    const bool tls = url_.scheme == MailScheme::kSmtps;
    where_ = std::string(tls ? "smtps://" : "smtp://") + url_.host +
             (url_.port ? ":" + std::to_string(url_.port) : "");
    // The path names the EHLO domain; credentials travel separately, never in the URL.
    curl_url_ = where_ + "/" + domain_;
  }

  std::string_view provider() const override { return url_.scheme == MailScheme::kSmtps ? "smtps" : "smtp"; }

  Status Send(const ports::OutgoingMail& mail) override {
    SV_ASSIGN_OR_RETURN(const std::string data, ComposeMessage(mail, from_, domain_));
    auto h = curl::NewEasy({.protocols = "smtp,smtps",
                            .timeout_ms = static_cast<long>(timeout_ms_),
                            .connect_timeout_ms = static_cast<long>(timeout_ms_)});
    if (!h.ok()) return ports::TransientMailFailure(where_ + ": cannot initialise libcurl");
    curl::List rcpt;
    if (!curl::Append(rcpt, "<" + mail.to + ">"))
      return ports::TransientMailFailure(where_ + ": out of memory");
    const std::string mail_from = "<" + from_.address + ">";
    Upload upload{&data, 0};
    Replies replies;
    char errbuf[CURL_ERROR_SIZE] = {0};

    CURL* c = h->get();
    curl_easy_setopt(c, CURLOPT_URL, curl_url_.c_str());
    curl_easy_setopt(c, CURLOPT_USE_SSL,
                     static_cast<long>(url_.scheme == MailScheme::kSmtps ? CURLUSESSL_ALL : CURLUSESSL_TRY));
    if (url_.has_credentials) {
      curl_easy_setopt(c, CURLOPT_USERNAME, url_.user.c_str());
      curl_easy_setopt(c, CURLOPT_PASSWORD, url_.password.c_str());
    }
    curl_easy_setopt(c, CURLOPT_MAIL_FROM, mail_from.c_str());
    curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt.get());
    curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, &ReadBody);
    curl_easy_setopt(c, CURLOPT_READDATA, &upload);
    curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(data.size()));
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, &OnDebug);
    curl_easy_setopt(c, CURLOPT_DEBUGDATA, &replies);
    curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);  // feeds OnDebug only; nothing is printed

    const CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK) return Status::Ok();

    long reply = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply);
    std::string message = where_ + ": " + curl_easy_strerror(rc);
    if (errbuf[0] != '\0') message += " (" + std::string(errbuf) + ")";
    if (!replies.last.empty()) message += "; server said: " + replies.last;
    message = Redact(std::move(message));
    // The relay took DATA, the whole message went out (the final dot
    // follows the last byte read), and then no answer came: it may or may
    // not have accepted the message.
    if (replies.data_accepted && !replies.after_data && upload.pos == data.size()) {
      return ports::OutcomeUnknownMailFailure(message + " (after the message was sent; outcome unknown)");
    }
    const bool permanent = reply >= 500 && reply < 600 && !IsAuthReply(reply) && rc != CURLE_LOGIN_DENIED;
    return permanent ? ports::PermanentMailFailure(std::move(message))
                     : ports::TransientMailFailure(std::move(message));
  }

 private:
  // Defence in depth: the credentials are never put into messages, but a
  // relay could echo them back.
  std::string Redact(std::string s) const {
    if (url_.password.size() < 3) return s;
    for (const std::string& secret : {url_.password, util::UrlEncode(url_.password)}) {
      for (size_t pos = s.find(secret); pos != std::string::npos; pos = s.find(secret, pos + 3))
        s.replace(pos, secret.size(), "***");
    }
    return s;
  }

  const MailUrl url_;
  const Mailbox from_;
  const std::string domain_;
  const int64_t timeout_ms_;
  std::string where_;
  std::string curl_url_;
};

}  // namespace

std::unique_ptr<ports::Mailer> NewSmtpMailer(MailUrl url, Mailbox from, std::string domain,
                                             int64_t timeout_ms) {
  return std::make_unique<SmtpMailer>(std::move(url), std::move(from), std::move(domain), timeout_ms);
}

}  // namespace service::adapters::mail
