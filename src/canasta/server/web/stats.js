// The statistics page: GET /api/players/ID/stats for this browser's player id.
import { api, el, formatPoints, playerId } from "./common.js";

const COLUMNS = [
  ["played", "Played"],
  ["won", "Won"],
  ["lost", "Lost"],
  ["drawn", "Drawn"],
  ["unfinished", "Unfinished"],
  ["hands", "Hands"],
  ["points_per_hand", "Points per hand"],
];

function cell(row, key) {
  const v = row ? row[key] : null;
  if (v === null || v === undefined) return "–";
  if (key === "points_per_hand") return formatPoints(Math.round(Number(v) * 10) / 10);
  return formatPoints(v);
}

async function start() {
  const id = playerId();
  document.getElementById("player-id").textContent = id;
  const box = document.getElementById("stats");
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(id)}/stats`);
  } catch (e) {
    box.replaceChildren(el("div", { class: "error-box", text: `The statistics could not be loaded: ${e.message}` }));
    return;
  }
  const rows = (data && data.variants) || [];
  if (!rows.length) {
    box.replaceChildren(el("p", {}, "No games yet. ", el("a", { href: "/", text: "Play one now." })));
    return;
  }
  const head = el("tr", {}, el("th", { text: "Variant" }), ...COLUMNS.map(([, t]) => el("th", { text: t })));
  const body = rows.map((r) => el("tr", { "data-variant": r.variant }, el("td", { text: r.variant }), ...COLUMNS.map(([k]) => el("td", { text: cell(r, k) }))));
  const parts = [el("thead", {}, head), el("tbody", {}, ...body)];
  if (data.total) parts.push(el("tfoot", {}, el("tr", {}, el("td", { text: "All variants" }), ...COLUMNS.map(([k]) => el("td", { text: cell(data.total, k) })))));
  box.replaceChildren(el("table", { class: "data" }, ...parts));
}

start();
