"use strict";
// A seat's page of `score play --online` (or the public table's): draws the state the
// server pushes (Server-Sent Events, JSON) and posts the seat's moves. No inline script
// anywhere (the Content-Security-Policy forbids it); every text is set as text.
(function () {
  var main = document.getElementById("seat");
  if (!main) { return; }
  var words = JSON.parse(main.getAttribute("data-words") || "{}");
  var moveUrl = main.getAttribute("data-move");
  var pageToken = main.getAttribute("data-page");
  var live = document.getElementById("live");
  var awake = document.getElementById("awake");
  var state = null;
  var picked = [];
  var pickedAt = [];  // the picked cards' places in the hand: two jokers are alike
  var sending = false;
  var notice = "";
  var hintText = "";
  var showHelp = false;
  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function cardNode(card, tag) {
    var suit = card.slice(-1);
    var node = el(tag || "span", "card" + (suit === "H" || suit === "D" ? " red" : ""),
                  card.slice(0, -1) + (SUITS[suit] || suit));
    node.setAttribute("data-card", card);
    return node;
  }

  function cardsNode(cards) {
    var span = el("span", "cards");
    (cards || []).forEach(function (card) { span.appendChild(cardNode(card)); });
    return span;
  }

  function sameSet(a, b) {
    if (a.length !== b.length) { return false; }
    var x = a.slice().sort(), y = b.slice().sort();
    for (var i = 0; i < x.length; i += 1) { if (x[i] !== y[i]) { return false; } }
    return true;
  }

  function pickIsLegal(pick) {
    if (!pick) { return true; }
    return pick.sets.some(function (set) { return sameSet(set, picked); });
  }

  function post(url, body, done) {
    var request = new XMLHttpRequest();
    request.open("POST", url);
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

  function move(index) {
    if (sending || !state || !state.moves) { return; }
    sending = true;
    notice = words.sending;
    draw();
    post(moveUrl, { v: state.v, move: { button: index, picked: picked } }, function (answer) {
      sending = false;
      notice = answer.ok ? "" : words.refused.replace("{problem}", answer.problem || "");
      if (answer.ok) { picked = []; pickedAt = []; }
      draw();
    });
  }

  function askHint() {
    post(moveUrl.replace(/^move/, "hint"), {}, function (answer) {
      hintText = answer.ok ? answer.hint : (answer.problem || "");
      draw();
    });
  }

  function drawMoves(box) {
    var moves = state.moves;
    if (!moves) { return; }
    var section = el("section", "moves");
    if (moves.pick) {
      section.appendChild(el("p", "label", moves.pick.label));
      var hand = el("div", "pick");
      moves.pick.cards.forEach(function (card, place) {
        var button = cardNode(card, "button");
        button.type = "button";
        var chosen = pickedAt.indexOf(place) >= 0;
        button.setAttribute("aria-pressed", chosen ? "true" : "false");
        if (chosen) { button.className += " chosen"; }
        button.addEventListener("click", function () {
          var at = pickedAt.indexOf(place);
          if (at >= 0) { pickedAt.splice(at, 1); } else { pickedAt.push(place); }
          picked = pickedAt.map(function (i) { return moves.pick.cards[i]; });
          draw();
        });
        hand.appendChild(button);
      });
      section.appendChild(hand);
      var why = picked.length && !pickIsLegal(moves.pick)
        ? (moves.pick.problems || {})[picked.slice().sort().join(" ")] : "";
      var reason = el("p", "problem pick-problem", why || "");
      reason.setAttribute("role", "status");
      section.appendChild(reason);
    }
    var row = el("div", "buttons");
    moves.buttons.forEach(function (spec, index) {
      var button = el("button", "move");
      button.type = "button";
      if (moves.pick || !spec.card) { button.appendChild(el("span", "", spec.label)); }
      if (spec.card) { button.appendChild(cardNode(spec.card)); }
      if (spec.suit) {
        // The suit a joker names: shown beside it (four "JK" alone would look alike).
        var red = spec.suit === "\u2665" || spec.suit === "\u2666";
        button.appendChild(el("span", "suit" + (red ? " red" : ""), spec.suit));
      }
      if (spec.card && !moves.pick) { button.setAttribute("aria-label", spec.label); }
      button.setAttribute("data-move", String(index));
      button.disabled = sending || (spec.needs_pick && !(picked.length && pickIsLegal(moves.pick)));
      button.addEventListener("click", function () { move(index); });
      row.appendChild(button);
    });
    section.appendChild(row);
    var tools = el("div", "tools");
    var hint = el("button", "tool", words.hint);
    hint.type = "button";
    hint.addEventListener("click", askHint);
    tools.appendChild(hint);
    section.appendChild(tools);
    if (hintText) { section.appendChild(el("p", "hint", hintText)); }
    box.appendChild(section);
  }

  function draw() {
    if (!state) { return; }
    var box = el("div", "state");
    box.appendChild(el("h1", "", document.title));
    if (state.title) { box.appendChild(el("p", "deal", state.title)); }
    box.appendChild(el("p", "status" + (state.moves ? " turn" : ""), state.status));
    var refusal = state.problem ? words.refused.replace("{problem}", state.problem) : "";
    if (refusal) { box.appendChild(el("p", "problem", refusal)); }
    if (notice && notice !== refusal) { box.appendChild(el("p", "notice", notice)); }
    if (state.hand) {
      var hand = el("section", "hand");
      hand.appendChild(el("span", "label", state.hand.label));
      var cards = cardsNode(state.hand.cards);
      if (state.hand.note) {
        // The hand's value stays on the line of its last card ("= 38" never alone).
        var keep = el("span", "keep");
        if (cards.lastChild) { keep.appendChild(cards.lastChild); }
        keep.appendChild(el("span", "note", "\u00a0" + state.hand.note));
        cards.appendChild(keep);
      }
      hand.appendChild(cards);
      box.appendChild(hand);
    }
    drawMoves(box);
    var table = el("section", "table");
    (state.table || []).forEach(function (line) {
      var p = el("p", "row");
      p.appendChild(el("span", "label", line.label));
      if (line.cards && line.cards.length) { p.appendChild(cardsNode(line.cards)); }
      if (line.text) { p.appendChild(el("span", "note", " " + line.text)); }
      table.appendChild(p);
    });
    box.appendChild(table);
    if (state.end && state.end.length) {
      var end = el("section", "end");
      state.end.forEach(function (line) { end.appendChild(el("p", "", line)); });
      box.appendChild(end);
    }
    var totals = el("section", "totals");
    totals.appendChild(el("h2", "", state.totals_title || words.totals));
    var list = el("ul");
    state.totals.forEach(function (t) {
      list.appendChild(el("li", t.out ? "out" : "", t.name + ": " + t.total));
    });
    totals.appendChild(list);
    box.appendChild(totals);
    if (state.log && state.log.length) {
      var log = el("section", "log");
      log.appendChild(el("h2", "", words.since));
      var ol = el("ol");
      state.log.slice(-12).forEach(function (line) { ol.appendChild(el("li", "", line)); });
      log.appendChild(ol);
      box.appendChild(log);
    }
    if (state.previous) {
      var previous = el("section", "previous");
      previous.appendChild(el("h2", "", words.last_deal));
      state.previous.lines.forEach(function (line) { previous.appendChild(el("p", "", line)); });
      box.appendChild(previous);
    }
    if (state.help) {
      var help = el("details", "help");
      help.open = showHelp;
      help.addEventListener("toggle", function () { showHelp = help.open; });
      help.appendChild(el("summary", "", words.help));
      help.appendChild(el("p", "", state.help));
      box.appendChild(help);
    }
    while (main.firstChild) { main.removeChild(main.firstChild); }
    main.appendChild(box);
  }

  function connect() {
    var source = new EventSource(main.getAttribute("data-events"));
    source.onopen = function () { live.textContent = words.live; };
    source.onerror = function () { live.textContent = words.lost; };
    source.onmessage = function (event) {
      var next = JSON.parse(event.data);
      if (state && next.v !== state.v) {
        if (!next.moves || (state.moves && next.step !== state.step)) { picked = []; pickedAt = []; }
        hintText = "";
        if (!sending) { notice = ""; }
      }
      state = next;
      main.setAttribute("data-version", String(state.v));
      draw();
    };
  }

  // Keep the screen on while the page is open, where the browser allows it.
  var lock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator)) {
      awake.textContent = words.no_wake;
      return;
    }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      awake.textContent = words.awake;
    }, function () {
      awake.textContent = words.no_wake;
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && (lock === null || lock.released)) {
      keepAwake();
    }
  });

  connect();
  keepAwake();
}());
