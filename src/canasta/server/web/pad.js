// The score pad page: a game played with real cards, scored by the server's engine (docs/pad.md).
// /pad lists this browser's pads and starts one; /pad?id=ID edits one; /pad/view/SHARE shows one read-only.
import { ApiError, el, playerId } from "./common.js";
import { format, has, setUpPage, t } from "./i18n.js";
import { variantTitle } from "./variant_names.js";

const $ = (id) => document.getElementById(id);
const shareMatch = location.pathname.match(/^\/pad\/view\/([A-Za-z0-9_-]{8,32})$/);
const READ_ONLY = Boolean(shareMatch);
let pad = null; // the server's view of the open pad
let fixing = null; // the hand number the form corrects, or null: the form adds a hand
let selected = null; // the hand shown line by line
let catalog = [];

async function call(path, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json", "X-Canasta-Player": playerId() };
  const opts = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "NETWORK", t("pad.network"));
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data && data.error, (data && data.message) || `${res.status}`);
  return data;
}

function notice(message) {
  const box = $("notice");
  box.textContent = message || "";
  box.classList.toggle("hidden", !message);
  if (message) box.scrollIntoView({ block: "nearest" });
}

function announce(message) {
  $("status").textContent = message;
}

/** A score line's name in the page's language (a line the catalogs do not know: its key, spaced). */
function lineLabel(key) {
  return has(`pad.line.${key}`) ? t(`pad.line.${key}`) : key.replace(/_/g, " ");
}

function kindLabel(kind) {
  return has(`pad.kind.${kind}`) ? t(`pad.kind.${kind}`) : kind.replace(/_/g, " ");
}

function titleOf(name) {
  return variantTitle(catalog.find((v) => v.name === name) || { name });
}

function minimumText(n, canasta) {
  if (canasta === "natural") return t("pad.next_minimum_natural", { n });
  return t(canasta ? "pad.next_minimum_canasta" : "pad.next_minimum", { n });
}

// ---------------------------------------------------------------- start: new game, import, the list
async function showStart() {
  $("start").classList.remove("hidden");
  $("game").classList.add("hidden");
  $("title").textContent = t("pad.heading");
  try {
    catalog = await call("/api/variants");
  } catch (e) {
    notice(e.message);
    return;
  }
  const select = $("variant");
  select.replaceChildren(...catalog.map((v) => el("option", { value: v.name, text: variantTitle(v) })));
  select.value = "classic";
  select.addEventListener("change", playersFor);
  playersFor();
  listPads();
}

function playersFor() {
  const entry = catalog.find((v) => v.name === $("variant").value);
  const counts = (entry && entry.player_counts) || [];
  $("players-field").classList.toggle("hidden", counts.length < 2);
  $("players").replaceChildren(...counts.map((n) => el("option", { value: String(n), text: String(n) })));
  if (entry) $("players").value = String(entry.players);
  const canasta = !entry || entry.family === "canasta";
  $("house-rules").classList.toggle("hidden", !canasta);
}

async function listPads() {
  const list = $("pads");
  try {
    const pads = await call("/api/pads");
    if (!pads.length) return;
    list.replaceChildren(...pads.map((p) => el("li", {}, el("a", {
      href: `/pad?id=${encodeURIComponent(p.pad)}`,
      text: t("pad.list_item", { names: (p.names || []).join(" – "), variant: titleOf(p.variant), count: p.hands }),
    }))));
  } catch (e) {
    notice(e.message);
  }
}

async function startPad(event) {
  event.preventDefault();
  const entry = catalog.find((v) => v.name === $("variant").value);
  const options = {};
  if (entry && !$("players-field").classList.contains("hidden") && Number($("players").value) !== entry.players) {
    options.players = Number($("players").value);
  }
  if (!entry || entry.family === "canasta") {
    if ($("hr-x5").checked) options.withdrawn_opening_raise = 10;
    if ($("hr-x8").checked) options.failed_permission_penalty = 100;
    if ($("hr-x13").checked) options.exact_cut_bonus = 100;
  }
  const names = $("names").value.split(",").map((s) => s.trim()).filter(Boolean);
  const body = { variant: $("variant").value, options };
  if (names.length) body.names = names;
  try {
    opened(await call("/api/pads", { method: "POST", body }));
  } catch (e) {
    notice(e.message);
  }
}

