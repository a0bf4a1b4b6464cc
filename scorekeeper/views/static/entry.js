"use strict";
// A player's own entry page of `score serve --entry`: draws the state the server pushes
// (Server-Sent Events, JSON: the deal, this player's own entry, who is in) and posts the
// player's entry. No inline script anywhere (the Content-Security-Policy forbids it);
// every text is set as text.
(function () {
  var main = document.getElementById("entry");
  if (!main) { return; }
  var words = JSON.parse(main.getAttribute("data-words") || "{}");
  var postUrl = main.getAttribute("data-post");
  var pageToken = main.getAttribute("data-page");
  var live = document.getElementById("live");
  var state = null;
  var typed = {};
  var typedFor = null;
  var sending = false;
  var notice = "";
  var noticeClass = "notice";

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function post(body, done) {
    var request = new XMLHttpRequest();
    request.open("POST", postUrl);
    request.setRequestHeader("Content-Type", "application/json");
    request.setRequestHeader("X-Scorekeeper-Page", pageToken);
    request.onload = function () {
      var answer = {};
      try { answer = JSON.parse(request.responseText); } catch (e) { answer = {}; }
      done(answer);
    };
    request.onerror = function () { done({ ok: false, problem: words.lost }); };
    request.send(JSON.stringify(body));
  }

  function send(event) {
    event.preventDefault();
    if (sending || !state || !state.open) { return; }
    sending = true;
    notice = words.sending;
    noticeClass = "notice";
    draw();
    post({ v: state.v, fields: typed }, function (answer) {
      sending = false;
      if (answer.ok) {
        notice = words.saved;
        noticeClass = "notice";
      } else {
        notice = words.refused.replace("{problem}", answer.problem || "");
        noticeClass = "problem";
      }
      draw();
    });
  }

  function fieldNode(spec) {
    var label = el("label", "field");
    var input = el("input");
    input.name = spec.key;
    input.id = "field-" + spec.key;
    if (spec.kind === "switch") {
      input.type = "checkbox";
      input.checked = typed[spec.key] === true;
      input.addEventListener("change", function () { typed[spec.key] = input.checked; });
      label.appendChild(input);
      label.appendChild(el("span", "", " " + spec.label));
      return label;
    }
    input.type = "text";
    input.autocomplete = "off";
    input.setAttribute("dir", "ltr");
    input.setAttribute("inputmode", spec.kind === "number" ? "numeric" : "text");
    if (spec.kind !== "number") { input.setAttribute("autocapitalize", "characters"); }
    input.placeholder = spec.example || "";
    input.maxLength = 200;
    input.value = typed[spec.key] === undefined || typed[spec.key] === null ? "" : String(typed[spec.key]);
    input.addEventListener("input", function () { typed[spec.key] = input.value; });
    label.appendChild(el("span", "label", spec.label));
    label.appendChild(el("br"));
    label.appendChild(input);
    return label;
  }

  function mineText() {
    var parts = [];
    state.fields.forEach(function (spec, index) {
      var value = state.mine[spec.key];
      if (value === undefined || value === null || value === false) { return; }
      if (spec.kind === "switch") { parts.push(spec.label); }
      else { parts.push(index === 0 ? String(value) : spec.label + ": " + value); }
    });
    return parts.join(" · ");
  }

  // The page's parts, made once; the form is made again only for a new deal or a new
  // entry of the player's own (never while others' entries arrive: typing goes on).
  var parts = null;
  var formKey = null;

  function skeleton() {
    parts = {
      box: el("div", "state"),
      heading: el("h1", "", document.title),
      deal: el("p", "deal"),
      status: el("p", "status"),
      conflicts: el("div", "conflicts"),
      mine: el("p", "mine"),
      form: el("div", "form"),
      notice: el("p", "notice"),
      who: el("section", "who"),
      totals: el("section", "totals"),
      last: el("section", "previous")
    };
    ["heading", "deal", "status", "conflicts", "mine", "form", "notice", "who", "totals",
     "last"]
      .forEach(function (name) { parts.box.appendChild(parts[name]); });
    while (main.firstChild) { main.removeChild(main.firstChild); }
    main.appendChild(parts.box);
  }

  function empty(node) {
    while (node.firstChild) { node.removeChild(node.firstChild); }
    return node;
  }

  function drawForm() {
    var key = state.open ? state.v + ":" + (state.mine ? JSON.stringify(state.mine) : "") : "";
    var button = document.getElementById("send");
    if (key === formKey) {
      if (button) { button.disabled = sending; }
      return;
    }
    formKey = key;
    empty(parts.form);
    if (!state.open) { return; }
    var form = el("form", "entry");
    form.setAttribute("novalidate", "");
    state.fields.forEach(function (spec) { form.appendChild(fieldNode(spec)); });
    button = el("button", "move", state.mine ? words.change : words.send);
    button.type = "submit";
    button.id = "send";
    button.disabled = sending;
    form.appendChild(button);
    form.addEventListener("submit", send);
    parts.form.appendChild(form);
  }

  function draw() {
    if (!state) { return; }
    if (!parts) { skeleton(); }
    parts.deal.textContent = state.title;
    parts.status.textContent = state.status;
    parts.status.className = "status" + (state.open && !state.mine ? " turn" : "");
    // Entries that can't all be right, as soon as they are in: who must change what.
    empty(parts.conflicts);
    parts.conflicts.setAttribute("role", "status");
    (state.conflicts || []).forEach(function (message) {
      parts.conflicts.appendChild(el("p", "problem conflict", message));
    });
    empty(parts.mine);
    if (state.open && state.mine) {
      parts.mine.appendChild(el("span", "label", words.yours + ": "));
      parts.mine.appendChild(el("span", "value", mineText()));
    }
    drawForm();
    parts.notice.textContent = notice;
    parts.notice.className = noticeClass;
    empty(parts.who);
    if (state.open || state["in"].length) {
      parts.who.appendChild(el("p", "", words["in"] + ": " + (state["in"].join(", ") || "—")));
      if (state.waiting.length) {
        parts.who.appendChild(el("p", "", words.waiting + ": " + state.waiting.join(", ")));
      }
    }
    empty(parts.totals);
    parts.totals.appendChild(el("h2", "", words.totals));
    var list = el("ul");
    state.totals.forEach(function (t) {
      list.appendChild(el("li", t.out ? "out" : "", t.name + ": " + t.total));
    });
    parts.totals.appendChild(list);
    empty(parts.last);
    if (state.last) {
      parts.last.appendChild(el("h2", "", words.last));
      parts.last.appendChild(el("p", "", state.last.title));
      var rows = el("ul");
      state.last.scores.forEach(function (s) {
        rows.appendChild(el("li", "", s.name + ": " + s.value + " (" + (s.score < 0 ? "" : "+") + s.score + ")"));
      });
      parts.last.appendChild(rows);
    }
  }

  function connect() {
    var source = new EventSource(main.getAttribute("data-events"));
    source.onopen = function () { live.textContent = words.live; };
    source.onerror = function () { live.textContent = words.lost; };
    source.onmessage = function (event) {
      var next = JSON.parse(event.data);
      var key = next.v + ":" + next.player;
      if (typedFor !== key) {
        // A new deal (or the first state): the form starts from the player's own entry.
        typed = {};
        if (next.mine) {
          Object.keys(next.mine).forEach(function (k) {
            var v = next.mine[k];
            typed[k] = typeof v === "boolean" ? v : String(v);
          });
        }
        typedFor = key;
        if (state && next.v !== state.v) { notice = ""; }
      }
      state = next;
      main.setAttribute("data-version", String(state.v));
      main.setAttribute("data-deal", String(state.deal));
      draw();
    };
  }

  connect();
}());
