#include "areas/symbols/domain/symbols.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>

namespace service::domain::symbols {
namespace {

Identification Refused(std::string_view reason, std::string detail) {
  Identification r;
  r.outcome = Identification::Outcome::kRefused;
  r.reason = std::string(reason);
  r.detail = std::move(detail);
  return r;
}

Identification StorageError() {
  Identification r;
  r.outcome = Identification::Outcome::kStorageError;
  r.detail = "the stored file could not be read";
  return r;
}

// Reads through FileBytes with bounds checks: a range past the end is
// "truncated", a storage failure stops the identification.
class Reader {
 public:
  explicit Reader(FileBytes& f) : f_(f) {}
  uint64_t size() const { return f_.size(); }
  // True with *out filled; false with *stop set.
  bool Get(uint64_t offset, uint64_t n, std::string* out, std::optional<Identification>* stop,
           std::string_view what) {
    if (offset > f_.size() || n > f_.size() - offset) {
      *stop = Refused(kReasonTruncated, std::string(what) + " runs past the end of the file");
      return false;
    }
    if (f_.ReadAt(offset, static_cast<size_t>(n), out) != FileBytes::Read::kOk) {
      *stop = StorageError();
      return false;
    }
    return true;
  }

 private:
  FileBytes& f_;
};

uint64_t Load(std::string_view b, size_t at, size_t width, bool little) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) {
    const uint64_t byte = static_cast<unsigned char>(b[at + i]);
    v |= little ? byte << (8 * i) : byte << (8 * (width - 1 - i));
  }
  return v;
}

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Uuid(std::string_view bytes16) {
  std::string h = Hex(bytes16);
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" +
         h.substr(20);
}

// ---- ELF

constexpr size_t kMaxNoteBytes = 1 << 20;  // larger note areas are skipped
constexpr uint32_t kPtNote = 4;
constexpr uint32_t kShtNote = 7;
constexpr uint32_t kNtGnuBuildId = 3;

std::string ElfArch(uint64_t machine, bool is64, bool little) {
  switch (machine) {
    case 3:
      return "x86";
    case 62:
      return "x86_64";
    case 40:
      return "arm";
    case 183:
      return "arm64";
    case 21:
      return is64 ? (little ? "ppc64le" : "ppc64") : "";
    case 243:
      return is64 ? "riscv64" : "riscv32";
    case 22:
      return is64 ? "s390x" : "";
    default:
      return "";
  }
}

// The GNU build id in a note area, or "" (also for malformed notes: a
// damaged area is skipped like one without the note).
std::string BuildIdInNotes(std::string_view notes, bool little, uint64_t align) {
  // Offsets are aligned within the note area (gABI; 8 for notes such as
  // .note.gnu.property, 4 otherwise).
  if (align != 8) align = 4;
  const auto up = [align](uint64_t v) { return (v + align - 1) / align * align; };
  uint64_t at = 0;
  while (notes.size() >= 12 && at <= notes.size() - 12) {
    const uint64_t namesz = Load(notes, static_cast<size_t>(at), 4, little);
    const uint64_t descsz = Load(notes, static_cast<size_t>(at + 4), 4, little);
    const uint64_t type = Load(notes, static_cast<size_t>(at + 8), 4, little);
    const uint64_t name_at = at + 12;
    if (namesz > notes.size() - name_at) return "";
    const uint64_t desc_at = up(name_at + namesz);
    if (desc_at > notes.size() || descsz > notes.size() - desc_at) return "";
    const std::string_view name = notes.substr(static_cast<size_t>(name_at), static_cast<size_t>(namesz));
    const std::string_view desc = notes.substr(static_cast<size_t>(desc_at), static_cast<size_t>(descsz));
    if (type == kNtGnuBuildId && name == std::string_view("GNU\0", 4) && !desc.empty() && desc.size() <= 64) {
      return Hex(desc);
    }
    at = up(desc_at + descsz);
  }
  return "";
}