async function importPad() {
  const file = $("import").files[0];
  if (!file) return;
  if (file.size > 250000) {
    notice(t("pad.file_too_large"));
    return;
  }
  try {
    opened(await call("/api/pads", { method: "POST", body: { import: await file.text() } }));
  } catch (e) {
    notice(t("pad.not_imported", { message: e.message }));
  }
}

function opened(view) {
  history.replaceState(null, "", `/pad?id=${encodeURIComponent(view.pad)}`);
  show(view);
}

// ---------------------------------------------------------------- the game: board, sheet, detail
function show(view) {
  pad = view;
  notice("");
  $("start").classList.add("hidden");
  $("game").classList.remove("hidden");
  $("title").textContent = `${pad.names.join(" – ")} · ${titleOf(pad.variant)}`;
  const over = pad.result;
  $("board").replaceChildren(...pad.names.map((name, i) => el("div", { class: "side-total" },
    el("div", { class: "name", text: name }),
    el("div", { class: "score", text: format(pad.totals[i]) }),
    !over && pad.minimums[i] ? el("div", { class: "minimum", text: minimumText(pad.minimums[i], pad.opening_canastas[i]) })
      : null)));
  const result = $("result");
  result.classList.toggle("hidden", !over);
  if (over) {
    result.textContent = over.winner === null ? t("pad.result_draw", { count: over.hands })
      : t("pad.result_won", { name: pad.names[over.winner], count: over.hands });
  }
  drawSheet();
  if (selected === null || selected > pad.hands.length) selected = pad.hands.length || null;
  drawDetail();
  if (READ_ONLY) {
    $("hand-form").classList.add("hidden");
    $("tools").classList.add("hidden");
    return;
  }
  const link = `${location.origin}/pad/view/${pad.share}`;
  $("share").href = link;
  $("share").textContent = link;
  $("undo").disabled = !pad.can_undo;
  $("hand-form").classList.toggle("hidden", Boolean(over) && fixing === null);
  buildForm();
}

function drawSheet() {
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("pad.hand") }),
    ...pad.names.map((n) => el("th", { scope: "col", text: n }))));
  const rows = pad.hands.map((h) => {
    const pick = () => { selected = h.number; drawSheet(); drawDetail(); };
    const tr = el("tr", { class: h.number === selected ? "selected" : "" },
      el("th", { scope: "row" }, el("button", { type: "button", class: "hand-button", onclick: pick,
        "aria-pressed": String(h.number === selected), "aria-label": t("pad.show_hand", { n: h.number }),
        text: String(h.number) })),
      ...h.sides.map((s) => el("td", {}, format(s.cumulative),
        el("span", { class: "hand-score", text: (s.total >= 0 ? "+" : "") + format(s.total) }))));
    tr.addEventListener("click", pick);
    return tr;
  });
  $("sheet").replaceChildren(el("caption", { class: "sr-only", text: t("pad.sheet_caption") }), head,
    el("tbody", {}, ...rows));
}

