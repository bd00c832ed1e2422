"""The browser client's translations (docs/i18n.md): every catalog has every key, with the same
placeholders and plural forms; every key the sources use exists; and no player-visible text is written in
the pages or scripts outside the catalogs (a lint over the sources, with a short allow-list)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parent.parent / "src" / "canasta" / "server" / "web"
LANGUAGES = ("en", "es", "pt", "it")

# Files whose texts are not in the catalogs yet: the table pages, converted in their own change (issue 42).
# Remove a file from here once it is converted; the last test fails while a listed file is already clean.
NOT_YET_CONVERTED: set[str] = set()

# Words each language spells as English does (names, loanwords), so a translation equal to English is not a
# forgotten one there; a text with no word outside its {placeholders} is never checked.
SAME_AS_ENGLISH = {
    "es": {"Alt + ← →", "jokers", "canastas", "Canasta", "Canastas",
           "Samba", "Bolivia", "Total", "normal", "Esc", "Tab", "Acaba", "Chat", "canasta",
           "Canasta — {variant}"},
    "pt": {"Alt + ← →", "jokers", "Canasta", "Samba", "Total", "normal", "Replay", "Enter", "Esc", "Tab",
           "Home / End", "Acaba"},
    "it": {"Alt + ← →", "Canasta", "Samba", "Bolivia", "Computer", "Replay", "Canasta — replay", "← Home", "Esc",
           "Tab", "Acaba", "Chat", "canasta", "Canasta — {variant}", "Computer {n}"},
}

# Literals of the scripts that hold lower-case words and are allowed all the same (a literal without any,
# such as a card code "KH" or a protocol code "GAME_NOT_OVER", is never flagged).
ALLOWED_LITERALS = {
    "English", "Español", "Português", "Italiano",  # the language menu names each language in itself
    "Enter", "Escape", "ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End", "Spacebar",  # key names
    "Content-Type", "Accept",  # HTTP headers
}
# Attributes a player reads or hears: in the HTML they come from data-i18n-attr.
VISIBLE_ATTRIBUTES = ("placeholder", "aria-label", "title", "alt", "aria-description")

PLACEHOLDER = re.compile(r"\{(\w+)\}")
WORDS = re.compile(r"[A-Za-zÀ-ÿ]{2,}")


def catalog(lang: str) -> dict[str, object]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def forms(value: object) -> dict[str, str]:
    if isinstance(value, str):
        return {"": value}
    assert isinstance(value, dict) and set(value) >= {"one", "other"}, f"a plural needs one and other: {value}"
    return value


def placeholders(value: object) -> set[str]:
    return {name for text in forms(value).values() for name in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_catalog_has_every_key_and_nothing_else(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}.json"
    # a ".you" form (a sentence with the reader as its subject, i18n.js asReader) is a language's own: it
    # has the placeholders and the plural shape of its key, which English has
    you = {key for key in other if key.endswith(".you") and key not in english}
    for key in you:
        base = key.removesuffix(".you")
        assert base in english, f"{lang}: {key} is the form of no key"
        assert placeholders(other[key]) == placeholders(english[base]), f"{lang}: {key} has other placeholders"
        assert isinstance(other[key], str) == isinstance(english[base], str), f"{lang}: {key} plural in one only"
    assert sorted(set(other) - set(english) - you) == [], f"in {lang}.json but not in en.json"
    for key, value in english.items():
        assert placeholders(other[key]) == placeholders(value), f"{lang}: {key} has other placeholders"
        assert isinstance(other[key], str) == isinstance(value, str), f"{lang}: {key} plural in one only"
        for text in forms(other[key]).values():
            assert text.strip(), f"{lang}: {key} is empty"
        if other[key] == value and isinstance(value, str) and WORDS.search(PLACEHOLDER.sub("", value)):
            assert value in SAME_AS_ENGLISH[lang], f"{lang}: {key} is still English: {value!r}"


def engine_reason_codes() -> set[str]:
    """Every reason code the engines can give, read from their sources as tests/test_docs.py reads them
    (Canasta's engine package and the rummy family's explain module)."""
    src = WEB.parent.parent
    paths = [p for p in sorted((src / "canasta" / "engine").glob("*.py")) if p.name != "__init__.py"]
    paths.append(src / "rummy" / "explain.py")
    return set(re.findall(r'"([A-Z][A-Z_]{4,})"', "".join(p.read_text(encoding="utf-8") for p in paths))) - {"JK"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_code_has_a_sentence(lang: str) -> None:
    """reasonText (tableui.js) shows reason.CODE on a page in another language than English: no code falls
    back to the engine's English sentence."""
    codes = engine_reason_codes()
    assert len(codes) > 80, "the codes were not found"
    assert sorted(code for code in codes if f"reason.{code}" not in catalog(lang)) == []


