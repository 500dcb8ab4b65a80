"""The README stays true: every engine of the registry has its row in the engines table, and
every export format and bench script it names exists."""

import re
from pathlib import Path

from polydoku.engines import ENGINE_IDS
from polydoku.engines.exports import EXPORTERS

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_every_engine_has_a_row_in_the_engines_table():
    table = README.split("## Engines", 1)[1].split("\n\n`polydoku engines`", 1)[0]
    rows = re.findall(r"^\| `([a-z0-9+-]+)`", table, re.M)
    assert set(ENGINE_IDS) <= set(rows), sorted(set(ENGINE_IDS) - set(rows))


def test_the_docs_it_links_exist():
    root = Path(__file__).resolve().parent.parent
    for link in re.findall(r"\]\((docs/[^)#]+)\)", README):
        assert (root / link).exists(), link


def test_the_resolver_docs_name_every_export_format_they_describe():
    docs = (Path(__file__).resolve().parent.parent / "docs" / "resolvers.md").read_text()
    line = re.search(r"--to ([a-z0-9|]+) --out", docs)[1]
    assert set(line.split("|")) <= set(EXPORTERS)


def test_the_number_of_rule_kinds_it_gives_is_the_registry_s():
    from polydoku.rules import KINDS
    said = {int(n) for n in re.findall(r"(\d+) kinds\b", README)}
    assert said == {len(KINDS)}, (said, len(KINDS))