function drawDetail() {
  const box = $("detail");
  if (!selected) {
    box.replaceChildren(el("p", { class: "muted", text: t("pad.no_hand") }));
    return;
  }
  const hand = pad.hands[selected - 1];
  const keys = [];
  for (const s of hand.sides) for (const k of Object.keys(s.lines)) if (!keys.includes(k)) keys.push(k);
  const rows = keys.filter((k) => hand.sides.some((s) => s.lines[k])).map((k) => el("tr", {},
    el("th", { scope: "row", text: lineLabel(k) }),
    ...hand.sides.map((s) => el("td", { text: format(s.lines[k] || 0) }))));
  const table = el("table", {},
    el("caption", { text: t("pad.hand_lines", { n: selected }) }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "" }),
      ...pad.names.map((n) => el("th", { scope: "col", text: n })))),
    el("tbody", {}, ...rows,
      el("tr", {}, el("th", { scope: "row", text: t("pad.hand_total") }), ...hand.sides.map((s) => el("td", { text: format(s.total) }))),
      el("tr", {}, el("th", { scope: "row", text: t("pad.running_total") }),
        ...hand.sides.map((s) => el("td", { text: format(s.cumulative) })))));
  const raised = hand.raised.map((r, i) => (r ? `${pad.names[i]} +${r}` : "")).filter(Boolean);
  const extra = [];
  if (raised.length) extra.push(el("p", { class: "small-text", text: t("pad.raised", { list: raised.join(", ") }) }));
  const note = pad.entries[selected - 1].note;
  if (note) extra.push(el("p", { class: "small-text", text: t("pad.note_shown", { note }) }));
  const buttons = READ_ONLY ? [] : [el("button", { type: "button", "data-testid": "pad-correct",
    text: t("pad.correct", { n: selected }), onclick: () => startFix(selected) })];
  box.replaceChildren(table, ...extra, ...buttons);
}

// ---------------------------------------------------------------- the hand's form
function stepper(id, label, value = 0, max = 20) {
  const out = el("output", { id, "aria-live": "polite", text: String(value) });
  const change = (d) => {
    const v = Math.max(0, Math.min(max, Number(out.textContent) + d));
    out.textContent = String(v);
  };
  return el("div", { class: "stepper" },
    el("span", { class: "label", id: `${id}-label`, text: label }),
    el("button", { type: "button", "aria-label": t("pad.less", { label }), onclick: () => change(-1), text: "−" }),
    out,
    el("button", { type: "button", "aria-label": t("pad.more", { label }), onclick: () => change(1), text: "+" }));
}

function pointsOrCards(id, label, hint) {
  return el("div", { class: "field" },
    el("label", { for: id, text: label }),
    el("input", { type: "text", id, inputmode: "text", autocomplete: "off", "aria-describedby": `${id}-hint` }),
    el("span", { class: "small-text muted", id: `${id}-hint`, text: hint }));
}


