// The help page: where to start, and the keyboard shortcuts of every page (the sheet is built from the
// table below so that each key and each action is one catalog entry).
import { el } from "./common.js";
import { helpNav } from "./help_nav.js";
import { setUpPage, t } from "./i18n.js";

// [heading key, [[key labels (catalog keys), what it does (catalog key)], ...]]
const SHEETS = [
  ["keys.table", [
    [["keys.key_arrows"], "keys.table_move"],
    [["keys.key_home_end"], "keys.table_first_last"],
    [["keys.key_alt_arrows"], "keys.hand_arrange"],
    [["keys.key_space"], "keys.table_select"],
    [["keys.key_enter"], "keys.table_action"],
    [["keys.key_esc"], "keys.table_clear"],
    [["keys.key_tab"], "keys.table_tab"],
  ]],
  ["keys.rummy", [
    [["keys.key_arrows"], "keys.table_move"],
    [["keys.key_home_end"], "keys.table_first_last"],
    [["keys.key_alt_arrows"], "keys.hand_arrange"],
    [["keys.key_enter", "keys.key_space"], "keys.rummy_activate"],
    [["keys.key_esc"], "keys.table_clear"],
    [["keys.key_tab"], "keys.rummy_tab"],
    [["keys.key_enter"], "keys.rummy_notation"],
  ]],
  ["keys.replay", [
    [["keys.key_left_right"], "keys.replay_step"],
    [["keys.key_home_end"], "keys.replay_first_last"],
  ]],
];

function start() {
  helpNav();
  setUpPage();
  const box = document.getElementById("shortcuts");
  box.replaceChildren(...SHEETS.map(([heading, rows], i) => el("section", { "aria-labelledby": `sheet-${i}` },
    el("h3", { id: `sheet-${i}`, text: t(heading) }),
    el("table", { class: "data keys-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("keys.keys") }), el("th", { scope: "col", text: t("keys.does") }))),
      el("tbody", {}, ...rows.map(([keys, what]) => el("tr", {},
        el("th", { scope: "row" }, ...keys.flatMap((k, j) => [j ? ` ${t("keys.or")} ` : null, el("kbd", { text: t(k) })])),
        el("td", { text: t(what) }))))))));
}

start();
