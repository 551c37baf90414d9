// Sorts a table when one of its sortable column headers is clicked (or activated with Enter or
// Space). A header's data-sort attribute holds the index of the column it sorts; cells are
// compared by their data-v attribute (numbers, empty for "not available", always last), or by
// their text. Without JavaScript the table keeps its original order. Printed, the page unfolds its
// folded parts (the settings, the lists of stories).
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
  function key(cell) {
    var v = cell.getAttribute("data-v");
    if (v === null) { return { num: false, text: cell.textContent.trim().toLowerCase() }; }
    if (v === "") { return { num: true, missing: true }; }
    return { num: true, value: parseFloat(v) };
  }
  function compare(a, b) {
    if (a.num && b.num) {
      if (a.missing || b.missing) { return a.missing === b.missing ? 0 : (a.missing ? 1 : -1); }
      return a.value - b.value;
    }
    return a.text < b.text ? -1 : (a.text > b.text ? 1 : 0);
  }
  function sortBy(table, th) {
    var index = parseInt(th.getAttribute("data-sort"), 10);
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, position) {
      return { row: row, key: key(row.cells[index]), position: position };
    });
    rows.sort(function (a, b) {
      var missingLast = (a.key.missing || b.key.missing) && a.key.missing !== b.key.missing;
      var c = compare(a.key, b.key);
      if (!missingLast && !ascending) { c = -c; }
      return c || a.position - b.position;
    });
    var headers = table.querySelectorAll("th[data-sort]");
    for (var i = 0; i < headers.length; i++) { headers[i].removeAttribute("aria-sort"); }
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var fragment = document.createDocumentFragment();
    rows.forEach(function (r) { fragment.appendChild(r.row); });
    body.appendChild(fragment);
  }
  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table) {
    var headers = table.querySelectorAll("th[data-sort]");
    Array.prototype.forEach.call(headers, function (th) {
      th.tabIndex = 0;
      th.title = "Sort by this column (Tab to it, then Enter or Space)";
      th.addEventListener("click", function () { sortBy(table, th); });
      th.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, th); }
      });
    });
  });
}());
