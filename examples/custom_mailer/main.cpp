// custom_mailer: an embedder supplies a port of their own through the public
// API. Here the Mailer: instead of SMTP, the service hands every message to
// the embedder's code (their mail API, a queue, a chat bot...). This one
// keeps the messages in memory and prints them.
//
//   custom_mailer [DATABASE_URL]     default: sqlite::memory:
//
// Registers an account through the API (with email verification on, which
// queues a verification mail in the service's outbox), starts the background
// workers and waits until the service's mail worker has delivered the mail
// through the custom Mailer. Exits 0 when the verification link arrived.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "service/http.h"
#include "service/mailer.h"
#include "service/options.h"
#include "service/service.h"

namespace {

// The embedder's Mailer. Send is called from the service's mail worker;
// returning a failure makes the service retry later (or give up on a
// PermanentMailFailure).
class InMemoryMailer final : public service::Mailer {
 public:
  service::Status Send(const service::OutgoingMail& mail) override {
    std::lock_guard<std::mutex> lock(mu_);
    sent_.push_back(mail);
    cv_.notify_all();
    return service::Status::Ok();
  }
  std::string_view provider() const override { return "in-memory"; }

  // Waits up to `timeout` for a first message.
  bool WaitForMail(std::chrono::milliseconds timeout, service::OutgoingMail* out) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, timeout, [&] { return !sent_.empty(); })) return false;
    *out = sent_.front();
    return true;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<service::OutgoingMail> sent_;
};

}  // namespace

int main(int argc, char** argv) {
  auto mailer = std::make_shared<InMemoryMailer>();

  service::Options options;
  options.database_url = argc > 1 ? argv[1] : "sqlite::memory:";
  options.public_url = "https://bugs.example.com";
  options.mailer = mailer;  // instead of mail_url
  options.require_email_verification = true;

  auto opened = service::Service::Open(std::move(options));
  if (!opened.ok()) {
    std::fprintf(stderr, "custom_mailer: cannot open the service: %s\n", opened.status().ToString().c_str());
    return 1;
  }
  std::unique_ptr<service::Service> svc = std::move(opened).value();
  if (service::Status s = svc->StartWorkers(); !s.ok()) {
    std::fprintf(stderr, "custom_mailer: %s\n", s.ToString().c_str());
    return 1;
  }

  service::api::Request request;
  request.method = "POST";
  request.path = "/v1/auth/register";
  request.headers.Add("Content-Type", "application/json");
  request.remote_addr = "127.0.0.1";
  request.body =
      R"({"email":"ada@example.com","password":"correct horse battery","name":"Ada","orgName":"Analytical"})";
  service::api::Response response = svc->Handle(request);
  std::printf("POST /v1/auth/register -> %d\n", response.status);
  if (response.status != 201) {
    std::fprintf(stderr, "%s\n", response.body.c_str());
    return 1;
  }

  service::OutgoingMail mail;
  const bool delivered = mailer->WaitForMail(std::chrono::seconds(10), &mail);
  svc->Shutdown();
  if (!delivered) {
    std::fprintf(stderr, "custom_mailer: no mail reached the custom Mailer\n");
    return 1;
  }
  std::printf("mail to %s: %s\n%s\n", mail.to.c_str(), mail.subject.c_str(), mail.text.c_str());
  const bool has_link = mail.text.find("https://bugs.example.com/verify-email#token=") != std::string::npos;
  return mail.to == "ada@example.com" && has_link ? 0 : 1;
}
