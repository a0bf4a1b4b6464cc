"""The pages of ``score serve``: HTML built from a snapshot of the store, and nothing else.

Pure functions: each takes what it shows and returns a :class:`Page` (a title and the
inner HTML of ``<main>``, which the live script swaps in on every change). Every user
string goes through :func:`text`: HTML-escaped, with control, bidi and zero-width
characters shown as escapes. Links are relative: the document's ``<base>`` carries the
token, so no page needs to know it.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from scorekeeper.i18n import _, pgettext
from scorekeeper.kit.entries import EntryError
from scorekeeper.ranking import margin, margin_headings, ranked_players
from scorekeeper.session import Session
from scorekeeper.store import StoreView
from scorekeeper.text import show_controls
from scorekeeper.views import app_icon
from scorekeeper.views.export import (
    PALETTE,
    _headline,
    _status,
    bdi,
    chart_svg,
    html_language,
    html_round_cells,
    html_template,
    ltr,
    right_to_left,
)
from scorekeeper.views.render import (
    comma,
    describe_house_rules,
    readable_time,
    roster_text,
    session_status_text,
    virtual_marked,
)

REFRESH_SECONDS = 2
"""With scripts off, the page reloads itself this often (the live updates need scripts)."""


@dataclass(frozen=True)
class Page:
    title: str
    """Plain text (already neutralised); escaped where it is put into HTML."""
    body: str
    """The inner HTML of ``<main>``."""

    def event_data(self) -> str:
        """The Server-Sent Event payload: one line of JSON the live script applies."""
        return json.dumps({"title": self.title, "body": self.body}, ensure_ascii=False)


PageFunction = Callable[[StoreView], Page]
"""A page of the site: what it shows, from one consistent snapshot of the store. A
StoreError (a damaged session) is raised, not drawn: the site shows :func:`damaged_page`
and says the reason on the terminal only."""


def plain(value: object) -> str:
    """User text with control, bidi and zero-width characters shown as escapes (``\\x1b``):
    the project's one rule (scorekeeper.text)."""
    return show_controls(str(value))


def unbroken(value: object) -> str:
    """User text (a name) in HTML that wraps only at its spaces: a word with a hyphen
    ("Greedy-2", "in-progress") is kept whole on its line."""
    words = " ".join(f'<span class="nw">{word}</span>' if "-" in word else word
                     for word in text(value).split(" "))
    return f"<bdi>{words}</bdi>" if right_to_left() else words


def scroll_box(label: str) -> str:
    """The opening of a box that scrolls a wide table sideways: it takes the keyboard's
    focus (arrow keys scroll it) and says what it holds."""
    return (f'<div class="scroll" tabindex="0" role="region" '
            f'aria-label="{html.escape(label, quote=True)}">')


def text(value: object) -> str:
    """User text as HTML: neutralised, then escaped (quotes included)."""
    return html.escape(plain(value), quote=True)


def words(message: str) -> str:
    """Our own (translated) words as HTML element text: escaped, apostrophes kept."""
    return html.escape(message, quote=False)


# ---------------------------------------------------------------------------
# The document around a page


def document(page: Page, *, base: str, events: str, nav: Iterable[tuple[str, str]]) -> str:
    """The whole HTML document: ``base`` is the tokened folder every link is relative to,
    ``events`` the (relative) Server-Sent Events address of this page, ``nav`` the
    (relative address, label) of each page of the site."""
    links = "".join(f'<a href="{html.escape(href or "./")}">{html.escape(label)}</a>'
                    for href, label in nav)
    # the live script's words, in the page's language (the script itself is one fixed file)
    live = html.escape(_("Live: updates by itself."), quote=True)
    lost = html.escape(_("Connection lost: reconnecting…"), quote=True)
    return "\n".join([
        "<!DOCTYPE html>",
        f'<html {html_language()}><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        '<meta name="referrer" content="no-referrer">',
        f'<base href="{html.escape(base)}">',
        f"<title>{html.escape(page.title)}</title>",
        *app_icon.head_links(),
        '<link rel="stylesheet" href="style.css">',
        '<script src="live.js" defer></script>',
        f'<noscript><meta http-equiv="refresh" content="{REFRESH_SECONDS}"></noscript>',
        "</head><body>",
        f"<nav>{links}</nav>",
        f'<main id="page" data-events="{html.escape(events)}" data-live="{live}" '
        f'data-lost="{lost}">{page.body}</main>',
        '<footer><p id="live" class="meta">'
        + html.escape(_("Reloads every {seconds} seconds.").format(seconds=REFRESH_SECONDS))
        + "</p></footer>",
        "</body></html>",
    ]) + "\n"


