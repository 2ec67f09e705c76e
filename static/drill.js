/* Jipai drill page (plain JS, no build, no game logic): reveals the plays the server rendered — what
   carries data-from / data-to is shown from step data-from until step data-to — at the pace in
   #run's data-delay, then asks for the checkpoint's question (the #reach form). Keys: Space pause or
   resume (continue after feedback), → next card now, − / + speed, L the last trick; in a question
   digits type a number, or the key shown by an option (1–9, 0, then letters) ticks it; Enter answers.
   Each play revealed is said in the polite live region (#announcer); a question, a verdict or a
   deciding play's trick that comes is scrolled into view (on a phone the table fills the screen). */
(function () {
  "use strict";
  var reveal = null;

  function form() { return document.getElementById("answer-form"); }
  function submit(f) { if (f.requestSubmit) { f.requestSubmit(); } else { f.submit(); } }
  function token() { var m = document.querySelector("meta[name=csrf-token]"); return m ? m.content : ""; }

  function show(run, step) {
    var items = run.querySelectorAll("[data-from], [data-to]");
    for (var i = 0; i < items.length; i++) {
      var from = parseInt(items[i].dataset.from || "0", 10);
      var to = items[i].dataset.to === undefined ? Infinity : parseInt(items[i].dataset.to, 10);
      items[i].hidden = !(from <= step && step < to);
    }
  }

  function schedule() {
    clearTimeout(reveal.timer);
    if (!reveal.paused) { reveal.timer = setTimeout(next, reveal.step === 0 ? 0 : reveal.delay); }
  }

  function next() {
    if (!reveal || !document.body.contains(reveal.run)) { return; }
    clearTimeout(reveal.timer);
    if (reveal.step >= reveal.steps) {
      var reach = document.getElementById("reach");
      if (reach && window.htmx) { reveal = null; window.htmx.trigger(reach, "reach"); }
      return;
    }
    reveal.step += 1;
    show(reveal.run, reveal.step);
    announce(reveal.run, reveal.step);
    schedule();
  }

  function announce(run, step) {  // the polite live region says the play just revealed
    var said = run.querySelector('.reveals li[data-from="' + step + '"]');
    var region = document.getElementById("announcer");
    if (said && region) { region.textContent = said.textContent; }
  }

  function start(run) {
    var controls = run.querySelector(".controls");
    if (!controls) { return; }
    controls.hidden = false;
    var feedback = run.querySelector(".feedback");
    if (feedback) { feedback.hidden = true; }
    var pause = document.getElementById("pause");
    if (pause) { pause.hidden = false; pause.textContent = pause.dataset.pause; }
    reveal = { run: run, step: 0, steps: parseInt(run.dataset.steps, 10), delay: parseInt(run.dataset.delay, 10),
               paused: false, timer: null };
    schedule();  // the first card at once
  }

  function togglePause() {
    if (!reveal) { return; }
    reveal.paused = !reveal.paused;
    var pause = document.getElementById("pause");
    if (pause) { pause.textContent = reveal.paused ? pause.dataset.resume : pause.dataset.pause; }
    if (reveal.paused) { clearTimeout(reveal.timer); } else { schedule(); }
  }

  var saving = Promise.resolve();  // settings are saved one after another, so the last one chosen is kept

  function post(settings, name, value) {
    var body = new FormData();
    body.append("run", settings.querySelector("[name=run]").value);
    body.append(name, value);
    saving = saving.then(function () {
      return fetch(settings.action, { method: "POST", body: body, credentials: "same-origin",
                                      headers: { "X-CSRFToken": token(), "HX-Request": "true" } });
    }).catch(function () {});
  }

  function setting(button) {
    var settings = button.form;
    if (button.name === "speed") {
      var speeds = settings.dataset.speeds.split(" ").map(Number);
      var speed = Number(button.value);
      var shown = document.getElementById("speed");
      var old = parseInt(shown.textContent, 10);
      var i = speeds.indexOf(speed);
      document.getElementById("slower").value = String(speeds[Math.max(i - 1, 0)]);
      document.getElementById("faster").value = String(speeds[Math.min(i + 1, speeds.length - 1)]);
      shown.textContent = speed + "%";
      var run = document.getElementById("run");
      run.dataset.delay = String(Math.round(parseInt(run.dataset.delay, 10) * old / speed));
      if (reveal) { reveal.delay = parseInt(run.dataset.delay, 10); }
      post(settings, "speed", String(speed));
    } else {
      var on = button.value === "1";
      document.querySelector("#run .table").classList.toggle(button.name === "hand_sizes" ? "no-sizes" : "no-last", !on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.value = on ? "0" : "1";
      post(settings, button.name, on ? "1" : "0");
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("button") : null;
    if (!target) { return; }
    var run = document.getElementById("run");
    if (target.id === "next" && reveal) { event.preventDefault(); next(); }
    else if (target.id === "pause") { event.preventDefault(); togglePause(); }
    else if (target.id === "continue" && run && run.querySelector(".controls")) { event.preventDefault(); start(run); }
    else if (target.form && target.form.classList.contains("settings")) { event.preventDefault(); setting(target); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var f = form();
    var active = document.activeElement;
    var look = document.getElementById("last-trick");
    if ((event.key === "l" || event.key === "L") && look) {
      event.preventDefault();
      look.open = !look.open;
      return;
    }
    if (f) {
      var kind = f.dataset.kind;
      if (kind === "number" && /^[0-9]$/.test(event.key)) {
        var input = document.getElementById("answer");
        if (input && active !== input) {
          input.focus();
          input.value = (input.value || "") + event.key;
          event.preventDefault();
        }
      } else if (kind !== "number" && /^[0-9a-z]$/.test(event.key)) {
        var box = f.querySelector('input[data-key="' + event.key + '"]');
        if (box) {
          box.checked = kind === "multi" ? !box.checked : true;
          event.preventDefault();
        }
      } else if (event.key === "Enter" && !(active && active.form === f && active.type === "number")) {
        event.preventDefault();
        submit(f);
      }
      return;
    }
    var button = { " ": reveal ? "pause" : "continue", ArrowRight: reveal ? "next" : "continue",
                   "-": "slower", "+": "faster", "=": "faster" }[event.key];
    var found = button && document.getElementById(button);
    if (!found || (active === found && event.key === " ")) { return; }
    event.preventDefault();
    found.click();
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
      if (timer.textContent !== text) { timer.textContent = text; }
      if (left <= 0 && !timer.classList.contains("late")) { timer.classList.add("late"); }
    }
  }

  function settle() {
    tick();
    var run = document.getElementById("run");
    if (run && run.classList.contains("play") && (!reveal || reveal.run !== run)) { start(run); }
    var target = document.getElementById("answer") || document.getElementById("continue");
    if (target && document.activeElement !== target && !(form() && form().contains(document.activeElement))) {
      target.focus({ preventScroll: true });
    }
    // what has just come into view: a deciding play's trick, else the question, else the verdict
    var seen = document.getElementById("shown-trick") || form() ||
      (run && !run.classList.contains("play") ? run.querySelector(".feedback .verdict") : null);
    if (seen) { seen.scrollIntoView({ block: "nearest" }); }
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", settle);
  document.addEventListener("htmx:after:settle", settle);  // htmx 4 (no htmx:load): after every swap
})();
