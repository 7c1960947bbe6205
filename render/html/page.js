// The page's only script: expand or collapse every block, open the blocks
// around a linked item, and open everything for printing. It reads no
// content and adds no markup.
document.documentElement.classList.add("js");
(function () {
  function all(open) {
    document.querySelectorAll("details").forEach(function (d) { d.open = open; });
  }
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    for (var p = el; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") { p.open = true; }
    }
    if (el) { el.scrollIntoView(); }
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button[data-act]");
    if (b) { all(b.getAttribute("data-act") === "expand"); }
  });
  window.addEventListener("hashchange", reveal);
  window.addEventListener("beforeprint", function () { all(true); });
  document.addEventListener("DOMContentLoaded", reveal);
})();
