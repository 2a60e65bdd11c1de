// swjudge serve: search as you type, and reading an uploaded scenario into the
// text box. Everything works without this script too (the forms submit).
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
  var file = document.getElementById("yaml-file");
  var box = document.getElementById("yaml");
  if (file && box) {
    file.addEventListener("change", function () {
      var f = file.files && file.files[0];
      if (!f) { return; }
      if (f.size > 1048576) {
        box.value = "";
        box.setCustomValidity("The file is larger than 1 MiB, the limit for a scenario.");
        box.reportValidity();
        return;
      }
      box.setCustomValidity("");
      f.text().then(function (t) { box.value = t; box.focus(); });
    });
  }
})();
