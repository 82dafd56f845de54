/**
 * The report's own script, run in the page after Chart.js: it draws the charts from the
 * `report-data` JSON, filters the episodes, and fills a full observation in when its `<details>`
 * is opened (texts are kept once each in `report-texts`). Every text goes in through
 * `textContent` or Chart.js' canvas, never as markup. Plain ES2017, no build step; the browser
 * test (tests/report/browser.test.ts) runs it.
 */
// biome-ignore lint/complexity/noUselessStringRaw: the page's script must keep any backslash it gains exactly as written.
export const CLIENT_SCRIPT = String.raw`(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var textsElement = document.getElementById("report-texts");
  var texts = null;
  var COLORS = ["#2f5fd0", "#e08a1e", "#1a7f37", "#8250df", "#cf222e"];

  function drawCharts() {
    if (typeof Chart === "undefined") return;
    data.charts.forEach(function (spec) {
      var canvas = document.getElementById(spec.id);
      if (!canvas) return;
      var box = canvas.parentNode;
      box.style.height = (spec.horizontal ? Math.max(160, spec.labels.length * spec.series.length * 14 + spec.labels.length * 8 + 70) : 280) + "px";
      var valueAxis = { beginAtZero: true, grid: { color: "#e6e9ee" } };
      if (spec.max !== null) valueAxis.max = spec.max;
      var scales = spec.horizontal ? { x: valueAxis, y: { ticks: { autoSkip: false } } } : { y: valueAxis, x: { ticks: { autoSkip: false } } };
      new Chart(canvas, {
        type: "bar",
        data: {
          labels: spec.labels,
          datasets: spec.series.map(function (series, i) {
            return { label: series.name, data: series.values, backgroundColor: COLORS[i % COLORS.length] };
          })
        },
        options: {
          indexAxis: spec.horizontal ? "y" : "x",
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: scales,
          plugins: {
            legend: { display: spec.series.length > 1 },
            tooltip: {
              callbacks: {
                label: function (context) {
                  var value = context.raw;
                  return context.dataset.label + ": " + (value === null || value === undefined ? "n/a" : value + spec.unit);
                }
              }
            }
          }
        }
      });
    });
  }

  var episodes = Array.prototype.slice.call(document.querySelectorAll("details.episode"));
  var state = { category: "", outcome: "", termination: "", entropy: "" };
  var counter = document.getElementById("episode-count");

  function matches(element) {
    var d = element.dataset;
    if (state.category && d.category !== state.category) return false;
    if (state.outcome && d.outcome !== state.outcome) return false;
    if (state.termination && d.termination !== state.termination) return false;
    if (state.entropy === "drift" && d.drift !== "1") return false;
    if (state.entropy === "rot" && d.rot !== "1") return false;
    if (state.entropy === "none" && (d.drift === "1" || d.rot === "1")) return false;
    return true;
  }

  function apply() {
    var shown = 0;
    episodes.forEach(function (element) {
      var visible = matches(element);
      element.hidden = !visible;
      if (visible) shown++;
    });
    if (counter) counter.textContent = shown + " of " + episodes.length + " episodes";
  }

  function setOutcome(value) {
    state.outcome = value;
    Array.prototype.forEach.call(document.querySelectorAll("[data-outcome-filter]"), function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-outcome-filter") === value));
    });
  }

  function setSelect(id, key, value) {
    var select = document.getElementById(id);
    if (select) select.value = value;
    state[key] = value;
  }

  function reset() {
    setSelect("filter-category", "category", "");
    setSelect("filter-termination", "termination", "");
    setSelect("filter-entropy", "entropy", "");
    setOutcome("");
  }

  [["filter-category", "category"], ["filter-termination", "termination"], ["filter-entropy", "entropy"]].forEach(function (pair) {
    var select = document.getElementById(pair[0]);
    if (select) select.addEventListener("change", function () { state[pair[1]] = select.value; apply(); });
  });
  Array.prototype.forEach.call(document.querySelectorAll("[data-outcome-filter]"), function (button) {
    button.addEventListener("click", function () { setOutcome(button.getAttribute("data-outcome-filter")); apply(); });
  });
  Array.prototype.forEach.call(document.querySelectorAll("[data-show-category]"), function (link) {
    link.addEventListener("click", function () { reset(); setSelect("filter-category", "category", link.getAttribute("data-show-category")); apply(); });
  });
  var resetButton = document.getElementById("filter-reset");
  if (resetButton) resetButton.addEventListener("click", function () { reset(); apply(); });
  [["expand-all", true], ["collapse-all", false]].forEach(function (pair) {
    var button = document.getElementById(pair[0]);
    if (button) button.addEventListener("click", function () {
      episodes.forEach(function (element) { if (!element.hidden) element.open = pair[1]; });
    });
  });

  function openTask() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (id.indexOf("task-") !== 0) return;
    var element = document.getElementById(id);
    if (!element || !element.classList.contains("episode")) return;
    if (element.hidden) { reset(); apply(); }
    element.open = true;
    element.scrollIntoView();
  }
  window.addEventListener("hashchange", openTask);

  document.addEventListener("toggle", function (event) {
    var target = event.target;
    if (!target || !target.open || !target.hasAttribute || !target.hasAttribute("data-text")) return;
    var pre = target.querySelector("pre");
    if (!pre || pre.textContent) return;
    if (texts === null) texts = JSON.parse(textsElement.textContent);
    pre.textContent = texts[Number(target.getAttribute("data-text"))];
  }, true);

  drawCharts();
  apply();
  openTask();
  document.documentElement.setAttribute("data-ready", "1");
})();
`;
