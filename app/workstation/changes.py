"""``Changes``: what one action or one pump changed, for the window to redraw just that.

The window's bridge emits one "changed" signal with it (Anki's operations, docs/workstation.md).
Ids are those the read side uses: table ids, alarm ids (the ``alarm_raised`` row's seq),
approval request ids (the ``approval_requested`` row's seq) and user names; ``rounds`` names the
tables whose round panel changed (the round being entered, or a settled round's standing).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Changes:
    tables: frozenset[str] = field(default_factory=frozenset)
    alarms: frozenset[int] = field(default_factory=frozenset)
    approvals: frozenset[int] = field(default_factory=frozenset)
    users: frozenset[str] = field(default_factory=frozenset)
    session: bool = False          # who is signed in changed (sign-in, sign-out, idle timeout)
    seqs: tuple[int, ...] = ()     # the log rows written, in order
    rounds: frozenset[str] = field(default_factory=frozenset)   # tables whose round panel changed
    # tables whose settled rounds or slips changed (a settlement, a release, a slip issued or void),
    # whoever logged it: a dealer at the table, another workstation, the demo's dealers
    books: frozenset[str] = field(default_factory=frozenset)

    def __or__(self, other: "Changes") -> "Changes":
        return Changes(self.tables | other.tables, self.alarms | other.alarms, self.approvals | other.approvals,
                       self.users | other.users, self.session or other.session, self.seqs + other.seqs,
                       self.rounds | other.rounds, self.books | other.books)

    def __bool__(self) -> bool:
        return bool(self.tables or self.alarms or self.approvals or self.users or self.session or self.seqs
                    or self.rounds or self.books)


NOTHING = Changes()


def changes(tables=(), alarms=(), approvals=(), users=(), session=False, seqs=(), rounds=(), books=()) -> Changes:
    """A ``Changes`` from any iterables (``changes(tables=["T1"], seqs=[5])``)."""
    return Changes(frozenset(tables), frozenset(alarms), frozenset(approvals), frozenset(users), session,
                   tuple(seqs), frozenset(rounds), frozenset(books))
