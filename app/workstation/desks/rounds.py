"""The rounds desk: a round entered (typed, loaded from a round file or read by the shuffler),
settled, its approvals waited for, its payouts released with their payout slips, a round a
denial sent back entered again, and the slip book (docs/workstation.md, "Rounds").

Who: a dealer enters and settles the round at the table (as they record its events); a floor
supervisor or pit manager approves what it needs (the decisions desk) and makes a cover ruling
(003 PLAYER BANK 3); the payouts are released by whoever is at the table, except payouts that
need a payout slip, which a floor supervisor or pit manager releases and signs; only they void a
slip or issue one again. An administrator runs the system, not the game: none of these.

The round being entered at each table is a ``RoundDraft`` (app/workstation/round_draft.py),
kept here; a settled round is read back from the log exactly as logged (app/workstation/roundlog.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from app.engine import words
from app.engine.cards import CardError, cards_str, parse_cards
from app.engine.round import RoundError, parse_round
from app.engine.roles import AT_THE_TABLE, SUPERVISORS, a_or_an, roles_text
from app.engine.settle import settle
from app.rules.resources import profile
from app.store import meters, rows, settled_rounds, slips as slip_store, table_log
from app.store.log import Logged, Record, StoreStopped
from app.store.slips import SlipError

from .. import detail, roundlog
from ..changes import Changes, changes
from ..errors import FieldsRefused, LogStopped, NotPermitted, Refused
from ..readouts import FieldCheck, HandSet, RoundDraftInfo, RoundOutcome, RoundResult, RoundSummary, SlipInfo
from ..round_draft import Deal, DraftError, RoundDraft
from ..tiles import round_at_hand
from ..wagers import bank_refusal, check_wager


class Rounds:
    def __init__(self, ws):
        self.ws = ws
        self._drafts: dict[str, RoundDraft] = {}   # the round being entered at each table
        self._dealing: dict[str, Deal] = {}        # the deal whose hands the shuffler is reading
        self._waiting: dict[str, Deal] = {}        # a complete deal waiting for the round being entered
        self._notes: list[Record] = []             # rows for the next pump (a deal that waits)
        self._noted: set[tuple[str, int]] = set()  # (table, round being entered) whose waiting deal was logged
        self._restoring = False
        ws.journal.fold_into(self.fold_hands)
        self._restore_hands()

    def start(self, table: str) -> Changes:
        """Begin entering the table's round (the procedures' round in progress, else the next one).
        A round already being entered is kept (``Refused`` if it is for an earlier round: settle
        or discard it first)."""
        with self.ws.lock:
            self.ws.require(AT_THE_TABLE, "enter a round")
            self.ws.check_table(table)
            d = self._drafts.get(table)
            fresh = self._new_draft(table)
            if d is not None and (d.touched or d.hands or d.returned):
                if d.round == fresh.round:
                    return changes(rounds=[table])
                raise Refused(f"table {table}: round {d.round} is still being entered; settle it, or discard it "
                              f"(discard), before round {fresh.round}")
            self._drafts[table] = fresh
            return changes(rounds=[table])

    def discard(self, table: str) -> Changes:
        """Throw away the round being entered (nothing of it was logged but the cards the shuffler
        read and their corrections, which stay in the log)."""
        with self.ws.lock:
            self.ws.require(AT_THE_TABLE, "discard a round")
            self.ws.check_table(table)
            if self._drafts.pop(table, None) is None:
                raise Refused(f"table {table}: no round is being entered")
            self._deliver_waiting(table)
            return changes(rounds=[table])

    def load(self, table: str, round_file: dict) -> Changes:
        """A round file (docs/round-format.md) as the table's round: refused, naming the field, if
        ``parse_round`` refuses it, its profile is not the table's, or a bank the procedures would
        not allow; a round already being entered must be settled or discarded first."""
        with self.ws.lock:
            s, _ = self.ws.require(AT_THE_TABLE, "enter a round")
            self.ws.check_table(table)
            state, rules = self.ws.state_of(table)
            if not isinstance(round_file, dict) or round_file.get("profile") != rules.name:
                got = round_file.get("profile") if isinstance(round_file, dict) else None
                raise Refused(f"table {table} plays profile {rules.name!r}; the round file is for {got!r}")
            d = self._drafts.get(table)
            if d is not None and (d.touched or d.hands or d.returned):
                raise Refused(f"table {table}: round {d.round} is being entered; settle it or discard it first")
            try:
                rnd = parse_round(round_file, rules, self.ws.limits[table])
            except RoundError as e:
                raise Refused(f"table {table}: {e}") from None
            self._check_bank(table, rnd.banking.mode, rnd.banking.seat)
            if rnd.banking.cover_ruling and s.role not in SUPERVISORS:
                raise NotPermitted(f"{s.name} is {a_or_an(s.role)}; the cover ruling is the floor supervisor's "
                                   "(003 PLAYER BANK 3)")
            fresh = self._new_draft(table)
            fresh.load(round_file, rnd)
            self._drafts[table] = fresh
            return changes(rounds=[table])

    def draft(self, table: str) -> RoundDraftInfo | None:
        """The round being entered at the table, as the round panel shows it; None: none."""
        self.ws.check_table(table)
        with self.ws.reading():
            d = self._drafts.get(table)
            if d is None:
                return None
            offers, note = self._offers(table)
            info = d.info(offers, note, self.meter_at_start(table, d.round))
            deal = self._waiting.get(table)
            if deal is None:
                return info
            return replace(info, waiting=(
                f"the shuffler {deal.serial} dealt the hands of deck {deal.deck} for round {deal.round}: they wait "
                f"until round {d.round} is settled or discarded, and are not put over it "
                f"({d.rules.cite('deal_waits')})"))

    def check_wager(self, table: str, seat: int, wager: str, text: str) -> FieldCheck:
        """A wager as it is typed, checked against the table's limits (nothing changes): its cents,
        or the reason to show beside the field."""
        self.ws.check_table(table)
        rules = self.ws.pit.rules[table]
        return check_wager(rules, self.ws.limits[table], seat, wager, text)

    def set_wagers(self, table: str, seat: int, wagers: Mapping[str, str]) -> Changes:
        """A seat's wagers as typed ({"base": "25", "fortune": "5", "additional 3": "5"}); empty or 0
        clears one. ``FieldsRefused`` (a reason per field) and nothing taken if any is wrong: not
        dollars and cents, not offered by the profile, outside the table's limits (002 DESCRIPTION
        OF TABLE USED, 004(3), 003 PLAYER BANK 9), a progressive wager other than $1 or $5 (000(q)(1))."""
        return self._edit(table, "enter wagers", lambda d: d.set_wagers(seat, wagers))

    def set_player(self, table: str, seat: int, player: str | None) -> Changes:
        """Who plays the seat (one player on two adjacent seats adds up their limits, 000(o)(1))."""
        return self._edit(table, "enter a round", lambda d: d.set_player(seat, player))

    def set_bettors(self, table: str, seat: int, bettors: Sequence[tuple[str, str]]) -> Changes:
        """003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND: others' base wagers on the circle, (name,
        amount typed), within the limits per circle."""
        return self._edit(table, "enter wagers", lambda d: d.set_bettors(seat, bettors))

    def set_prepaid_commission(self, table: str, seat: int, text: str) -> Changes:
        """003 COLLECTING 6: commission paid with the wager."""
        return self._edit(table, "enter wagers", lambda d: d.set_prepaid_commission(seat, text))

    def set_surrender(self, table: str, seat: int, surrender: bool = True) -> Changes:
        """The player surrenders (where the profile allows it: 000(l)(4), 004(9))."""
        return self._edit(table, "enter a round", lambda d: d.set_surrender(seat, surrender))

    def waiting(self, tables: Iterable[str] | None = None) -> dict[str, str]:
        """Table -> whose cards a person must check before its round can be settled (the tiles);
        of ``tables`` only if given."""
        with self.ws.reading():
            drafts = self._drafts if tables is None else {t: self._drafts[t] for t in tables if t in self._drafts}
            return {t: w for t, d in drafts.items() if (w := d.waits())}

    def meter_at_start(self, table: str, rnd: int) -> int | None:
        """The progressive meter when round ``rnd`` started: the controller's before the round's
        first increment, else the meter last logged (no wager has moved it yet); 000(q)(5)."""
        heard = self.ws.pit.heard.get(table)
        if heard is not None and heard.round_meter is not None and heard.round_meter[0] == rnd:
            return heard.round_meter[1]
        return self.ws.journal.meters.get(table)

    def set_round_info(self, table: str, meter: str | None = None, rng_number: int | None = None) -> Changes:
        """The progressive meter when the round starts, typed (default: ``meter_at_start``) and
        the RNG's number for the additional wagers (000(p))."""
        return self._edit(table, "enter a round", lambda d: d.set_round_info(meter, rng_number))

    def set_banking(self, table: str, mode: str, seat: int | None = None, *, chips: str | None = None,
                    last_wager: str | None = None, dealer_wager: str | None = None, wager: str | None = None,
                    dealer_prepaid_commission: str | None = None, action_seat: int | None = None,
                    cover_ruling: bool = False) -> Changes:
        """Who banks the round: ``house``, ``player`` or ``co-bank`` with the seat, or 002's
        ``player-dealer`` with its seat, wager and the action button's seat, as the profile allows;
        amounts typed as dollars. A seat the procedures would not let bank is refused with their
        reason (000(m)(2)-(4), 001 11.10, 003 PLAYER BANK 1-2); ``cover_ruling`` (003 PLAYER BANK 3)
        takes a floor supervisor or pit manager, where the profile has it."""
        with self.ws.lock:
            s, _ = self.ws.require(AT_THE_TABLE, "enter a round")
            self.ws.check_table(table)
            rules = self.ws.pit.rules[table]
            if cover_ruling:
                if not rules.procedures.bank_cover_ruling:
                    raise Refused(f"table {table}: profile {rules.name!r} has no supervisor's ruling on the bank's "
                                  f"cover; its chips must cover the wagers ({rules.bank.cite_cover})")
                if s.role not in SUPERVISORS:
                    raise NotPermitted(f"{s.name} is {a_or_an(s.role)}; the cover ruling takes a floor supervisor or "
                                       "a pit manager (003 PLAYER BANK 3)")
            self._check_bank(table, mode, seat)
            amounts = {"chips": chips, "last_wager": last_wager, "dealer_wager": dealer_wager, "wager": wager,
                       "dealer_prepaid_commission": dealer_prepaid_commission}
            d = self._draft_for(table)
            try:
                d.set_banking(mode, seat, amounts, action_seat, cover_ruling)
            except DraftError as e:
                raise FieldsRefused(f"table {table}: {e}", e.fields) from None
            return changes(rounds=[table])

    def set_cards(self, table: str, position: int, text: str) -> Changes:
        """A position's cards typed ("as kd 7h 7c 2s jk 10d"; position 0 the dealer); a card already
        at another position is refused at once naming both (000(b)(1)). Cards the shuffler read are
        corrected with ``correct_cards`` instead, which logs who and why."""
        return self._edit(table, "enter cards", lambda d: d.set_cards(position, text))

    def set_hands(self, table: str, position: int, high: str, low: str) -> Changes:
        """The set: five cards high and two low, the seven dealt. A foul is taken and shown with
        the profile's consequence (``round_draft``); the dealer's and a co-bank's hand play the
        house way whatever is entered (000(l)(3), (m)(5); a different set is reset, 000(n)(9))."""
        return self._edit(table, "enter the hands", lambda d: d.set_hands(position, high, low))

    def house_way(self, table: str, position: int) -> HandSet:
        """How the house way sets the position's seven cards and the rule that chose it: what the
        dealer recommends to a player who asks (003 GENERAL PROCEDURES 8, DEALER BANK 10; 002:
        the House Way chart on request). Nothing changes."""
        self.ws.check_table(table)
        with self.ws.reading():
            d = self._drafts.get(table)
            if d is None:
                raise Refused(f"table {table}: no round is being entered")
            try:
                return d.house_way(position)
            except DraftError as e:
                raise Refused(f"table {table}: {e}") from None

    def use_house_way(self, table: str, position: int) -> Changes:
        """Set the position's hand by the house way, for a player who asked for it."""
        def do(d: RoundDraft) -> None:
            hw = d.house_way(position)
            d.set_hands(position, " ".join(hw.high), " ".join(hw.low))
        return self._edit(table, "enter the hands", do)

    def correct_cards(self, table: str, position: int, cards: str, reason: str,
                      signer: tuple[str, str] | None = None) -> Changes:
        """A person corrects the hand the shuffler read at a position: the seven cards as they are,
        and why. Logged as ``hand_corrected`` {position, was, cards, reason, deck, serial, round},
        who and when. Refused: nothing read there, not seven cards, a card at another position
        (naming it), no reason. ``signer``: a counter-signature (``Decisions.decide``)."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "correct a card the shuffler read")
            second = self.ws.people.countersigner(s, signer, AT_THE_TABLE, "correct a card the shuffler read")
            self.ws.check_table(table)
            d = self._drafts.get(table)
            if d is None:
                raise Refused(f"table {table}: no round is being entered")
            reason = (reason or "").strip()
            try:
                new = d.check_correction(position, cards)
            except DraftError as e:
                raise Refused(f"table {table}: {e}") from None
            if not reason:
                raise Refused("a correction of a card the shuffler read records why")
            held = d.hands[position]
            changed = self.ws.write(rows.countersigned(
                [rows.hand_corrected(now, s.name, s.role, table, position, cards_str(held.cards) + list(held.unreadable),
                                     cards_str(new), reason, held.deck, held.serial, d.round)], second))
            return changed | changes(tables=[table], rounds=[table])

    def choose_reading(self, table: str, position: int, use: str, reason: str,
                       signer: tuple[str, str] | None = None) -> Changes:
        """Where the shuffler's reading disagrees with the cards a person typed, the person chooses
        one (``use``: ``reading`` or ``typed``) and says why; logged as ``reading_chosen`` with both
        sets of cards. Refused: no such disagreement there, no reason. ``signer``: a counter-signature."""
        with self.ws.lock:
            what = "choose between the typed cards and the shuffler's reading"
            s, now = self.ws.require(AT_THE_TABLE, what)
            second = self.ws.people.countersigner(s, signer, AT_THE_TABLE, what)
            self.ws.check_table(table)
            d = self._drafts.get(table)
            if d is None:
                raise Refused(f"table {table}: no round is being entered")
            try:
                held = d.check_choice(position)
            except DraftError as e:
                raise Refused(f"table {table}: {e}") from None
            typed, read = cards_str(held.cards), list(held.reading)
            kept, aside = (read, typed) if use == "reading" else (typed, read)
            try:
                row = rows.reading_chosen(now, s.name, s.role, table, position, use, kept, aside, reason or "",
                                          held.deal, held.reading_serial, d.round)
            except rows.RowError as e:
                raise Refused(str(e)) from None
            return self.ws.write(rows.countersigned([row], second)) | changes(tables=[table], rounds=[table])

    def settle(self, table: str) -> RoundOutcome:
        """Settle the round being entered: its round file (docs/round-format.md) through exactly
        ``parse_round`` and ``settle`` (what ``pitdesk settle`` prints for the same file), logged
        through ``Floor.settle`` in one append (the settlement with the round file, an approval
        request per approval it needs, the meter). Refused, with nothing written: a misread or a
        missing hand (``round_draft().problems``), a bank the procedures no longer allow, and
        whatever the engine refuses, naming the field. A round that needs approvals is pending
        until every request is approved (``decide``); then ``release`` pays it."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "settle a round")
            self.ws.check_table(table)
            d = self._drafts.get(table)
            if d is None or not (d.touched or d.hands):
                raise Refused(f"table {table}: no round is being entered")
            problems = d.problems()
            if problems:
                raise Refused(f"table {table}: round {d.round} cannot be settled yet: " + "; ".join(problems))
            if not d.in_round():
                raise Refused(f"table {table}: round {d.round} has no seat in it yet: type a seat's wager (or set a "
                              "player's bank) to settle it")
            rules = self.ws.pit.rules[table]
            self._check_bank(table, d.banking["mode"], d.banking.get("seat"))
            obj = d.round_file(self.meter_at_start(table, d.round))
            prof = profile(rules.name)
            try:
                result = settle(parse_round(obj, rules, self.ws.limits[table]), rules, prof.ranker(), prof.house())
            except RoundError as e:
                raise Refused(f"table {table}: {e}") from None
            # one hit, one request: the controller's report of a hit this settlement pays is its request
            hits = {h["seat"]: h["request"] for h in meters.hits_of_round(self.ws.log, table, d.round)}
            merged = {i: hits.pop(a.seat) for i, a in enumerate(result.approvals)
                      if a.kind == "progressive_meter_payout" and a.seat in hits}
            try:
                seqs = self.ws.floor.settle(table, d.round, result, now, s.name, s.role, round_file=obj,
                                         replaces=d.replaces, merged=merged)
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            del self._drafts[table]
            changed = self.ws.journal.changes() | changes(tables=[table], rounds=[table])
            self._deliver_waiting(table)
            return RoundOutcome(changed, self._round(seqs[0]))

    def release(self, settlement: int, payees: Mapping[int, dict] | None = None,
                signer: tuple[str, str] | None = None) -> RoundOutcome:
        """Pay a settled round once every approval it needs is approved: one ``round_released``
        row, and a ``payout`` row per payout, each that needs one after its payout slip, numbered
        next in sequence (app/store/slips.py), in one append. ``payees`` gives, by seat, the W-2G
        data (name, address, tin, id_type, id_number) of a win of $600 and 300 times the wager.
        Refused: a request pending (naming it and the role it needs), a request denied (the round
        went back), already released, W-2G data missing. Payouts with slips take a floor
        supervisor or pit manager: signed in, or counter-signing (``signer``, the name and PIN
        typed: their PIN checked as a sign-in's, every row of the release names them, the session
        untouched)."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "release a round's payouts")
            second = self.ws.people.countersigner(s, signer, AT_THE_TABLE, "release a round's payouts")
            res = self._round(settlement)
            table = res.table
            if res.status == roundlog.RELEASED:
                raise Refused(f"table {table} round {res.round} ({settlement}) was already {res.status_text}")
            if res.status in (roundlog.PENDING, roundlog.DENIED):
                raise Refused(f"table {table} round {res.round} ({settlement}): its payouts wait: {res.status_text}")
            slips = [p for p in res.payouts if p.slip_reason]
            if slips and s.role not in SUPERVISORS and (second is None or second[1] not in SUPERVISORS):
                who = f"{s.name} is {a_or_an(s.role)}" + (f" and {second[0]} is {a_or_an(second[1])}" if second else "")
                raise NotPermitted(f"{who}; payouts with a payout slip (seat "
                                   f"{', '.join(str(p.seat) for p in slips)}: {slips[0].slip_reason}) are released "
                                   f"by {roles_text(SUPERVISORS)}" + ("" if second else
                                                                      ", signed in or counter-signing with their PIN"))
            payees = payees or {}
            records = [rows.round_released(now, s.name, s.role, table, settlement, res.round, len(res.payouts))]
            for p in res.payouts:
                if p.slip_reason:
                    try:
                        records.append(rows.slip_issued(now, s.name, s.role, table, p.seat, p.wager, p.stake, p.cents,
                                                        payees.get(p.seat), {"settlement": settlement,
                                                                             "reason": p.slip_reason,
                                                                             "commission_cents": p.commission}))
                    except SlipError as e:
                        raise Refused(f"table {table} seat {p.seat} {words.kind(p.wager)}: {e}") from None
                records.append(rows.payout(now, s.name, s.role, table, settlement, res.round, p.seat, p.bettor, p.to,
                                           p.wager, p.line, p.cents, bool(p.slip_reason)))
            changed = self.ws.write(rows.countersigned(records, second)) | changes(tables=[table], rounds=[table])
            return RoundOutcome(changed, self._round(settlement))

    def reopen(self, settlement: int, signer: tuple[str, str] | None = None) -> Changes:
        """A round a denial sent back, entered again at its table (done by ``decide`` itself when
        nothing else is being entered there). ``signer``: another person's name and PIN, checked
        as a sign-in's; nothing is logged of the reopening itself (the settlement that follows is
        the signed-in person's), and the session is untouched."""
        with self.ws.lock:
            s, _ = self.ws.require(AT_THE_TABLE, "enter a round")
            self.ws.people.countersigner(s, signer, AT_THE_TABLE, "enter a round again")
            res = self._round(settlement)
            if res.status != roundlog.DENIED:
                raise Refused(f"round {settlement} at {res.table} is {res.status}; only a round a denial sent back "
                              "is entered again")
            again = settled_rounds.settled_again(self.ws.log, settlement)
            if again is not None:
                raise Refused(f"round {settlement} at {res.table} was settled again as {again}")
            d = self._drafts.get(res.table)
            if d is not None and (d.touched or d.hands or d.returned):
                raise Refused(f"table {res.table}: round {d.round} is being entered; settle it or discard it first")
            if not self._send_back(settlement, roundlog.denial(next(a for a in res.approvals if a.status == "denied"))):
                raise Refused(f"round {settlement} at {res.table} was not settled from a round file here")
            return changes(rounds=[res.table])

    def result(self, settlement: int) -> RoundResult:
        """One settled round read back from the log exactly as logged, and where it stands."""
        with self.ws.reading():
            return self._round(settlement)

    def settled(self, table: str, before: int | None = None, limit: int = detail.HISTORY_PAGE
               ) -> tuple[RoundSummary, ...]:
        """The table's settled rounds, newest first (``before``: a settlement seq, for the next page)."""
        self.ws.check_table(table)
        with self.ws.reading():
            return roundlog.history(self.ws.log, table, before, limit)

    def slip_book(self, table: str | None = None) -> tuple[SlipInfo, ...]:
        """The payout slips in number order (of one table if given); a void one says VOID."""
        with self.ws.reading():
            return roundlog.slip_book(self.ws.log, table)

    def void_slip(self, number: int, reason: str, signer: tuple[str, str] | None = None) -> Changes:
        """A floor supervisor or pit manager voids a slip, saying why; it stays in the book as VOID
        and its number is never used again (``reissue_slip`` gives the payout a new one).
        ``signer``: a counter-signature (``Decisions.decide``)."""
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "void a payout slip")
            second = self.ws.people.countersigner(s, signer, SUPERVISORS, "void a payout slip")
            try:
                self.ws.slips.void(number, reason, now, s.name, s.role, second)
            except SlipError as e:
                raise Refused(str(e)) from None
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            slip = slip_store.slip(self.ws.log, number)
            return self.ws.journal.changes() | changes(tables=[slip["table_id"]] if slip and slip["table_id"] else [])

    def reissue_slip(self, number: int, payee: dict | None = None, signer: tuple[str, str] | None = None) -> Changes:
        """A new slip, numbered next, for the payout of a void slip (with W-2G data again where the
        win needs it). Refused: the slip is not void, or was already issued again. ``signer``: a
        counter-signature (``Decisions.decide``)."""
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "issue a payout slip")
            second = self.ws.people.countersigner(s, signer, SUPERVISORS, "issue a payout slip")
            old = slip_store.slip(self.ws.log, number)
            if old is None:
                raise Refused(f"no slip {number}")
            if old["status"] != "VOID":
                raise Refused(f"slip {number} is {old['status']}; only a void slip is issued again")
            again = slip_store.issued_again_as(self.ws.log, number)
            if again is not None:
                raise Refused(f"void slip {number} was already issued again as slip {again}")
            data = old["data"]
            try:
                rec = rows.slip_issued(now, s.name, s.role, old["table_id"], old["seat"], old["wager"],
                                       old["wager_cents"], old["win_cents"], payee,
                                       {"replaces": number, **{k: data[k] for k in ("settlement", "commission_cents")
                                                               if data.get(k) is not None}})
            except SlipError as e:
                raise Refused(str(e)) from None
            return self.ws.write(rows.countersigned([rec], second)) | changes(tables=[old["table_id"]] if old["table_id"]
                                                                          else [])


    def denied(self, request: int, settlement: int) -> None:
        """A denial of ``request`` sends the round of ``settlement`` back to be entered again, with
        the reason, unless another round is being entered at its table (``reopen`` then brings it
        back)."""
        res = self._round(settlement)
        d = self._drafts.get(res.table)
        if d is None or not (d.touched or d.hands or d.returned):
            self._send_back(settlement, roundlog.denial(next(a for a in res.approvals if a.request == request)))

    # -- the round helpers ------------------------------------------------------------------
    def _new_draft(self, table: str) -> RoundDraft:
        state, rules = self.ws.state_of(table)
        prof = profile(rules.name)
        # the procedures' round in progress (or just complete), else the one about to begin: the
        # round the table's header shows (Tile.round_now)
        d = RoundDraft(table, rules, self.ws.limits[table], prof.house(), prof.ranker(), round_at_hand(state))
        if state.bank and state.bank_mode in rules.banking_modes and state.bank_mode != "house":
            d.banking = {"mode": state.bank_mode, "seat": state.bank[0]}   # bank_declared this round
        return d

    def _draft_for(self, table: str) -> RoundDraft:
        d = self._drafts.get(table)
        if d is None:
            d = self._drafts[table] = self._new_draft(table)
        return d

    def _edit(self, table: str, what: str, do: Callable[[RoundDraft], None]) -> Changes:
        with self.ws.lock:
            self.ws.require(AT_THE_TABLE, what)
            self.ws.check_table(table)
            d = self._draft_for(table)
            try:
                do(d)
            except DraftError as e:
                raise FieldsRefused(f"table {table}: {e}", e.fields) from None
            return changes(rounds=[table])

    def _check_bank(self, table: str, mode: str, seat: int | None) -> None:
        state, rules = self.ws.state_of(table)
        why = bank_refusal(state, rules, mode, seat)
        if why:
            raise Refused(f"table {table}: seat {seat} may not be the {mode} this round: {why}")

    def _offers(self, table: str) -> tuple[tuple, str]:
        state, rules = self.ws.state_of(table)
        if state.state == "closed":
            return (), ("the table is closed in the log: the procedures have no rotation to offer the bank; the "
                        f"round's own fields are checked when it is settled ({rules.cite('bank_rotation')})")
        info = detail.bank(state, rules)
        return info.offers, info.note

    def _round(self, settlement: int) -> RoundResult:
        try:
            row = roundlog.settlement_row(self.ws.log, settlement)
        except roundlog.NoSuchRound as e:
            raise Refused(str(e)) from None
        rules = self.ws.pit.rules.get(row["table_id"]) or profile(row["data"]["settlement"]["profile"]).rules
        return roundlog.result(self.ws.log, settlement, rules, self.ws.config.slip_cents)

    def _send_back(self, settlement: int, why: str) -> bool:
        """The round of ``settlement`` entered again at its table, saying why it came back."""
        row = roundlog.settlement_row(self.ws.log, settlement)
        table, obj = row["table_id"], row["data"].get("round_file")
        if table not in self.ws.tables() or obj is None:
            return False
        state, rules = self.ws.state_of(table)
        try:
            rnd = parse_round(obj, rules, self.ws.limits[table])
        except RoundError:
            return False
        d = self._new_draft(table)
        d.load(obj, rnd)
        d.round, d.returned, d.replaces = row["data"].get("round") or d.round, why, settlement
        self._drafts[table] = d
        return True

    def fold_hands(self, logged: list[Logged]) -> set[str]:
        """The shuffler's ``hand_read`` rows, gathered into its deal: a deal is shown in the round
        when all its hands are read, never half read, and never over a round a person is entering
        (``_deliver``). A person's ``hand_corrected`` and ``reading_chosen`` change the round
        being entered (app/workstation/round_draft.py). The tables whose round changed."""
        out = set()
        tables = self.ws.tables()
        for r in logged:
            table = r.table
            if table not in tables:
                continue
            data = r.data
            if r.type == "hand_read":
                if self._read(r):
                    out.add(table)
            elif r.type == "hand_corrected" and table in self._drafts:
                self._drafts[table].correct(data["position"], data["cards"], r.actor)
                out.add(table)
            elif r.type == "reading_chosen" and table in self._drafts:
                self._drafts[table].choose(data["position"], data["use"] == "reading", r.actor)
                out.add(table)
        return out

    def _read(self, r: Logged) -> bool:
        """One hand of a deal; whether the deal is now complete and shown or waiting."""
        table, data = r.table, r.data
        pos, cards = data.get("position"), data.get("cards")
        if not isinstance(pos, int) or not isinstance(cards, list):
            return False
        deck, serial = str(data.get("deck", "")), str(data.get("serial") or r.actor)
        # rows from before deals were named: a deal per deck and round
        round_no = data.get("round") if isinstance(data.get("round"), int) else self.ws.state_of(table)[0].round_at_hand()
        deal_id = str(data.get("deal") or f"{deck} round {round_no}")
        d = self._dealing.get(table)
        if d is None or d.id != deal_id:
            if d is not None and not d.complete and not self._restoring:
                # 000(j)(1): every hand of a deal is read; a deal half read is the shuffler's fault
                self._notes.append(rows.device_fault(
                    r.time, d.serial, table, "shuffler", "deal_unread",
                    f"the shuffler read {len(d.reads)} of the {d.hands} hands of deck {d.deck}'s deal for round "
                    f"{d.round} before its next deal; that deal is not shown: its cards are entered by hand "
                    f"({self.ws.state_of(table)[1].cite('hand_size')})", d.serial))
            d = self._dealing[table] = Deal(deal_id, round_no, int(data.get("hands") or 7), deck, serial)
        d.reads[pos] = cards
        if not d.complete:
            return False
        del self._dealing[table]
        self._deliver(table, d, r.time)
        return True

    def _deliver(self, table: str, deal: Deal, when) -> None:
        """A complete deal into the round it was dealt for: a new round being entered, or the round
        being entered for that round (what a person typed stays theirs). A deal for another round
        while one is being entered never replaces it: it waits for that round to be settled or
        discarded, and the dealing before the settlement is logged once (000(b)(2)(iii), (v): one
        deck in play at a time). A deal for a round already settled is the log's alone."""
        if deal.round < self.ws.state_of(table)[0].round_at_hand():
            return
        d = self._drafts.get(table)
        if d is None or d.free:
            d = self._drafts[table] = self._new_draft(table)
        if d.round == deal.round and not d.holds_deal():
            d.take_deal(deal)
            return
        self._waiting[table] = deal   # a later deal supersedes one already waiting: its cards are gone
        # logged once for the round being entered, however often the shuffler deals over it
        if not self._restoring and (table, d.round) not in self._noted:
            self._noted.add((table, d.round))
            self._notes.append(rows.alarm_raised(
                when or self.ws.clock(), table, "deal_before_settlement",
                f"the shuffler {deal.serial} dealt the hands of deck {deal.deck} for round {deal.round} while round "
                f"{d.round} is being entered: they wait until round {d.round} is settled or discarded, and are "
                "not put over it", d.rules.cite("deal_waits"), deal.serial, deal=deal.id, round=d.round))

    def _deliver_waiting(self, table: str) -> None:
        """The round being entered is settled or gone: a deal waiting for it comes in (one dealt
        for the round just settled is dropped by ``_deliver``)."""
        deal = self._waiting.pop(table, None)
        if deal is not None:
            self._deliver(table, deal, None)

    def hand_of(self, table: str, seat: int, round_no: int) -> tuple[int, ...] | None:
        """The seat's seven cards in the table's round ``round_no``, as entered or read (a reading
        waiting for a person's choice is not yet the hand); None: not known."""
        d = self._drafts.get(table)
        if d is not None and d.round == round_no:
            h = d.hands.get(seat)
            if h is not None and h.reading is None and not h.unreadable and len(set(h.cards)) == 7:
                return h.cards
        for deal in (self._waiting.get(table), self._dealing.get(table)):
            if deal is not None and deal.round == round_no and seat in deal.reads:
                try:
                    cards = tuple(parse_cards([str(c) for c in deal.reads[seat]]))
                except CardError:
                    return None
                return cards if len(set(cards)) == 7 else None
        return None

    def progressive_stake(self, table: str, seat: int, round_no: int) -> int | None:
        """The seat's progressive wager in the round being entered for ``round_no`` (cents), if one
        is entered there."""
        d = self._drafts.get(table)
        if d is None or d.round != round_no or seat not in d.seats:
            return None
        return d.seats[seat].wagers.get("progressive") or None

    def notes(self) -> list[Record]:
        """The rows the rounds want written with the next pump, taken."""
        out, self._notes = self._notes, []
        return out

    def _restore_hands(self) -> None:
        """After a restart: the cards read (and corrected) in the round each table is on."""
        self._restoring = True
        try:
            for table in self.ws.tables():
                self.fold_hands(table_log.cards_this_round(self.ws.log, table))
        finally:
            self._restoring = False
