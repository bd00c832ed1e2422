// The home page: "Play now", choosing a game, creating a table with friends.
import { api, cardEl, copyText, displayName, el, LEVELS, playerId, setDisplayName, applyDeckPreference } from "./common.js";
import { lang, setUpPage, t } from "./i18n.js";
import { meaning } from "./params.js";
import { variantSummary, variantTitle } from "./variant_names.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_GAME = { variant: "classic", seats: ["human", "bot:medium", "bot:medium", "bot:medium"], delay: 0.8 };
let variants = [];
let busy = false;

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.classList.toggle("hidden", !message);
}

function names(n) {
  const arr = Array(n).fill(null);
  const me = displayName();
  if (me) arr[0] = me;
  return arr;
}

async function createTable(body) {
  if (busy) return null;
  busy = true;
  showError("");
  try {
    return await api("/api/tables", { method: "POST", body: { ...body, player: playerId() } });
  } catch (e) {
    showError(t("home.error_create", { message: e.message }));
    return null;
  } finally {
    busy = false;
  }
}

function seatZero(answer) {
  const s = (answer.seats || []).find((x) => x.seat === 0) || (answer.seats || [])[0];
  return s ? s.url : answer.watch_url;
}

async function playNow() {
  const btn = $("play-now");
  btn.disabled = true;
  btn.textContent = t("home.dealing");
  const answer = await createTable({ ...DEFAULT_GAME, names: names(4) });
  if (answer) {
    location.href = seatZero(answer);
    return;
  }
  btn.disabled = false;
  btn.textContent = t("home.play_now");
}

// ------------------------------------------------------------------ the form

function currentVariant() {
  const checked = document.querySelector('input[name="variant"]:checked');
  return variants.find((v) => v.name === (checked ? checked.value : "classic")) || variants[0];
}

function optionsOf(v) {
  return (v && v.options) || [];
}

/** The numbers of players a variant allows: its `player_counts`, or the choices of a `players` option. */
function playerChoices(v) {
  if (!v) return [];
  if (Array.isArray(v.player_counts) && v.player_counts.length > 1) return v.player_counts;
  const opt = optionsOf(v).find((o) => o.name === "players");
  if (opt) return opt.choices && opt.choices.length ? opt.choices : [2, 3, 4, 5, 6];
  return [];
}

function defaultPlayers(v) {
  const opt = optionsOf(v).find((o) => o.name === "players");
  return opt && opt.default ? Number(opt.default) : v ? v.players : 4;
}

function playerCount(v) {
  if (playerChoices(v).length > 1) return Number($("players").value) || defaultPlayers(v);
  return v ? v.players : 4;
}

/** "4 players", or "2–6 players" for a variant with a choice. */
function playersText(v) {
  const counts = Array.isArray(v.player_counts) && v.player_counts.length > 1 ? v.player_counts : null;
  return counts ? t("home.players_range", { min: Math.min(...counts), max: Math.max(...counts) }) : t("home.players_n", { count: v.players });
}

function renderVariants() {
  const box = $("variants");
  box.replaceChildren();
  // grouped by family (Canasta's first, as the catalog lists them), Classic first, then by title
  const families = [...new Set(variants.map((v) => v.family || "canasta"))];
  const rank = (v) => families.indexOf(v.family || "canasta");
  variants.sort((a, b) => rank(a) - rank(b) || (a.name === "classic" ? -1 : b.name === "classic" ? 1 : variantTitle(a).localeCompare(variantTitle(b))));
  let family = null;
  for (const v of variants) {
    if (families.length > 1 && (v.family || "canasta") !== family) {
      family = v.family || "canasta";
      box.append(el("div", { class: "variant-family", text: t(family === "rummy" ? "home.family_rummy" : "home.family_canasta") }));
    }
    const input = el("input", { type: "radio", name: "variant", value: v.name, "data-testid": `variant-${v.name}` });
    if (v.name === "classic") input.checked = true;
    input.addEventListener("change", onVariantChange);
    box.append(
      el("label", { class: "variant-option" }, input, el("span", { class: "t", text: variantTitle(v) }), el("span", { class: "muted small-text", text: ` · ${playersText(v)}` }), el("span", { class: "s", text: variantSummary(v) })),
    );
  }
  if (!document.querySelector('input[name="variant"]:checked') && box.querySelector("input")) box.querySelector("input").checked = true;
  onVariantChange();
}

