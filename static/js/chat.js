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
  // "Copy answer and sources": the turn's answer as plain text, each sentence with its [n], then the numbered
  // sources with their addresses. Read with textContent and written with writeText: no document text is ever
  // parsed as HTML.
  function ownText(node) {
    var text = "";
    node.childNodes.forEach(function (child) {
      if (child.nodeType === Node.TEXT_NODE) text += child.textContent;
      else if (child.classList && child.classList.contains("cite-wrap")) {
        var cite = child.querySelector(".cite");
        if (cite) text += " " + cite.textContent.trim();
      } else text += ownText(child);
    });
    return text;
  }
  function answerText(turn) {
    var lines = [];
    var question = turn.querySelector(".question");
    if (question) lines.push(question.textContent.trim(), "");
    // A paragraph's sentence is a line; a list's item is a line of its own sentences after "1." (numbered) or "-".
    var answer = turn.querySelector(".answer");
    function sentenceText(sentence) { return ownText(sentence).replace(/\s+/g, " ").trim(); }
    if (answer) answer.childNodes.forEach(function (child) {
      if (!child.classList) return;
      if (child.classList.contains("sentence")) lines.push(sentenceText(child));
      else if (child.classList.contains("answer-list")) {
        var number = 0;
        child.querySelectorAll(":scope > .answer-item").forEach(function (item) {
          number += 1;
          var words = Array.prototype.map.call(item.querySelectorAll(".sentence"), sentenceText).join(" ");
          lines.push((child.tagName === "OL" ? number + ". " : "- ") + words);
        });
      }
    });
    turn.querySelectorAll(".refusal p").forEach(function (p) { lines.push(p.textContent.trim()); });
    var documents = turn.querySelectorAll(".sources .source-document");
    if (documents.length) {
      lines.push("", "Sources:");
      documents.forEach(function (item) {
        var title = item.querySelector(".source-title");
        var when = item.querySelector("time");
        lines.push((title ? title.textContent.trim() : "") + (when ? " (" + when.textContent.trim() + ")" : ""));
        item.querySelectorAll(".passage").forEach(function (passage) {
          var link = passage.querySelector("a");
          var quote = passage.querySelector(".passage-quote");
          lines.push("  [" + passage.value + "] " +
                     (link ? new URL(link.getAttribute("href"), document.baseURI).href : "") +
                     (quote ? " \u201c" + quote.textContent.trim() + "\u201d" : ""));
        });
      });
    }
    return lines.join("\n");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".copy-answer");
    if (!button) return;
    var turn = document.getElementById("turn-" + button.dataset.turn);
    var state = button.parentElement.querySelector(".copy-state");
    if (!turn) return;
    var text = answerText(turn);
    function said(message) { if (state) state.textContent = message; }
    if (!navigator.clipboard) { said("Copying is not available here."); return; }
    navigator.clipboard.writeText(text).then(function () { said("Copied."); },
                                             function () { said("Could not copy."); });
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var last = document.querySelector("#conversation .turn:last-child");
    if (last) last.scrollIntoView({ block: "end", behavior: "smooth" });
  });
})();
