"""The docs stay true: every example runs, and every reason code the engine can give is documented."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if ">>>" in p.read_text())


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_examples_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doc example(s) failed in {page.name}"


def test_every_reason_code_is_documented() -> None:
    engine = sorted((ROOT / "src" / "canasta" / "engine").glob("*.py"))
    source = "".join(path.read_text() for path in engine if path.name != "__init__.py")
    codes = set(re.findall(r'"([A-Z][A-Z_]{4,})"', source)) - {"JK"}
    documented = set(re.findall(r"^### ([A-Z_]+)$", (ROOT / "docs" / "reason-codes.md").read_text(), re.M))
    assert codes, "no codes found"
    assert codes <= documented, f"undocumented codes: {sorted(codes - documented)}"
    assert documented <= codes, f"documented codes the engine never gives: {sorted(documented - codes)}"


@pytest.mark.parametrize("name", __import__("canasta").variant_names())
def test_variant_page_matches_rules_command(name: str) -> None:
    """docs/variants/NAME.md is exactly what `canasta rules NAME` prints (regenerate it with that command)."""
    import canasta
    from canasta.variant_docs import variant_page

    assert (ROOT / "docs" / "variants" / f"{name}.md").read_text() == variant_page(canasta.rules(name))


def test_variant_index_is_current() -> None:
    from canasta.variant_docs import variants_index

    assert (ROOT / "docs" / "variants" / "index.md").read_text() == variants_index()
