/* Landmarks the theme leaves unnamed or missing, for screen readers (axe-core: landmark-unique,
 * region): the two sidebars get distinct names, and the page tools above the article (view source,
 * colour theme) a named region of their own. No dependencies, no network.
 */
(function () {
  "use strict";

  var NAMES = [
    ["aside.sidebar-drawer", null, "Site navigation"],
    ["aside.toc-drawer", null, "On this page"],
    ["aside.announcement-content", null, "Announcement"],
    [".content-icon-container", "region", "Page tools"]
  ];

  function init() {
    NAMES.forEach(function (entry) {
      Array.prototype.forEach.call(document.querySelectorAll(entry[0]), function (element) {
        if (entry[1] && !element.hasAttribute("role")) { element.setAttribute("role", entry[1]); }
        if (!element.hasAttribute("aria-label")) { element.setAttribute("aria-label", entry[2]); }
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
