// The rules pages: /rules lists the variants, /rules/NAME shows one (GET /api/rules/NAME): the basics in
// plain words, the variant at a glance (generated from its parameters), then the rules reference's own
// page (what differs from the base game, the choices where sources disagree, every parameter), the pieces
// of `canasta rules NAME`: each parameter's meaning and allowed values in the page's language, the summary,
// the choices and the sources quoted as the reference writes them (English, marked so for screen readers).
import { api, el } from "./common.js";
import { helpNav } from "./help_nav.js";
import { lang, setUpPage, t } from "./i18n.js";
import { boundText, meaning } from "./params.js";
import { variantSummary, variantTitle } from "./variant_names.js";

const $ = (id) => document.getElementById(id);

// The basics of each family, in plain words: [heading key, text key].
const BASICS = {
  canasta: ["goal", "cards", "turn", "melds", "canastas", "pile", "threes", "going_out"],
  rummy: ["goal", "turn", "pile", "going_out"],
};

function variantName() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[1]) : null;
}

async function showIndex(box) {
  document.title = t("rules.title");
  let variants;
  try {
    variants = await api("/api/variants?family=all");
  } catch (e) {
    box.replaceChildren(el("div", { class: "error-box", role: "alert", text: t("rules.error", { message: e.message }) }));
    return;
  }
  // Classic first, then by the name in the page's language
  variants.sort((a, b) => (b.name === "classic") - (a.name === "classic") || variantTitle(a).localeCompare(variantTitle(b), lang));
  const section = (family, heading) => el("section", { "aria-labelledby": `family-${family}` },
    el("h2", { id: `family-${family}`, text: heading }),
    el("ul", { class: "variant-list" }, ...variants.filter((v) => v.family === family).map((v) => el("li", {},
      el("a", { href: `/rules/${encodeURIComponent(v.name)}`, "data-testid": `rules-${v.name}`, text: variantTitle(v) }),
      el("span", { class: "muted", text: ` — ${variantSummary(v)}` })))));
  box.replaceChildren(
    el("h1", { text: t("rules.heading") }),
    el("p", {}, t("rules.intro"), " ", el("a", { href: "/learn", text: t("rules.intro_learn") })),
    section("canasta", t("home.family_canasta")),
    section("rummy", t("home.family_rummy")));
}

/** Plain sentences about a preset, made from its parameters: players, pack, deal, turn, goal. */
function glance(r, p) {
  const facts = [];
  if (p.teams === p.players) facts.push(t("rules.fact.alone", { count: p.players }));
  else facts.push(t("rules.fact.sides", { players: p.players, teams: p.teams, size: p.players / p.teams }));
  if (r.family === "canasta") {
    facts.push(t("rules.fact.pack", { count: p.decks, jokers: p.jokers, total: p.decks * 52 + p.jokers }));
    facts.push(t("rules.fact.deal", { count: p.hand_size }));
    if (p.foot_size) facts.push(t("rules.fact.foot", { count: p.foot_size }));
    facts.push(t("rules.fact.draw", { count: p.draw_count }));
    if (!p.upcard) facts.push(t("rules.fact.no_upcard"));
    const minimums = (p.initial_meld || []).map(([low, min], i, all) => (i === 0 && all.length > 1 && low < -1e6
      ? t("rules.fact.minimum_below", { min, score: all[1][0] }) : t("rules.fact.minimum_from", { min, score: low })));
    if (minimums.length) facts.push(t("rules.fact.minimum", { list: minimums.join("; ") }));
    if (p.sequences) facts.push(t("rules.fact.sequences"));
    if (p.wild_melds) facts.push(t("rules.fact.wild_melds"));
    if (p.pile_always_frozen) facts.push(t("rules.fact.pile_frozen"));
    facts.push(t("rules.fact.go_out", { count: p.canastas_to_go_out }));
    facts.push(t("rules.fact.bonuses", { natural: p.natural_canasta_bonus, mixed: p.mixed_canasta_bonus, out: p.going_out_bonus }));
  } else {
    facts.push(t("rules.fact.rummy_deal", { two: p.hand_size_two, more: p.hand_size_more }));
    facts.push(t("rules.fact.draw", { count: p.draw_count }));
    facts.push(t(p.pile_take === "top" ? "rules.fact.pile_top" : "rules.fact.pile_any"));
    if (p.first_meld) facts.push(t("rules.fact.first_meld", { count: p.first_meld }));
    if (p.jokers) facts.push(t("rules.fact.jokers", { count: p.jokers }));
  }
  facts.push(p.hands_per_game ? t("rules.fact.hands", { count: p.hands_per_game }) : t("rules.fact.target", { target: p.target }));
  return facts;
}

