/** The report's stylesheet (inlined; no fonts or images are fetched). */
export const STYLE = `
:root { --fg: #1d2430; --muted: #5b6675; --line: #d9dee5; --bg: #f6f7f9; --card: #fff; --pass: #1a7f37; --fail: #cf222e; --accent: #2f5fd0; --na: #8a94a3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
header.top { background: #17202e; color: #fff; padding: 18px 28px; }
header.top h1 { margin: 0 0 4px; font-size: 20px; }
header.top p { margin: 2px 0; color: #c5cdd8; }
header.top code { color: #fff; }
nav.toc { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--line); padding: 8px 28px; display: flex; gap: 16px; flex-wrap: wrap; }
nav.toc a { color: var(--accent); text-decoration: none; }
main { padding: 0 28px 40px; max-width: 1500px; }
section { margin-top: 28px; }
h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 12px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 24px; font-weight: 600; }
.card .sub { color: var(--muted); font-size: 12px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 16px; align-items: start; }
table { border-collapse: collapse; background: var(--card); font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
td { overflow-wrap: anywhere; }
tbody th { white-space: nowrap; }
table.full-width { width: 100%; }
th { background: #eef1f5; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.na { color: var(--na); font-style: italic; }
.pass { color: var(--pass); }
.fail { color: var(--fail); }
.pos { color: var(--pass); }
.neg { color: var(--fail); }
.badge { display: inline-block; min-width: 38px; text-align: center; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; }
.badge.pass { background: var(--pass); color: #fff; }
.badge.fail { background: var(--fail); color: #fff; }
figure.chart { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 6px; }
.chart-box { position: relative; height: 260px; }
.wide { overflow-x: auto; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.filters { position: sticky; top: 38px; z-index: 1; display: flex; gap: 14px; align-items: center; flex-wrap: wrap; background: var(--bg); padding: 8px 0; border-bottom: 1px solid var(--line); }
.filters button { font: inherit; padding: 2px 10px; border: 1px solid var(--line); background: #fff; border-radius: 4px; cursor: pointer; }
.filters button[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
details.episode { background: var(--card); border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; }
details.episode > summary { cursor: pointer; padding: 6px 10px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
details.episode > summary .idx { font-weight: 700; min-width: 56px; }
details.episode > summary .meta { color: var(--muted); }
details.episode[open] > summary { border-bottom: 1px solid var(--line); }
.episode-body { padding: 10px 14px; display: grid; gap: 12px; }
dl.facts { display: grid; grid-template-columns: 140px 1fr; gap: 4px 12px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
pre.answer { background: #fff8e6; border: 1px solid #f0dca8; padding: 4px 6px; }
table.steps { width: 100%; }
table.steps td:nth-child(2) { width: 32%; }
details.full > summary { cursor: pointer; color: var(--accent); font-size: 12px; }
details.full pre { max-height: 480px; overflow: auto; background: #f3f5f8; padding: 6px; margin-top: 4px; }
.muted { color: var(--muted); }
ul.tasks { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 4px 8px; }
.warning { color: #9a6700; }
`;