Identification IdentifyElf(Reader& r, const std::string& ident) {
  std::optional<Identification> stop;
  const int cls = static_cast<unsigned char>(ident[4]);
  const int data = static_cast<unsigned char>(ident[5]);
  if ((cls != 1 && cls != 2) || (data != 1 && data != 2)) {
    return Refused(kReasonMalformed, "unknown ELF class or byte order");
  }
  const bool is64 = cls == 2;
  const bool little = data == 1;
  std::string h;
  if (!r.Get(0, is64 ? 64 : 52, &h, &stop, "the ELF header")) return *stop;
  const uint64_t machine = Load(h, 18, 2, little);
  const uint64_t phoff = Load(h, is64 ? 32 : 28, is64 ? 8 : 4, little);
  const uint64_t shoff = Load(h, is64 ? 40 : 32, is64 ? 8 : 4, little);
  const uint64_t phentsize = Load(h, is64 ? 54 : 42, 2, little);
  const uint64_t phnum = Load(h, is64 ? 56 : 44, 2, little);
  const uint64_t shentsize = Load(h, is64 ? 58 : 46, 2, little);
  const uint64_t shnum = Load(h, is64 ? 60 : 48, 2, little);
  const std::string arch = ElfArch(machine, is64, little);
  if (arch.empty()) {
    return Refused(kReasonUnsupportedArchitecture,
                   "ELF machine " + std::to_string(machine) + " is not supported");
  }
  std::string build_id;
  // Program headers: the PT_NOTE segments (executables, shared objects).
  if (phnum > 0 && phoff > 0) {
    if (phnum == 0xffff || phentsize != (is64 ? 56u : 32u)) {
      return Refused(kReasonMalformed, "unexpected ELF program header size or count");
    }
    std::string ph;
    if (!r.Get(phoff, phnum * phentsize, &ph, &stop, "the ELF program headers")) return *stop;
    for (uint64_t i = 0; i < phnum && build_id.empty(); ++i) {
      const size_t at = static_cast<size_t>(i * phentsize);
      if (Load(ph, at, 4, little) != kPtNote) continue;
      const uint64_t offset = Load(ph, at + (is64 ? 8 : 4), is64 ? 8 : 4, little);
      const uint64_t filesz = Load(ph, at + (is64 ? 32 : 16), is64 ? 8 : 4, little);
      const uint64_t align = Load(ph, at + (is64 ? 48 : 28), is64 ? 8 : 4, little);
      if (filesz == 0 || filesz > kMaxNoteBytes) continue;
      std::string notes;
      if (!r.Get(offset, filesz, &notes, &stop, "an ELF note segment")) return *stop;
      build_id = BuildIdInNotes(notes, little, align);
    }
  }
  // Section headers: the SHT_NOTE sections (objects, separate debug files).
  if (build_id.empty() && shnum > 0 && shoff > 0) {
    if (shentsize != (is64 ? 64u : 40u))
      return Refused(kReasonMalformed, "unexpected ELF section header size");
    std::string sh;
    if (!r.Get(shoff, shnum * shentsize, &sh, &stop, "the ELF section headers")) return *stop;
    for (uint64_t i = 0; i < shnum && build_id.empty(); ++i) {
      const size_t at = static_cast<size_t>(i * shentsize);
      if (Load(sh, at + 4, 4, little) != kShtNote) continue;
      const uint64_t offset = Load(sh, at + (is64 ? 24 : 16), is64 ? 8 : 4, little);
      const uint64_t size = Load(sh, at + (is64 ? 32 : 20), is64 ? 8 : 4, little);
      const uint64_t align = Load(sh, at + (is64 ? 48 : 32), is64 ? 8 : 4, little);
      if (size == 0 || size > kMaxNoteBytes) continue;
      std::string notes;
      if (!r.Get(offset, size, &notes, &stop, "an ELF note section")) return *stop;
      build_id = BuildIdInNotes(notes, little, align);
    }
  }
  if (build_id.empty()) return Refused(kReasonNoIdentifier, "the ELF file has no GNU build-id note");
  Identification out;
  out.outcome = Identification::Outcome::kIdentified;
  out.format = "elf";
  out.slices.push_back(Slice{arch, build_id});
  return out;
}

// ---- Mach-O

constexpr uint32_t kMhMagic = 0xfeedface;
constexpr uint32_t kMhMagic64 = 0xfeedfacf;
constexpr uint32_t kMhCigam = 0xcefaedfe;
constexpr uint32_t kMhCigam64 = 0xcffaedfe;
constexpr uint32_t kFatMagic = 0xcafebabe;
constexpr uint32_t kFatMagic64 = 0xcafebabf;
constexpr uint32_t kLcUuid = 0x1b;
constexpr uint64_t kMaxLoadCommandBytes = 16 << 20;
constexpr uint64_t kMaxFatSlices = 20;