function valueText(v) {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** A table of the reference: headings and meanings in the page's language; the last column, the sources,
 * as the reference writes them (English). */
function table(caption, heads, rows) {
  const cell = (c, i, row) => (i === 0 ? el("th", { scope: "row" }, el("code", { text: c }))
    : el("td", i === row.length - 1 ? { lang: "en", text: c } : { text: c }));
  return el("div", { class: "table-scroll" }, el("table", { class: "data rules-table" },
    el("caption", { class: "visually-hidden", text: caption }),
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows.map((row) => el("tr", {}, ...row.map(cell))))));
}

async function showVariant(box, name) {
  let r;
  try {
    r = await api(`/api/rules/${encodeURIComponent(name)}`);
  } catch (e) {
    box.replaceChildren(el("h1", { text: t("rules.heading") }),
      el("div", { class: "error-box", role: "alert", text: e.code === "UNKNOWN_VARIANT" ? t("rules.unknown", { name }) : t("rules.error", { message: e.message }) }),
      el("p", {}, el("a", { href: "/rules", text: t("rules.all") })));
    return;
  }
  const title = variantTitle(r);
  document.title = t("rules.variant_title", { title });
  const p = Object.fromEntries(r.parameters.map((x) => [x.name, x.value]));
  const base = r.base === r.name;
  const basics = el("section", { "aria-labelledby": "basics" }, el("h2", { id: "basics", text: t("rules.basics") }),
    base ? null : el("p", { class: "muted", text: t("rules.basics_of", { base: variantTitle({ name: r.base }) }) }),
    ...BASICS[r.family].flatMap((k) => [el("h3", { text: t(`rules.${r.family}.${k}`) }), el("p", { text: t(`rules.${r.family}.${k}.text`) })]));
  const reference = el("section", { "aria-labelledby": "reference", class: "reference" },
    el("h2", { id: "reference", text: t("rules.reference") }),
    el("p", { class: "muted", text: t("rules.reference_note", { name: r.name }) }));
  // The summary, the choices and the notes are the reference's own words, English whatever the page's
  // language: say so to screen readers (lang).
  const english = (...children) => el("div", { lang: "en" }, ...children);
  reference.append(english(el("p", { text: r.summary })));
  if (r.aliases.length) reference.append(el("p", {}, t("rules.aliases"), " ", ...r.aliases.map((a, i) => [i ? ", " : "", el("code", { text: a })])));
  if (r.changed.length) {
    reference.append(el("h3", { text: t("rules.differs", { base: variantTitle({ name: r.base }) }) }),
      table(t("rules.differs", { base: variantTitle({ name: r.base }) }), [t("rules.param"), t("rules.param_value"), t("rules.source")],
        r.changed.map((x) => [x.name, valueText(x.value), x.source])));
  }
  if (r.choices.length) {
    reference.append(el("h3", { text: t("rules.choices") }), english(el("ul", {}, ...r.choices.map((c) => el("li", { text: c })))));
  }
  // every parameter: long, so folded until asked for
  reference.append(el("details", { class: "every", "data-testid": "every-parameter" }, el("summary", { text: t("rules.every_count", { count: r.parameters.length }) }),
    table(t("rules.every"), [t("rules.param"), t("rules.param_value"), t("rules.allowed"), t("rules.meaning"), t("rules.source")],
      r.parameters.map((x) => [x.name, valueText(x.value), boundText(x.allowed), meaning(r.family, x.name, x.meaning), x.source]))),
    english(el("p", { class: "small-text muted", text: r.notes })));
  box.replaceChildren(
    el("h1", { text: title }),
    el("p", { class: "lead", text: variantSummary(r) }),
    el("section", { "aria-labelledby": "glance" }, el("h2", { id: "glance", text: t("rules.glance") }),
      el("ul", { "data-testid": "glance" }, ...glance(r, p).map((f) => el("li", { text: f })))),
    basics, reference,
    el("p", {}, el("a", { href: "/rules", text: t("rules.all") })));
}

function start() {
  helpNav();
  setUpPage();
  const box = $("rules");
  const name = variantName();
  if (name) showVariant(box, name);
  else showIndex(box);
}

start();
