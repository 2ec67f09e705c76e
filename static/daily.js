/* Jipai daily page: puts the browser's time zone into the Start form (the session's day is the
   player's own date); without JavaScript the day is UTC's until a time zone is set. */
(function () {
  "use strict";
  var tz = "";
  try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { tz = ""; }
  var inputs = document.querySelectorAll(".browser-tz");
  for (var i = 0; i < inputs.length; i++) { inputs[i].value = tz; }
})();
