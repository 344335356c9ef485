// Symbol file identification (areas/symbols/domain/symbols.h): hand-made
// ELF and Mach-O files (tests/support/symbol_files.h), table-driven, plus
// the real ELF files of this process (the test binary and the C library),
// whose build ids the loader also maps into memory.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "areas/symbols/domain/symbols.h"
#include "support/symbol_files.h"

namespace service::domain::symbols {
namespace {

namespace sf = testing::symbol_files;

class StringBytes final : public FileBytes {
 public:
  explicit StringBytes(std::string s, bool fail = false) : s_(std::move(s)), fail_(fail) {}
  uint64_t size() const override { return s_.size(); }
  Read ReadAt(uint64_t offset, size_t n, std::string* out) override {
    REQUIRE(offset + n <= s_.size());  // Identify checks bounds itself
    if (fail_) return Read::kError;
    *out = s_.substr(static_cast<size_t>(offset), n);
    return Read::kOk;
  }

 private:
  std::string s_;
  bool fail_;
};

// A real file read with pread.
class FdBytes final : public FileBytes {
 public:
  explicit FdBytes(const char* path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {
    struct stat st {};
    if (fd_ >= 0 && ::fstat(fd_, &st) == 0) size_ = static_cast<uint64_t>(st.st_size);
  }
  ~FdBytes() override {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  uint64_t size() const override { return size_; }
  Read ReadAt(uint64_t offset, size_t n, std::string* out) override {
    out->resize(n);
    return ::pread(fd_, out->data(), n, static_cast<off_t>(offset)) == static_cast<ssize_t>(n) ? Read::kOk
                                                                                               : Read::kError;
  }

 private:
  int fd_;
  uint64_t size_ = 0;
};

Identification Run(const std::string& bytes) {
  StringBytes b(bytes);
  return Identify(b);
}

const std::string kId20 = sf::Bytes(20, 0xa0, 3);
const std::string kUuid = sf::Bytes(16, 0x10, 0x11);
const std::string kUuidText = "10213243-5465-7687-98a9-bacbdcedfe0f";

std::string Cut(std::string s, size_t n) { return s.substr(0, n); }

TEST_CASE("identification of hand-made ELF and Mach-O files") {
  sf::ElfSpec be32;
  be32.is64 = false;
  be32.little = false;
  be32.machine = 40;
  be32.notes = sf::ElfNote("GNU", 3, kId20, false);
  sf::ElfSpec sections_only;
  sections_only.machine = 183;
  sections_only.note_segment = false;
  sections_only.note_section = true;
  sections_only.notes = sf::ElfNote("GNU", 3, kId20, true);
  sf::ElfSpec aligned8;
  aligned8.notes =
      sf::ElfNote("GNU", 5, std::string(16, '\1'), true, 8) + sf::ElfNote("GNU", 3, kId20, true, 8);
  aligned8.note_align = 8;
  sf::ElfSpec other_notes;
  other_notes.notes = sf::ElfNote("Go", 4, "abcd", true) + sf::ElfNote("GNUX", 3, kId20, true);
  sf::ElfSpec riscv32;
  riscv32.is64 = false;
  riscv32.machine = 243;
  riscv32.notes = sf::ElfNote("GNU", 3, sf::Bytes(8), true);
  sf::ElfSpec ppc64be;
  ppc64be.little = false;
  ppc64be.machine = 21;
  ppc64be.notes = sf::ElfNote("GNU", 3, kId20, false);

  const std::string x86_64 = sf::MachOWithUuid(0x01000007, 3, kUuid);
  const std::string arm64 = sf::MachOWithUuid(0x0100000c, 0, sf::Bytes(16, 0xf0, 1));
  const std::string arm64e = sf::MachOWithUuid(0x0100000c, 0x80000002, kUuid);
  const std::string armv7 = sf::MachO(false, true, 12, 9, {{0x1b, kUuid}});
  const std::string x86_be = sf::MachO(false, false, 7, 3, {{0x1b, kUuid}});
  const std::string no_uuid = sf::MachO(true, true, 0x0100000c, 0, {{0x19, std::string(64, '\0')}});
  std::string zero_cmdsize = x86_64;
  zero_cmdsize[36] = zero_cmdsize[37] = zero_cmdsize[38] = zero_cmdsize[39] = 0;  // first cmdsize
  std::string elf_bad_class = sf::ElfWithBuildId(kId20);
  elf_bad_class[4] = 3;
  std::string elf_bad_phentsize = sf::ElfWithBuildId(kId20);
  elf_bad_phentsize[54] = 40;
  std::string java = std::string("\xca\xfe\xba\xbe\x00\x00\x00\x34", 8) + std::string(100, '\0');

  struct Case {
    const char* name;
    std::string bytes;
    std::string format;  // "" when refused
    std::vector<Slice> slices;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"ELF64 LE x86_64, build id in PT_NOTE after another note",
       sf::ElfWithBuildId(kId20),
       "elf",
       {{"x86_64", sf::Hex(kId20)}},
       ""},
      {"ELF32 BE arm", sf::Elf(be32), "elf", {{"arm", sf::Hex(kId20)}}, ""},
      {"ELF64 arm64, SHT_NOTE section only", sf::Elf(sections_only), "elf", {{"arm64", sf::Hex(kId20)}}, ""},
      {"ELF notes aligned to 8", sf::Elf(aligned8), "elf", {{"x86_64", sf::Hex(kId20)}}, ""},
      {"ELF32 riscv32, 8-byte build id", sf::Elf(riscv32), "elf", {{"riscv32", sf::Hex(sf::Bytes(8))}}, ""},
      {"ELF64 BE ppc64", sf::Elf(ppc64be), "elf", {{"ppc64", sf::Hex(kId20)}}, ""},
      {"ELF without a GNU build-id note", sf::Elf(other_notes), "", {}, "no_identifier"},
      {"ELF of an unsupported machine",
       sf::ElfWithBuildId(kId20, 0x1234),
       "",
       {},
       "unsupported_architecture"},
      {"ELF of an unknown class", elf_bad_class, "", {}, "malformed"},
      {"ELF with a wrong program header size", elf_bad_phentsize, "", {}, "malformed"},
      {"ELF cut inside its header", Cut(sf::ElfWithBuildId(kId20), 40), "", {}, "truncated"},
      {"ELF cut inside its identification", Cut(sf::ElfWithBuildId(kId20), 10), "", {}, "truncated"},
      {"ELF cut inside its note segment", Cut(sf::ElfWithBuildId(kId20), 140), "", {}, "truncated"},
      {"Mach-O 64 LE x86_64", x86_64, "macho", {{"x86_64", kUuidText}}, ""},
      {"Mach-O 64 LE arm64e (capability bits in the subtype)", arm64e, "macho", {{"arm64e", kUuidText}}, ""},
      {"Mach-O 32 LE armv7", armv7, "macho", {{"armv7", kUuidText}}, ""},
      {"Mach-O 32 BE x86", x86_be, "macho", {{"x86", kUuidText}}, ""},
      {"fat: x86_64 and arm64, in table order",
       sf::Fat(false, {x86_64, arm64}, {0x01000007, 0x0100000c}, {3, 0}),
       "macho",
       {{"x86_64", kUuidText}, {"arm64", "f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff"}},
       ""},
      {"fat64 with one slice",
       sf::Fat(true, {arm64e}, {0x0100000c}, {0x80000002}),
       "macho",
       {{"arm64e", kUuidText}},
       ""},
      {"fat entry naming another CPU than its slice",
       sf::Fat(false, {x86_64}, {0x0100000c}, {0}),
       "",
       {},
       "malformed"},
      {"fat slice past the end",
       Cut(sf::Fat(false, {x86_64, arm64}, {0x01000007, 0x0100000c}, {3, 0}), 300),
       "",
       {},
       "truncated"},
      {"fat slice that is itself fat",
       sf::Fat(false, {sf::Fat(false, {x86_64}, {0x01000007}, {3})}, {0x01000007}, {3}),
       "",
       {},
       "malformed"},
      {"Mach-O without LC_UUID", no_uuid, "", {}, "no_identifier"},
      {"Mach-O with a zero cmdsize", zero_cmdsize, "", {}, "malformed"},
      {"Mach-O cut inside its load commands", Cut(x86_64, 60), "", {}, "truncated"},
      {"Mach-O of an unsupported CPU (ppc)",
       sf::MachO(false, false, 18, 0, {{0x1b, kUuid}}),
       "",
       {},
       "unsupported_architecture"},
      {"Java class file (0xcafebabe, version 52)", java, "", {}, "unsupported_format"},
      {"PE file", std::string("MZ\x90\x00", 4) + std::string(200, '\0'), "", {}, "unsupported_format"},
      {"text", "just some text, not a binary", "", {}, "unsupported_format"},
      {"three bytes",
       "\x7f"
       "EL",
       "",
       {},
       "unsupported_format"},
      {"empty", "", "", {}, "unsupported_format"},
  };
  for (const Case& c : cases) {
    const std::string name = c.name;
    CAPTURE(name);
    const Identification id = Run(c.bytes);
    CAPTURE(id.reason);
    CAPTURE(id.detail);
    if (c.format.empty()) {
      CHECK(id.outcome == Identification::Outcome::kRefused);
      CHECK(id.reason == c.reason);
      CHECK_FALSE(id.detail.empty());
    } else {
      CHECK(id.outcome == Identification::Outcome::kIdentified);
      CHECK(id.format == c.format);
      if (id.outcome != Identification::Outcome::kIdentified) continue;
      REQUIRE(id.slices.size() == c.slices.size());
      for (size_t i = 0; i < c.slices.size(); ++i) {
        CHECK(id.slices[i].arch == c.slices[i].arch);
        CHECK(id.slices[i].debug_id == c.slices[i].debug_id);
      }
    }
  }
}

TEST_CASE("a storage failure while reading is neither identified nor refused") {
  StringBytes failing(sf::ElfWithBuildId(kId20), /*fail=*/true);
  CHECK(Identify(failing).outcome == Identification::Outcome::kStorageError);
}

// The build id of a loaded object, read from its PT_NOTE in memory.
struct Loaded {
  std::string path;
  std::string build_id;
};
int CollectLoaded(dl_phdr_info* info, size_t, void* out) {
  auto* list = static_cast<std::vector<Loaded>*>(out);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    size_t at = 0;
    while (at + 12 <= ph.p_memsz) {
      uint32_t namesz, descsz, type;
      std::memcpy(&namesz, p + at, 4);
      std::memcpy(&descsz, p + at + 4, 4);
      std::memcpy(&type, p + at + 8, 4);
      const size_t align = ph.p_align == 8 ? 8 : 4;
      const size_t name_at = at + 12;
      const size_t desc_at = (name_at + namesz + align - 1) / align * align;
      if (type == 3 && namesz == 4 && std::memcmp(p + name_at, "GNU", 4) == 0) {
        list->push_back({info->dlpi_name, sf::Hex(std::string(p + desc_at, descsz))});
        return 0;
      }
      at = desc_at + (descsz + align - 1) / align * align;
    }
  }
  return 0;
}

TEST_CASE("the real ELF files of this process: the build ids the loader mapped") {
  std::vector<Loaded> loaded;
  dl_iterate_phdr(CollectLoaded, &loaded);
  REQUIRE_FALSE(loaded.empty());
  int checked = 0;
  for (const Loaded& l : loaded) {
    // The main program has an empty name: the file is /proc/self/exe.
    const std::string path = l.path.empty() ? "/proc/self/exe" : l.path;
    if (path.find("linux-vdso") != std::string::npos) continue;
    FdBytes file(path.c_str());
    if (!file.ok()) continue;
    CAPTURE(path);
    const Identification id = Identify(file);
    REQUIRE(id.outcome == Identification::Outcome::kIdentified);
    CHECK(id.format == "elf");
    REQUIRE(id.slices.size() == 1);
    CHECK(id.slices[0].debug_id == l.build_id);
#if defined(__x86_64__)
    CHECK(id.slices[0].arch == "x86_64");
#elif defined(__aarch64__)
    CHECK(id.slices[0].arch == "arm64");
#endif
    ++checked;
  }
  CHECK(checked >= 2);  // the test binary and at least the C library
}

TEST_CASE("declared identifiers and architectures against what was read") {
  const std::vector<Slice> fat = {{"x86_64", kUuidText}, {"arm64", "f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff"}};
  struct Case {
    const char* debug_id;
    const char* arch;
    std::string_view expected;
  };
  const Case cases[] = {
      {"", "", ""},
      {"10213243-5465-7687-98A9-BACBDCEDFE0F", "", ""},  // case and hyphens do not matter
      {"102132435465768798a9bacbdcedfe0f", "x86_64", ""},
      {"f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", "arm64", ""},
      {"", "arm64", ""},
      {"", "armv7", kReasonArchitectureMismatch},
      {"00000000000000000000000000000000", "", kReasonIdentifierMismatch},
      {"102132435465768798a9bacbdcedfe0f", "arm64", kReasonIdentifierMismatch},  // different slices
  };
  for (const Case& c : cases) {
    CAPTURE(c.debug_id);
    CAPTURE(c.arch);
    CHECK(CheckDeclared(fat, c.debug_id, c.arch) == c.expected);
  }
}

TEST_CASE("declared debug ids are normalized, architectures come from a closed list") {
  CHECK(NormalizeDebugId("10213243-5465-7687-98A9-BACBDCEDFE0F") == "102132435465768798a9bacbdcedfe0f");
  CHECK(NormalizeDebugId(std::string(40, 'a')) == std::string(40, 'a'));
  CHECK(NormalizeDebugId("abc").empty());                  // too short
  CHECK(NormalizeDebugId(std::string(130, 'a')).empty());  // too long
  CHECK(NormalizeDebugId("g0213243546576879").empty());    // not hex
  CHECK(NormalizeDebugId("../../etc/passwd0000").empty());
  for (const char* a : {"x86", "x86_64", "arm64", "arm64e", "armv7", "ppc64le", "riscv64", "s390x"}) {
    CHECK(KnownArchitecture(a));
  }
  for (const char* a : {"", "X86_64", "aarch64", "mips", "amd64"}) CHECK_FALSE(KnownArchitecture(a));
}

}  // namespace
}  // namespace service::domain::symbols