std::string MachArch(uint64_t cputype, uint64_t cpusubtype) {
  const uint64_t sub = cpusubtype & 0x00ffffff;
  switch (cputype) {
    case 7:
      return "x86";
    case 0x01000007:
      return sub == 8 ? "x86_64h" : "x86_64";
    case 12:
      switch (sub) {
        case 6:
          return "armv6";
        case 9:
          return "armv7";
        case 11:
          return "armv7s";
        case 12:
          return "armv7k";
        default:
          return "arm";
      }
    case 0x0100000c:
      return sub == 2 ? "arm64e" : "arm64";
    case 0x0200000c:
      return "arm64_32";
    default:
      return "";
  }
}

bool IsThinMagic(uint32_t m) { return m == kMhMagic || m == kMhMagic64 || m == kMhCigam || m == kMhCigam64; }

// One thin Mach-O at `base` (`limit` bytes available). `expect_cputype`:
// the fat table's entry, checked against the slice's own header.
std::optional<Identification> ThinSlice(Reader& r, uint64_t base, uint64_t limit,
                                        std::optional<uint64_t> expect_cputype, Slice* out) {
  std::optional<Identification> stop;
  std::string magic_bytes;
  if (limit < 28) return Refused(kReasonTruncated, "a Mach-O header runs past the end of its slice");
  if (!r.Get(base, 4, &magic_bytes, &stop, "a Mach-O header")) return stop;
  const uint32_t magic = static_cast<uint32_t>(Load(magic_bytes, 0, 4, false));
  if (!IsThinMagic(magic)) return Refused(kReasonMalformed, "a fat slice is not a thin Mach-O file");
  const bool little = magic == kMhCigam || magic == kMhCigam64;
  const bool is64 = magic == kMhMagic64 || magic == kMhCigam64;
  const uint64_t header_size = is64 ? 32 : 28;
  if (header_size > limit) return Refused(kReasonTruncated, "a Mach-O header runs past the end of its slice");
  std::string h;
  if (!r.Get(base, header_size, &h, &stop, "a Mach-O header")) return stop;
  const uint64_t cputype = Load(h, 4, 4, little);
  const uint64_t cpusubtype = Load(h, 8, 4, little);
  const uint64_t ncmds = Load(h, 16, 4, little);
  const uint64_t sizeofcmds = Load(h, 20, 4, little);
  if (expect_cputype && *expect_cputype != cputype) {
    return Refused(kReasonMalformed, "a fat table entry names another CPU type than its slice");
  }
  const std::string arch = MachArch(cputype, cpusubtype);
  if (arch.empty()) {
    return Refused(kReasonUnsupportedArchitecture,
                   "Mach-O CPU type " + std::to_string(cputype) + " is not supported");
  }
  if (sizeofcmds > kMaxLoadCommandBytes || ncmds > sizeofcmds / 8) {
    return Refused(kReasonMalformed, "implausible Mach-O load command count or size");
  }
  if (sizeofcmds > limit - header_size) {
    return Refused(kReasonTruncated, "the Mach-O load commands run past the end of the file");
  }
  std::string cmds;
  if (!r.Get(base + header_size, sizeofcmds, &cmds, &stop, "the Mach-O load commands")) return stop;
  uint64_t at = 0;
  std::string uuid;
  for (uint64_t i = 0; i < ncmds; ++i) {
    if (sizeofcmds - at < 8) return Refused(kReasonMalformed, "a Mach-O load command overruns sizeofcmds");
    const uint64_t cmd = Load(cmds, static_cast<size_t>(at), 4, little);
    const uint64_t cmdsize = Load(cmds, static_cast<size_t>(at + 4), 4, little);
    if (cmdsize < 8 || cmdsize % 4 != 0 || cmdsize > sizeofcmds - at) {
      return Refused(kReasonMalformed, "a Mach-O load command has an invalid size");
    }
    if (cmd == kLcUuid && uuid.empty()) {
      if (cmdsize < 24) return Refused(kReasonMalformed, "LC_UUID is too short");
      uuid = Uuid(std::string_view(cmds).substr(static_cast<size_t>(at + 8), 16));
    }
    at += cmdsize;
  }
  if (uuid.empty()) return Refused(kReasonNoIdentifier, "the Mach-O file has no LC_UUID");
  *out = Slice{arch, uuid};
  return std::nullopt;
}

