// The help pages' navigation (home, rules, the walk-through, help), one for the three pages: put before the
// language menu in the header with id "help-nav", the page it is on marked.
import { el } from "./common.js";
import { t } from "./i18n.js";

const LINKS = [["/", "common.back_home"], ["/rules", "help.rules"], ["/learn", "help.learn"], ["/help", "help.help"]];

export function helpNav() {
  const here = `/${location.pathname.split("/")[1]}`;
  const link = ([href, key]) => {
    const a = el("a", { href, text: t(key) });
    if (href === here) a.setAttribute("aria-current", "page");
    return a;
  };
  document.getElementById("help-nav").prepend(el("nav", { "aria-label": t("help.nav") }, ...LINKS.map(link)));
}
