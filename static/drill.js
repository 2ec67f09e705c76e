/* Jipai drill keys and answer timer (plain JS, no build). Digits type a number or tick option N,
   Enter answers, Space continues (or shows the next card at once), → shows the next card. */
(function () {
  "use strict";

  function form() { return document.getElementById("answer-form"); }

  function submit(f) {
    if (f.requestSubmit) { f.requestSubmit(); } else { f.submit(); }
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var f = form();
    var active = document.activeElement;
    if (f) {
      var kind = f.dataset.kind;
      if (/^[0-9]$/.test(event.key)) {
        if (kind === "number") {
          var input = document.getElementById("answer");
          if (input && active !== input) {
            input.focus();
            input.value = (input.value || "") + event.key;
            event.preventDefault();
          }
        } else {
          var boxes = f.querySelectorAll("input[name=answer]");
          var box = boxes[parseInt(event.key, 10) - 1];
          if (box) {
            box.checked = kind === "multi" ? !box.checked : true;
            event.preventDefault();
          }
        }
      } else if (event.key === "Enter" && !(active && active.form === f && active.type === "number")) {
        event.preventDefault();
        submit(f);
      }
      return;
    }
    var next = document.getElementById("continue") || document.getElementById("next");
    if (next && (event.key === " " || event.key === "ArrowRight") && active !== next) {
      event.preventDefault();
      next.click();
    }
  });

  function tick() {
    var timers = document.querySelectorAll(".timer[data-seconds]");
    for (var i = 0; i < timers.length; i++) {
      var timer = timers[i];
      if (!timer.dataset.deadline) {
        timer.dataset.deadline = String(Date.now() + 1000 * parseInt(timer.dataset.seconds, 10));
      }
      var left = Math.ceil((parseInt(timer.dataset.deadline, 10) - Date.now()) / 1000);
      var text = left > 0 ? timer.dataset.left.replace("{n}", String(left)) : timer.dataset.up;
      if (timer.textContent !== text) { timer.textContent = text; }  // no change, no mutation, no loop
      if (left <= 0 && !timer.classList.contains("late")) { timer.classList.add("late"); }
    }
  }

  function settle() {
    tick();
    var input = document.getElementById("answer");
    var go = document.getElementById("continue");
    var target = input || go;
    if (target && document.activeElement !== target && !(form() && form().contains(document.activeElement))) {
      target.focus({ preventScroll: true });
    }
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", function () {
    settle();
    var run = document.querySelector("main");
    if (run) { new MutationObserver(settle).observe(run, { childList: true, subtree: true }); }
  });
})();
