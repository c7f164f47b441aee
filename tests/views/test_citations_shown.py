"""What the window shows beside a field or a light cites the table's own text (issue 33, 4): the
round panel's house-way button and surrender box, and the tile's closed progressive. Before, the
panel cited 003 GENERAL PROCEDURES 8 and "000(l)(4), 004(9)" at every table and the tile 000(q)."""

from __future__ import annotations

import pytest

from app.engine.citations import texts_named
from app.rules.resources import names, profile
from app.workstation.wagers import round_form
from tests.support.workstation import Clock

PROFILES = names("rules")


def own_first(citation: str, rules) -> list[str]:
    named = texts_named(citation)
    allowed = {rules.rule_text} | ({rules.regulation} if rules.regulation else set())
    faults = [f"{citation!r} cites {t}" for t in named if t not in allowed]
    if not named or named[0] != rules.rule_text:
        faults.append(f"{citation!r} does not cite {rules.rule_text} first")
    return faults


@pytest.mark.parametrize("name", PROFILES)
def test_the_round_panels_house_way_and_surrender_cite_the_tables_own_text(name):
    rules = profile(name).rules
    form = round_form(rules)
    assert form.house_way_rule == rules.cite("house_way_asked")
    assert form.surrender_rule == rules.cite("surrender")
    assert not own_first(form.house_way_rule, rules) and not own_first(form.surrender_rule, rules)


def test_the_tile_says_the_progressive_closed_by_the_tables_own_paragraph(tmp_path, monkeypatch, qapp):
    """An nj table's tile with its controller offline cites 001's paragraph, a casino's 003's then
    its regulation's (the tile is read from a real workstation, shown by the real widget)."""
    from dataclasses import replace

    from app.views.tile import TileWidget
    from tests.support.workstation import open_ws

    clock = Clock()
    floor = "".join(f'[[tables]]\nid = "{t}"\nprofile = "{p}"\n' for t, p in (("T1", "nj"), ("T2", "casino"),
                                                                              ("T3", "section6")))
    ws = open_ws(tmp_path, monkeypatch, clock, floor)
    try:
        for t in ws.reads.tiles(clock.t):
            rules = profile(t.profile).rules
            if "progressive" not in rules.side_bets:
                assert t.progressive is None and t.progressive_rule == ""
                continue
            assert t.progressive_rule == rules.cite("progressive_offline") and not own_first(t.progressive_rule, rules)
            widget = TileWidget(t.table)
            widget.show_tile(replace(t, progressive="closed"))
            assert widget.progressive.toolTip().endswith(f"({rules.cite('progressive_offline')})")
            assert not own_first(widget.progressive.toolTip().split("(", 1)[1], rules), widget.progressive.toolTip()
            widget.deleteLater()
    finally:
        ws.close()


@pytest.mark.parametrize("name", PROFILES)
def test_the_house_ways_paragraph_is_the_tables_own_or_said_to_be_the_houses(name):
    """A table whose text has no house way plays the house's (000(l)(2), 001 11.9(b), 004(10)): the
    paragraph that chose a set is shown as the house's, never as another jurisdiction's text
    (issue 33: a 000 table's dealer read "house way: 003 ONE PAIR: ...")."""
    import random

    from app.engine.cards import full_deck
    from app.engine.citations import house_way_rule

    loaded = profile(name)
    rules, way = loaded.rules, loaded.house()
    deck = full_deck()
    rng = random.Random(33)
    for _ in range(300):
        s = way.set(rng.sample(deck, 7))
        shown = house_way_rule(s.rule, rules.rule_text, rules.regulation or "")
        named = texts_named(shown)
        assert not named or named[0] == rules.rule_text, shown
        assert not [t for t in named if t not in {rules.rule_text, rules.regulation}], shown
        assert shown == s.rule or shown.startswith("the house's "), shown
