// The page: each panel builds the command line's options for one command, asks the API
// (/api/GAME/COMMAND, the CLI's own JSON), and shows the verdict and the best options.
"use strict";

const dalek = { mode: "roll", roll: [], kept: [] };
const $ = (id) => document.getElementById(id);

function showPanel(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.panel === name));
  }
  for (const panel of document.querySelectorAll(".panel")) {
    panel.hidden = panel.id !== name;
  }
  clearAnswer();
}

function clearAnswer() {
  $("verdict").textContent = "";
  $("error").textContent = "";
  $("options").replaceChildren();
  $("timing").textContent = "";
}

function drawDice() {
  for (const which of ["roll", "kept"]) {
    const chips = $(`dalek-${which}`);
    chips.replaceChildren(...dalek[which].map((face, index) => {
      const chip = document.createElement("button");
      chip.className = "chip";
      chip.textContent = face;
      chip.title = "tap to remove";
      chip.addEventListener("click", () => { dalek[which].splice(index, 1); drawDice(); });
      return chip;
    }));
  }
}

async function ask(game, command, params) {
  clearAnswer();
  const query = new URLSearchParams();
  for (const [key, value] of params) {
    if (value !== "" && value !== null) query.append(key, value);
  }
  const response = await fetch(`/api/${game}/${command}?${query}`);
  const data = await response.json();
  const timing = response.headers.get("Server-Timing") || "";
  const ms = /dur=([0-9.]+)/.exec(timing);
  $("timing").textContent = ms ? `answered in ${Math.round(Number(ms[1]))} ms` : "";
  if (!response.ok) {
    $("error").textContent = data.error;
    $("answer").scrollIntoView({ block: "start" });
    return;
  }
  $("verdict").textContent = data.verdict || "";
  drawOptions(data.options || []);
  $("answer").scrollIntoView({ block: "start" });
}

function cell(value) {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(4);
  if (Array.isArray(value)) return value.join(" ");
  if (value && typeof value === "object") return JSON.stringify(value);
  return value === undefined || value === null ? "" : String(value);
}

function drawOptions(options) {
  const shown = options.slice(0, 8);
  if (!shown.length) return;
  const keys = Object.keys(shown[0]).filter((key) => !key.endsWith("_exact"));
  const head = document.createElement("tr");
  head.append(...keys.map((key) => Object.assign(document.createElement("th"), { textContent: key })));
  const rows = shown.map((option) => {
    const row = document.createElement("tr");
    row.append(...keys.map((key) => Object.assign(document.createElement("td"), { textContent: cell(option[key]) })));
    return row;
  });
  $("options").replaceChildren(head, ...rows);
}

for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => showPanel(tab.dataset.panel));
}
for (const button of document.querySelectorAll(".mode-button")) {
  button.addEventListener("click", () => {
    dalek.mode = button.dataset.mode;
    for (const other of document.querySelectorAll(".mode-button")) {
      other.setAttribute("aria-pressed", String(other === button));
    }
  });
}
for (const face of document.querySelectorAll(".face")) {
  face.addEventListener("click", () => { dalek[dalek.mode].push(face.dataset.face); drawDice(); });
}
$("dalek-clear").addEventListener("click", () => {
  dalek.roll = []; dalek.kept = []; drawDice(); clearAnswer();
});
$("dalek-ask").addEventListener("click", () => ask("dalek", "best-move", [
  ["roll", dalek.roll.join(" ")], ["kept", dalek.kept.join(" ")],
  ["scores", $("dalek-scores").value.trim()],
]));
$("totd-ask").addEventListener("click", () => ask("totd", "best-move", [
  ["need", $("totd-need").value], ["showing", $("totd-showing").value],
  ["sonic", $("totd-sonic").value], ["reroll", $("totd-reroll").value],
]));
$("strike-ask").addEventListener("click", () => ask("strike", "best-move", [
  ["arena", $("strike-arena").value], ["stocks", $("strike-stocks").value],
  ["mid-turn", $("strike-mid").checked ? "1" : ""],
]));
