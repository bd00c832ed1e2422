// A variant's name and one-line summary in the page's language: the catalogs name each preset as players
// in that country say it (variant.NAME, variant.NAME.summary); a preset the catalogs do not know yet (a
// new one on the server) shows the server's English title and summary.
import { has, t } from "./i18n.js";

export function variantTitle(v) {
  const key = `variant.${v.name}`;
  return has(key) ? t(key) : v.title || v.name;
}

export function variantSummary(v) {
  const key = `variant.${v.name}.summary`;
  return has(key) ? t(key) : v.summary || "";
}
