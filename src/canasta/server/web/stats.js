// The statistics page: GET /api/players/ID/stats for this browser's player id.
import { api, el, playerId } from "./common.js";
import { format, setUpPage, t } from "./i18n.js";
import { variantTitle } from "./variant_names.js";

const COLUMNS = ["played", "won", "lost", "drawn", "unfinished", "abandoned", "hands", "points_per_hand"];

function cell(row, key) {
  const v = row ? row[key] : null;
  if (v === null || v === undefined) return "–";
  if (key === "points_per_hand") return format(Math.round(Number(v) * 10) / 10);
  return format(v);
}

async function start() {
  setUpPage();
  const id = playerId();
  document.getElementById("player-id").textContent = id;
  const box = document.getElementById("stats");
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(id)}/stats`);
  } catch (e) {
    box.replaceChildren(el("div", { class: "error-box", text: t("stats.error", { message: e.message }) }));
    return;
  }
  const rows = (data && data.variants) || [];
  if (!rows.length) {
    box.replaceChildren(el("p", {}, t("stats.none"), " ", el("a", { href: "/", text: t("stats.play_one") })));
    return;
  }
  const head = el("tr", {}, el("th", { scope: "col", text: t("stats.variant") }), ...COLUMNS.map((k) => el("th", { scope: "col", text: t(`stats.${k}`) })));
  const body = rows.map((r) => el("tr", { "data-variant": r.variant }, el("th", { scope: "row", text: variantTitle({ name: r.variant }) }), ...COLUMNS.map((k) => el("td", { text: cell(r, k) }))));
  const parts = [el("caption", { class: "visually-hidden", text: t("stats.heading") }), el("thead", {}, head), el("tbody", {}, ...body)];
  if (data.total) parts.push(el("tfoot", {}, el("tr", {}, el("th", { scope: "row", text: t("stats.all") }), ...COLUMNS.map((k) => el("td", { text: cell(data.total, k) })))));
  box.replaceChildren(el("table", { class: "data" }, ...parts));
}

start();
