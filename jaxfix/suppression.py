"""Suppression comments: `# jaxfix: ignore` or `# jaxfix: ignore[JX101,JX2]` on the line, or alone on the line above.

Codes may be prefixes (`JX1` silences the whole in-place family). A bare `# jaxfix: ignore` silences every code.
`# jaxfix: skip-file` anywhere in the first 20 lines leaves the whole file alone.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Optional

_IGNORE = re.compile(r"#\s*jaxfix:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_SKIP_FILE = re.compile(r"#\s*jaxfix:\s*skip-file", re.IGNORECASE)

ALL = frozenset({"*"})


class Suppressions:
    def __init__(self, source: str) -> None:
        self.text = source
        self._by_line: dict[int, frozenset[str]] = {}
        self.skip_file = False
        if "jaxfix:" not in source:
            return
        comment_only: set[int] = set()
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
        except (tokenize.TokenError, SyntaxError, IndentationError):
            return
        code_lines: set[int] = set()
        for tok in tokens:
            if tok.type == tokenize.COMMENT:
                line = tok.start[0]
                if _SKIP_FILE.search(tok.string) and line <= 20:
                    self.skip_file = True
                match = _IGNORE.search(tok.string)
                if match:
                    codes = match.group("codes")
                    parsed = (
                        frozenset(c.strip().upper() for c in codes.split(",") if c.strip()) if codes else ALL
                    )
                    self._by_line[line] = self._by_line.get(line, frozenset()) | parsed
            elif tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                for line in range(tok.start[0], tok.end[0] + 1):
                    code_lines.add(line)
        for line in self._by_line:
            if line not in code_lines:
                comment_only.add(line)
        self._comment_only = comment_only

    def codes_at(self, line: int) -> Optional[frozenset[str]]:
        codes = self._by_line.get(line)
        above = self._by_line.get(line - 1) if (line - 1) in getattr(self, "_comment_only", ()) else None
        if codes is None:
            return above
        return codes if above is None else codes | above

    def suppressed(self, code: str, line: int) -> bool:
        codes = self.codes_at(line)
        if not codes:
            return False
        return codes is ALL or "*" in codes or any(code.startswith(prefix) for prefix in codes)
