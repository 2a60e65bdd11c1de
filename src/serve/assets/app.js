// swjudge serve: search as you type, and reading an uploaded scenario or deck
// list into its text box. Everything works without this script too (the forms submit).
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  var results = document.getElementById("results");
  if (form && results) {
    var timer = null;
    var asked = 0;
    var update = function () {
      var params = new URLSearchParams(new FormData(form)).toString();
      var mine = ++asked;
      fetch("/search/results?" + params, { headers: { Accept: "text/html" } })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          if (mine !== asked) { return; }
          results.innerHTML = html;
          history.replaceState(null, "", "/search?" + params);
        })
        .catch(function () {
          if (mine === asked) {
            results.textContent = "The server did not answer; press Search to try again.";
          }
        });
    };
    var soon = function () {
      clearTimeout(timer);
      timer = setTimeout(update, 120);
    };
    form.addEventListener("input", soon);
    form.addEventListener("change", soon);
  }
  // An uploaded file is read into its text box: a scenario (1 MiB at most) or
  // a deck list (1 MiB at most).
  var upload = function (fileId, boxId, limit, message) {
    var file = document.getElementById(fileId);
    var box = document.getElementById(boxId);
    if (!file || !box) { return; }
    file.addEventListener("change", function () {
      var f = file.files && file.files[0];
      if (!f) { return; }
      if (f.size > limit) {
        box.value = "";
        box.setCustomValidity(message);
        box.reportValidity();
        return;
      }
      box.setCustomValidity("");
      f.text().then(function (t) { box.value = t; box.focus(); });
    });
  };
  upload("yaml-file", "yaml", 1048576, "The file is larger than 1 MiB, the limit for a scenario.");
  upload("deck-file", "deck", 1048576, "The file is larger than 1 MiB, the limit for a deck list.");
})();
