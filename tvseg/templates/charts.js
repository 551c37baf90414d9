// Each chart of the corpus page (figure.chart) gets a "download SVG" link: the chart's SVG with the
// styles the page gives it written on its elements, so that the file looks the same alone.
(function () {
  "use strict";
  // the properties the stylesheet sets on the charts' elements (their classes, svg text's fonts)
  var STYLED = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity",
                "font-family", "font-size", "font-weight", "text-anchor"];
  function standalone(svg) {
    var copy = svg.cloneNode(true), from = svg.querySelectorAll("*"), to = copy.querySelectorAll("*");
    for (var i = 0; i < from.length; i++) {
      var tag = from[i].localName;
      if (tag === "title" || tag === "g") { continue; }
      var style = window.getComputedStyle(from[i]), text = [];
      STYLED.forEach(function (name) { text.push(name + ":" + style.getPropertyValue(name)); });
      to[i].setAttribute("style", text.join(";"));
    }
    copy.setAttribute("style", "background:#fff");
    return new XMLSerializer().serializeToString(copy);
  }
  var names = {};
  Array.prototype.forEach.call(document.querySelectorAll("figure.chart > svg"), function (svg) {
    var title = svg.querySelector("title"), name = (title ? title.textContent : "chart").toLowerCase()
      .replace(/\u03b3/g, "gamma").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "chart";
    names[name] = (names[name] || 0) + 1;
    if (names[name] > 1) { name += "-" + names[name]; }
    var link = document.createElement("a");
    link.className = "chart-download screen-only";
    link.download = name + ".svg";
    link.href = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(standalone(svg));
    link.textContent = "download SVG";
    link.title = "This chart as an SVG file (" + name + ".svg)";
    svg.parentNode.insertBefore(link, svg.nextSibling);
  });
}());