function buildForm() {
  const form = pad.form;
  const number = fixing || pad.hands.length + 1;
  $("form-title").textContent = fixing ? t("pad.correct", { n: fixing }) : t("pad.hand_n", { n: number });
  $("save-hand").textContent = fixing ? t("pad.save", { n: fixing }) : t("pad.add");
  $("cancel-fix").classList.toggle("hidden", !fixing);
  const rummy = form.family === "rummy";
  const sides = pad.names.map((name, i) => {
    const parts = [el("legend", { text: name })];
    parts.push(pointsOrCards(`s${i}-melds`, t(rummy ? "pad.shown" : "pad.melded"), t("pad.melded_hint")));
    if (!rummy) for (const kind of form.kinds) parts.push(stepper(`s${i}-k-${kind}`, kindLabel(kind)));
    if (!rummy && counted("concealed_canastas")) parts.push(stepper(`s${i}-concealed`, lineLabel("concealed_canastas"), 0, 12));
    if (!rummy && counted("short_sequences")) parts.push(stepper(`s${i}-short`, lineLabel("short_sequences"), 0, 12));
    if (!rummy) for (const rank of form.unfinished_melds || []) parts.push(stepper(`s${i}-u-${rank}`, unfinishedLabel(rank)));
    parts.push(pointsOrCards(`s${i}-hand`, t("pad.in_hand"), t("pad.in_hand_hint")));
    if (!rummy && counted("black_threes_in_hand")) parts.push(stepper(`s${i}-black-hand`, lineLabel("black_threes_in_hand"), 0, 12));
    if (!rummy) for (const p of form.hand_penalties || []) {
      parts.push(stepper(`s${i}-hp-${p.rank}`, t("pad.hand_penalty", { n: p.count, ranks: t(`card.ranks.${p.rank}`) }), 0, 4));
    }
    if (!rummy && form.red_threes) parts.push(stepper(`s${i}-red`, t("pad.red_threes"), 0, 12));
    if (!rummy && form.black_threes) parts.push(stepper(`s${i}-black`, t("pad.black_threes"), 0, 12));
    if (!rummy) parts.push(stepper(`s${i}-undeclared`, t("pad.undeclared"), 0, 12));
    const outs = rummy ? [["", t("pad.out.no")], ["out", t("pad.out.out")], ...(form.rummy ? [["rummy", t("pad.out.rummy")]] : []),
      ...(form.masters_hand ? [["master", t("pad.out.master")]] : [])]
      : [["", t("pad.out.no")], ["out", t("pad.out.out")], ["concealed", t("pad.out.concealed")],
        ...form.special_hands.map((h) => [`special:${h}`, t("pad.out.special", { name: h.replace(/_/g, " ") })])];
    parts.push(el("fieldset", { class: "field" }, el("legend", { text: t("pad.went_out") }),
      el("div", { class: "choice" }, ...outs.map(([v, t], j) => el("label", {},
        el("input", { type: "radio", name: `s${i}-out`, value: v, checked: j === 0 }), t)))));
    for (const x of pad.irregularities || []) {
      if (x.code === "other") continue;
      const title = has(`pad.x.${x.code}`) ? t(`pad.x.${x.code}`) : x.title;
      const label = x.points ? t("pad.x_points", { title, points: (x.points > 0 ? "+" : "") + format(x.points) })
        : t("pad.x_minimum", { title, n: x.raise });
      parts.push(el("div", { class: "irregularity" }, stepper(`s${i}-x-${x.code}`, label),
      el("span", { class: "source", text: x.source })));
    }
    parts.push(el("div", { class: "field" }, el("label", { for: `s${i}-other`, text: t("pad.other") }),
      el("input", { type: "number", id: `s${i}-other`, inputmode: "numeric", step: "1" })));
    return el("fieldset", { class: "side-form" }, ...parts);
  });
  if (!rummy && form.acaba) {
    // Acaba ends the hand for the whole table: only the other sides score, so it is one choice, not a side's
    const choices = [["", t("pad.acaba_none")], ...pad.names.map((name, i) => [String(i), name])];
    sides.push(el("fieldset", { class: "field", "aria-describedby": "acaba-hint" },
      el("legend", { text: t("pad.acaba") }),
      el("div", { class: "choice" }, ...choices.map(([v, label], j) => el("label", {},
        el("input", { type: "radio", name: "acaba", value: v, checked: j === 0 }), label))),
      el("span", { class: "small-text muted", id: "acaba-hint", text: t("pad.acaba_hint") })));
  }
  $("sides").replaceChildren(...sides);
}

/** Do these rules take this count field (docs/position-schema.md, "Scoring input")? */
function counted(field) {
  return (pad.form.counts || []).includes(field);
}

/** The stepper's label for unfinished melds of one rank (JK: of wild cards; JK4: the four jokers' wild meld). */
function unfinishedLabel(rank) {
  if (rank === "JK") return t("pad.unfinished_wild");
  if (rank === "JK4") return t("pad.unfinished_jk4");
  return t("pad.unfinished", { ranks: t(`card.ranks.${rank}`) });
}

/** Each rank repeated as often as its stepper counts (the ranks list unfinished_melds and hand_penalties take). */
function rankList(i, prefix, ranks) {
  return ranks.flatMap((rank) => Array(Number($(`s${i}-${prefix}-${rank}`).textContent)).fill(rank));
}

function setRanks(i, prefix, ranks, list) {
  for (const rank of ranks) $(`s${i}-${prefix}-${rank}`).textContent = String((list || []).filter((r) => r === rank).length);
}

function num(text) {
  const t = String(text || "").trim().replace(/,/g, "");
  return /^-?\d+$/.test(t) ? Number(t) : null;
}

