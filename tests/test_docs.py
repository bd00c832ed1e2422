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
    engine = sorted((ROOT / "src" / "canasta" / "canasta" / "engine").glob("*.py"))
    source = "".join(path.read_text() for path in engine if path.name != "__init__.py")
    codes = set(re.findall(r'"([A-Z][A-Z_]{4,})"', source)) - {"JK"}
    documented = set(re.findall(r"^### ([A-Z_]+)$", (ROOT / "docs" / "reason-codes.md").read_text(), re.M))
    assert codes, "no codes found"
    assert codes <= documented, f"undocumented codes: {sorted(codes - documented)}"
    assert documented <= codes, f"documented codes the engine never gives: {sorted(documented - codes)}"


@pytest.mark.parametrize("name", __import__("canasta").variant_names("canasta"))
def test_variant_page_matches_rules_command(name: str) -> None:
    """docs/variants/NAME.md is exactly what `canasta rules NAME` prints (regenerate it with that command)."""
    import canasta
    from canasta.text.variant_docs import variant_page

    assert (ROOT / "docs" / "variants" / f"{name}.md").read_text() == variant_page(canasta.rules(name))


def test_variant_index_is_current() -> None:
    from canasta.text.variant_docs import variants_index

    assert (ROOT / "docs" / "variants" / "index.md").read_text() == variants_index()


def test_classic_rules_page_lists_every_parameter() -> None:
    """docs/rules/classic.md ends with the parameter section generated from the rules object. Regenerate:
    python -c "import pathlib; from canasta.text.variant_docs import classic_page as c;
    p = pathlib.Path('docs/rules/classic.md'); p.write_text(c(p.read_text()))" """
    import canasta
    from canasta.text.variant_docs import classic_page

    text = (ROOT / "docs" / "rules" / "classic.md").read_text()
    assert text == classic_page(text), "docs/rules/classic.md is stale: regenerate it (see this test's docstring)"
    for name, *_ in canasta.rules().describe():
        assert f"| `{name}` |" in text


def test_docs_and_help_cite_no_file_outside_the_repository() -> None:
    """The docs, the README and what the commands print cite docs/sources.md, never the research notes."""
    import contextlib
    import io

    import canasta
    from canasta.cli import main
    from canasta.text.variant_docs import variant_page, variants_index

    pages = list((ROOT / "docs").rglob("*.md"))
    texts = {str(p.relative_to(ROOT)): p.read_text() for p in [*pages, ROOT / "README.md"]}
    texts["variant pages"] = "".join(variant_page(canasta.rules(n)) for n in canasta.variant_names("canasta"))
    texts["variant pages"] += variants_index()
    for args in (["--help"], ["play", "--help"], ["score", "--help"], ["rules", "--help"]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main(args)
        texts[" ".join(args)] = out.getvalue()
    for where, text in texts.items():
        for name in ("RULES.md", "DESIGN.md", "GOLDEN.md"):
            assert name not in text, f"{where} cites {name}"


def test_sources_page_explains_every_tag_the_parameters_cite() -> None:
    from canasta.canasta.rules import PARAMETERS

    sources = (ROOT / "docs" / "sources.md").read_text()
    tags = {tag.strip() for _, source, _ in PARAMETERS.values() for group in re.findall(r"\[([^\]]+)\]", source)
            for tag in re.split(r"[,/;]", group)}
    known = set(re.findall(r"^\| ([A-Za-z][A-Za-z0-9 .,-]*?) \|", sources, re.M))
    known |= {t.strip() for k in list(known) for t in k.split(",")}
    missing = {t for t in tags if t.split()[0] not in known and t not in known and t != "all"}
    assert not missing, f"tags not explained in docs/sources.md: {sorted(missing)}"


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _markdown_pages() -> list[Path]:
    pages = [p for p in (ROOT / "docs").rglob("*.md")]
    return [*pages, ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "benchmarks" / "README.md",
            ROOT / "examples" / "README.md"]


def test_links_between_pages_reach_a_page_and_a_heading() -> None:
    """Every relative link of the docs, the READMEs and the changelog names a file that exists and, after a
    ``#``, a heading of that file (so that a rewritten page cannot leave links to sections it lost)."""
    broken = []
    for page in _markdown_pages():
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", file.read_text(), re.M)
                if anchor not in {_slug(h) for h in headings}:
                    broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def _plain(text: str) -> str:
    """Text as words: no backticks, a comment's ``#`` at a line break dropped, every run of spaces one."""
    return re.sub(r"\s+(?:#\s+)?", " ", text.replace("`", "")).lower()


def test_sections_cited_by_name_exist() -> None:
    """``docs/strength.md, "The learned player"`` in a page, a docstring or a comment names words of that page."""
    cited = re.compile(r'([\w/.-]+\.md)\)?,? \(?"([^"]{3,80})"')
    sources = [*_markdown_pages(), *(ROOT / "src").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    missing = []
    for source in sources:
        for name, section in cited.findall(source.read_text()):
            candidates = [p for p in _markdown_pages() if str(p).endswith("/" + name.removeprefix("../"))]
            if not candidates:
                continue
            if not any(_plain(section) in _plain(p.read_text()) for p in candidates):
                missing.append(f"{source.relative_to(ROOT)}: {name}, \"{section}\"")
    assert not missing, "\n".join(missing)