def test_every_rules_parameter_has_its_meaning_and_the_english_is_the_engines() -> None:
    """The rules pages and the create form's house rules show each parameter's meaning from the catalogs
    (params.js): the English catalog holds the engine's own words, so the two never drift apart; every name
    of a bound's fields is there too."""
    from canasta.canasta.rules import PARAMETERS as CANASTA
    from canasta.rummy.rules import PARAMETERS as RUMMY

    english = catalog("en")
    specs = {f"param.{family}.{name}": spec for family, table in (("canasta", CANASTA), ("rummy", RUMMY))
             for name, spec in table.items()}
    assert {key: english.get(key) for key in specs} == {key: meaning for key, (meaning, _, _) in specs.items()}
    assert sorted(k for k in english if k.startswith("param.") and k not in specs) == []
    bounds = [bound.to_json() for _meaning, _source, bound in specs.values()]
    fields = {f["name"] for b in bounds if b["type"] == "list" and b["items"]["type"] == "row"
              for f in b["items"]["fields"]}
    assert len(fields) > 5
    assert sorted(f for f in fields if f"rules.field.{f.replace(' ', '_')}" not in english) == []


def hint_why_codes() -> set[str]:
    """Every code a hint's "why" can carry: what a move does (``move_effects`` in server/games.py) and the
    players' own reasons (``last_why``: (code, count) pairs in the players' sources)."""
    src = WEB.parent.parent
    effects = re.findall(r'\{"code": "([a-z_]+)"', (src / "server" / "games.py").read_text(encoding="utf-8"))
    players = "".join(p.read_text(encoding="utf-8") for p in sorted((src / "players").rglob("*.py")))
    return set(effects) | set(re.findall(r'\("([a-z][a-z_]+)", (?:0|len\(|round\(|min\(|samples|meldable|points)',
                                         players))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_hint_reason_has_a_sentence(lang: str) -> None:
    codes = hint_why_codes()
    assert {"goes_out", "canasta", "partner_needs_to_meld", "pile_stays_frozen", "better_by_points"} <= codes
    assert sorted(code for code in codes if f"table.why.{code}" not in catalog(lang)) == []


# --------------------------------------------------------------------------- the sources

def sources(suffix: str) -> list[Path]:
    return sorted(p for p in WEB.glob(f"*{suffix}") if p.name not in NOT_YET_CONVERTED)


def literals(js: str) -> list[tuple[str, str]]:
    """(text, the code before it on its line) of each string literal of a script, comments skipped; a
    template literal gives its text parts outside ${...}, and the literals inside ${...} are read too."""
    found: list[tuple[str, str]] = []
    code = js

    def before(at: int) -> str:
        return code[code.rfind("\n", 0, at) + 1:at]

    def script(i: int, until: str | None) -> int:
        """Read code from i up to the closing `until` ("}" of a ${...}) or the end; returns the index after."""
        depth = 0
        while i < len(code):
            c = code[i]
            if code.startswith("//", i):
                i = code.find("\n", i) if "\n" in code[i:] else len(code)
            elif code.startswith("/*", i):
                i = code.index("*/", i) + 2
            elif c in "\"'":
                j = i + 1
                while code[j] != c:
                    j += 2 if code[j] == "\\" else 1
                found.append((code[i + 1:j], before(i)))
                i = j + 1
            elif c == "`":
                i = template(i)
            elif c == "{":
                depth += 1
                i += 1
            elif c == "}":
                if depth == 0 and until:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        return i

    def template(i: int) -> int:
        start, text, j = i, [], i + 1
        while code[j] != "`":
            if code[j] == "\\":
                text.append(code[j:j + 2])
                j += 2
            elif code.startswith("${", j):
                found.append(("".join(text), before(start)))
                text = []
                j = script(j + 2, "}")
            else:
                text.append(code[j])
                j += 1
        found.append(("".join(text), before(start)))
        return j + 1

    script(0, None)
    return found


def css_classes() -> set[str]:
    return set(re.findall(r"\.([a-zA-Z][\w-]*)", "".join(p.read_text() for p in WEB.glob("*.css"))))


KEY_ARGUMENT = re.compile(r"\b(?:t|has)\(\s*$")


def suspicious(text: str, before: str, classes: set[str]) -> bool:
    """A literal that reads as words a player would see (not a key, a class list, a selector, a path)."""
    if not re.search(r"[a-zà-ÿ]{2}", text) or text in ALLOWED_LITERALS or KEY_ARGUMENT.search(before):
        return False  # no lower-case word: notation (card codes, protocol codes such as GAME_NOT_OVER)
    if text.startswith(("/", "./", "#", "[", ".", "data-", "aria-")) or re.search(r"[=/;]", text):
        return False  # paths, media types, selectors, inline styles
    tokens = text.split()
    if len(tokens) > 1:  # several words: text, unless a list of the stylesheets' classes (or class prefixes)
        return not all(tok in classes or any(c.startswith(tok) for c in classes) for tok in tokens)
    if re.fullmatch(r"[A-ZÀ-Ý][a-zà-ÿ]+\W*", text):  # one capitalised word ("Stock", "Copied")
        return True
    # one word: a key, an identifier or a protocol token ("bot:medium") unless it is put where players read it
    return bool(re.search(r"\b(?:text|textContent|placeholder|title|label|aria-label\")\s*[:=]\s*$", before))


