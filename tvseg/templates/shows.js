// The corpus page's table of shows, drawn from its JSON block (#show-data, written by
// tvseg/report/show_table.py): a filter per metadata column, a search by show id, each system's
// distance to the best system on the show ("behind best", on the metric chosen), sorting by any
// column (a score worst first on the first click), and one page of rows at a time, so that a corpus
// of 20,000 shows stays light. Texts are escaped here, and their control and bidi characters shown
// as a visible <U+XXXX>, as the rest of the report does.
(function () {
  "use strict";
  var node = document.getElementById("show-data");
  var table = document.getElementById("show-table");
  if (!node || !table) { return; }
  var data = JSON.parse(node.textContent);
  var body = table.tBodies[0];
  var n = data.ids.length;
  var nSystems = data.systems.length, nColumns = data.columns.length, nMeta = data.meta.keys.length;
  var PAGE = 100;
  var HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" };
  var state = { search: "", meta: [], delta: 0, sort: null, descending: false, page: 0, rows: [] };
  var noOutput = data.no_output.map(function (shows) {
    var set = {};
    shows.forEach(function (k) { set[k] = true; });
    return set;
  });
  for (var m = 0; m < nMeta; m++) { state.meta.push(-1); }

  function code(c) { return "<U+" + ("000" + c.charCodeAt(0).toString(16).toUpperCase()).slice(-4) + ">"; }
  function escapeText(text) { return text.replace(/[&<>"']/g, function (c) { return ESCAPES[c]; }); }
  function visible(text) {
    return escapeText(text).replace(HIDDEN, function (c) {
      return '<span class="cc" title="invisible character">' + escapeText(code(c)) + "</span>";
    });
  }
  function plain(text) { return text.replace(HIDDEN, code); }

  // "behind best": per system and show, the points between its value and the best system's there
  var deltas = [];
  function computeDeltas() {
    var j = state.delta, lower = data.columns[j].lower;
    deltas = [];
    for (var s = 0; s < nSystems; s++) { deltas.push(new Array(n)); }
    for (var k = 0; k < n; k++) {
      var best = null;
      for (s = 0; s < nSystems; s++) {
        var v = data.values[s][j][k];
        if (v !== null && (best === null || (lower ? v < best : v > best))) { best = v; }
      }
      for (s = 0; s < nSystems; s++) {
        v = data.values[s][j][k];
        // the difference of the shown values, rounded to the shown decimal
        deltas[s][k] = v === null || best === null ? null : Math.round(Math.abs(v - best) * 10) / 10;
      }
    }
  }

  function sortValue(column, k) {
    if (column === "id") { return data.ids[k]; }
    var kind = column.charAt(0);
    if (kind === "m") {
      var i = parseInt(column.slice(1), 10), c = data.meta.codes[i][k];
      return c < 0 ? null : data.meta.values[i][c];
    }
    if (kind === "d") { return deltas[parseInt(column.slice(1), 10)][k]; }
    var parts = column.slice(1).split(".");
    return data.values[parseInt(parts[0], 10)][parseInt(parts[1], 10)][k];
  }
  // the first click on a score sorts it worst first: ascending, or descending for an error rate
  // and for "behind best"; ids and metadata sort ascending first
  function worstFirstDescending(column) {
    var kind = column.charAt(0);
    if (kind === "d") { return true; }
    if (kind === "v") { return data.columns[parseInt(column.split(".")[1], 10)].lower; }
    return false;
  }

  function select() {
    var needle = state.search.toLowerCase(), rows = [];
    for (var k = 0; k < n; k++) {
      if (needle && data.ids[k].toLowerCase().indexOf(needle) < 0) { continue; }
      var keep = true;
      for (var i = 0; i < nMeta && keep; i++) {
        if (state.meta[i] >= 0 && data.meta.codes[i][k] !== state.meta[i]) { keep = false; }
      }
      if (keep) { rows.push(k); }
    }
    if (state.sort !== null) {
      var column = state.sort, sign = state.descending ? -1 : 1;
      var keys = {};
      rows.forEach(function (k) { keys[k] = sortValue(column, k); });
      rows.sort(function (a, b) {
        var x = keys[a], y = keys[b];
        if (x === null || y === null) { return x === y ? a - b : (x === null ? 1 : -1); } // missing last
        var c = typeof x === "string" ? (x < y ? -1 : (x > y ? 1 : 0)) : x - y;
        return sign * c || a - b;
      });
    }
    state.rows = rows;
  }

  function cell(v, k, s) {
    var text = v === null ? '<span title="not available">&ndash;</span>' : v.toFixed(1);
    if (noOutput[s][k]) {
      return '<td class="no-output" title="no output for this show: scored as empty">' + text + " &empty;</td>";
    }
    return "<td>" + text + "</td>";
  }

  function draw() {
    var rows = state.rows, pages = Math.max(1, Math.ceil(rows.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    var first = state.page * PAGE, last = Math.min(rows.length, first + PAGE), html = [];
    for (var r = first; r < last; r++) {
      var k = rows[r], cells = ['<tr><td class="l"><a dir="auto" href="shows/' + escapeText(data.files[k]) + '.html">' +
                                visible(data.ids[k]) + "</a></td>"];
      for (var i = 0; i < nMeta; i++) {
        var c = data.meta.codes[i][k];
        cells.push('<td class="l" dir="auto">' + (c < 0 ? "" : visible(data.meta.values[i][c])) + "</td>");
      }
      for (var s = 0; s < nSystems; s++) {
        for (var j = 0; j < nColumns; j++) { cells.push(cell(data.values[s][j][k], k, s)); }
        var d = deltas[s][k];
        cells.push(d === null ? '<td class="delta"><span title="not available">&ndash;</span></td>'
                              : '<td class="delta">' + d.toFixed(1) + "</td>");
      }
      cells.push("</tr>");
      html.push(cells.join(""));
    }
    body.innerHTML = html.join("\n");
    var count = document.getElementById("show-count");
    if (count) {
      count.textContent = rows.length ? "rows " + (first + 1) + "\u2013" + last + " of " + rows.length +
        (rows.length < n ? " matching (" + n + " shows)" : " shows") : "no show matches (" + n + " shows)";
    }
    var pager = document.getElementById("show-pager");
    if (pager) {
      pager.hidden = pages < 2;
      pager.querySelector(".show-pages").textContent = "page " + (state.page + 1) + " of " + pages;
    }
  }

  function update() { select(); draw(); }

  // the headers
  var headers = table.querySelectorAll("th[data-col]");
  function setSort(th) {
    var column = th.getAttribute("data-col");
    if (state.sort === column) { state.descending = !state.descending; } else {
      state.sort = column;
      state.descending = worstFirstDescending(column);
    }
    Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", state.descending ? "descending" : "ascending");
    state.page = 0;
    update();
  }
  Array.prototype.forEach.call(headers, function (th) {
    th.tabIndex = 0;
    th.title = th.getAttribute("data-col").charAt(0) === "v" || th.getAttribute("data-col").charAt(0) === "d"
      ? "Sort worst first (again: best first)" : "Sort by this column";
    th.addEventListener("click", function () { setSort(th); });
    th.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); setSort(th); }
    });
  });

  // the tools
  var tools = document.getElementById("show-tools");
  if (tools) { tools.hidden = false; }
  var filters = document.querySelectorAll("select.show-filter");
  Array.prototype.forEach.call(filters, function (sel) {
    var i = parseInt(sel.getAttribute("data-meta"), 10);
    data.meta.values[i].forEach(function (value, c) {
      var option = document.createElement("option");
      option.value = String(c);
      option.textContent = plain(value);
      sel.appendChild(option);
    });
    sel.addEventListener("change", function () {
      state.meta[i] = parseInt(sel.value, 10);
      state.page = 0;
      update();
    });
  });
  var search = document.getElementById("show-search");
  if (search) {
    search.addEventListener("input", function () { state.search = search.value; state.page = 0; update(); });
  }
  var delta = document.getElementById("show-delta");
  if (delta) {
    delta.addEventListener("change", function () {
      state.delta = parseInt(delta.value, 10);
      computeDeltas();
      update();
    });
  }
  var pager = document.getElementById("show-pager");
  if (pager) {
    pager.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-page]");
      if (!button) { return; }
      var pages = Math.max(1, Math.ceil(state.rows.length / PAGE)), go = button.getAttribute("data-page");
      state.page = go === "first" ? 0 : go === "last" ? pages - 1 :
        Math.max(0, Math.min(pages - 1, state.page + (go === "next" ? 1 : -1)));
      draw();
      table.closest(".show-box").scrollTop = 0;
    });
  }

  // a breakdown's row links to the shows of its value: the filter set, the table shown
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-filter-key]");
    if (!link) { return; }
    // the link's texts are written as the page shows them (control characters as <U+XXXX>)
    var i = data.meta.keys.map(plain).indexOf(link.getAttribute("data-filter-key"));
    var c = i < 0 ? -1 : data.meta.values[i].map(plain).indexOf(link.getAttribute("data-filter-value"));
    if (c < 0) { return; }
    event.preventDefault();
    state.meta[i] = c;
    Array.prototype.forEach.call(filters, function (sel) {
      if (parseInt(sel.getAttribute("data-meta"), 10) === i) { sel.value = String(c); }
    });
    state.page = 0;
    update();
    document.getElementById("shows").scrollIntoView();
  });

  // the second header row sticks below the first
  function stick() {
    var row = table.tHead.rows[0];
    table.style.setProperty("--head1", row.getBoundingClientRect().height + "px");
  }
  computeDeltas();
  update();
  stick();
  window.addEventListener("resize", stick);
}());
