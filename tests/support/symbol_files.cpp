#include "support/symbol_files.h"

namespace service::testing::symbol_files {
namespace {

void Put(std::string& s, size_t at, uint64_t v, size_t width, bool little) {
  if (s.size() < at + width) s.resize(at + width, '\0');
  for (size_t i = 0; i < width; ++i) {
    const size_t shift = little ? 8 * i : 8 * (width - 1 - i);
    s[at + i] = static_cast<char>((v >> shift) & 0xff);
  }
}

void Append(std::string& s, uint64_t v, size_t width, bool little) { Put(s, s.size(), v, width, little); }

void PadTo(std::string& s, size_t align) {
  while (s.size() % align != 0) s.push_back('\0');
}

}  // namespace

std::string Bytes(size_t n, uint8_t start, uint8_t step) {
  std::string out(n, '\0');
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>(static_cast<uint8_t>(start + i * step));
  return out;
}

std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string ElfNote(const std::string& name, uint32_t type, const std::string& desc, bool little, int align) {
  std::string n;
  Append(n, name.size() + 1, 4, little);
  Append(n, desc.size(), 4, little);
  Append(n, type, 4, little);
  n += name;
  n.push_back('\0');
  PadTo(n, static_cast<size_t>(align));
  n += desc;
  PadTo(n, static_cast<size_t>(align));
  return n;
}

std::string Elf(const ElfSpec& spec) {
  const bool w = spec.is64;
  const bool le = spec.little;
  const size_t ehsize = w ? 64 : 52;
  const size_t phentsize = w ? 56 : 32;
  const size_t shentsize = w ? 64 : 40;
  std::string f(ehsize, '\0');
  f[0] = 0x7f;
  f[1] = 'E';
  f[2] = 'L';
  f[3] = 'F';
  f[4] = static_cast<char>(w ? 2 : 1);
  f[5] = static_cast<char>(le ? 1 : 2);
  f[6] = 1;              // EV_CURRENT
  Put(f, 16, 3, 2, le);  // ET_DYN
  Put(f, 18, spec.machine, 2, le);
  Put(f, 20, 1, 4, le);  // e_version
  Put(f, w ? 52 : 40, ehsize, 2, le);
  const size_t phoff = ehsize;
  const size_t phnum = spec.note_segment ? 1 : 0;
  size_t notes_off = phoff + phnum * phentsize;
  while (notes_off % 8 != 0) ++notes_off;
  f.resize(notes_off, '\0');
  f += spec.notes;
  PadTo(f, 8);
  size_t shoff = 0;
  const size_t shnum = spec.note_section ? 2 : 0;
  if (spec.note_section) {
    shoff = f.size();
    std::string sh(2 * shentsize, '\0');  // section 0: SHT_NULL
    const size_t at = shentsize;
    Put(sh, at + 4, 7, 4, le);  // SHT_NOTE
    Put(sh, at + (w ? 24 : 16), notes_off, w ? 8 : 4, le);
    Put(sh, at + (w ? 32 : 20), spec.notes.size(), w ? 8 : 4, le);
    Put(sh, at + (w ? 48 : 32), spec.note_align, w ? 8 : 4, le);
    f += sh;
  }
  if (phnum) {
    std::string ph(phentsize, '\0');
    Put(ph, 0, 4, 4, le);  // PT_NOTE
    Put(ph, w ? 8 : 4, notes_off, w ? 8 : 4, le);
    Put(ph, w ? 32 : 16, spec.notes.size(), w ? 8 : 4, le);
    Put(ph, w ? 40 : 20, spec.notes.size(), w ? 8 : 4, le);
    Put(ph, w ? 48 : 28, spec.note_align, w ? 8 : 4, le);
    f.replace(phoff, phentsize, ph);
  }
  Put(f, w ? 32 : 28, phnum ? phoff : 0, w ? 8 : 4, le);
  Put(f, w ? 40 : 32, shoff, w ? 8 : 4, le);
  Put(f, w ? 54 : 42, phentsize, 2, le);
  Put(f, w ? 56 : 44, phnum, 2, le);
  Put(f, w ? 58 : 46, shentsize, 2, le);
  Put(f, w ? 60 : 48, shnum, 2, le);
  return f;
}

std::string ElfWithBuildId(const std::string& build_id_bytes, uint16_t machine) {
  ElfSpec spec;
  spec.machine = machine;
  spec.notes = ElfNote("GNU", 1, std::string(16, '\0'), true) + ElfNote("GNU", 3, build_id_bytes, true);
  return Elf(spec);
}

std::string MachO(bool is64, bool little, uint32_t cputype, uint32_t cpusubtype,
                  const std::vector<std::pair<uint32_t, std::string>>& commands) {
  std::string cmds;
  for (const auto& [cmd, payload] : commands) {
    std::string c;
    Append(c, cmd, 4, little);
    Append(c, 0, 4, little);
    c += payload;
    PadTo(c, is64 ? 8 : 4);
    Put(c, 4, c.size(), 4, little);
    cmds += c;
  }
  std::string f;
  Append(f, is64 ? 0xfeedfacf : 0xfeedface, 4, little);
  Append(f, cputype, 4, little);
  Append(f, cpusubtype, 4, little);
  Append(f, 10, 4, little);  // MH_DSYM
  Append(f, commands.size(), 4, little);
  Append(f, cmds.size(), 4, little);
  Append(f, 0, 4, little);  // flags
  if (is64) Append(f, 0, 4, little);
  f += cmds;
  f += std::string(64, '\x5a');  // some "section" bytes after the commands
  return f;
}

std::string MachOWithUuid(uint32_t cputype, uint32_t cpusubtype, const std::string& uuid16) {
  return MachO(true, true, cputype, cpusubtype, {{0x19, std::string(64, '\0')}, {0x1b, uuid16}});
}

std::string Fat(bool fat64, const std::vector<std::string>& slices, const std::vector<uint32_t>& cputypes,
                const std::vector<uint32_t>& cpusubtypes) {
  std::string f;
  Append(f, fat64 ? 0xcafebabf : 0xcafebabe, 4, false);
  Append(f, slices.size(), 4, false);
  const size_t entry = fat64 ? 32 : 20;
  size_t offset = 8 + slices.size() * entry;
  offset = (offset + 63) / 64 * 64;
  std::string body;
  for (size_t i = 0; i < slices.size(); ++i) {
    const size_t at = offset + body.size();
    Append(f, cputypes[i], 4, false);
    Append(f, cpusubtypes[i], 4, false);
    Append(f, at, fat64 ? 8 : 4, false);
    Append(f, slices[i].size(), fat64 ? 8 : 4, false);
    Append(f, 6, 4, false);  // align 2^6
    if (fat64) Append(f, 0, 4, false);
    body += slices[i];
    PadTo(body, 64);
  }
  f.resize(offset, '\0');
  return f + body;
}

}  // namespace service::testing::symbol_files
