"""Who acts in the log: the roles of the people who sign in, who of them may do what, and the names
the system and the devices write under. The one source for every layer (engine, store, workstation,
window, command line).

An administrator runs the system, not the game: never at the table, never a decision. A dealer
records the table's events but never acknowledges an irregularity or approves (000(n); 003
PLAYER BANK 3; docs/audit.md, "People").
"""

from __future__ import annotations

DEALER = "dealer"
FLOOR_SUPERVISOR = "floor supervisor"
PIT_MANAGER = "pit manager"
ADMINISTRATOR = "administrator"
CASHIER = "cashier"          # the cage: signs a fill's chips out and a credit's in (issue 34)
SECURITY = "security"        # carries a fill or a credit between the cage and the table, and signs for it
COUNT_TEAM = "count team"    # counts a drop box in the count room, two of them signing
DEVICE = "device"
PLAYER = "player"

# the roles a person signs in with
PEOPLE = (DEALER, FLOOR_SUPERVISOR, PIT_MANAGER, ADMINISTRATOR, CASHIER, SECURITY, COUNT_TEAM)
ROLES = PEOPLE + (DEVICE, PLAYER)                                  # every role an event is logged under

SUPERVISORS = (FLOOR_SUPERVISOR, PIT_MANAGER)                # acknowledge, approve, rule on a bank's cover
AT_THE_TABLE = (DEALER, FLOOR_SUPERVISOR, PIT_MANAGER)       # record the table's events, enter and settle rounds
ADMINISTRATION = (ADMINISTRATOR,)                            # users and roles
CAGE = (CASHIER, SECURITY)                                  # sign a fill or a credit at the cage, one each
TRAY_COUNT = (DEALER, FLOOR_SUPERVISOR, PIT_MANAGER)        # count and sign an opener, a closer, a delivery
DROP_COUNT = (COUNT_TEAM,)                                  # two of them sign a drop box's count
APPROVER_LEVEL = {FLOOR_SUPERVISOR: 1, PIT_MANAGER: 2}       # a pit manager's request needs a pit manager

SYSTEM = "pitdesk"   # the actor of the rows the workstation writes by itself (link faults, its own alarms)


def a_or_an(role: str) -> str:
    return f"{'an' if role[0] in 'aeiou' else 'a'} {role}"


def roles_text(roles: tuple[str, ...]) -> str:
    """``a floor supervisor or a pit manager``."""
    return " or ".join(a_or_an(r) for r in roles)
