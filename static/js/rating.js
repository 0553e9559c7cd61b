// The rating form under each answer: Helpful / Not helpful (and the optional comment) posted as JSON with the
// page's CSRF token; after a vote the form folds to "Thanks: marked helpful." with a Change button.
(function () {
  "use strict";
  var RETRIES = 3; // the answer's log row is written just after its end marker: a very quick vote may wait for it
  var RETRY_MS = 400;

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  function setState(form, text, failed) {
    var state = form.querySelector(".rating-state");
    state.textContent = text;
    state.classList.toggle("rating-failed", Boolean(failed));
    return state;
  }

  function setBusy(form, busy) {
    form.querySelectorAll("button[name=helpful]").forEach(function (button) { button.disabled = busy; });
  }

  function voted(form, helpful) {
    form.querySelectorAll("button[name=helpful]").forEach(function (button) {
      button.setAttribute("aria-pressed", String((button.value === "true") === helpful));
    });
    form.querySelector(".rating-choice").hidden = true;
    var state = setState(form, "Thanks: marked " + (helpful ? "helpful" : "not helpful") + ". ", false);
    var change = document.createElement("button");
    change.type = "button";
    change.className = "rating-change";
    change.textContent = "Change";
    state.appendChild(change);
    change.focus();
  }

  function send(form, helpful, attempt) {
    fetch(form.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ helpful: helpful, comment: form.elements.comment.value }),
    }).then(function (response) {
      if (response.status === 404 && attempt < RETRIES) {
        window.setTimeout(function () { send(form, helpful, attempt + 1); }, RETRY_MS);
        return null;
      }
      return response.json().catch(function () { return {}; }).then(function (data) {
        setBusy(form, false);
        if (response.ok) voted(form, data.helpful);
        else setState(form, data.error || "The rating could not be saved; please try again.", true);
      });
    }).catch(function () {
      setBusy(form, false);
      setState(form, "The rating could not be sent; please try again.", true);
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("rating")) return;
    event.preventDefault();
    var button = event.submitter;
    if (!button || button.name !== "helpful") return;
    setBusy(form, true);
    setState(form, "Saving…", false);
    send(form, button.value === "true", 0);
  });

  document.addEventListener("click", function (event) {
    var change = event.target;
    if (!(change instanceof HTMLElement) || !change.classList.contains("rating-change")) return;
    var form = change.closest("form.rating");
    form.querySelector(".rating-choice").hidden = false;
    setState(form, "", false);
    (form.querySelector('button[aria-pressed="true"]') || form.querySelector("button[name=helpful]")).focus();
  });
})();