function onVariantChange() {
  const v = currentVariant();
  if (!v) return;
  const opts = optionsOf(v);
  $("variant-summary").replaceChildren(variantSummary(v), " ", el("a", { href: `/rules/${encodeURIComponent(v.name)}`, target: "_blank", "data-testid": "variant-rules", text: t("home.variant_rules") }));
  // target
  const target = opts.find((o) => o.name === "target");
  $("target").value = target && target.default !== null && target.default !== undefined ? target.default : "";
  $("target").placeholder = target ? String(target.default) : t("home.target_default");
  $("target").dataset.default = target ? String(target.default) : "";
  if (target && target.max !== undefined) $("target").max = String(target.max);
  else $("target").removeAttribute("max");
  // players
  const choices = playerChoices(v);
  const pf = $("players-field");
  if (choices.length > 1) {
    pf.classList.remove("hidden");
    $("players").replaceChildren(...choices.map((c) => el("option", { value: String(c), text: String(c), selected: String(c) === String(defaultPlayers(v)) })));
  } else {
    pf.classList.add("hidden");
  }
  renderOptions(v);
  renderSeats();
}

function renderOptions(v) {
  const box = $("options");
  box.replaceChildren();
  // The house rules are the engine's parameters, named as its rules reference names them (the name an
  // option is written with: English, marked so for screen readers) and explained in the page's language.
  const opts = optionsOf(v).filter((o) => o.name !== "target" && o.name !== "players");
  if (!opts.length) {
    box.append(el("span", { class: "muted small-text", text: t("home.no_house_rules") }));
    return;
  }
  for (const o of opts) {
    const id = `opt-${o.name}`;
    let input;
    if (o.type === "bool") {
      input = el("input", { type: "checkbox", id, "data-option": o.name });
      input.checked = !!o.default;
      box.append(el("div", { class: "option" }, input, " ", optionLabel(id, o), optionMeaning(v, o)));
      continue;
    }
    if (o.type === "choice") {
      input = el("select", { id, "data-option": o.name }, ...(o.choices || []).map((c) => el("option", { value: JSON.stringify(c), text: String(c), selected: JSON.stringify(c) === JSON.stringify(o.default) })));
    } else {
      input = el("input", { type: "number", id, "data-option": o.name, step: "1" });
      if (o.min !== undefined) input.min = String(o.min); // the server's bounds, so the browser flags what it refuses
      if (o.max !== undefined) input.max = String(o.max);
      if (o.default !== null && o.default !== undefined) input.value = o.default;
    }
    box.append(el("div", { class: "option field" }, optionLabel(id, o), input, optionMeaning(v, o)));
  }
}

function optionLabel(id, o) {
  return el("label", { for: id, lang: "en", text: o.name.replace(/_/g, " ") });
}

function optionMeaning(v, o) {
  return el("div", { class: "meaning", text: meaning(v.family || "canasta", o.name, o.meaning) });
}

function renderSeats() {
  const v = currentVariant();
  const n = playerCount(v);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat-row")].map((r) => ({ kind: r.querySelector(".kind")?.value, level: r.querySelector(".level")?.value }));
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const label = el("span", { class: "seat-label", text: i === 0 ? t("home.seat_you") : t("common.seat", { n: i + 1 }) });
    if (i === 0) {
      box.append(el("div", { class: "seat-row", "data-testid": "seat-row-0" }, label, el("span", { class: "muted", text: t("home.you_human") })));
      continue;
    }
    const kind = el("select", { class: "kind", "data-testid": `seat-kind-${i}`, "aria-label": t("common.seat", { n: i + 1 }) }, el("option", { value: "bot", text: t("home.computer") }), el("option", { value: "human", text: t("home.friend") }));
    const level = el("select", { class: "level", "data-testid": `seat-level-${i}`, "aria-label": t("home.seat_level", { n: i + 1 }) }, ...LEVELS.map((l) => el("option", { value: l, text: t(`level.${l}`), selected: l === "medium" })));
    if (old[i] && old[i].kind) kind.value = old[i].kind;
    if (old[i] && old[i].level) level.value = old[i].level;
    const sync = () => level.classList.toggle("hidden", kind.value !== "bot");
    kind.addEventListener("change", sync);
    sync();
    // partners sit opposite; an entry's `teams` says whether the game has partnerships at all
    const partnerships = v && (v.teams === undefined ? v.players % 2 === 0 : v.teams < v.players && v.teams === 2);
    const partner = partnerships && n === 4 && i === 2 ? el("span", { class: "muted small-text", text: t("home.your_partner") }) : null;
    box.append(el("div", { class: "seat-row", "data-testid": `seat-row-${i}` }, label, kind, level, partner));
  }
}