def test_the_lint_finds_what_it_should() -> None:
    classes = {"muted", "small-text"}
    assert suspicious("Play now", "  btn.textContent = ", classes)
    assert suspicious("fast", '  el("option", { text: ', classes)
    assert suspicious("Played", '  ["played", ', classes)
    assert suspicious("The table could not be created: ", "  showError(`", classes)
    assert not suspicious("home.play_now", "  t(", classes)
    assert not suspicious("muted small-text", '  el("span", { class: ', classes)
    assert not suspicious("/api/tables", "  api(", classes)
    assert not suspicious("change", "  input.addEventListener(", classes)
    assert sorted(text for text, _ in literals('x(`a ${t("k.y")} b`) // "c d"')) == [" b", "a ", "k.y"]
    assert sorted(text for text, _ in literals('`m${k ? ` n-${k}` : ""}` /* "e f" */')) == ["", "", "", " n-", "m"]


def test_no_player_visible_text_outside_the_catalogs_in_scripts() -> None:
    classes = css_classes()
    found = []
    for path in sources(".js"):
        for text, before in literals(path.read_text(encoding="utf-8")):
            if suspicious(text, before, classes):
                found.append(f"{path.name}: {text!r}")
    assert found == [], "text that should be t(...) from the catalogs"


VOID_TAGS = frozenset({"meta", "link", "input", "br", "img", "hr", "source", "area", "base", "col", "embed", "wbr"})


class _PageText(HTMLParser):
    """The text and visible attributes of a page that do not come from data-i18n / data-i18n-attr."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []  # per open element: its text comes from the catalogs
        self.found: list[str] = []
        self.keys: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        translated_attrs = {pair.split(":")[0].strip() for pair in (a.get("data-i18n-attr") or "").split(";") if pair}
        self.keys |= {pair.split(":")[1].strip() for pair in (a.get("data-i18n-attr") or "").split(";") if ":" in pair}
        if a.get("data-i18n"):
            self.keys.add(str(a["data-i18n"]))
        for name in VISIBLE_ATTRIBUTES:
            if a.get(name) and name not in translated_attrs and WORDS.search(str(a[name])):
                self.found.append(f"{tag}[{name}]={a[name]!r}")
        if tag not in VOID_TAGS:
            self.stack.append(bool(a.get("data-i18n")) or tag in ("script", "style"))

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID_TAGS and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if WORDS.search(data) and not (self.stack and self.stack[-1]):
            self.found.append(repr(data.strip()))


def page_text(path: Path) -> _PageText:
    parser = _PageText()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_no_player_visible_text_outside_the_catalogs_in_pages() -> None:
    found = [f"{p.name}: {text}" for p in sources(".html") for text in page_text(p).found]
    assert found == [], "text that should be data-i18n / data-i18n-attr keys"


KEY = re.compile(r"([a-z][a-z0-9_]*)\.[a-z0-9_.-]*")


def used_keys() -> tuple[set[str], set[str]]:
    """The keys the converted sources name (any literal shaped as a key of one of the catalog's namespaces,
    so that tables of keys count), and the prefixes of the keys they build (t(`level.${l}`) gives "level.")."""
    namespaces = {key.split(".")[0] for key in catalog("en")}
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in sources(".js"):
        for text, _ in literals(path.read_text(encoding="utf-8")):
            m = KEY.fullmatch(text)
            if m and m.group(1) in namespaces:  # a key, or the start of keys built at run time
                (prefixes if text.endswith((".", "_")) else keys).add(text)
    for path in sources(".html"):
        keys |= page_text(path).keys
    # the walk-through's tips are named by the server (help_pages.SCRIPT)
    keys |= set(re.findall(r"\"(learn\.[a-z_.]+)\"", (WEB.parent / "help_pages.py").read_text(encoding="utf-8")))
    return keys, prefixes


def test_every_key_the_sources_use_is_in_the_catalog() -> None:
    english = catalog("en")
    keys, prefixes = used_keys()
    assert sorted(k for k in keys if k not in english) == []
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in english), f"no key starts with {prefix!r}"


def test_every_key_of_the_catalog_is_used() -> None:
    keys, prefixes = used_keys()
    unused = [k for k in catalog("en") if k not in keys and not any(k.startswith(p) for p in prefixes)
              and not k.startswith(UNUSED_UNTIL_CONVERTED)]
    assert unused == []


# Keys used so far only by files in NOT_YET_CONVERTED (the table pages' new texts): listed so that they do
# not count as unused.
UNUSED_UNTIL_CONVERTED: tuple[str, ...] = ()


def test_the_not_yet_converted_list_shrinks() -> None:
    """A listed file that is already clean must leave the list (then the lint above covers it)."""
    classes = css_classes()
    for name in NOT_YET_CONVERTED:
        path = WEB / name
        if path.suffix == ".js":
            dirty = any(suspicious(text, before, classes) for text, before in literals(path.read_text()))
        else:
            dirty = bool(page_text(path).found)
        assert dirty, f"{name} is converted: remove it from NOT_YET_CONVERTED"
