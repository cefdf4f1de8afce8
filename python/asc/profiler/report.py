"""A self-contained HTML report of one profiled launch: the estimate, the
instruction timeline (a canvas drawn by inline JavaScript: wheel to zoom,
drag to pan, hover for details), the pipe table, bytes per memory path, the
kernel's source lines shaded by estimated cost, and the model's parameters.
No network access: all data, styles and code are inline."""

from __future__ import annotations

import html
import json
import linecache
import os
from typing import Any, Dict, List, Tuple

import numpy as np

from .data import KINDS, PIPES, LaunchProfile, records_of
from .trace import TRACK_ORDER, slice_name

MAX_TIMELINE_BLOCKS = 16
MAX_TIMELINE_SLICES = 200_000

_STYLE = """
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:1px solid #ddd}
table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #eee}
th{background:#f4f4f4}td.l,th.l{text-align:left}
.note{color:#666;font-size:.9em}
#tlwrap{position:relative;border:1px solid #ccc}
#tl{display:block;width:100%;cursor:grab}
#tip{position:absolute;pointer-events:none;background:#fffbe6;border:1px solid #cca;padding:3px 6px;
font-size:12px;display:none;white-space:pre;z-index:2}
table.src td{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;border:none;padding:0 8px}
table.src td.code{text-align:left;white-space:pre}
.legend span{display:inline-block;margin-right:12px}.legend i{display:inline-block;width:12px;height:10px;
margin-right:4px;vertical-align:middle}
"""

