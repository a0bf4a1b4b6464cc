"""The store on TinyDB: what scorekeeper.storage relies on TinyDB to do, pinned.

The sessions are read and changed through TinyDB's Table API over StoreFile (a TinyDB
Storage) behind Transaction (a TinyDB Middleware). These tests pin the TinyDB
behaviour the storage's promises rest on: a document TinyDB never touched is copied
as it was, one touched is written as it now is (even when changed inside), one
command is one file write, and nothing is written without the lock.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, players_args
from tinydb import Query, TinyDB
from tinydb.table import Document

from scorekeeper.storage import StoredDocument
from scorekeeper.store import SESSIONS, Store, StoreError, StoreFile, Transaction, backup_paths


def three_sessions(ok: CLI) -> None:
    for names in (("Ann", "Bob"), ("Cy", "Dan"), ("Eve", "Fay")):
        ok("new", "least-score", *players_args(*names), "--limit", "500")
        ok("add-round", "--declarer", names[0], f"{names[0]}=1", f"{names[1]}=5")


def opened(path: Path) -> tuple[TinyDB, Transaction]:
    transaction = Transaction(StoreFile)
    return TinyDB(path, storage=transaction), transaction


def session_lines(path: Path) -> dict[bytes, bytes]:
    return {line.split(b'"')[1]: line.rstrip(b",") for line in path.read_bytes().split(b"\n")
            if line.startswith(b'"') and b'"game":' in line}


def test_tinydb_parses_only_the_documents_it_is_asked_for(ok: CLI, db_path: Path) -> None:
    three_sessions(ok)
    db, transaction = opened(db_path)
    session = db.table(SESSIONS).get(doc_id=2)
    assert session is not None and session["players"] == ["Cy", "Dan"]
    stored = (transaction.read() or {})[SESSIONS]
    assert {key: doc.parsed for key, doc in stored.items()} == {"1": False, "2": True,
                                                               "3": False}
    assert transaction.document_ids(SESSIONS) == [1, 2, 3]
    assert not any(doc.parsed for key, doc in stored.items() if key != "2")
    view = Store(db_path).read()
    assert view.get(3).players == ("Eve", "Fay")


def test_a_document_changed_inside_is_written_as_it_now_is(ok: CLI, db_path: Path) -> None:
    three_sessions(ok)
    before = session_lines(db_path)
    db, transaction = opened(db_path)
    file = transaction.storage
    assert isinstance(file, StoreFile)

    def reword(document: Any) -> None:
        document["history"][0]["detail"] = "nested"  # a change TinyDB's update does not see

    db.table(SESSIONS).update(reword, doc_ids=[2])
    assert transaction.dirty
    with file.locked():  # not vouched for: the storage re-scores it before writing
        transaction.commit()
    after = session_lines(db_path)
    assert after[b"1"] == before[b"1"] and after[b"3"] == before[b"3"]
    assert after[b"2"] != before[b"2"] and b'"detail":"nested"' in after[b"2"]
    assert Store(db_path).read().get(2).history[0]["detail"] == "nested"


def test_one_command_is_one_file_write(ok: CLI, db_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    three_sessions(ok)
    replaced: list[str] = []
    real_replace = os.replace

    def counting(source: Any, target: Any) -> None:
        if Path(target) == db_path:
            replaced.append(str(source))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", counting)
    ok("delete", "2", "--yes")  # a session removed and a meta record added: two TinyDB writes
    ok("new", "one-card", *players_args("Gus", "Hal"))  # an insert and the current session
    assert len(replaced) == 2
    view = Store(db_path).read()
    assert view.session_ids() == [1, 3, 4] and view.current_id == 4
    assert view.deleted(2) is not None


def test_nothing_is_written_without_a_commit_or_without_the_lock(ok: CLI,
                                                                 db_path: Path) -> None:
    three_sessions(ok)
    before = {path.name: path.read_bytes() for path in db_path.parent.iterdir()}
    db, transaction = opened(db_path)
    db.table(SESSIONS).remove(doc_ids=[1])
    db.close()  # closing drops what was not committed
    db, transaction = opened(db_path)
    db.table(SESSIONS).remove(doc_ids=[1])
    with pytest.raises(RuntimeError, match="without its lock"):
        transaction.commit()
    assert {path.name: path.read_bytes() for path in db_path.parent.iterdir()} == before


def test_the_storage_never_writes_a_table_it_could_not_read_back(ok: CLI,
                                                                 db_path: Path) -> None:
    three_sessions(ok)
    before = db_path.read_bytes()
    db, transaction = opened(db_path)
    db.table("players").insert({"name": "Ann"})
    file = transaction.storage
    assert isinstance(file, StoreFile)
    with file.locked(), pytest.raises(ValueError, match="players"):
        transaction.commit()
    assert db_path.read_bytes() == before


def test_tinydb_queries_work_on_the_stored_sessions(ok: CLI, db_path: Path) -> None:
    three_sessions(ok)
    db, _ = opened(db_path)
    found = db.table(SESSIONS).search(Query().players.any(["Dan"]))
    assert [document.doc_id for document in found] == [2]
    assert all(isinstance(document, Document) for document in found)


def test_ids_tinydb_would_merge_are_refused(refuse: Refuse, db_path: Path, ok: CLI) -> None:
    """TinyDB keeps ids as ints: "01" beside "1" would become one document on the next
    write, so such a file is not taken for a store at all."""
    three_sessions(ok)
    text = db_path.read_bytes()
    line = session_lines(db_path)[b"2"]
    db_path.write_bytes(text.replace(line, line.replace(b'"2": ', b'"02": ', 1)))
    before = db_path.read_bytes()
    refuse("add-round", "-s", "1", "--declarer", "Ann", "Ann=1", "Bob=5",
           says="not a scorekeeper store")
    assert db_path.read_bytes() == before


def test_stored_documents_parse_once_and_refuse_damage(tmp_path: Path) -> None:
    document = StoredDocument(b'{"a":[1,2]}', lambda why: StoreError(str(why)))
    assert not document.parsed and document.peek() == {"a": [1, 2]} and not document.parsed
    assert dict(document) == {"a": [1, 2]} and document.parsed
    document.clear()
    assert len(document) == 0
    broken = StoredDocument(b'{"a":', lambda why: StoreError(f"damaged: {why}"))
    with pytest.raises(StoreError, match="damaged: not valid JSON"):
        dict(broken)
    assert not backup_paths(tmp_path / "x.json")[0].exists()
