// The page: each panel builds one command's options from what was tapped, asks the API
// (/api/GAME/COMMAND, the command line's own JSON), and shows the verdict and the best options
// in the page's words (no raw keys, no command-line flags).
"use strict";

const $ = (id) => document.getElementById(id);
const dalek = { mode: "roll", roll: [], kept: [] };
const totd = { mode: "need", colour: "black", dice: null, need: [], showing: [], reroll: [], change: [] };
const SHOWN = 8; // options listed under the verdict

// ---- the answer -------------------------------------------------------------------------

function clearAnswer() {
  $("verdict").textContent = "";
  $("error").textContent = "";
  $("options").replaceChildren();
  $("timing").textContent = "";
}

// The page's name for each option (its field's label), so an error never speaks a flag.
function pageWords(message) {
  const labels = {};
  for (const field of document.querySelectorAll("[data-option]")) {
    labels[field.dataset.option] = field.dataset.label;
  }
  return message.replace(/'?--([a-z][a-z-]*)'?/g,
    (whole, name) => (labels[name] ? `“${labels[name]}”` : whole));
}

function showError(message) {
  $("error").textContent = message;
  $("answer").scrollIntoView({ block: "start" });
}

// Ask the server; `show` turns its JSON into the verdict and the table.
async function ask(game, command, params, show) {
  clearAnswer();
  const query = new URLSearchParams(params);
  let response;
  let data;
  try {
    response = await fetch(`/api/${game}/${command}?${query}`, { cache: "no-store" });
    data = await response.json();
  } catch (failure) {
    showError("The server does not answer: is dice-solver serve still running on the computer, " +
              "and is this phone on its network? The page works offline; its answers need the server.");
    return;
  }
  const ms = /dur=([0-9.]+)/.exec(response.headers.get("Server-Timing") || "");
  $("timing").textContent = ms ? `answered in ${Math.round(Number(ms[1]))} ms` : "";
  if (!response.ok) {
    showError(pageWords(data.error || `the server answered ${response.status}`));
    return;
  }
  show(data);
  $("answer").scrollIntoView({ block: "start" });
}

const percent = (p) => `${(100 * p).toFixed(1)}%`;
const points = (p) => (100 * p).toFixed(1);

// Columns: [heading, (option) => text].
function drawTable(columns, options) {
  const head = document.createElement("tr");
  head.append(...columns.map(([name]) => Object.assign(document.createElement("th"), { textContent: name })));
  const rows = options.slice(0, SHOWN).map((option) => {
    const row = document.createElement("tr");
    row.append(...columns.map(([, text]) => Object.assign(document.createElement("td"), { textContent: text(option) })));
    return row;
  });
  $("options").replaceChildren(head, ...rows);
}

// How a game's values read: a chance in percent (regret in percentage points) or points.
function valueColumns(objective) {
  if (objective === "P(win)" || objective === "win share") {
    return [["win chance", (o) => percent(o.value)], ["lost (% points)", (o) => points(o.regret)]];
  }
  return [[objective, (o) => o.value.toFixed(2)], ["lost (points)", (o) => o.regret.toFixed(2)]];
}

function showVerdict(data) {
  $("verdict").textContent = data.verdict || "";
}

// ---- Dalek Dice -------------------------------------------------------------------------

function drawChips(target, list, redraw) {
  target.replaceChildren(...list.map((text, index) => {
    const chip = document.createElement("button");
    chip.className = "chip";
    chip.textContent = text;
    chip.title = "tap to remove";
    chip.addEventListener("click", () => { list.splice(index, 1); redraw(); });
    return chip;
  }));
}

function drawDalek() {
  drawChips($("dalek-roll"), dalek.roll, drawDalek);
  drawChips($("dalek-kept"), dalek.kept, drawDalek);
}

function askDalek() {
  if (!dalek.roll.length) { showError("Tap the dice you rolled first."); return; }
  const params = [["roll", dalek.roll.join(" ")], ["kept", dalek.kept.join(" ")]];
  const scores = $("dalek-scores").value.trim();
  if (scores) params.push(["scores", scores], ["seat", $("dalek-seat").value]);
  ask("dalek", "best-move", params, (data) => {
    showVerdict(data);
    drawTable([["keep", (o) => (o.keep.length ? o.keep.join(" ") : "-")], ["then", (o) => o.action],
               ...valueColumns(data.objective)], data.options);
  });
}

// ---- Time of the Daleks -----------------------------------------------------------------

function button(text, className, onClick) {
  const made = Object.assign(document.createElement("button"), { textContent: text, className });
  made.addEventListener("click", onClick);
  return made;
}

function fill(select, values, chosen) {
  select.replaceChildren(...values.map((value) => {
    const option = Object.assign(document.createElement("option"), { value, textContent: value });
    option.selected = value === chosen;
    return option;
  }));
}

