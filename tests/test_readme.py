"""The README's rule table is generated from the registry; JAXFIX_UPDATE_FIXTURES=1 regenerates it."""

import os
import re

from jaxfix.registry import all_rules
from jaxfix.reporting import rules_markdown

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
PATTERN = re.compile(r"(<!-- rules:start -->\n)(.*?)(<!-- rules:end -->)", re.S)


def test_rule_table_is_generated():
    text = open(README, encoding="utf-8").read()
    table = rules_markdown(all_rules())
    if os.environ.get("JAXFIX_UPDATE_FIXTURES") == "1":
        text = PATTERN.sub(lambda m: m.group(1) + table + m.group(3), text)
        open(README, "w", encoding="utf-8").write(text)
    match = PATTERN.search(text)
    assert match and match.group(2) == table, "README rule table is stale: run with JAXFIX_UPDATE_FIXTURES=1"