Identification IdentifyFat(Reader& r, bool is64) {
  std::optional<Identification> stop;
  std::string h;
  if (!r.Get(0, 8, &h, &stop, "the fat header")) return *stop;
  const uint64_t n = Load(h, 4, 4, false);
  // 0xcafebabe also starts Java class files, whose version (45 and above)
  // sits where the slice count is.
  if (n == 0 || n > kMaxFatSlices) {
    return Refused(kReasonUnsupportedFormat,
                   "not a Mach-O universal file (slice count " + std::to_string(n) + ")");
  }
  const uint64_t entry = is64 ? 32 : 20;
  std::string table;
  if (!r.Get(8, n * entry, &table, &stop, "the fat table")) return *stop;
  struct Entry {
    uint64_t cputype, offset, size;
  };
  std::vector<Entry> entries;
  for (uint64_t i = 0; i < n; ++i) {
    const size_t at = static_cast<size_t>(i * entry);
    Entry e{Load(table, at, 4, false), Load(table, at + 8, is64 ? 8 : 4, false),
            Load(table, at + (is64 ? 16 : 12), is64 ? 8 : 4, false)};
    if (e.offset < 8 + n * entry) return Refused(kReasonMalformed, "a fat slice overlaps the fat table");
    if (e.offset > r.size() || e.size > r.size() - e.offset) {
      return Refused(kReasonTruncated, "a fat slice runs past the end of the file");
    }
    entries.push_back(e);
  }
  // Read in file order (the storage reads forward best), answer in table order.
  std::vector<size_t> order(entries.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return entries[a].offset < entries[b].offset; });
  Identification out;
  out.slices.resize(entries.size());
  for (size_t i : order) {
    if (auto refused = ThinSlice(r, entries[i].offset, entries[i].size, entries[i].cputype, &out.slices[i])) {
      return *refused;
    }
  }
  out.outcome = Identification::Outcome::kIdentified;
  out.format = "macho";
  return out;
}

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

}  // namespace

Identification Identify(FileBytes& file) {
  Reader r(file);
  std::optional<Identification> stop;
  if (file.size() < 4) return Refused(kReasonUnsupportedFormat, "the file is too short for any known format");
  std::string ident;
  if (!r.Get(0, std::min<uint64_t>(16, file.size()), &ident, &stop, "the file header")) return *stop;
  if (ident.compare(0, 4,
                    "\x7f"
                    "ELF") == 0) {
    if (ident.size() < 16)
      return Refused(kReasonTruncated, "the ELF identification runs past the end of the file");
    return IdentifyElf(r, ident);
  }
  const uint32_t magic = static_cast<uint32_t>(Load(ident, 0, 4, false));
  if (magic == kFatMagic || magic == kFatMagic64) return IdentifyFat(r, magic == kFatMagic64);
  if (IsThinMagic(magic)) {
    Identification out;
    out.slices.resize(1);
    if (auto refused = ThinSlice(r, 0, file.size(), std::nullopt, &out.slices[0])) return *refused;
    out.outcome = Identification::Outcome::kIdentified;
    out.format = "macho";
    return out;
  }
  return Refused(kReasonUnsupportedFormat, "neither an ELF nor a Mach-O file");
}

std::string NormalizeDebugId(std::string_view id) {
  std::string out;
  for (char c : id) {
    if (c == '-') continue;
    if (!IsHex(c)) return "";
    out.push_back(c >= 'A' && c <= 'F' ? static_cast<char>(c - 'A' + 'a') : c);
  }
  if (out.size() < 16 || out.size() > 128) return "";
  return out;
}

bool KnownArchitecture(std::string_view arch) {
  static constexpr std::array<std::string_view, 16> kNames = {
      "x86",   "x86_64", "x86_64h",  "arm",   "armv6",   "armv7",   "armv7s",  "armv7k",
      "arm64", "arm64e", "arm64_32", "ppc64", "ppc64le", "riscv32", "riscv64", "s390x"};
  return std::find(kNames.begin(), kNames.end(), arch) != kNames.end();
}

std::string_view CheckDeclared(const std::vector<Slice>& slices, std::string_view declared_debug_id,
                               std::string_view declared_arch) {
  const std::string id = declared_debug_id.empty() ? std::string() : NormalizeDebugId(declared_debug_id);
  bool id_seen = declared_debug_id.empty();
  bool arch_seen = declared_arch.empty();
  for (const Slice& s : slices) {
    const bool id_ok = declared_debug_id.empty() || NormalizeDebugId(s.debug_id) == id;
    const bool arch_ok = declared_arch.empty() || s.arch == declared_arch;
    if (id_ok && arch_ok) return "";
    id_seen = id_seen || id_ok;
    arch_seen = arch_seen || arch_ok;
  }
  if (!id_seen) return kReasonIdentifierMismatch;
  if (!arch_seen) return kReasonArchitectureMismatch;
  return kReasonIdentifierMismatch;  // each matches a different slice
}

}  // namespace service::domain::symbols
