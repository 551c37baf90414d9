// The show page's timeline: zoom and scroll (the buttons, Ctrl + wheel, Shift + wheel, dragging the
// lanes or the overview lane), segment labels fitted to their boxes (measured, cut with an ellipsis,
// or left out; the full title stays in each segment's tooltip), and the segments linked both ways
// with the segment tables (clicking a row selects its segment and scrolls the timeline to it;
// clicking a segment selects its row). The visible window, in seconds, is written back to the box's
// data-view-start and data-view-end. The segments, the marks and the tables are drawn first, from the
// page's JSON block (tvseg/report/show_data.py); without JavaScript the page shows its scores alone.
// Printed, the page unfolds its folded segment tables. A search box keeps the rows of the segment tables
// whose title holds the words typed.
// Keyboard: the timeline takes the focus (Tab, or a click): Left/Right scroll, + (or =) and - zoom,
// Home or 0 show the whole show, [ and ] select the previous/next segment of the lane, Up/Down the
// segment at the same time in the lane above/below, Enter goes to the selected segment's row,
// Escape clears the selection; the segment tables' rows take the focus too, and Enter selects a
// row's segment. A page opened at #r-3 (any row's data-seg) selects that segment, zooms to it and
// shows its row. A long show (more than 60 segments in a lane, or crowded marks) opens on its first
// ~40 segments; marks closer than 3 px to the previous one shown in their lane are left out.
(function () {
  "use strict";
  // printed, the page shows its folded tables too; they fold back afterwards
  var folded = [];
  window.addEventListener("beforeprint", function () {
    folded = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (d) {
      d.open = true;
      return true;
    });
  });
  window.addEventListener("afterprint", function () {
    folded.forEach(function (d) { d.open = false; });
    folded = [];
  });
  var box = document.querySelector(".timeline-box");
  if (!box) { return; }
  var svg = box.querySelector("svg.timeline");
  var NS = "http://www.w3.org/2000/svg";
  var VERDICT_WORDS = { "true": "correct", "false": "wrong", "null": "not known" };
  var HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&#34;", "'": "&#39;" };
  var block = document.getElementById("show-page-data"), data = block ? JSON.parse(block.textContent) : null;
  if (data) { drawLanes(data); drawTables(data); }
  function num(name) { return parseFloat(box.getAttribute(name)); }
  var start = num("data-start"), end = num("data-end"), left = num("data-left"), right = num("data-right");
  var width = num("data-width"), height = svg.viewBox.baseVal.height;
  var plot = right - left, span = Math.max(end - start, 1e-9), minSpan = Math.min(span, 10);
  var view = [start, end];
  // marks nearer than CROWDED px to the last one drawn in their lane are left out; a lane of more than
  // DENSE segments at the whole show opens the page on a window of about WINDOW segments
  var CROWDED = 3, DENSE = 60, WINDOW = 40;
  var STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600];
  var ticks = svg.querySelector("g.ticks"), axis = svg.querySelector("line.axis");
  var axisY = parseFloat(axis.getAttribute("y1")), firstLane = svg.querySelector("rect.lane-bg");
  var top = firstLane ? parseFloat(firstLane.getAttribute("y")) : 0;
  var windowRect = svg.querySelector("rect.ov-window"), overTop = parseFloat(windowRect.getAttribute("y"));
  var shown = box.querySelector(".timeline-window"), info = box.querySelector(".timeline-info");
  var each = Array.prototype.forEach;
  var segs = [], byKey = {}, lanes = [];
  // each lane's segments and marks in time order: the keys move along them, the marks thin out by lane
  each.call(svg.querySelectorAll("g.lane"), function (el) {
    var lane = { index: lanes.length, segs: [], marks: [] };
    lanes.push(lane);
    each.call(el.querySelectorAll("g.seg-g"), function (g) {
      var text = g.querySelector("text"), key = g.getAttribute("data-seg");
      var s = { g: g, rect: g.querySelector("rect"), text: text, label: text.getAttribute("data-label") || "",
                a: parseFloat(g.getAttribute("data-a")), b: parseFloat(g.getAttribute("data-b")), room: null,
                key: key, lane: lane };
      segs.push(s);
      lane.segs.push(s);
      byKey[key] = s;
    });
    each.call(el.querySelectorAll("g.mark"), function (g) {
      lane.marks.push({ g: g, t: parseFloat(g.getAttribute("data-t")) });
    });
    lane.segs.sort(function (p, q) { return p.a - q.a || p.b - q.b; });
    lane.marks.sort(function (p, q) { return p.t - q.t; });
    lane.segs.forEach(function (s, i) { s.i = i; });
  });
  var rows = {};
  each.call(document.querySelectorAll("table.segments tr[data-seg]"), function (row) {
    rows[row.getAttribute("data-seg")] = row;
  });

  function r2(v) { return Math.round(v * 100) / 100; }
  // Python's round(): to the nearest integer, a tie to the even one
  function halfEven(v) {
    var r = Math.round(v);
    return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  // as Python's format(v, ".1f"), which rounds v's exact binary value: a tie (v = k/4, k odd) to even
  function fixed1(v) {
    var q = v * 4;
    if (Number.isInteger(q) && q % 2 !== 0) { return (halfEven(v * 10) / 10).toFixed(1); }
    return v.toFixed(1);
  }
  function clock(t) {
    // as tvseg.report.svg.clock: mm:ss.s, h:mm:ss.s from an hour on, an en dash for none
    if (t === null || t === undefined) { return "\u2013"; }
    var tenths = halfEven(Math.abs(t) * 10), sign = t < 0 && tenths ? "-" : "";
    var hours = tenths >= 36000 ? Math.floor(tenths / 36000) + ":" : "";
    return sign + hours + pad(Math.floor(tenths % 36000 / 600)) + ":" + pad(Math.floor(tenths % 600 / 10)) + "." +
      tenths % 10;
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function mmss(t) {
    // as tvseg.report.svg.mmss: mm:ss, h:mm:ss from an hour on
    var s = Math.round(t), sign = s < 0 ? "-" : "";
    s = Math.abs(s);
    if (s >= 3600) {
      return sign + Math.floor(s / 3600) + ":" + pad(Math.floor(s % 3600 / 60)) + ":" + pad(s % 60);
    }
    return sign + pad(Math.floor(s / 60)) + ":" + pad(s % 60);
  }
  function niceStep(w) {
    for (var i = 0; i < STEPS.length; i++) { if (w / STEPS[i] <= 10) { return STEPS[i]; } }
    return STEPS[STEPS.length - 1] * Math.ceil(w / STEPS[STEPS.length - 1] / 10);
  }
  // a title as the timeline draws it (tvseg.report.show_data): control and bidi characters as a visible
  // <U+XXXX>, RTTM's underscores as spaces
  function code(c) { return "<U+" + ("000" + c.charCodeAt(0).toString(16).toUpperCase()).slice(-4) + ">"; }
  function display(text) { return text.replace(HIDDEN, code).replace(/_/g, " "); }
  function escapeText(text) { return text.replace(/[&<>"']/g, function (c) { return ESCAPES[c]; }); }
  // a title in a table cell, as tvseg.report.rows.visible writes a text: escaped, each control or bidi
  // character a visible <U+XXXX> that says what it is
  function visible(text) {
    return escapeText(text).replace(HIDDEN, function (c) {
      return '<span class="cc" title="invisible character">' + escapeText(code(c)) + "</span>";
    });
  }
  function notNumber(v) { return v === null || v === "NaN"; }

  // the show's segments and marks (tvseg.report.show_data), each a copy of its lane's shapes
  function drawLanes(data) {
    var within = svg.getAttribute("data-within") || "", laneEls = svg.querySelectorAll("g.lane");
    var s0 = parseFloat(box.getAttribute("data-start")), s1 = parseFloat(box.getAttribute("data-end"));
    var x0 = parseFloat(box.getAttribute("data-left")), x1 = parseFloat(box.getAttribute("data-right"));
    var whole = Math.max(s1 - s0, 1e-9), rtl = {};
    data.rtl.forEach(function (i) { rtl[i] = true; });
    function XW(t) { return r2(x0 + (Math.min(Math.max(t, s0), s1) - s0) / whole * (x1 - x0)); }
    function shape(el, name) { return el.querySelector("[data-shape='" + name + "']").cloneNode(true); }
    function titled(g, text) {
      var title = document.createElementNS(NS, "title");
      title.textContent = text;
      g.appendChild(title);
    }
    // what each system made of a reference story, in the words of its match table: the story's class
    // (correct, split, merged, shifted, missed) when known, else its verdict (correct, wrong)
    var notes = data.ref.a.map(function () { return ""; });
    data.systems.forEach(function (s, k) {
      var name = laneEls[k + 1].getAttribute("data-source");
      s.rc.forEach(function (ok, i) {
        var cov = s.cov[i], story = s.story[i];
        notes[i] += "\n" + name + ": " + (story === null ? VERDICT_WORDS[ok] : story) + " (" +
          (s.hs[i] === null ? "no overlapping segment" : "best " + clock(s.hs[i]) + "\u2013" + clock(s.he[i])) +
          (notNumber(cov) ? "" : ", R\u2194H " + fixed1(100 * cov) + "%") + ")";
      });
    });
    var CLASSES = { "true": "ok", "false": "bad", "null": "unknown" };
    var OUTCOMES = { "true": " (correct)", "false": " (wrong)", "null": "" };
    function lane(el, key, segments, kinds, whats, marks) {
      var body = el.querySelector("g.lane-body"), name = el.getAttribute("data-source");
      segments.a.forEach(function (a, i) {
        var b = segments.b[i], code = segments.l[i], label = code < 0 ? "" : display(data.titles[code]);
        var g = shape(el, "segment"), rect = g.querySelector("rect"), text = g.querySelector("text");
        g.removeAttribute("data-shape");
        g.setAttribute("class", "seg-g");
        g.setAttribute("data-seg", key + "-" + (i + 1));
        g.setAttribute("data-a", a);
        g.setAttribute("data-b", b);
        rect.setAttribute("class", "seg " + kinds[i]);
        text.setAttribute("data-label", label);
        if (rtl[code]) { text.setAttribute("direction", "rtl"); text.setAttribute("text-anchor", "end"); }
        titled(g, "#" + (i + 1) + " " + (label ? name + ": " + label : name) + "\n" + clock(a) + "\u2013" +
          clock(b) + ", " + fixed1(b - a) + " s" + whats[i]);
        body.appendChild(g);
      });
      marks.sort(function (p, q) { return p[0] - q[0] || (p[1] < q[1] ? -1 : p[1] > q[1] ? 1 : 0); });
      marks.forEach(function (m) {
        var g = shape(el, m[1]);
        g.removeAttribute("data-shape");
        g.setAttribute("class", "mark " + m[1]);
        g.setAttribute("data-t", m[0]);
        titled(g, m[2]);
        body.appendChild(g);
      });
    }
    lane(laneEls[0], "r", data.ref, data.ref.a.map(function () { return "ref"; }), notes, []);
    data.systems.forEach(function (s, k) {
      var el = laneEls[k + 1], name = el.getAttribute("data-source"), marks = [];
      s.mh.forEach(function (h, i) {
        marks.push([h, "matched", name + ": boundary at " + clock(h) + " matches the reference boundary at " +
          clock(s.mr[i]) + within]);
      });
      s.fa.forEach(function (t) {
        marks.push([t, "false", name + ": false boundary at " + clock(t) + " (no reference boundary" + within + ")"]);
      });
      s.mi.forEach(function (t) { marks.push([t, "missed", name + ": missed the reference boundary at " + clock(t)]); });
      lane(el, "s" + k, s, s.ok.map(function (ok) { return CLASSES[ok]; }),
        s.ok.map(function (ok) { return OUTCOMES[ok]; }), marks);
    });
    var overview = svg.querySelector("g.overview"), windowEl = overview.querySelector("rect.ov-window");
    data.ref.a.forEach(function (a, i) {
      var r = shape(overview, "overview"), xa = XW(a);
      r.removeAttribute("data-shape");
      r.setAttribute("class", "ov-seg ov-" + i % 2);
      r.setAttribute("x", xa);
      r.setAttribute("width", r2(Math.max(XW(data.ref.b[i]) - xa, 0.5)));
      overview.insertBefore(r, windowEl);
    });
  }
  // the segment tables and the match tables (tvseg.report.show_data), as the report's other tables write
  // their cells: times mm:ss.s, durations and percentages to one decimal, titles in their own direction
  function drawTables(data) {
    var VERDICT = { "null": "&ndash;", "true": '<span class="ok">&#10003; correct</span>',
                    "false": '<span class="bad">&#10007; wrong</span>' };
    var NOT_AVAILABLE = '<span title="not available">&ndash;</span>';
    var cells = {};
    function title(c) {
      if (c < 0) { return '<td class="title"><span title="no title">&ndash;</span></td>'; }
      if (!(c in cells)) { cells[c] = '<td class="title" dir="auto">' + visible(data.titles[c]) + "</td>"; }
      return cells[c];
    }
    function pct(v) { return v === null || v === undefined ? NOT_AVAILABLE : v === "NaN" ? "\u2013" : fixed1(100 * v); }
    function fill(table, html) { if (table) { table.tBodies[0].innerHTML = html.join("\n"); } }
    function segmentRows(key, s, ids) {
      return s.a.map(function (a, i) {
        var k = key + "-" + (i + 1), b = s.b[i];
        return "<tr " + (ids ? 'id="' + k + '" ' : "") + 'data-seg="' + k + '"><td>' + (i + 1) + "</td><td>" + clock(a) +
          "</td><td>" + clock(b) + "</td><td>" + fixed1(b - a) + "</td>" +
          (s.ok ? '<td class="l">' + VERDICT[s.ok[i]] + "</td>" : "") + title(s.l[i]) + "</tr>";
      });
    }
    fill(document.querySelector("table.segments[data-key='r']"), segmentRows("r", data.ref, true));
    data.systems.forEach(function (s, k) {
      fill(document.querySelector("table.segments[data-key='s" + k + "']"), segmentRows("s" + k, s, false));
      var rs = s.rs || data.ref.a, re = s.re || data.ref.b, rl = s.rl || data.ref.l;
      fill(document.querySelector("table.matches[data-key='s" + k + "']"), rs.map(function (a, i) {
        var hs = s.hs[i], story = s.story[i];
        return "<tr><td>" + (i + 1) + "</td><td>" + clock(a) + "&ndash;" + clock(re[i]) + "</td>" + title(rl[i]) +
          (hs === null ? '<td>none</td><td class="title"></td>'
            : "<td>" + clock(hs) + "&ndash;" + clock(s.he[i]) + "</td>" + title(s.hl[i])) +
          "<td>" + pct(s.to[i]) + "</td><td>" + pct(s.fr[i]) + "</td><td>" + pct(s.cov[i]) + "</td>" +
          '<td class="l">' + VERDICT[s.rc[i]] + '</td><td class="l">' + (story === null ? "&ndash;" : visible(story)) +
          "</td>" + (data.f1 ? "<td>" + pct(s.tf1[i]) + "</td>" : "") + "</tr>";
      }));
    });
  }
  function X(t) { return left + (t - view[0]) / (view[1] - view[0]) * plot; }

  function fit(s, room) {
    // the label, or its longest beginning that fits with an ellipsis, or nothing
    if (s.room === room) { return; }
    s.room = room;
    var text = s.text, full = s.label;
    if (!full || room < 14) { text.textContent = ""; return; }
    text.textContent = full;
    var w = text.getComputedTextLength();
    if (w <= room) { return; }
    var n = Math.min(full.length - 1, Math.floor(full.length * room / w));
    for (; n >= 2; n--) {
      text.textContent = full.slice(0, n).replace(/\s+$/, "") + "\u2026";
      if (text.getComputedTextLength() <= room) { return; }
    }
    text.textContent = "";
  }

  function drawTicks() {
    var step = niceStep(view[1] - view[0]), t = Math.ceil(view[0] / step) * step;
    while (ticks.firstChild) { ticks.removeChild(ticks.firstChild); }
    for (; t <= view[1] + 1e-9; t += step) {
      var x = r2(X(t)), g = document.createElementNS(NS, "g"), line = document.createElementNS(NS, "line");
      var label = document.createElementNS(NS, "text");
      g.setAttribute("class", "tick");
      line.setAttribute("x1", x); line.setAttribute("x2", x);
      line.setAttribute("y1", top); line.setAttribute("y2", axisY);
      label.setAttribute("x", x); label.setAttribute("y", axisY + 16);
      label.setAttribute("text-anchor", "middle");
      label.textContent = mmss(t);
      g.appendChild(line); g.appendChild(label); ticks.appendChild(g);
    }
  }

  function layout() {
    segs.forEach(function (s) {
      var x0 = X(s.a), x1 = X(s.b), outside = x1 <= left || x0 >= right;
      s.g.style.display = outside ? "none" : "";
      if (outside) { return; }
      var v0 = Math.max(x0, left), v1 = Math.min(x1, right);
      s.rect.setAttribute("x", r2(v0));
      s.rect.setAttribute("width", r2(Math.max(v1 - v0, 0.5)));
      s.text.setAttribute("x", r2(v0 + 4));
      fit(s, Math.floor((v1 - v0 - 8) * 2) / 2);
    });
    lanes.forEach(function (lane) {
      var last = -Infinity;
      lane.marks.forEach(function (m) {
        var x = X(m.t), hidden = x < left - 8 || x > right + 8 || x - last < CROWDED;
        m.g.style.display = hidden ? "none" : "";
        if (!hidden) { m.g.setAttribute("transform", "translate(" + r2(x) + " 0)"); last = x; }
      });
    });
    drawTicks();
    windowRect.setAttribute("x", r2(left + (view[0] - start) / span * plot));
    windowRect.setAttribute("width", r2(Math.max((view[1] - view[0]) / span * plot, 2)));
    box.setAttribute("data-view-start", view[0].toFixed(3));
    box.setAttribute("data-view-end", view[1].toFixed(3));
    var zoom = span / (view[1] - view[0]);
    shown.textContent = "showing " + mmss(view[0]) + "\u2013" + mmss(view[1]) + " of " + mmss(start) + "\u2013" +
      mmss(end) + (zoom > 1.001 ? " (zoom \u00d7" + zoom.toFixed(1) + ")" : " (whole show)");
  }

  function setView(a, b) {
    var w = Math.min(Math.max(b - a, minSpan), span);
    a = Math.min(Math.max(a, start), end - w);
    view = [a, a + w];
    layout();
  }
  function zoomBy(factor, at) {
    if (!factor) { setView(start, end); return; }
    var w = view[1] - view[0], nw = Math.min(Math.max(w * factor, minSpan), span);
    if (at === undefined) { at = (view[0] + view[1]) / 2; }
    var a = at - (at - view[0]) * nw / w;
    setView(a, a + nw);
  }
  function userPoint(event) {
    var r = svg.getBoundingClientRect();
    return [(event.clientX - r.left) * width / r.width, (event.clientY - r.top) * height / r.height];
  }
  function timeAt(x) { return view[0] + (x - left) / plot * (view[1] - view[0]); }
  function centreOn(x) {
    var t = start + (x - left) / plot * span, w = view[1] - view[0];
    setView(t - w / 2, t + w / 2);
  }

  each.call(box.querySelectorAll("button[data-zoom]"), function (b) {
    b.addEventListener("click", function () { zoomBy(parseFloat(b.getAttribute("data-zoom"))); });
  });
  each.call(box.querySelectorAll("button[data-pan]"), function (b) {
    b.addEventListener("click", function () {
      var d = parseFloat(b.getAttribute("data-pan")) * (view[1] - view[0]);
      setView(view[0] + d, view[1] + d);
    });
  });
  svg.addEventListener("wheel", function (event) {
    var p = userPoint(event), w = view[1] - view[0];
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      zoomBy(event.deltaY < 0 ? 0.8 : 1.25, Math.min(Math.max(timeAt(p[0]), view[0]), view[1]));
    } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
      event.preventDefault();
      var d = (event.deltaX || event.deltaY) / plot * w * 0.5;
      setView(view[0] + d, view[1] + d);
    }
  }, { passive: false });

  var drag = null, dragged = false;
  svg.addEventListener("pointerdown", function (event) {
    if (event.button !== 0) { return; }
    var p = userPoint(event);
    dragged = false;
    if (p[1] >= overTop) { drag = { overview: true }; centreOn(p[0]); }
    else if (p[0] >= left) { drag = { x: event.clientX, view: view.slice() }; }
    else { return; }
    event.preventDefault();
  });
  window.addEventListener("pointermove", function (event) {
    if (!drag) { return; }
    if (drag.overview) { centreOn(userPoint(event)[0]); return; }
    var r = svg.getBoundingClientRect(), dx = (event.clientX - drag.x) * width / r.width;
    if (Math.abs(dx) > 3) { dragged = true; }
    if (!dragged) { return; }
    var dt = -dx / plot * (drag.view[1] - drag.view[0]);
    setView(drag.view[0] + dt, drag.view[1] + dt);
  });
  window.addEventListener("pointerup", function () { drag = null; });

  var selected = null;
  // how: "row" (a row was chosen: its segment is shown), "timeline" (a segment was clicked: its row is
  // scrolled to in the tables' box, with a link to it), "key" (the keyboard: both)
  function select(key, how) {
    if (selected) {
      if (byKey[selected]) { byKey[selected].g.classList.remove("hl"); }
      if (rows[selected]) { rows[selected].classList.remove("hl"); }
    }
    selected = key;
    var s = byKey[key], row = rows[key];
    info.textContent = "";
    if (s) {
      s.g.classList.add("hl");
      info.textContent = s.g.querySelector("title").textContent;
      if (how !== "timeline") { reveal(s); }
    }
    if (row) {
      row.classList.add("hl");
      var details = row.closest("details");
      if (details) { details.open = true; }
      if (how !== "row") {
        var tables = row.closest(".segment-tables");
        if (tables) {
          tables.scrollTop += row.getBoundingClientRect().top - tables.getBoundingClientRect().top -
            tables.clientHeight / 2;
        }
        var link = document.createElement("a");
        link.href = "#";
        link.textContent = "its row in the table";
        link.addEventListener("click", function (event) {
          event.preventDefault();
          row.scrollIntoView({ block: "center" });
        });
        info.appendChild(document.createTextNode("\n\u2192 "));
        info.appendChild(link);
      }
    }
  }
  function reveal(s) {
    var w = view[1] - view[0], d = s.b - s.a;
    if (d > 0.8 * w) { setView(s.a - d / 4, s.b + d / 4); }
    else if (s.a < view[0] || s.b > view[1]) { setView((s.a + s.b - w) / 2, (s.a + s.b + w) / 2); }
    var r = box.getBoundingClientRect();
    if (r.bottom < 0 || r.top > window.innerHeight) { box.scrollIntoView({ block: "nearest" }); }
  }
  svg.addEventListener("click", function (event) {
    if (dragged) { dragged = false; return; }
    var g = event.target.closest ? event.target.closest("g.seg-g") : null;
    if (g) { select(g.getAttribute("data-seg"), "timeline"); }
  });
  each.call(document.querySelectorAll(".segment-tables"), function (tables) {
    tables.addEventListener("click", function (event) {
      var row = event.target.closest("tr[data-seg]");
      if (row) { select(row.getAttribute("data-seg"), "row"); }
    });
    tables.addEventListener("keydown", function (event) {
      var row = event.target;
      if ((event.key === "Enter" || event.key === " ") && row.matches && row.matches("tr[data-seg]")) {
        event.preventDefault();
        select(row.getAttribute("data-seg"), "row");
      }
    });
  });
  Object.keys(rows).forEach(function (key) { rows[key].tabIndex = 0; });

  // the search over titles: the segment tables keep the rows whose title holds the words typed (any case);
  // Enter selects the first reference story found
  var search = document.getElementById("title-search"), found = document.querySelector(".title-count");
  function searched() {
    var words = search.value.trim().toLowerCase(), total = 0, kept = 0, first = null;
    each.call(document.querySelectorAll("table.segments"), function (table) {
      var reference = table.getAttribute("data-key") === "r";
      each.call(table.tBodies[0].rows, function (row) {
        var cell = row.querySelector("td.title"), text = cell ? cell.textContent.toLowerCase() : "";
        var keep = !words || (cell !== null && cell.querySelector("span[title='no title']") === null &&
          text.indexOf(words) >= 0);
        row.hidden = !keep;
        if (reference) {
          total++;
          if (keep) { kept++; if (!first) { first = row; } }
        }
      });
    });
    found.textContent = words ? kept + " of " + total + " reference stories" : "";
    return first;
  }
  if (search) {
    search.addEventListener("input", searched);
    search.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") { return; }
      event.preventDefault();
      var first = searched();
      if (first) { select(first.getAttribute("data-seg"), "key"); }
    });
    search.closest(".title-search").hidden = false;
  }

  // the keyboard, while the timeline has the focus
  function step(by) {
    var s = byKey[selected];
    if (!s) {
      var lane = lanes[0], first = null;
      for (var i = 0; lane && i < lane.segs.length && !first; i++) {
        if (lane.segs[i].b > view[0]) { first = lane.segs[i]; }
      }
      if (first) { select(first.key, "key"); }
      return;
    }
    var next = s.lane.segs[s.i + by];
    if (next) { select(next.key, "key"); }
  }
  function across(by) {
    var s = byKey[selected];
    if (!s) { step(0); return; }
    var lane = lanes[s.lane.index + by], t = (s.a + s.b) / 2, best = null, far = Infinity;
    if (!lane) { return; }
    lane.segs.forEach(function (q) {
      var d = q.a <= t && t < q.b ? 0 : Math.min(Math.abs(t - q.a), Math.abs(t - q.b));
      if (d < far) { far = d; best = q; }
    });
    if (best) { select(best.key, "key"); }
  }
  svg.setAttribute("tabindex", "0");
  svg.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight + - 0 Home End [ ] ArrowUp ArrowDown Enter Escape");
  svg.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var k = event.key, w = view[1] - view[0];
    if (k === "ArrowLeft" || k === "ArrowRight") {
      var d = (k === "ArrowLeft" ? -1 : 1) * w * (event.shiftKey ? 1 : 0.25);
      setView(view[0] + d, view[1] + d);
    } else if (k === "+" || k === "=") { zoomBy(0.5); }
    else if (k === "-" || k === "_") { zoomBy(2); }
    else if (k === "Home" || k === "0") { zoomBy(0); }
    else if (k === "End") { setView(end - w, end); }
    else if (k === "[") { step(-1); }
    else if (k === "]") { step(1); }
    else if (k === "ArrowUp") { across(-1); }
    else if (k === "ArrowDown") { across(1); }
    else if (k === "Enter" && rows[selected]) {
      rows[selected].focus({ preventScroll: true });
      rows[selected].scrollIntoView({ block: "center" });
    } else if (k === "Escape") { select(null, "key"); }
    else { return; }
    event.preventDefault();
  });
  svg.addEventListener("pointerdown", function () { svg.focus({ preventScroll: true }); });

  // a link to a story: the page opened at #r-3 (a row's data-seg) selects it, zooms to it, shows its row
  function openAt(hash) {
    var key;
    try { key = decodeURIComponent(hash.replace(/^#/, "")); } catch (error) { return false; }
    var s = byKey[key], row = rows[key];
    if (!s && !row) { return false; }
    select(key, "timeline");
    if (s) { var d = s.b - s.a; setView(s.a - d / 4, s.b + d / 4); }
    if (row) { row.scrollIntoView({ block: "center" }); }
    return true;
  }
  // a long show opens on its beginning: about WINDOW segments of its busiest lane
  function openLong() {
    var most = 0, crowded = 0;
    lanes.forEach(function (lane) {
      var last = -Infinity, n = 0;
      most = Math.max(most, lane.segs.length);
      lane.marks.forEach(function (m) {
        var x = left + (m.t - start) / span * plot;
        if (x - last < CROWDED) { n++; } else { last = x; }
      });
      crowded = Math.max(crowded, n);
    });
    if (most <= DENSE && crowded < 10) { return; }
    setView(start, start + span * Math.min(0.5, WINDOW / most));
    info.textContent = "A long show (" + most + " segments in its busiest lane): the timeline opens on its " +
      "beginning, framed in the \u201cwhole show\u201d lane below; \u201cwhole show\u201d or the 0 key " +
      "shows all of it.";
  }

  var tools = box.querySelector(".timeline-tools"), keys = document.createElement("span");
  keys.className = "timeline-keys screen-only";
  keys.textContent = "Keys, once the timeline has the focus (Tab or a click): \u2190 \u2192 scroll, + \u2212 zoom, " +
    "0 or Home whole show, End the show's end, [ ] previous/next segment, \u2191 \u2193 lane above/below, " +
    "Enter its row; in the tables below, Enter on a row finds its segment.";
  tools.appendChild(keys);
  tools.hidden = false;
  box.classList.add("interactive");
  layout();
  if (!(location.hash && openAt(location.hash))) { openLong(); }
  window.addEventListener("hashchange", function () { openAt(location.hash); });
}());