_SCRIPT = r"""
(function(){
const D = JSON.parse(document.getElementById('data').textContent);
const cv = document.getElementById('tl'), tip = document.getElementById('tip');
const ctx = cv.getContext('2d');
const ROW = 18, TOP = 24, LEFT = 150;
const COLORS = {S:'#8c8c8c', V:'#3a9d3a', M:'#8e44ad', MTE1:'#b07d2b', MTE2:'#2f6db5', MTE3:'#d9822b', FIX:'#666'};
const n = D.track.length;
// per track: indices of its slices, sorted by start (the data comes sorted)
const byTrack = D.tracks.map(() => []);
for (let i = 0; i < n; i++) byTrack[D.track[i]].push(i);
let t0 = 0, t1 = D.end > 0 ? D.end : 1;
function width(){ return Math.max(cv.clientWidth || 0, 600); }
function resize(){
  const w = width(), h = TOP + D.tracks.length * ROW + 8, r = window.devicePixelRatio || 1;
  cv.width = w * r; cv.height = h * r; cv.style.height = h + 'px';
  ctx.setTransform(r, 0, 0, r, 0, 0);
}
function xOf(t){ return LEFT + (t - t0) / (t1 - t0) * (width() - LEFT - 8); }
function tOf(x){ return t0 + (x - LEFT) / (width() - LEFT - 8) * (t1 - t0); }
function draw(){
  const w = width();
  ctx.clearRect(0, 0, w, cv.height);
  ctx.font = '11px sans-serif'; ctx.textBaseline = 'middle';
  // time axis
  ctx.fillStyle = '#444'; ctx.strokeStyle = '#ddd';
  const span = t1 - t0, step = Math.pow(10, Math.floor(Math.log10(span / 5)));
  const k = span / step > 25 ? 5 : span / step > 10 ? 2 : 1;
  for (let t = Math.ceil(t0 / (k * step)) * k * step; t <= t1; t += k * step) {
    const x = xOf(t); ctx.beginPath(); ctx.moveTo(x, TOP - 4); ctx.lineTo(x, cv.height); ctx.stroke();
    ctx.fillText((t / 1000).toFixed(3) + ' us', x + 2, 10);
  }
  let drawn = 0;
  D.tracks.forEach((tr, ti) => {
    const y = TOP + ti * ROW;
    ctx.fillStyle = ti % 2 ? '#fafafa' : '#fff'; ctx.fillRect(LEFT, y, w - LEFT, ROW);
    ctx.fillStyle = '#333'; ctx.fillText(tr.label, 4, y + ROW / 2);
    const color = COLORS[tr.pipe] || '#999';
    let lastX = -1;
    for (const i of byTrack[ti]) {
      const s = D.start[i], e = D.end_[i];
      if (e < t0 || s > t1) continue;
      const kind = D.kinds[D.kind[i]];
      let x0 = xOf(s), x1 = xOf(e);
      if (kind === 'set') { ctx.fillStyle = '#222'; ctx.fillRect(x0 - 0.5, y + 2, 1, ROW - 4); drawn++; continue; }
      if (x1 - x0 < 1) { if (Math.floor(x0) === lastX) continue; x1 = x0 + 1; }
      lastX = Math.floor(x0);
      ctx.fillStyle = kind === 'wait' ? '#f3b7b7' : kind === 'barrier' ? '#d66' :
        kind === 'start-up' ? '#dcdcdc' : color;
      ctx.fillRect(x0, y + 3, x1 - x0, ROW - 6);
      drawn++;
    }
  });
  cv.dataset.drawn = String(drawn);
}
function hit(ev){
  const r = cv.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
  const ti = Math.floor((y - TOP) / ROW);
  if (ti < 0 || ti >= D.tracks.length || x < LEFT) return null;
  const t = tOf(x), tol = (t1 - t0) / (width() - LEFT) * 2;
  let best = null;
  for (const i of byTrack[ti]) {
    if (D.start[i] - tol <= t && t <= D.end_[i] + tol) best = i;
    if (D.start[i] > t + tol) break;
  }
  return best === null ? null : {i: best, x: x, y: y};
}
let drag = null;
cv.addEventListener('wheel', ev => {
  ev.preventDefault();
  const r = cv.getBoundingClientRect(), t = tOf(ev.clientX - r.left), f = ev.deltaY > 0 ? 1.25 : 0.8;
  t0 = t - (t - t0) * f; t1 = t + (t1 - t) * f; draw();
}, {passive: false});
cv.addEventListener('mousedown', ev => { drag = {x: ev.clientX, t0: t0, t1: t1}; });
window.addEventListener('mouseup', () => { drag = null; });
cv.addEventListener('dblclick', () => { t0 = 0; t1 = D.end > 0 ? D.end : 1; draw(); });
cv.addEventListener('mousemove', ev => {
  if (drag) {
    const dt = (ev.clientX - drag.x) / (width() - LEFT) * (drag.t1 - drag.t0);
    t0 = drag.t0 - dt; t1 = drag.t1 - dt; draw(); return;
  }
  const h = hit(ev);
  if (!h) { tip.style.display = 'none'; return; }
  const i = h.i;
  tip.textContent = D.names[D.name[i]] + '\n' + D.kinds[D.kind[i]] + ' on ' + D.tracks[D.track[i]].label +
    '\nstart ' + (D.start[i] / 1000).toFixed(4) + ' us, ' + (D.end_[i] - D.start[i]) + ' ns' +
    (D.bytes[i] ? '\n' + D.bytes[i] + ' bytes' : '');
  tip.style.left = (h.x + 12) + 'px'; tip.style.top = (h.y + 12) + 'px'; tip.style.display = 'block';
});
cv.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
window.addEventListener('resize', () => { resize(); draw(); });
resize(); draw();
document.body.dataset.ready = '1';
})();
"""


