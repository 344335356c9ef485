// Small hand-made ELF and Mach-O files for the symbols tests (unit and API):
// byte-exact headers built field by field, with the notes and load
// commands the verifier reads. No real toolchain output is downloaded; the
// unit tests also read the test binary itself (/proc/self/exe).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace service::testing::symbol_files {

// One ELF note (name without its NUL; `align` 4 or 8).
std::string ElfNote(const std::string& name, uint32_t type, const std::string& desc, bool little,
                    int align = 4);

struct ElfSpec {
  bool is64 = true;
  bool little = true;
  uint16_t machine = 62;      // x86_64
  std::string notes;          // the note area (ElfNote pieces)
  bool note_segment = true;   // a PT_NOTE program header covers `notes`
  bool note_section = false;  // a SHT_NOTE section covers `notes`
  uint64_t note_align = 4;
};
std::string Elf(const ElfSpec& spec);
// An ELF (x86_64, little-endian) whose PT_NOTE holds this build id.
std::string ElfWithBuildId(const std::string& build_id_bytes, uint16_t machine = 62);

// A thin Mach-O: `commands` are (cmd, payload after cmd and cmdsize).
std::string MachO(bool is64, bool little, uint32_t cputype, uint32_t cpusubtype,
                  const std::vector<std::pair<uint32_t, std::string>>& commands);
// A thin little-endian 64-bit Mach-O with an LC_UUID of these 16 bytes.
std::string MachOWithUuid(uint32_t cputype, uint32_t cpusubtype, const std::string& uuid16);
// A fat file of `slices` (each a thin Mach-O); `cputypes` as the fat table
// names them (normally each slice's own).
std::string Fat(bool fat64, const std::vector<std::string>& slices, const std::vector<uint32_t>& cputypes,
                const std::vector<uint32_t>& cpusubtypes);

// Bytes 0x00, 0x11, ... of length n (an identifier for tests).
std::string Bytes(size_t n, uint8_t start = 0, uint8_t step = 0x11);
std::string Hex(const std::string& bytes);

}  // namespace service::testing::symbol_files