function readForm() {
  const form = pad.form;
  const rummy = form.family === "rummy";
  const penalties = [];
  const sides = pad.names.map((_, i) => {
    const side = {};
    const melds = $(`s${i}-melds`).value.trim();
    const counts = {};
    if (!rummy) for (const kind of form.kinds) {
      const n = Number($(`s${i}-k-${kind}`).textContent);
      if (n) counts[kind] = n;
    }
    // with the melds as cards the engine reads unfinished melds and short sequences from them, and refuses a count given too
    const unfinished = rummy ? [] : rankList(i, "u", form.unfinished_melds || []);
    const short = $(`s${i}-short`) ? Number($(`s${i}-short`).textContent) : 0;
    if (unfinished.length) side.unfinished_melds = unfinished;
    if (short) side.short_sequences = short;
    const concealed = $(`s${i}-concealed`) ? Number($(`s${i}-concealed`).textContent) : 0;
    if (concealed) side.concealed_canastas = concealed;
    if (melds && num(melds) === null) {
      side.melds = melds.split("|").map((m) => m.trim()).filter(Boolean);
    } else if (melds || Object.keys(counts).length || unfinished.length || short) {
      side[rummy ? "table_points" : "melded_points"] = num(melds) ?? 0;
      if (Object.keys(counts).length) side.canastas = counts;
    }
    const hand = $(`s${i}-hand`).value.trim();
    const undeclared = rummy ? 0 : Number($(`s${i}-undeclared`).textContent);
    const blackInHand = $(`s${i}-black-hand`) ? Number($(`s${i}-black-hand`).textContent) : 0;
    const held = rummy ? [] : rankList(i, "hp", (form.hand_penalties || []).map((p) => p.rank));
    if (blackInHand) side.black_threes_in_hand = blackInHand;
    if (held.length) side.hand_penalties = held;
    if (hand && num(hand) === null) side.hand = hand;
    else if (hand || undeclared || blackInHand || held.length) {
      side.hand_points = num(hand) ?? 0;
      if (undeclared) side.undeclared_red_threes = undeclared;
    }
    if (!rummy && form.red_threes) {
      const n = Number($(`s${i}-red`).textContent);
      if (n) side.red_threes = n;
    }
    if (!rummy && form.black_threes) {
      const n = Number($(`s${i}-black`).textContent);
      if (n) side.black_threes = n;
    }
    const out = document.querySelector(`input[name="s${i}-out"]:checked`).value;
    if (out === "out" || out === "concealed" || out === "rummy") side.went_out = true;
    if (out === "concealed") side.concealed = true;
    if (out === "rummy") side.rummy = true;
    if (out === "master") side.masters_hand = true;
    if (out.startsWith("special:")) side.special_hand = out.slice(8);
    for (const x of pad.irregularities || []) {
      if (x.code === "other") continue;
      const n = Number($(`s${i}-x-${x.code}`).textContent);
      if (n) penalties.push({ side: i, code: x.code, count: n });
    }
    const other = $(`s${i}-other`).value.trim();
    if (other) penalties.push({ side: i, code: "other", points: -Math.abs(num(other) ?? NaN) });
    return side;
  });
  const acaba = document.querySelector('input[name="acaba"]:checked');
  // an Acaba hand scores no cards: only who called it
  const hand = acaba && acaba.value !== "" ? { sides: [], acaba_by: Number(acaba.value) } : { sides };
  if (penalties.length) hand.penalties = penalties;
  const note = $("note").value.trim();
  if (note) hand.note = note;
  return hand;
}

