"use strict";
// The charts are inline SVG drawn by the binary; this only checks that every one of them
// arrived (a console error if not) and marks the body with their number.
const drawn = document.querySelectorAll("svg.chart").length;
if (drawn !== DATA.charts) {
  console.error(`expected ${DATA.charts} charts, found ${drawn}`);
}
document.body.dataset.charts = drawn;
