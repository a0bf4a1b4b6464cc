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
    state.fields.forEach(function (spec) {
      var value = state.mine[spec.key];
      if (value === undefined || value === null || value === false) { return; }
      parts.push(spec.kind === "switch" ? spec.label : spec.label + ": " + value);
    });
    return parts.join(" · ");
  }

  function draw() {
    if (!state) { return; }
    var box = el("div", "state");
    box.appendChild(el("h1", "", document.title));
    box.appendChild(el("p", "deal", state.title));
    box.appendChild(el("p", "status" + (state.open && !state.mine ? " turn" : ""), state.status));
    if (state.open) {
      if (state.mine) {
        var yours = el("p", "mine");
        yours.appendChild(el("span", "label", words.yours + ": "));
        yours.appendChild(el("span", "value", mineText()));
        box.appendChild(yours);
      }
      var form = el("form", "entry");
      form.setAttribute("novalidate", "");
      state.fields.forEach(function (spec) { form.appendChild(fieldNode(spec)); });
      var button = el("button", "move", state.mine ? words.change : words.send);
      button.type = "submit";
      button.id = "send";
      button.disabled = sending;
      form.appendChild(button);
      form.addEventListener("submit", send);
      box.appendChild(form);
    }
    if (notice) { box.appendChild(el("p", noticeClass, notice)); }
    if (state.open || state["in"].length) {
      var who = el("section", "who");
      who.appendChild(el("p", "", words["in"] + ": " + (state["in"].join(", ") || "—")));
      if (state.waiting.length) {
        who.appendChild(el("p", "", words.waiting + ": " + state.waiting.join(", ")));
      }
      box.appendChild(who);
    }
    var totals = el("section", "totals");
    totals.appendChild(el("h2", "", words.totals));
    var list = el("ul");
    state.totals.forEach(function (t) {
      list.appendChild(el("li", t.out ? "out" : "", t.name + ": " + t.total));
    });
    totals.appendChild(list);
    box.appendChild(totals);
    if (state.last) {
      var last = el("section", "previous");
      last.appendChild(el("h2", "", words.last));
      last.appendChild(el("p", "", state.last.title));
      var rows = el("ul");
      state.last.scores.forEach(function (s) {
        rows.appendChild(el("li", "", s.name + ": " + s.value + " (" + (s.score < 0 ? "" : "+") + s.score + ")"));
      });
      last.appendChild(rows);
      box.appendChild(last);
    }
    var focused = document.activeElement && document.activeElement.id;
    while (main.firstChild) { main.removeChild(main.firstChild); }
    main.appendChild(box);
    if (focused) {
      var again = document.getElementById(focused);
      if (again) { again.focus(); }
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
