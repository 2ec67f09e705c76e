/* Jipai flash (闪记) timer, a progressive enhancement: the trick the server rendered in .flash.play is cleared
   after data-ms (the player's flash time F) and the "hide and answer" form is posted; without JavaScript the
   trick stays until the player presses that button. */
(function () {
  "use strict";
  var timer = null;

  function arm() {
    var flash = document.querySelector(".flash.play[data-ms]");
    if (!flash || flash.dataset.armed) { return; }
    flash.dataset.armed = "1";
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (!document.body.contains(flash)) { return; }
      flash.classList.add("cleared");
      var form = flash.querySelector("form.flash-hide");
      if (form) { if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); } }
    }, parseInt(flash.dataset.ms, 10));
  }

  document.addEventListener("DOMContentLoaded", arm);
  document.addEventListener("htmx:after:settle", arm);  // htmx 4: after every swap
})();
