// Reading the server's legal moves (docs/notation.md) and matching them against selected cards.
// The client never decides legality: it only picks moves out of the `legal` list.

const SUIT_CHARS = "SHDC";

/** Parse a move in canonical notation into {text, action, cards, target, words}. */
export function parseMove(text) {
  const words = String(text).trim().split(/\s+/).filter(Boolean);
  const action = (words[0] || "").toLowerCase();
  let rest = words.slice(1);
  let target = null;
  const on = rest.findIndex((w) => w.toLowerCase() === "on" || w.toLowerCase() === "to");
  if (on >= 0) {
    target = rest.slice(on + 1).join(" ") || null;
    rest = rest.slice(0, on);
  }
  let cards = [];
  if (action === "meld" || action === "take" || action === "discard") cards = rest.map(normToken);
  return { text: String(text), action, cards, target, words };
}

function normToken(t) {
  let s = t.toUpperCase();
  if (s.startsWith("10")) s = "T" + s.slice(2);
  if (s === "JOKER" || s === "JKR") s = "JK";
  return s;
}

/** Does a move's card token name this hand card? A token is a rank ("9", "JK", "3" = black three)
 *  or a full card ("4H", "3H"), which must match exactly. */
export function tokenMatches(token, code) {
  if (token === "JK") return code === "JK";
  if (code === "JK") return false;
  const last = token.slice(-1);
  if (token.length >= 2 && SUIT_CHARS.includes(last)) return token === code;
  const rank = code.slice(0, -1);
  if (token === "3") return rank === "3" && (code.endsWith("S") || code.endsWith("C"));
  return rank === token;
}

/** Assign each token to a distinct card of `codes` (list of card codes); returns the chosen indices
 *  into `codes`, or null. Full-card tokens are placed first, then ranks. */
export function assignCards(tokens, codes, { exact = true } = {}) {
  if (exact && tokens.length !== codes.length) return null;
  const used = new Array(codes.length).fill(false);
  const order = [...tokens.keys()].sort((a, b) => specificity(tokens[b]) - specificity(tokens[a]));
  const chosen = new Array(tokens.length);
  for (const ti of order) {
    let found = -1;
    for (let i = 0; i < codes.length; i++) {
      if (!used[i] && tokenMatches(tokens[ti], codes[i])) {
        found = i;
        break;
      }
    }
    if (found < 0) return null;
    used[found] = true;
    chosen[ti] = found;
  }
  return chosen;
}

function specificity(token) {
  if (token === "JK") return 1;
  return token.length >= 2 && SUIT_CHARS.includes(token.slice(-1)) ? 2 : 0;
}

/** The legal moves of `action` whose cards are exactly the selected cards. */
export function movesMatching(legal, action, selected) {
  return legal
    .map(parseMove)
    .filter((m) => m.action === action && assignCards(m.cards, selected) !== null);
}

/** Indices (into `hand`) of the cards a move would use, for highlighting a hint. */
export function cardsOfMove(text, hand) {
  const m = parseMove(text);
  if (!m.cards.length) return [];
  const idx = assignCards(m.cards, hand, { exact: false });
  return idx || [];
}

/** A move's cards as players read them: with `hand` (the mover's cards) each token becomes the very card
 * it takes ("7" -> "7♥"), else the token as words ("T" -> "10"). */
export function cardsText(m, hand = null) {
  const idx = hand ? assignCards(m.cards, hand, { exact: false }) : null;
  return (idx ? idx.map((i) => hand[i]) : m.cards).map(tokenText).join(" ");
}

/** Short, readable text of a move for buttons: "meld 2 on 9" -> "Meld 2♣ on 9s" (`hand`: the mover's cards). */
export function moveLabel(text, { handSize = null, hand = null } = {}) {
  const m = parseMove(text);
  const cards = cardsText(m, hand);
  const tgt = m.target ? targetText(m.target) : "";
  switch (m.action) {
    case "draw":
      return "Draw";
    case "take":
      if (!cards && tgt) return `Take pile onto ${tgt}`;
      return cards ? `Take pile with ${cards}` : "Take pile (add top card to your meld)";
    case "meld": {
      const out = handSize !== null && m.cards.length === handSize ? " & go out" : "";
      if (tgt) return `Meld ${cards} on ${tgt}${out}`;
      return `Meld ${cards}${out}`;
    }
    case "discard":
      return `Discard ${cards}` + (handSize === 1 ? " & go out" : "");
    case "ask":
      return "Ask partner: may I go out?";
    case "yes":
      return "Yes, go out";
    case "no":
      return "No, don't go out";
    case "withdraw":
      return "Withdraw staged melds";
    case "pass":
      return "Pass";
    case "layout":
      return "Lay out the three";
    case "declare":
      return "Declare " + m.words.slice(1).join(" ").replace(/_/g, " ");
    case "combine":
      return `Combine ${targetText(m.words[1] || "")} into ${tgt}`;
    default:
      return text.charAt(0).toUpperCase() + text.slice(1);
  }
}

export function tokenText(token) {
  if (token === "JK") return "Joker";
  if (token === "T") return "10";
  const last = token.slice(-1);
  if (token.length >= 2 && SUIT_CHARS.includes(last)) {
    const sym = { S: "♠", H: "♥", D: "♦", C: "♣" }[last];
    const r = token.slice(0, -1);
    return (r === "T" ? "10" : r) + sym;
  }
  return token;
}

/** A meld key as words: "9" -> "9s", "seqH" -> "♥ sequence", "9/2" -> "second 9s", "JK" -> "wild meld". */
export function targetText(key) {
  if (!key) return "";
  const [base, nth] = key.split("/");
  let s;
  if (base.startsWith("seq")) s = `${tokenText("A" + base.slice(3)).slice(1)} sequence`;
  else if (base === "JK") s = "wild meld";
  else s = `${tokenText(base)}s`;
  if (nth) s = `${ordinal(Number(nth))} ${s}`;
  return s;
}

function ordinal(n) {
  return { 2: "second", 3: "third", 4: "fourth", 5: "fifth" }[n] || `#${n}`;
}

/** Verb phrase for an event: "took the pile with K K", "discarded 5♥". `card` is the pile top after a
 *  discard when known; `hand` the mover's cards when known (then the cards are named with their suits). */
export function describeMove(text, card = null, hand = null) {
  const m = parseMove(text);
  const cards = cardsText(m, hand);
  const tgt = m.target ? targetText(m.target) : "";
  switch (m.action) {
    case "draw":
      return "drew from the stock";
    case "take":
      if (cards) return `took the pile with ${cards}` + (tgt ? ` onto the ${tgt}` : "");
      return tgt ? `took the pile onto the ${tgt}` : "took the pile";
    case "meld":
      if (tgt && m.cards.every((c) => c === "2" || c === "JK")) return `added ${cards} to the ${tgt}`;
      return `melded ${cards}` + (tgt ? ` on the ${tgt}` : "");
    case "discard":
      return `discarded ${card ? tokenText(card) : cards}`;
    case "ask":
      return "asked: may I go out?";
    case "yes":
      return "answered yes";
    case "no":
      return "answered no";
    case "withdraw":
      return "withdrew the staged melds";
    case "pass":
      return "passed";
    case "layout":
      return "laid out the three";
    case "declare":
      return "declared a special hand: " + m.words.slice(1).join(" ").replace(/_/g, " ");
    case "combine":
      return `combined the ${targetText(m.words[1] || "")} into the ${tgt}`;
    default:
      return text;
  }
}
