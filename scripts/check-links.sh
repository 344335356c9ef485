#!/usr/bin/env bash
# Checks the relative links of README.md and docs/*.md: every link or image
# target that is not a URL must name an existing file or folder (relative to
# the page), and a "#fragment" of a Markdown page must be one of its headings
# (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens,
# "-1", "-2"... for repeated headings). Code blocks and code spans are
# skipped. Every docs/*.md checked must be linked from README.md. Exits 1
# listing every broken link.
#
#   scripts/check-links.sh [FILE.md...]     (default: README.md docs/*.md)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -eq 0 ]]; then set -- README.md docs/*.md; fi
exec python3 - "$@" <<'PY'
import os, re, sys

LINK = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
HTML = re.compile(r'<(?:img|a)\b[^>]*?\b(?:src|href)="([^"]+)"')

def strip_code(text):
    out, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
            out.append("")
            continue
        out.append("" if fence else re.sub(r"`[^`]*`", "", line))
    return out

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen, found, fence = {}, set(), False
        for line in open(path, encoding="utf-8").read().split("\n"):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
        anchors_cache[path] = found
    return anchors_cache[path]

broken, checked = [], 0
for page in sys.argv[1:]:
    base = os.path.dirname(page)
    for number, line in enumerate(strip_code(open(page, encoding="utf-8").read()), 1):
        for target in LINK.findall(line) + HTML.findall(line):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue  # http:, https:, mailto:, ...
            checked += 1
            path, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(base, path)) if path else page
            if not os.path.exists(resolved):
                broken.append(f"{page}:{number}: {target}: no file {resolved}")
            elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                broken.append(f"{page}:{number}: {target}: no heading #{fragment} in {resolved}")

# Every page under docs/ is linked from the README (its Documentation list).
if "README.md" in sys.argv[1:]:
    readme_targets = {os.path.normpath(t.partition("#")[0])
                      for line in strip_code(open("README.md", encoding="utf-8").read())
                      for t in LINK.findall(line)}
    for page in sys.argv[1:]:
        if page.startswith("docs/") and os.path.normpath(page) not in readme_targets:
            broken.append(f"README.md: does not link {page} (add it to the Documentation list)")

for b in broken:
    print(b, file=sys.stderr)
print(f"check-links: {checked} relative links in {len(sys.argv) - 1} pages, {len(broken)} broken")
sys.exit(1 if broken else 0)
PY
