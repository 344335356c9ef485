// Notification rules that need no I/O (Spec 1 "Notification preferences",
// "Bugs: write"): how a member's preferences route one notification to
// email, when a digest is due, and which addresses a comment mentions.
//
// Email routing (documented in the README):
//   emailLevel off                  no email
//   emailLevel digest               every notification waits for a digest
//                                   (hourly unless digestFreq is daily)
//   full or notification, realtime  one email per notification
//   full or notification, hourly or daily
//                                   waits for a digest of that period
// `full` emails carry the notification's body (the comment text, the
// note); `notification` emails carry its title and link only.
// A digest gathers what waited during one UTC clock hour (hourly) or UTC
// day (daily) and is due once that hour or day is over.
//
// Pure; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::triage {

bool IsEmailLevel(std::string_view s);  // full, notification, digest, off
bool IsDigestFreq(std::string_view s);  // realtime, hourly, daily
// The notification types of Spec 1: assigned, comment, mention, status_changed.
bool IsNotificationType(std::string_view s);

enum class EmailRoute { kNone, kNow, kDigest };
EmailRoute RouteEmail(std::string_view email_level, std::string_view digest_freq);

// The digest period in milliseconds for the member's preferences (hour or
// day); 0 when the member has no digest.
// `hourly_ms` and `daily_ms` are the configured lengths (SERVICE_DIGEST_PERIODS).
int64_t DigestPeriodMs(std::string_view email_level, std::string_view digest_freq,
                       int64_t hourly_ms = 3'600'000, int64_t daily_ms = 86'400'000);
// True when the digest holding an item waiting since `oldest_at_ms` is due
// at `now_ms`: the period (aligned to UTC) containing oldest_at has ended.
bool DigestDue(int64_t period_ms, int64_t oldest_at_ms, int64_t now_ms);

// The distinct email addresses written as "@address" in `text`, lower-cased,
// in order of first appearance. An address is one or more of
// [A-Za-z0-9._%+-] before "@", a domain of labels [A-Za-z0-9-] joined by
// dots with at least one dot; a trailing dot (end of sentence) is not part
// of it. At most `max` addresses.
std::vector<std::string> MentionedEmails(std::string_view text, size_t max = 50);

}  // namespace service::domain::triage