function drawTotd() {
  const colours = Object.keys(totd.dice.dice);
  $("totd-colours").hidden = totd.mode !== "showing";
  $("totd-colours").replaceChildren(...colours.map((colour) => {
    const made = button(colour, `colour ${colour}`, () => { totd.colour = colour; drawTotd(); });
    made.setAttribute("aria-pressed", String(colour === totd.colour));
    return made;
  }));
  const symbols = totd.mode === "need" ? totd.dice.symbols : Object.keys(totd.dice.dice[totd.colour].faces);
  $("totd-faces").replaceChildren(...symbols.map((symbol) => button(symbol, "face", () => {
    if (totd.mode === "need") totd.need.push(symbol);
    else totd.showing.push(`${totd.colour}:${symbol}`);
    drawTotd();
  })));
  drawChips($("totd-need"), totd.need, drawTotd);
  drawChips($("totd-showing"), totd.showing, drawTotd);
  drawChips($("totd-reroll"), totd.reroll, drawTotd);
  drawChips($("totd-change"), totd.change, drawTotd);
}

function setUpTotd(dice) {
  totd.dice = dice;
  const colours = Object.keys(dice.dice);
  $("totd-pool").replaceChildren(...colours.map((colour) => {
    const select = document.createElement("select");
    select.dataset.colour = colour;
    fill(select, [...Array(dice.dice[colour].supply + 1).keys()].map(String), "0");
    const label = Object.assign(document.createElement("label"), { className: `pool-${colour}` });
    label.append(`${colour} `, select);
    return label;
  }));
  fill($("totd-sonic"), ["0", "1", "2", "3", "4", "5"], "0");
  fill($("totd-reroll-count"), ["1", "2", "3", "4", "5", "6", "7", "8", "any", "all"], "2");
  for (const select of document.querySelectorAll(".colour-select")) fill(select, colours, "black");
  fill($("totd-change-face"), dice.symbols, dice.symbols[0]);
  drawTotd();
}

function totdTools() {
  return [["sonic", $("totd-sonic").value], ...totd.reroll.map((r) => ["reroll", r]),
          ...totd.change.map((c) => ["change", c])];
}

function totdNeed() {
  if (!totd.need.length) { showError("Tap the symbols of the Challenge first."); return null; }
  return totd.need.join(", ");
}

function askTotdChance() {
  const need = totdNeed();
  if (need === null) return;
  const pool = [...document.querySelectorAll("#totd-pool select")]
    .filter((s) => s.value !== "0").map((s) => `${s.dataset.colour}=${s.value}`).join(" ");
  if (!pool) { showError("Choose the Story Dice to roll first."); return; }
  ask("totd", "chance", [["need", need], ["pool", pool], ...totdTools()], (data) => {
    $("verdict").textContent = `${percent(data.p_success)} to meet the Challenge, playing the tools ` +
      `at their best (the first roll alone: ${percent(data.p_first_roll)}).`;
  });
}

function askTotd() {
  const need = totdNeed();
  if (need === null) return;
  if (!totd.showing.length) { showError("Tap the dice showing first."); return; }
  ask("totd", "best-move", [["need", need], ["showing", totd.showing.join(" ")], ...totdTools()], (data) => {
    showVerdict(data);
    drawTable([["chance", (o) => percent(o.p_success)],
               ["do", (o) => [o.action, o.tool && `(${o.tool})`, ...o.changes].filter(Boolean).join(" ")],
               ["dice", (o) => (o.dice.length ? o.dice.join(" ") : "-")]], data.options);
  });
}

// ---- Strike -----------------------------------------------------------------------------

function askStrike() {
  const stocks = $("strike-stocks").value.trim();
  if (!stocks) { showError("Type the stocks, seat 1 first."); return; }
  const params = [["arena", $("strike-arena").value], ["stocks", stocks], ["mover", $("strike-mover").value]];
  if ($("strike-mid").checked) params.push(["mid-turn", "1"]);
  ask("strike", "best-move", params, (data) => {
    showVerdict(data);
    drawTable([["option", (o) => o.option], ...valueColumns(data.objective)], data.options);
  });
}

// ---- wiring -----------------------------------------------------------------------------

function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.panel === name));
  }
  for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.id !== name;
  clearAnswer();
}

for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => showPanel(tab.dataset.panel));
}
for (const group of document.querySelectorAll(".mode")) {
  const state = group.dataset.group === "dalek" ? dalek : totd;
  for (const choice of group.querySelectorAll(".mode-button")) {
    choice.addEventListener("click", () => {
      state.mode = choice.dataset.mode;
      for (const other of group.querySelectorAll(".mode-button")) {
        other.setAttribute("aria-pressed", String(other === choice));
      }
      if (state === totd) drawTotd();
    });
  }
}
for (const face of document.querySelectorAll("#dalek .face")) {
  face.addEventListener("click", () => { dalek[dalek.mode].push(face.dataset.face); drawDalek(); });
}
$("dalek-clear").addEventListener("click", () => {
  dalek.roll = []; dalek.kept = []; drawDalek(); clearAnswer();
});
$("dalek-ask").addEventListener("click", askDalek);
$("totd-reroll-add").addEventListener("click", () => {
  totd.reroll.push(`${$("totd-reroll-count").value} ${$("totd-reroll-colour").value}`); drawTotd();
});
$("totd-change-add").addEventListener("click", () => {
  totd.change.push(`${$("totd-change-colour").value}:${$("totd-change-face").value}`); drawTotd();
});
$("totd-chance").addEventListener("click", askTotdChance);
$("totd-ask").addEventListener("click", askTotd);
$("strike-ask").addEventListener("click", askStrike);

fetch("/data/totd-dice.json").then((r) => r.json()).then(setUpTotd)
  .catch(() => showError("The server does not answer: the dice of Time of the Daleks did not load."));

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
