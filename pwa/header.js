// header.js — fills the header's status group (issue 11.3, 11.10): side and phase, the viewer's money
// with its label, the round. Only text: app.js decides what to show; layout lives in style.css.

import { SIDE_NAME } from "./texts.js";

const $ = (id) => document.getElementById(id);

/** "Runde 3 / 12" as two inline blocks, the word over the numbers; innerText stays "Runde 3 / 12". */
export function showRound(text) {
  const el = $("hdr-round");
  if (el.dataset.text === text) return;
  el.dataset.text = text;
  const cut = text.indexOf(" ");
  const word = document.createElement("span"), numbers = document.createElement("span");
  word.textContent = cut < 0 ? text : text.slice(0, cut);
  numbers.textContent = cut < 0 ? "" : text.slice(cut + 1);
  el.replaceChildren(word, document.createTextNode(" "), numbers);
}

/**
 * The money shown is always the viewer's, and always says so (issue 11.10): during the computer's turn
 * the side chip names the computer's side, so a bare number beside it read as the computer's money.
 */
export function showMoney(obs, viewer) {
  const money = obs.money ? obs.money[viewer] : null;
  $("hdr-money").textContent = money == null ? "" : String(money);
  $("hdr-money-box").hidden = money == null;
  $("hdr-money-box").title = viewer ? `Guthaben ${SIDE_NAME[viewer]}` : "Guthaben";
  $("hdr-money-box").className = `hdr-stat ${viewer || ""}`;
}