def _timeline(p: LaunchProfile) -> Tuple[Dict[str, Any], str]:
    """The timeline data (slices as flat lists, times in ns from the launch start) and a note."""
    names = [slice_name(s.api or s.op, s.detail, s.file, s.line) for s in p.sites]
    blocks = list(range(min(len(p.blocks), MAX_TIMELINE_BLOCKS)))
    tracks: List[Dict[str, Any]] = []
    cols: Dict[str, List[int]] = {"track": [], "start": [], "end_": [], "kind": [], "name": [], "bytes": []}
    total = 0
    note = ""
    startup_kind = len(KINDS)  # synthetic slices: the launch overhead, each block's start-up
    site_names = len(names)
    names += ["launch overhead", "block start-up"]

    def synthetic(track: int, start_ns: int, end_ns: int, name: int) -> None:
        for key, v in (("track", track), ("start", start_ns), ("end_", end_ns), ("kind", startup_kind),
                       ("name", name), ("bytes", 0)):
            cols[key].append(v)

    tracks.append({"label": "launch", "pipe": "S"})
    synthetic(0, 0, int(np.floor(p.launch_overhead_cycles / p.clock_ghz)), site_names)
    startup = p.block_start_cycles
    for bi, r in records_of(p, blocks):
        if not len(r):
            continue
        pipes = sorted({int(x) for x in np.unique(r["pipe"])} | {0},
                       key=lambda x: TRACK_ORDER.index(PIPES[x]) if x < len(PIPES) else 99)
        off = p.blocks[bi].offset
        for pipe in pipes:
            sel = r[r["pipe"] == pipe]
            if pipe == 0 and startup > 0:
                synthetic(len(tracks), int(np.floor(off / p.clock_ghz)),
                          int(np.floor((off + startup) / p.clock_ghz)), site_names + 1)
            if total + len(sel) > MAX_TIMELINE_SLICES:
                sel = sel[: max(MAX_TIMELINE_SLICES - total, 0)]
                note = f"the timeline shows the first {MAX_TIMELINE_SLICES:,} instructions"
            if not len(sel):
                if pipe == 0 and startup > 0:
                    tracks.append({"label": f"block {bi} S", "pipe": "S"})
                continue
            ti = len(tracks)
            tracks.append({"label": f"block {bi} {PIPES[pipe]}", "pipe": PIPES[pipe]})
            total += len(sel)
            cols["track"].extend([ti] * len(sel))
            cols["start"].extend(np.floor((sel["start"] + off) / p.clock_ghz).astype(np.int64).tolist())
            cols["end_"].extend(np.floor((sel["end"] + off) / p.clock_ghz).astype(np.int64).tolist())
            cols["kind"].extend(sel["kind"].astype(int).tolist())
            cols["name"].extend(sel["site"].astype(int).tolist())
            cols["bytes"].extend(sel["bytes"].astype(int).tolist())
    if len(p.blocks) > MAX_TIMELINE_BLOCKS:
        note = (note + "; " if note else "") + f"blocks 0-{MAX_TIMELINE_BLOCKS - 1} of {len(p.blocks)} shown"
    if p.truncated:
        note = (note + "; " if note else "") + "some records were dropped (max_records)"
    data = {"tracks": tracks, "names": names, "kinds": list(KINDS) + ["start-up"],
            "end": int(p.duration_us * 1000) + 1, **cols}
    return data, note


