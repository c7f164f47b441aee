"""A table's rule profile as values: everything on which the rule texts differ is a setting.

The data lives in resources/rules/*.toml (one profile per text) and is validated by
app/rules/resources.py; the engine only reads these values and never asks which text a profile is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bank import ODD_CENT_HOUSE
from .limits import PROPORTIONAL
from .money import dollars
from .paytable import PayTable
from .tablelimits import TableLimits, TableLimitsError

FOUL_LOSES = "loses"              # 000(l)(6)(iii), 001 11.9(g)3, 002, 003 DEALER BANK 5
FOUL_RESET = "reset"              # 004(5): reset by the dealer according to the house rules
FOUL_RULES = (FOUL_LOSES, FOUL_RESET)

SURRENDER_FORBIDDEN = "forbidden"
SURRENDER_FORFEITS_ALL = "forfeits_all"    # 000(l)(4), 001 11.9(e): the wager is collected
SURRENDER_RETURNS_HALF = "returns_half"    # 004(9): half to the rack, half back to the player
SURRENDER_RULES = (SURRENDER_FORBIDDEN, SURRENDER_FORFEITS_ALL, SURRENDER_RETURNS_HALF)

COMMISSION_PERCENT = "percent"     # 000(l)(9), 001 11.9(j), 003, 004(12)
COMMISSION_FLAT_FEE = "flat_fee"   # 002 COLLECTION PROCEDURES: fees set before play, never a percentage
COMMISSION_MODES = (COMMISSION_PERCENT, COMMISSION_FLAT_FEE)

# 000(l)(9) pays a winning base wager "at odds of 2 to 1"; every other text pays 1 to 1: the text as
# written, or even money (docs/rule-settings.md, e.)
PAYOUT_AS_WRITTEN = "as written"
PAYOUT_EVEN = "1 to 1"
PAYOUT_READINGS = (PAYOUT_AS_WRITTEN, PAYOUT_EVEN)

BANKING_MODES = ("house", "player", "co-bank", "player-dealer")
SIDE_BETS = ("fortune", "insurance", "three_card", "seven_card", "ace_high", "progressive", "additional")


@dataclass(frozen=True)
class Commission:
    mode: str = COMMISSION_PERCENT
    percent: int = 5                 # of the amount won; 004(12): "not more than ten percent"
    round_up_to_cents: int = 25      # 000(l)(9): "25 cents or the next highest multiple of 25 cents"
    minimum_cents: int = 25          # 003 DEALER BANK 16, COLLECTING 4
    prepaid_allowed: bool = False    # 003 COLLECTING 6
    flat_fees: tuple[tuple[int, int], ...] = ()  # 002: (largest wager in cents, fee in cents), at most five

    def on_win(self, win_cents: int) -> int:
        """Commission on a winning base wager's win (percent mode), in cents.

        5% rounded up to the next 25 cents equals 003's rule (the wager rounded up to the next
        $5 unit, then 5%: $26 -> $30 -> $1.50) for every amount: both are ceil(w / $5) x 25c.
        """
        if self.mode != COMMISSION_PERCENT or win_cents <= 0:
            return 0
        raw = win_cents * self.percent  # hundredths of a cent
        step = self.round_up_to_cents * 100
        cents = -(-raw // step) * self.round_up_to_cents
        return max(cents, self.minimum_cents)

    def flat_fee(self, wager_cents: int) -> int:
        """002: the posted collection fee for a wager of this size (set before play)."""
        for limit, fee in self.flat_fees:
            if wager_cents <= limit:
                return fee
        return self.flat_fees[-1][1] if self.flat_fees else 0


@dataclass(frozen=True)
class Limits:
    # per player per round, on the named wagers: 000(s)(3) $40,000 bonus; 001 11.16(d) $40,000
    # bonus + insurance; 001 11.18(d) $50,000 seven-card
    per_player: tuple[tuple[int, tuple[str, ...]], ...] = ()
    per_table_cents: int | None = None     # 003: $75,000 aggregate, envy paid first
    approval_threshold_cents: int | None = None  # 003 Clearing the Layout 1a: notify at $250
    # 000(s)(3), 001 11.16(d): "Notwithstanding ... the fixed bonus amount required in (s)(2)" (envy
    # counts) against "shall apply only to payouts of ... bonus wagers" (it does not)
    per_player_counts_envy: bool = True
    # 003: the rest of the table limit after envy, "proportional" (Maximum Aggregate Payoff
    # Calculation) or to the "high_money_winner" (Irregularities); app/engine/limits.py
    table_limit_remainder: str = PROPORTIONAL


@dataclass(frozen=True)
class Bank:
    """A player bank and co-bank where the texts leave a choice (app/engine/bank.py)."""

    covers_dealer_wager: bool = True    # 003 PLAYER BANK 7 vs 000(m)(4)(ii), 001 11.10(d)2
    co_bank_odd_cent: str = ODD_CENT_HOUSE  # 000(m)(13): the party whose half carries an odd cent
    cite_cover: str = "000(m)(4)(ii)"   # each profile cites its own text's cover rule
    cite_co_bank_cover: str = "000(m)(5)"
    # no player banks the first round of a game: 000(m)(2), 001 11.10(b); 003 PLAYER BANK 1 offers
    # the bank only to a player who has wagered against the house bank
    cite_first_round: str = "000(m)(2)"


@dataclass(frozen=True)
class Envy:
    minimum_wager_cents: int = 500        # 000(r)(3), 001 11.15(c), 002, 003 #2
    counts_nonbetting_hands: bool = True  # 001 11.15(d)2 (all hands rearranged) vs 002 ("who placed a Fortune Bonus Bet")
    player_banker_hand_counts: bool = True  # 003 GENERAL RULES 10
    toke_max_payout_cents: int | None = None  # 003 GENERAL RULES 6: toke bets pay at most $500, no envy


POSITION_METHODS = ("dice", "rng", "button", "two-dice", "action")
DEAL_METHODS = ("manual-shoe", "hand", "automated-shoe", "three-four")
BANK_ROTATIONS = ("each-round", "once-per-rotation")


@dataclass(frozen=True)
class Procedures:
    starting_position: tuple[str, ...] = ("dice", "rng", "button")  # 000(k)(1)
    deal: tuple[str, ...] = ("manual-shoe", "hand", "automated-shoe")  # 000(h), (i), (j)
    delivery: str = "clockwise"                 # 000(h)(3), (i)(6), (j)(4); 003 DEALER BANK 2: counterclockwise
    deck_hours_shoe: int = 8                    # 000(e)(5)
    deck_hours_hand: int = 4                    # 000(e)(5)
    deck_hours_shuffler: int | None = None      # 003 NEW CARDS IN PLAY 1: every four hours
    dice_hours: int = 24                        # 000(d)(1)(ii)
    dealer_exposed_card: str = "void"           # 000(n)(5): all hands void; 003 EXPOSED CARDS 2: "must be played"
    # 000(m)(3), 001 11.10(c): the first offer moves one seat each round and no player banks two
    # rounds running; 003 PLAYER BANK 1-2: each player banks once per rotation, then the house
    bank_rotation: str = "each-round"
    bank_cover_ruling: bool = False             # 003 PLAYER BANK 3: the floor supervisor decides a doubtful cover
    # 003 GENERAL RULES 5: "Malfunction of the shuffle machine voids all hands", even while the
    # other deck is dealt; elsewhere only the jammed deck is reshuffled (000(n)(13), (b)(2)(iii))
    shuffler_malfunction_voids: bool = False


@dataclass(frozen=True)
class RuleProfile:
    name: str
    rule_text: str
    title: str
    wheel: str
    house_way: str
    royal_match: str
    paytables: dict[str, PayTable]
    # a winning base wager's odds, N to M, as played: the text's (``payout_odds_as_written``) or, where
    # the text's are doubtful, the profile's reading (docs/rule-settings.md, e.): 000(l)(9) "2 to 1"
    payout_odds: tuple[int, int] = (1, 1)
    payout_odds_as_written: tuple[int, int] = (1, 1)
    payout_reading: str = ""                     # PAYOUT_READINGS, or "" where the text allows one reading
    cite_payout: str = ""                        # the paragraph that sets the odds: 000(l)(9), 001 11.9(j), ...
    foul: str = FOUL_LOSES
    surrender: str = SURRENDER_FORBIDDEN
    commission: Commission = field(default_factory=Commission)
    banking_modes: tuple[str, ...] = ("house",)
    side_bets: tuple[str, ...] = ()
    envy: Envy = field(default_factory=Envy)
    limits: Limits = field(default_factory=Limits)
    additional_odds: tuple[int, int] | None = None  # 000(p)(2)(vi): 5.5 to 1 .. 6 to 1, as (N, M)
    lucky_money_percent: int = 0                 # 003 PLAYER BANK 7: the dealer bets up to 10% more
    bettors_per_circle: int = 1                  # 003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 1: four
    adjacent_areas: int = 1                      # 000(o)(1), 001 11.12: two adjacent areas
    dealer_ace_high_pushes: bool = False         # 002 OBJECT OF THE GAME
    procedures: Procedures = field(default_factory=Procedures)
    ties: str = "banker"                         # 000(l)(6)(ii): copies go to the banker; 004(7): a tie pushes
    base_citations: dict[str, str] = field(default_factory=dict)  # win / lose / push -> paragraph
    progressive_reset_cents: int = 1_000_000     # 000(q)(6): the casino's reset amount, at least $10,000
    fortune_before_base: bool = False            # 003 RULES OF PLAY 9: Fortune Bonus, then the hand
    bank: Bank = field(default_factory=Bank)
    # each wager type's minimum and maximum (app/engine/tablelimits.py); None: nothing limited
    table_limits: TableLimits | None = None
    extends: str = ""                            # the profile whose readings this one changes (its file's ``extends``)
    # the law a house's own procedures run under (003: a casino's procedures, "000"): cited after its own
    regulation: str = ""
    # matter -> what a table of this profile cites for it (app/engine/citations.py MATTERS), from its own
    # text (and its regulation) only
    citations: dict[str, str] = field(default_factory=dict)

    def cite(self, matter: str) -> str:
        """The profile's citation for ``matter`` (app/engine/citations.py): its own text's paragraph,
        its regulation's after it, or the words saying its text has none."""
        try:
            return self.citations[matter]
        except KeyError:
            raise KeyError(f"profile {self.name!r} has no citation for {matter!r} (app/engine/citations.py MATTERS)") \
                from None

    def limits_for_table(self, overrides=None) -> TableLimits:
        """The profile's table limits with a table's configuration merged over them.

        A table may not raise a bonus minimum so far that a per-player payout limit falls below
        what one player could win betting the minimum (000(s)(3), 001 11.16(d), 11.18(d)).
        """
        limits = self.table_limits or TableLimits(self.name)
        if overrides:
            limits = limits.with_overrides(overrides)
            for cap, wagers in self.limits.per_player:
                least = self.least_per_player_limit(wagers, limits)
                if cap < least:
                    raise TableLimitsError(
                        f"the minimums would let one player win {dollars(least)} a round betting the minimum, over "
                        f"the profile's per-player payout limit of {dollars(cap)} on {', '.join(wagers)} "
                        "(000(s)(3), 001 11.16(d), 11.18(d))")
        return limits

    def least_per_player_limit(self, wagers, limits: TableLimits | None = None) -> int:
        """The least per-player payout limit allowed on ``wagers`` at these table minimums."""
        return least_per_player_cents(wagers, self.paytables, limits or self.table_limits or TableLimits(self.name))


def least_per_player_cents(wagers, paytables: dict[str, PayTable], limits: TableLimits) -> int:
    """000(s)(3), 001 11.16(d): at least $40,000; 001 11.18(d): seven-card at least $50,000; or the
    most one player could win betting the table minimum (the best line), whichever is greater."""
    floor = 5_000_000 if "seven_card" in wagers else 4_000_000
    tops = []
    for w in wagers:
        table, lim = paytables.get(w), limits.of(w)
        if table is not None and lim is not None:
            tops.append(max((p.odds or 0) for p in table.pays.values()) * lim.min)
    return max([floor, *tops])
