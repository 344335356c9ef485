// Symbol files (issue 30 item 5, Spec 2 "Symbol publishing"): what a stored
// file is, read by the service itself, never taken from the publisher.
//
// Identify reads a file's format, architecture and identifier:
//  - ELF (32 and 64 bit, either byte order): the architecture from e_machine
//    (with the class and byte order), the identifier from the GNU build-id
//    note (type NT_GNU_BUILD_ID, owner "GNU"): first in the PT_NOTE
//    segments, else in the SHT_NOTE sections (relocatable objects, debug
//    files without program headers). The identifier is the note's bytes in
//    lower-case hex (e.g. 40 characters for a SHA-1 build id).
//  - Mach-O, thin (32 and 64 bit, either byte order) and fat/universal
//    (FAT_MAGIC and FAT_MAGIC_64, 1 to 20 slices): each slice's
//    architecture from its own header's cputype and cpusubtype (a fat
//    table entry that disagrees with its slice is malformed), its
//    identifier from LC_UUID as a lower-case hyphenated UUID.
// Everything else is refused with a reason (kReason*): another format
// (PE, Java class files, archives, text...), a file too short for what its
// headers describe (truncated), inconsistent headers (malformed), no
// build-id note or LC_UUID (no_identifier), an architecture outside the
// table (unsupported_architecture).
//
// CheckDeclared compares what the publisher declared (a debug id, an
// architecture) with what was read.
//
// Pure: the bytes come through FileBytes (a string in tests, the blob store
// in app/). Thread-safety: plain functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace service::domain::symbols {

// Refusal reasons (the `reason` of a rejected symbol file).
inline constexpr std::string_view kReasonUnsupportedFormat = "unsupported_format";
inline constexpr std::string_view kReasonTruncated = "truncated";
inline constexpr std::string_view kReasonMalformed = "malformed";
inline constexpr std::string_view kReasonNoIdentifier = "no_identifier";
inline constexpr std::string_view kReasonUnsupportedArchitecture = "unsupported_architecture";
inline constexpr std::string_view kReasonIdentifierMismatch = "identifier_mismatch";
inline constexpr std::string_view kReasonArchitectureMismatch = "architecture_mismatch";
inline constexpr std::string_view kReasonContentMissing = "content_missing";

// Random access to a file's bytes.
class FileBytes {
 public:
  enum class Read { kOk, kError };
  virtual ~FileBytes() = default;
  virtual uint64_t size() const = 0;
  // Exactly `n` bytes at `offset` (REQUIRES offset + n <= size()) into
  // *out. kError: the storage failed (the caller tries again later).
  virtual Read ReadAt(uint64_t offset, size_t n, std::string* out) = 0;
};

// One architecture of a file (a thin file has one; a fat Mach-O one per
// slice, in the fat table's order).
struct Slice {
  std::string arch;      // e.g. "x86_64", "arm64", "arm64e", "armv7"
  std::string debug_id;  // ELF: build-id hex; Mach-O: UUID, lower case
};

struct Identification {
  enum class Outcome { kIdentified, kRefused, kStorageError };
  Outcome outcome = Outcome::kRefused;
  std::string format;  // "elf" or "macho" (kIdentified)
  std::vector<Slice> slices;
  std::string reason;  // kRefused: one of kReason*
  std::string detail;  // kRefused: a short English explanation
};

Identification Identify(FileBytes& file);

// "" when the declared values match a slice (both the same slice when both
// are given; nothing declared matches anything), else kReasonIdentifierMismatch
// or kReasonArchitectureMismatch.
std::string_view CheckDeclared(const std::vector<Slice>& slices, std::string_view declared_debug_id,
                               std::string_view declared_arch);

// A declared debug id in canonical form (lower case, hyphens removed): hex
// only, 16 to 128 characters; "" when it is not one.
std::string NormalizeDebugId(std::string_view id);
// Whether `arch` is one of the names Identify produces.
bool KnownArchitecture(std::string_view arch);

}  // namespace service::domain::symbols