LIVE_SCRIPT = """\
"use strict";
// Swap in each new rendering the server pushes (Server-Sent Events); never reload.
(function () {
  var main = document.getElementById("page");
  var status = document.getElementById("live");
  if (!main) { return; }
  if (!window.EventSource || !window.JSON) {
    window.setTimeout(function () { window.location.reload(); }, 2000);
    return;
  }
  function say(words, state) { status.textContent = words; status.className = "meta " + state; }
  function connect() {
    var source = new EventSource(main.getAttribute("data-events"));
    source.onopen = function () { say(main.getAttribute("data-live"), "on"); };
    source.onmessage = function (event) {
      var page = JSON.parse(event.data);
      main.innerHTML = page.body;  // built and escaped by the server
      document.title = page.title;
      say(main.getAttribute("data-live"), "on");
    };
    source.onerror = function () {
      say(main.getAttribute("data-lost"), "off");
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        window.setTimeout(connect, 3000);
      }
    };
  }
  connect();
})();
"""

_LEGEND_COLOURS = "".join(f".c{index}{{background:{colour}}}"
                          for index, colour in enumerate(PALETTE))

STYLE = """\
:root{color-scheme:light dark;--bg:#f6f6f4;--fg:#151515;--muted:#595959;--card:#fff;
--line:#d8d8d8;--good:#17692e;--bad:#b42318;--accent:#0a58a8}
@media (prefers-color-scheme:dark){:root{--bg:#101214;--fg:#f0f0f0;--muted:#a8a8a8;
--card:#1b1e21;--line:#343a40;--good:#5fd17f;--bad:#ff8b80;--accent:#7cb8ff}
svg text[fill="#777"]{fill:#b0b0b0}svg line[stroke="#eee"]{stroke:#343a40}
svg [stroke="#b42318"]{stroke:#ff8b80}svg text[fill="#b42318"]{fill:#ff8b80}}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{font:1.15rem/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
padding:.75rem;background:var(--bg);color:var(--fg)}
nav,main,footer{max-width:48rem;margin:0 auto}
nav{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;font-size:1rem;margin-bottom:.4rem}
a{color:var(--accent)}
h1{font-size:1.6rem;line-height:1.2;margin:.2rem 0 .3rem}
h2{font-size:1.2rem;margin:1.3rem 0 .4rem}
.meta{color:var(--muted);font-size:.95rem;margin:.3rem 0}
.headline{font-size:1.3rem;font-weight:700;margin:.5rem 0}
.winner{color:var(--good)}.out,.false{color:var(--bad)}.false{font-weight:600}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{padding:.35rem .4rem;border-bottom:1px solid var(--line);text-align:end;
vertical-align:top}
th{font-size:.9rem;color:var(--muted);vertical-align:bottom}
th:nth-child(2),td:nth-child(2){text-align:start}
.standings{font-size:1.35rem}.standings td:nth-child(3){font-weight:700}
.standings td:last-child{font-size:1rem;text-align:start}
.standings td{vertical-align:baseline}
.nw,.sessions td.status{white-space:nowrap}
.scroll:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.standings th:last-child{text-align:start}
/* names wrap at spaces, never inside a word; a word too long for a line alone breaks */
body,td,th{overflow-wrap:break-word;word-break:normal;hyphens:manual}
td,th{overflow-wrap:normal}
/* a table wider than the phone scrolls in its own box, a shadow at each edge where
   there is more to see (the covers scroll with the table, the shadows stay put) */
.scroll{overflow-x:auto;background:
linear-gradient(to right,var(--card) 40%,transparent) left/2.5rem 100% no-repeat local,
linear-gradient(to left,var(--card) 40%,transparent) right/2.5rem 100% no-repeat local,
radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.3),transparent) left/.8rem 100% no-repeat,
radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.3),transparent) right/.8rem 100%
no-repeat,var(--card)}
.scroll table{background:transparent}
.stats td{white-space:nowrap}.stats td:first-child{white-space:normal}
.stats th:first-child,.stats td:first-child{text-align:start;padding-inline-end:.6rem}
.stats th:nth-child(2),.stats td:nth-child(2){text-align:end}
.stats td:last-child{white-space:nowrap}.stats td.word{white-space:nowrap;text-align:start}
.stats th.word{text-align:start}
@media (max-width:26rem){body{padding:.5rem}th,td{padding:.3rem .2rem}.sessions{font-size:.85rem}
.sessions th,.sessions td{padding:.3rem .15rem}}
.rounds{font-size:1rem}.rounds td{white-space:nowrap}
.rounds td:nth-child(2),.rounds td:nth-child(3){white-space:normal}
.rounds th:nth-child(3),.rounds td:nth-child(3){text-align:start}
.rounds th{white-space:normal}
.run{color:var(--muted);font-size:.85em}
.dealer{font-size:1.35rem;background:var(--card);border-inline-start:.4rem solid var(--accent);
padding:.5rem .8rem;margin:.8rem 0}
.dealer p{margin:0}.dealer .meta{font-size:1rem}
svg{display:block;width:100%;height:auto;background:var(--card);border:1px solid var(--line)}
svg[role="img"]{max-width:36rem}
svg.swatch{display:inline;width:12px;height:12px;border:0;background:none;vertical-align:-1px}
.legend{display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:1rem;margin:.4rem 0}
.legend i{display:inline-block;width:.9rem;height:.9rem;margin-inline-end:.35rem;
border-radius:2px;vertical-align:-.1rem}
.problem{background:var(--card);border-inline-start:.4rem solid var(--bad);
padding:.6rem .8rem}
#live.on::before{content:"\\25cf  ";color:var(--good)}
#live.off::before{content:"\\25cf  ";color:var(--bad)}
""" + _LEGEND_COLOURS + "\n"