def _table(rows: List[List[str]], head: List[str], left: int = 1, left_last: bool = False) -> str:
    """An HTML table; the first `left` columns (and the last, with left_last) are left-aligned text."""
    def is_left(i: int) -> bool:
        return i < left or (left_last and i == len(head) - 1)

    th = "".join(f"<th class='l'>{html.escape(h)}</th>" if is_left(i) else f"<th>{html.escape(h)}</th>"
                 for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f"<td class='l'>{c}</td>" if is_left(i) else f"<td>{c}</td>"
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _source(p: LaunchProfile) -> str:
    hot = p.hotspots()
    if not hot:
        return "<p class='note'>no source locations</p>"
    peak = max(h.cycles for h in hot) or 1
    by_file: Dict[str, Dict[int, Any]] = {}
    for h in hot:
        by_file.setdefault(h.file, {})[h.line] = h
    parts = []
    for file, lines in by_file.items():
        lo, hi = max(min(lines) - 2, 1), max(lines) + 1
        rows = []
        for ln in range(lo, hi + 1):
            text = linecache.getline(file, ln).rstrip("\n")
            h = lines.get(ln)
            if h is not None:
                a = 0.08 + 0.8 * h.cycles / peak if h.cycles else 0.0
                style = f" style='background:rgba(220,50,40,{a:.3f})'"
                cyc, share, count = f"{h.cycles:,}", f"{h.share:.1%}", f"{h.count:,}"
                stall = f"{h.stall:,}" if h.stall else ""
                title = (f" title='scalar {h.scalar:,} + pipe {h.busy:,} cycles (stall {h.stall:,}); "
                         f"{html.escape(' '.join(h.apis))}'")
            else:
                style = title = ""
                cyc = share = count = stall = ""
            rows.append(f"<tr{style}{title}><td>{ln}</td><td>{count}</td><td>{cyc}</td><td>{share}</td>"
                        f"<td>{stall}</td><td class='code'>{html.escape(text)}</td></tr>")
        parts.append(f"<h3>{html.escape(os.path.basename(file))} <span class='note'>{html.escape(file)}</span></h3>"
                     "<table class='src'><tr><th>line</th><th>instructions</th><th>cycles</th><th>share</th>"
                     "<th>stall</th><th class='l'>source</th></tr>" + "".join(rows) + "</table>")
    return "".join(parts)


def _params(p: LaunchProfile) -> str:
    try:
        from .. import _C

        info = {name: (unit, source) for name, _, unit, source in _C.timing_params(p.platform)}
    except (ValueError, AttributeError):
        info = {}
    rows = [[html.escape(k), f"{v:g}", html.escape(info.get(k, ("", ""))[0]),
             html.escape(info.get(k, ("", ""))[1])] for k, v in p.params.items()]
    return _table(rows, ["parameter", "value", "unit", "source"], left=1, left_last=True)


def html_report(p: LaunchProfile) -> str:
    s = p.summary()
    data, note = _timeline(p)
    summary = _table([[html.escape(str(k)), html.escape(str(v) if not isinstance(v, float) else f"{v:.4g}")]
                      for k, v in s.items() if k != "bytes"], ["", ""])
    pipes = _table([[r["pipe"], f"{r['instructions']:,}", f"{r['busy_us']:.3f}", f"{r['stall_us']:.3f}",
                     f"{r['utilisation']:.1%}"] for r in p.pipe_table()],
                   ["pipe", "instructions", "busy us (mean/block)", "stall us (mean/block)", "utilisation"])
    memory = _table([[r["path"], r["pipe"], f"{r['bytes']:,}", f"{r['gb_per_s']:.1f}"] for r in p.memory_table()],
                    ["path", "pipe", "bytes", "GB/s over the launch"], left=2)
    hot = _table([[html.escape(f"{os.path.basename(h.file)}:{h.line}"), f"{h.cycles:,}", f"{h.share:.1%}",
                   f"{h.stall:,}", f"<code>{html.escape(h.source.strip()[:80])}</code>"] for h in p.hotspots(10)],
                 ["line", "cycles", "share", "stall cycles", "source"], left_last=True)
    legend = "".join(f"<span><i style='background:{c}'></i>{n}</span>" for n, c in
                     [("S", "#8c8c8c"), ("MTE2", "#2f6db5"), ("V", "#3a9d3a"), ("MTE3", "#d9822b"),
                      ("wait (stall)", "#f3b7b7"), ("set_flag", "#222"), ("launch, start-up", "#dcdcdc")])
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = f"{p.kernel}: estimated {p.duration_us:.3f} us"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pyasc profile: {html.escape(title)}</title>
<style>{_STYLE}</style></head>
<body>
<h1>{html.escape(p.kernel)} <span class="note">on {html.escape(p.platform)}, {p.core_num} blocks</span></h1>
<p>Estimated duration <b>{p.duration_us:.3f} us</b> ({p.duration_cycles:,} cycles at {p.clock_ghz:g} GHz),
of which launch overhead {p.launch_overhead_us:.3f} us. Estimates of the pyasc timing model (docs/timing.md).</p>
<h2>Timeline</h2>
<p class="legend">{legend} <span class="note">wheel: zoom, drag: pan, double-click: reset.
{html.escape(note)}</span></p>
<div id="tlwrap"><canvas id="tl" height="100"></canvas><div id="tip"></div></div>
<h2>Pipes</h2>{pipes}
<h2>Memory paths</h2>{memory}
<h2>Hotspots</h2>{hot}
<h2>Source</h2>
<p class="note">Lines shaded by their estimated cycles: scalar-unit and pipe time of their instructions, summed
over blocks. Stall: cycles a pipe waited in the line's wait_flag, deque or alloc_tensor.</p>{_source(p)}
<h2>Summary</h2>{summary}
<h2>Model parameters</h2>{_params(p)}
<script type="application/json" id="data">{payload}</script>
<script>{_SCRIPT}</script>
</body></html>
"""
