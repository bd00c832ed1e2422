// The engine's rules parameters in the page's language, for the rules pages and the house rules of the
// create form: a parameter's meaning (catalog "param.FAMILY.NAME"; the English catalog holds the engine's
// own words, tests/test_i18n.py keeps them equal) and its allowed values in words, from the bound's data
// (GET /api/rules, GET /api/variants). Parameter names and choice values stay as they are: they are what
// an option is written with.
import { has, t } from "./i18n.js";

/** The meaning of parameter `name` of `family` ("canasta" or "rummy"); `english` when no catalog has it. */
export function meaning(family, name, english) {
  const key = `param.${family}.${name}`;
  return has(key) ? t(key) : english || "";
}

/** A bound (its JSON: type int, bool, choice, label, row or list) in words. */
export function boundText(b) {
  switch (b.type) {
    case "int":
      return t("rules.bound.int", { min: b.min, max: b.max });
    case "bool":
      return t("rules.bound.bool");
    case "choice":
      return t("rules.bound.choice", { list: b.choices.map(String).join(", ") });
    case "label":
      return t("rules.bound.label", { max: b.max_length });
    case "row": {
      const names = b.fields.map((f) => fieldName(f.name));
      return t("rules.bound.row", { fields: names.join(", "), details: b.fields.map((f, i) => t("rules.bound.field", { name: names[i], text: boundText(f) })).join("; ") });
    }
    case "list":
      return t(b.min_items ? "rules.bound.list_from" : "rules.bound.list_up_to", { min: b.min_items, max: b.max_items, item: boundText(b.items) });
    default:
      return b.text || "";
  }
}

function fieldName(name) {
  const key = `rules.field.${name.replace(/ /g, "_")}`;
  return has(key) ? t(key) : name;
}