# ---------------------------------------------------------------------------
# The pages


def session_page(view: StoreView, session_id: int | None = None) -> Page:
    """A session (the current one when ``session_id`` is None): standings first, then the
    next dealer, the chart of running totals and the rounds."""
    try:
        session = view.get(session_id)  # a StoreError is the site's to report
    except EntryError as error:
        return _nothing_yet_page(str(error))
    return render_session(session, current=view.current_id == session.id)


def render_session(session: Session, *, current: bool = False) -> Page:
    standings = session.standings
    about = (_("Session {id} (current)") if current else _("Session {id}")).format(
        id=session.id)
    players = comma().join(bdi(name) for name in session.players)
    head = [f"<h1>{bdi(session.label)}</h1>",
            f'<p class="meta">{text(about)} · {text(session.rules.title)} · {players}</p>',
            f'<p class="headline{" winner" if standings.finished else ""}">'
            f"{text(_headline(session))}</p>"]
    if session.roster:
        head.append(f'<p class="meta roster">{bdi(roster_text(session))}</p>')
    parts = [*head, "<h2>" + text(_("Standings")) + "</h2>", _standings_table(session),
             _next_deal(session), "<h2>" + text(_("Running totals")) + "</h2>", chart_svg(session),
             _legend(session), "<h2>" + text(_("Rounds")) + "</h2>", _rounds_table(session)]
    options = describe_house_rules(session)
    parts.append('<p class="meta">' + html_template(
        _("House rules: {options} · started {time}"), options=ltr(text(options)),
        time=text(readable_time(session.created))) + "</p>")
    return Page(f"{plain(session.label)} — scorekeeper", "\n".join(parts))


