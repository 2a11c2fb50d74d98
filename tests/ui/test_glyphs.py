"""The app shows no emoji: Debian's chromium (and many projector PCs) has no emoji font, so an emoji
renders as an empty box. Icons are Streamlit's Material icons (``:material/name:``) or plain text."""
from __future__ import annotations

import pathlib
import re

import svmviz

# pictographs, dingbats, the clock/stop symbols and the emoji variation selector
EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF\u23E9-\u23FF\u2B00-\u2BFF\uFE0F]")
# the papers' notation uses these symbols: not emoji
NOTATION = set("☆★")


def _ui_sources():
    root = pathlib.Path(svmviz.__file__).parent
    yield from sorted((root / "ui").glob("*.py"))
    yield from sorted((root.parent / "pages").glob("*.py"))


def test_no_emoji_in_the_app_text():
    found = []
    for path in _ui_sources():
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            hits = [c for c in EMOJI.findall(line) if c not in NOTATION]
            if hits:
                found.append(f"{path.name}:{i}: {''.join(hits)}")
    assert not found, "emoji in the app's text (use :material/…: icons or words): " + "; ".join(found)


def test_emoji_pattern_finds_the_glyphs_it_is_for():
    assert EMOJI.search('icon="⚠️"') and EMOJI.search("📄") and EMOJI.search("⏱") and not EMOJI.search("σ λ ν ξα ±")