function fillForm(entry) {
  const rummy = pad.form.family === "rummy";
  entry.sides.forEach((side, i) => {
    $(`s${i}-melds`).value = side.melds ? side.melds.join(" | ") : String(side.melded_points ?? side.table_points ?? "");
    if (!rummy) for (const kind of pad.form.kinds) $(`s${i}-k-${kind}`).textContent = String((side.canastas || {})[kind] || 0);
    $(`s${i}-hand`).value = side.hand ?? String(side.hand_points ?? "");
    if (!rummy) $(`s${i}-undeclared`).textContent = String(side.undeclared_red_threes || 0);
    if ($(`s${i}-short`)) $(`s${i}-short`).textContent = String(side.short_sequences || 0);
    if ($(`s${i}-concealed`)) $(`s${i}-concealed`).textContent = String(side.concealed_canastas || 0);
    if ($(`s${i}-black-hand`)) $(`s${i}-black-hand`).textContent = String(side.black_threes_in_hand || 0);
    if (!rummy) setRanks(i, "u", pad.form.unfinished_melds || [], side.unfinished_melds);
    if (!rummy) setRanks(i, "hp", (pad.form.hand_penalties || []).map((p) => p.rank), side.hand_penalties);
    if (!rummy && pad.form.red_threes) $(`s${i}-red`).textContent = String(typeof side.red_threes === "number" ? side.red_threes : 0);
    if (!rummy && pad.form.black_threes) $(`s${i}-black`).textContent = String(typeof side.black_threes === "number" ? side.black_threes : 0);
    const out = side.special_hand ? `special:${side.special_hand}` : side.masters_hand ? "master" : side.rummy ? "rummy"
      : side.concealed ? "concealed" : side.went_out ? "out" : "";
    const radio = document.querySelector(`input[name="s${i}-out"][value="${out}"]`);
    if (radio) radio.checked = true;
    for (const p of entry.penalties || []) {
      if (p.side !== i) continue;
      if (p.code === "other") $(`s${i}-other`).value = String(Math.abs(p.points));
      else if ($(`s${i}-x-${p.code}`)) $(`s${i}-x-${p.code}`).textContent = String(p.count);
    }
  });
  const acaba = document.querySelector(`input[name="acaba"][value="${entry.acaba_by ?? ""}"]`);
  if (acaba) acaba.checked = true;
  $("note").value = entry.note || "";
}

function startFix(number) {
  fixing = number;
  $("hand-form").classList.remove("hidden");
  buildForm();
  fillForm(pad.entries[number - 1]);
  $("form-title").scrollIntoView({ block: "start" });
  $("s0-melds").focus();
}

async function saveHand(event) {
  event.preventDefault();
  const hand = readForm();
  const path = `/api/pads/${encodeURIComponent(pad.pad)}/hands` + (fixing ? `/${fixing}` : "");
  try {
    const view = await call(path, { method: fixing ? "PUT" : "POST", body: hand });
    const done = fixing ? t("pad.corrected", { n: fixing }) : t("pad.added", { n: view.hands.length });
    selected = fixing || view.hands.length;
    fixing = null;
    $("note").value = "";
    show(view);
    announce(done);
  } catch (e) {
    notice(t("pad.not_saved", { message: e.message }));
  }
}

async function undo() {
  try {
    fixing = null;
    show(await call(`/api/pads/${encodeURIComponent(pad.pad)}/undo`, { method: "POST" }));
    announce(t("pad.undone"));
  } catch (e) {
    notice(e.message);
  }
}

async function exportAs(format) {
  try {
    const res = await fetch(`/api/pads/${encodeURIComponent(pad.pad)}/export?format=${format}`,
      { headers: { "X-Canasta-Player": playerId() } });
    if (!res.ok) throw new Error(`${res.status}`);
    const url = URL.createObjectURL(await res.blob());
    const a = el("a", { href: url, download: `canasta-pad-${pad.variant}.${format}` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (e) {
    notice(t("pad.export_failed", { message: e.message }));
  }
}

// ---------------------------------------------------------------- wiring
async function main() {
  setUpPage();
  $("new-form").addEventListener("submit", startPad);
  $("import").addEventListener("change", importPad);
  $("hand-form").addEventListener("submit", saveHand);
  $("undo").addEventListener("click", undo);
  $("print").addEventListener("click", () => window.print());
  $("export-json").addEventListener("click", () => exportAs("json"));
  $("export-csv").addEventListener("click", () => exportAs("csv"));
  $("new-game").addEventListener("click", () => { history.replaceState(null, "", "/pad"); showStart(); });
  $("cancel-fix").addEventListener("click", () => { fixing = null; show(pad); });
  try {
    if (READ_ONLY) {
      show(await call(`/api/shared/pads/${shareMatch[1]}`));
      return;
    }
    const id = new URLSearchParams(location.search).get("id");
    if (id) show(await call(`/api/pads/${encodeURIComponent(id)}`));
    else await showStart();
  } catch (e) {
    notice(e.message);
    if (!READ_ONLY) await showStart();
  }
}

main();