def _standings_table(session: Session) -> str:
    standings = session.standings
    rows = []
    for rank, name in ranked_players(session):
        css = ("winner" if name in standings.winners
               else "out" if name in standings.knocked_out or name in standings.left
               else "")
        rows.append(f"<tr><td>{rank}</td><td>{bdi(name)}</td>"
                    f"<td>{standings.totals[name]}</td>"
                    + "".join(f"<td>{ltr(text(margin(session, name)))}</td>"
                              for _ in margin_headings(session))
                    + f'<td class="{css}">{text(_status(session, name))}</td></tr>')
    heading = [text(word) for word in (
        pgettext("table heading", "Player"), pgettext("table heading", "Total"),
        *margin_headings(session), pgettext("table heading", "Status"))]
    return ('<table class="standings"><thead><tr><th>#</th>'
            + "".join(f"<th>{word}</th>" for word in heading)
            + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _next_deal(session: Session) -> str:
    standings = session.standings
    if standings.finished:
        return ""
    if standings.next_dealer is None:
        who = ("<p>" + text(_("Next dealer: not kept for this session")) + ' <span class="meta">'
               + text(_("(start one with --dealer NAME to see it here)")) + "</span></p>")
    else:
        # Said once: the dealer stands out, then who starts, on a line of its own (run
        # on, "Next dealer: Bob Cy plays first." read as two names).
        starter = "" if standings.next_starter is None \
            else f'<p class="meta">{text(standings.next_starter)}</p>'
        who = "<p>" + html_template(_("Next dealer: {name}"),
                                    name=f"<strong>{bdi(standings.next_dealer)}</strong>") \
            + "</p>" + starter
    notes = "".join(f'<p class="meta">{text(note)}</p>' for note in standings.notes)
    return f'<section class="dealer">{who}{notes}</section>'


def _legend(session: Session) -> str:
    keys = "".join(f'<span><i class="c{index % len(PALETTE)}"></i>{bdi(name)}</span>'
                   for index, name in enumerate(session.players))
    return f'<p class="legend">{keys}</p>'


def _rounds_table(session: Session) -> str:
    standings = session.standings
    if not standings.rounds:
        return "<p>" + text(_("No rounds yet.")) + "</p>"
    role = text(_(session.declaration.role_heading))
    head = "".join(f"<th>{bdi(name)}</th>" for name in session.players)
    rows = ["<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"
            for cells in html_round_cells(session)]
    # Newest first: the round just entered is the one the table wants to check.
    rows.reverse()
    round_heading = text(pgettext("table heading", "Round"))
    dealer_heading = text(pgettext("table heading", "Dealer"))
    note = words(_("Newest first. Each cell: the deal's score, then the running total."))
    return (scroll_box(_("Rounds")) +
            f'<table class="rounds"><thead><tr><th>{round_heading}</th>'
            f"<th>{dealer_heading}</th><th>{role}</th>{head}</tr></thead><tbody>"
            f"{''.join(rows)}</tbody></table></div><p class=\"meta\">{note}</p>")


def sessions_page(view: StoreView) -> Page:
    """Every session, newest first, each linking to its own page."""
    sessions = view.sessions()
    unavailable = view.unavailable()
    if not sessions and not unavailable:
        return _nothing_yet_page(_("there are no sessions yet"))
    current = view.current_id
    rows = []
    for missing in reversed(unavailable):  # listed, with what to do: its game is missing
        rows.append(
            f"<tr><td>{missing.id}</td><td>{bdi(missing.label)}<br><span class=\"meta\">"
            f"{comma().join(bdi(name) for name in missing.players)}</span></td>"
            f"<td>{missing.rounds}</td><td colspan=\"2\">{bdi(missing.problem)}</td></tr>")
    for session in reversed(sessions):
        leader = comma().join(session.leader()) or "—"
        mark = (" <strong>" + text(_("(current)")) + "</strong>" if session.id == current
                else "")
        virtual = (' <span class="meta">' + text(virtual_marked(session, "")).strip() + "</span>"
                   if session.mode == "virtual" else "")
        rows.append(
            f"<tr><td>{session.id}</td><td><a href=\"session/{session.id}\">"
            f"{unbroken(session.label)}</a>{virtual}{mark}<br><span class=\"meta\">"
            f"{comma().join(unbroken(name) for name in session.players)}</span></td>"
            f"<td>{len(session.rounds)}</td>"
            f'<td class="status">{text(session_status_text(session.status))}</td>'
            f"<td>{unbroken(leader)}</td></tr>")
    heading = "".join(f"<th>{text(word)}</th>" for word in (
        pgettext("table heading", "ID"), pgettext("table heading", "Session"),
        pgettext("table heading", "Rounds"), pgettext("table heading", "Status"),
        pgettext("table heading", "Leader")))
    body = ("<h1>" + text(_("Sessions")) + "</h1>" + scroll_box(_("Sessions")) +
            f'<table class="sessions"><thead><tr>{heading}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")
    return Page(_("Sessions — scorekeeper"), body)


def html_page(title: str, render: Callable[[StoreView], str]) -> PageFunction:
    """A page from a function that already returns (escaped) HTML for ``<main>``: how
    another view of the store, e.g. statistics, joins the site with one route.
    ``title`` is translated when the page is drawn (mark it with ``N_``)."""

    def page(view: StoreView) -> Page:
        return Page(_("{title} — scorekeeper").format(title=_(title)), render(view))

    return page


def damaged_page() -> Page:
    """What every viewer sees while the store can't be read: that, and what to do. Not
    why: the reason names the store's path on the scorekeeper's computer, which is the
    terminal's to say (``score serve`` prints it there)."""
    heading = words(_("The scores can't be read"))
    problem = words(_("The scores can't be read right now. The terminal where "
                      "`score serve` runs says why."))
    body = (f'<h1>{heading}</h1><div class="problem">'
            f"<p>{problem}</p></div><p>"
            + html_template(_("On the computer that keeps the score, run {doctor} to check "
                              "the store, and {restore} to bring back its newest good "
                              "backup. This page shows the scores again by itself once the "
                              "store is repaired."),
                            doctor=ltr("<code>score doctor</code>"),
                            restore=ltr("<code>score doctor --restore</code>"))
            + "</p>")
    return Page(_("Store damaged — scorekeeper"), body)


def _nothing_yet_page(reason: str) -> Page:
    body = ("<h1>" + text(_("Nothing to show yet")) + "</h1>"
            f"<p>{text(reason[:1].upper() + reason[1:])}.</p>"
            "<p>" + text(_("This page shows the scores by itself as soon as there are some."))
            + "</p>")
    return Page(_("Waiting for scores — scorekeeper"), body)


def error_page(title: str, message: str) -> str:
    """A complete, standalone page for an HTTP error (404, 405, 503...): no store data."""
    return (f"<!DOCTYPE html>\n<html {html_language()}><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(message)}</p></body></html>\n")
