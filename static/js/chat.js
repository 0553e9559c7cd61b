// The chat form: Enter asks, Shift+Enter breaks the line; the box empties once the question is sent.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    var box = event.target;
    if (box.id !== "question" || event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (box.value.trim() !== "") box.form.requestSubmit();
  });
  document.addEventListener("htmx:wsAfterSend", function () {
    var box = document.getElementById("question");
    if (box) { box.value = ""; box.focus(); }
  });
  function connection(text, state) {
    var status = document.getElementById("connection");
    if (status) { status.textContent = text; status.dataset.state = state; }
  }
  document.addEventListener("htmx:wsOpen", function () { connection("Connected.", "open"); });
  document.addEventListener("htmx:wsClose", function () { connection("Disconnected; reconnecting…", "closed"); });
  // Escape hides the quote of the [n] pointed at or focused; it shows again once the pointer or focus leaves and
  // comes back (the quote is plain text in the page: nothing here reads or writes it).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(".cite-wrap:hover, .cite-wrap:focus-within").forEach(function (wrap) {
      wrap.classList.add("cite-dismissed");
    });
  });
  function undismiss(event) {
    var wrap = event.target.closest && event.target.closest(".cite-wrap");
    if (wrap && !wrap.contains(event.relatedTarget)) wrap.classList.remove("cite-dismissed");
  }
  document.addEventListener("focusout", undismiss);
  document.addEventListener("mouseout", undismiss);
  document.addEventListener("htmx:wsAfterMessage", function () {
    var last = document.querySelector("#conversation .turn:last-child");
    if (last) last.scrollIntoView({ block: "end", behavior: "smooth" });
  });
})();
