"""Which table devices a rule profile has a use for, read from the profile's own data.

A device the profile has no use for is a configuration error, not a silent extra: a progressive
controller at a table whose text offers no progressive wager would take wagers the rules do not
allow.

- shuffler and shoe: the profile deals from an automated shoe (``procedures.deal``), or changes
  decks on the shuffler's clock (``deck_hours_shuffler``): 000(b)(2), (f)(2)(i), (j); 003 NEW
  CARDS IN PLAY 1; 002 "the shuffle machine";
- rng: the starting position may be counted from a random number (``rng``), or it is 002's
  action button (an RNG or the dice cup): 000(k)(3); 002 DEALING PROCEDURES;
- progressive: the profile offers the progressive wager (``side_bets``): 000(q)(1); 001 11.14.

004 (``sd``) deals seven stacks by hand and counts with two dice (004(2), (4)): no device.
"""

from __future__ import annotations

from app.engine.profile import RuleProfile

CLASSES = ("shuffler", "shoe", "progressive", "rng")   # as app/devices/mapping.py DEVICE_CLASSES


def uses(rules: RuleProfile) -> dict[str, str]:
    """The device classes ``rules`` has a use for, each with the reason (for the docs and errors)."""
    p = rules.procedures
    out: dict[str, str] = {}
    if "automated-shoe" in p.deal or p.deck_hours_shuffler is not None:
        why = f"{rules.rule_text}: cards shuffled and dealt by machine (deal: {', '.join(p.deal)})"
        out["shuffler"] = why
        out["shoe"] = why
    if "rng" in p.starting_position or "action" in p.starting_position:
        out["rng"] = f"{rules.rule_text}: the starting position by random number ({', '.join(p.starting_position)})"
    if "progressive" in rules.side_bets:
        out["progressive"] = f"{rules.rule_text}: the progressive wager is offered ({rules.cite('progressive_wager')})"
    return out


def why_not(rules: RuleProfile, cls: str) -> str:
    """Why ``rules`` has no use for a ``cls`` (the text of a configuration error)."""
    p = rules.procedures
    if cls in ("shuffler", "shoe"):
        return f"it deals {' or '.join(p.deal)} only, with no automated shoe"
    if cls == "rng":
        return f"its starting position is counted by {' or '.join(p.starting_position)}, never a random number"
    return "it offers no progressive wager"