function readForm() {
  const v = currentVariant();
  const options = {};
  const target = $("target");
  if (target.value !== "" && target.value !== target.dataset.default) options.target = Number(target.value);
  if (playerChoices(v).length > 1) {
    const n = Number($("players").value);
    if (n !== defaultPlayers(v)) options.players = n;
  }
  for (const o of optionsOf(v)) {
    if (o.name === "target" || o.name === "players") continue;
    const input = document.querySelector(`[data-option="${o.name}"]`);
    if (!input) continue;
    let value;
    if (o.type === "bool") value = input.checked;
    else if (o.type === "choice") value = JSON.parse(input.value);
    else {
      if (input.value === "") continue;
      value = Number(input.value);
    }
    if (JSON.stringify(value) !== JSON.stringify(o.default)) options[o.name] = value;
  }
  const n = playerCount(v);
  const seats = ["human"];
  for (const row of [...$("seats").querySelectorAll(".seat-row")].slice(1)) {
    const kind = row.querySelector(".kind").value;
    seats.push(kind === "human" ? "human" : `bot:${row.querySelector(".level").value}`);
  }
  return { variant: v ? v.name : "classic", options, seats: seats.slice(0, n), names: names(n), delay: Number($("delay").value) };
}

async function submit(withFriends) {
  const body = readForm();
  const buttons = [$("create"), $("create-friends")];
  buttons.forEach((b) => (b.disabled = true));
  const answer = await createTable(body);
  buttons.forEach((b) => (b.disabled = false));
  if (!answer) return;
  const friends = body.seats.some((s, i) => i > 0 && s === "human");
  if (!withFriends && !friends) {
    location.href = seatZero(answer);
    return;
  }
  showInvites(answer, body);
}

function showInvites(answer, body) {
  const list = $("invites");
  list.replaceChildren();
  const origin = location.origin;
  for (const s of answer.seats || []) {
    if (s.seat === 0) continue;
    list.append(inviteRow(t("common.seat", { n: s.seat + 1 }), origin + s.url, `invite-${s.seat}`));
  }
  if (!list.children.length) list.append(el("p", { class: "muted", text: t("home.only_spectators") }));
  list.append(inviteRow(t("home.spectators"), origin + answer.watch_url, "invite-watch"));
  $("go-seat").href = seatZero(answer);
  $("choose").classList.add("hidden");
  $("invites-panel").classList.remove("hidden");
  $("invites-panel").scrollIntoView({ behavior: "smooth" });
}

function inviteRow(who, url, testid) {
  const input = el("input", { type: "text", value: url, readonly: true, "data-testid": testid, "aria-label": t("home.link_of", { who }) });
  const btn = el("button", { type: "button", text: t("home.copy"), "data-testid": `${testid}-copy` });
  btn.addEventListener("click", async () => {
    const ok = await copyText(url, input);
    btn.textContent = t(ok ? "home.copied" : "home.select_copy");
    setTimeout(() => (btn.textContent = t("home.copy")), 2000);
  });
  return el("div", { class: "invite" }, el("span", { class: "who", text: who }), input, btn);
}

async function loadVariants() {
  try {
    variants = (await api("/api/variants?family=all")) || [];
    if (!Array.isArray(variants)) variants = variants.variants || [];
  } catch (e) {
    $("variants").replaceChildren(el("span", { class: "error-box", text: t("home.error_variants", { message: e.message }) }));
    return;
  }
  renderVariants();
}

function openChooser(friends) {
  const panel = $("choose");
  panel.classList.remove("hidden");
  $("invites-panel").classList.add("hidden");
  $("choose-title").textContent = t(friends ? "home.play_with_friends" : "home.choose_game");
  if (friends) {
    // make seat 3 (the partner in four-player games) a friend by default
    const kinds = [...document.querySelectorAll(".seat-row .kind")];
    const k = kinds[kinds.length >= 2 ? 1 : 0];
    if (k && !kinds.some((x) => x.value === "human")) {
      k.value = "human";
      k.dispatchEvent(new Event("change"));
    }
  }
  panel.scrollIntoView({ behavior: "smooth" });
}

function start() {
  setUpPage();
  $("house-rules-english").classList.toggle("hidden", lang === "en");
  applyDeckPreference();
  const fan = $("fan");
  for (const c of ["AS", "KH", "JK", "2D"]) fan.append(cardEl(c));
  const name = $("name");
  name.value = displayName();
  name.addEventListener("input", () => setDisplayName(name.value));
  $("player-id").textContent = playerId();
  $("play-now").addEventListener("click", playNow);
  $("show-choose").addEventListener("click", () => openChooser(false));
  $("show-friends").addEventListener("click", () => openChooser(true));
  $("players").addEventListener("change", renderSeats);
  $("options-filter").addEventListener("input", (e) => {
    const q = e.target.value.trim().toLowerCase();
    for (const o of document.querySelectorAll("#options .option")) o.classList.toggle("hidden", !!q && !o.textContent.toLowerCase().includes(q));
  });
  $("game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    submit(false);
  });
  $("create-friends").addEventListener("click", () => submit(true));
  loadVariants();
}

start();
