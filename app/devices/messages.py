"""The messages carried in frames: a type byte and a fixed binary payload per message.

Each device class reports what 000(b), (j), (n), (q), 001 11.8B, 11.14, 11.17(i) and 003 say
the supervisor needs; docs/devices.md lists every message with its fields. Integers are
big-endian; money is whole cents (unsigned 64-bit); text is a length-prefixed UTF-8 string; a
hand of cards is a count byte and one byte per card, the engine's card index (app/engine/cards.py:
``suit * 13 + rank - 2`` in the suit order s h d c, 52 the joker), decoded to the engine's text
form ("As", "Td", "Jk").
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from app.engine.cards import DECK_SIZE, JOKER, CardError, card_str, parse_cards

from .frame import Frame


class MessageError(ValueError):
    pass


@dataclass(frozen=True)
class Spec:
    code: int
    name: str
    device: str        # link, shuffler, shoe, progressive, rng
    fields: tuple[tuple[str, str], ...]  # (name, struct code, "str" or "cards")
    rule: str = ""


SPECS = [
    # the link
    Spec(0x01, "heartbeat", "link", (("uptime_s", "I"),)),
    Spec(0x06, "ack", "link", (("acked", "B"),)),
    Spec(0x15, "nak", "link", (("nakked", "B"), ("reason", "B"))),
    Spec(0x07, "hello", "link", (("device", "str"), ("serial", "str"), ("firmware", "str"))),
    # hand-forming shuffler, two decks in alternation (000(b)(2), (n)(13); 001 11.17(i))
    Spec(0x20, "shuffle_started", "shuffler", (("deck", "str"),), "000(f)(1)"),
    Spec(0x21, "shuffle_completed", "shuffler", (("deck", "str"),), "000(f)(1)"),
    Spec(0x22, "card_count", "shuffler", (("deck", "str"), ("count", "B")), "001 11.17(i): 53 expected"),
    Spec(0x23, "hands_dispensed", "shuffler", (("deck", "str"), ("hands", "B"), ("cards_per_hand", "B")),
         "000(j); 001 11.17: 3 then 4"),
    Spec(0x24, "deck_colour", "shuffler", (("deck", "str"), ("colour", "str")), "000(b)(2)(i)"),
    # a card-recognising shuffler reads each hand it forms: one deck of 52 cards and a joker
    # (000(b)(1)), seven hands of seven to the dealer and each position (000(h)(3), (j)(1), (4))
    Spec(0x25, "hand_read", "shuffler", (("deck", "str"), ("position", "B"), ("cards", "cards")),
         "000(b)(1); 000(j)(1), (4)"),
    Spec(0x2D, "self_test", "shuffler", (("passed", "?"), ("code", "H")), ""),
    Spec(0x2E, "door_open", "shuffler", (("open", "?"),), ""),
    Spec(0x2F, "jam", "shuffler", (("code", "H"), ("text", "str")), "000(n)(13)"),
    # automated dealing shoe (000(j), (n)(14))
    Spec(0x30, "stack_dispensed", "shoe", (("position", "B"), ("cards", "B")), "000(j)"),
    Spec(0x31, "cards_remaining", "shoe", (("count", "B"),), "000(h)(4)"),
    Spec(0x32, "card_face_up", "shoe", (("count", "B"),), "000(n)(6)"),
    Spec(0x3F, "shoe_jam", "shoe", (("code", "H"), ("text", "str")), "000(n)(14)"),
    # progressive controller (000(q), 001 11.14)
    Spec(0x40, "meter", "progressive", (("cents", "Q"),), "000(q)(5)"),
    Spec(0x41, "increment", "progressive", (("seat", "B"), ("cents", "Q")), "000(q)(5)"),
    Spec(0x42, "lockout", "progressive", (("locked", "?"),), "000(q)(2): no more progressive wagers"),
    Spec(0x43, "acceptor_lights", "progressive", (("lit", "B"),), "001 11.7(d): a bit per seat"),
    Spec(0x44, "hit_pending", "progressive", (("seat", "B"), ("line", "str"), ("cents", "Q")), "000(q)(3)"),
    Spec(0x45, "reset", "progressive", (("cents", "Q"),), "000(q)(6)"),
    Spec(0x46, "key_switch", "progressive", (("position", "str"),), ""),
    # RNG position display (000(k)(3))
    Spec(0x50, "rng_number", "rng", (("number", "B"),), "000(k)(3): 1 to 7"),
]
BY_CODE = {s.code: s for s in SPECS}
BY_NAME = {s.name: s for s in SPECS}
assert len(BY_CODE) == len(SPECS) == len(BY_NAME)


HAND = 7   # 000(h)(3), (i)(2)(ii), (j)(1): a position receives seven cards, never more


def _card_index(spec: Spec, card) -> int:
    """A card as its wire byte: the engine's index (an int 0..52) or its text ("As", "10d", "Jk")."""
    if isinstance(card, int) and not isinstance(card, bool):
        if not 0 <= card <= JOKER:
            raise MessageError(f"{spec.name}: card index {card} is not a card (0-51 the suited cards, "
                               f"{JOKER} the joker)")
        return card
    if isinstance(card, str):
        try:
            return parse_cards([card])[0]
        except CardError as e:
            raise MessageError(f"{spec.name}: {e}") from None
    raise MessageError(f"{spec.name}: {card!r} is not a card")


def _pack_cards(spec: Spec, name: str, cards) -> bytes:
    # duplicates and short hands are packed as given: a misreading shuffler sends them, and the
    # workstation decides what they mean (app/devices/mapping.py)
    if isinstance(cards, (str, bytes)) or not hasattr(cards, "__iter__"):
        raise MessageError(f"{spec.name}: field {name} is a list of cards, got {cards!r}")
    raw = bytes(_card_index(spec, c) for c in cards)
    if len(raw) > HAND:
        raise MessageError(f"{spec.name}: field {name} has {len(raw)} cards; a hand is at most {HAND} (000(j)(1))")
    return bytes((len(raw),)) + raw


def _unpack_cards(spec: Spec, name: str, p: bytes, i: int) -> tuple[list[str], int]:
    """The card texts of a count-prefixed hand at ``p[i]``, and the offset after it."""
    if i >= len(p):
        raise MessageError(f"{spec.name}: field {name} runs past the payload")
    n = p[i]
    if n > HAND:
        raise MessageError(f"{spec.name}: field {name} counts {n} cards; a hand is at most {HAND} (000(j)(1))")
    if i + 1 + n > len(p):
        raise MessageError(f"{spec.name}: field {name} runs past the payload ({n} cards counted, "
                           f"{len(p) - i - 1} bytes left)")
    for k, index in enumerate(p[i + 1:i + 1 + n], start=1):
        if index >= DECK_SIZE:
            # 000(b)(1): 52 cards and one joker, indexes 0 to 52
            raise MessageError(f"{spec.name}: card {k} of {n} in field {name} is index {index}, not a card "
                               f"(0-51 the suited cards, {JOKER} the joker; 000(b)(1))")
    return [card_str(c) for c in p[i + 1:i + 1 + n]], i + 1 + n


def _pack(spec: Spec, values: dict) -> bytes:
    out = b""
    for name, code in spec.fields:
        if name not in values:
            raise MessageError(f"{spec.name}: missing field {name!r}")
        v = values[name]
        try:
            if code == "str":
                raw = str(v).encode()
                if len(raw) > 60:
                    raise MessageError(f"{spec.name}: {name} is at most 60 bytes")
                out += bytes((len(raw),)) + raw
            elif code == "cards":
                out += _pack_cards(spec, name, v)
            else:
                out += struct.pack(">" + code, v)
        except struct.error as e:
            raise MessageError(f"{spec.name}: field {name}={v!r} does not fit ({e})") from None
    return out


def encode_message(name: str, seq: int, **values) -> Frame:
    spec = BY_NAME.get(name)
    if spec is None:
        raise MessageError(f"unknown message {name!r}")
    return Frame(seq, spec.code, _pack(spec, values))


def decode_message(frame: Frame) -> dict:
    """{"type": name, "device": class, "seq": n, fields...}, or MessageError naming the fault."""
    spec = BY_CODE.get(frame.type)
    if spec is None:
        raise MessageError(f"unknown message type 0x{frame.type:02x}")
    p, i = frame.payload, 0
    out: dict = {"type": spec.name, "device": spec.device, "seq": frame.seq}
    for name, code in spec.fields:
        if code == "str":
            if i >= len(p) or i + 1 + p[i] > len(p):
                raise MessageError(f"{spec.name}: field {name} runs past the payload")
            try:
                out[name] = p[i + 1:i + 1 + p[i]].decode()
            except UnicodeDecodeError:
                raise MessageError(f"{spec.name}: field {name} is not UTF-8") from None
            i += 1 + p[i]
        elif code == "cards":
            out[name], i = _unpack_cards(spec, name, p, i)
        else:
            size = struct.calcsize(">" + code)
            if i + size > len(p):
                raise MessageError(f"{spec.name}: field {name} runs past the payload")
            out[name] = struct.unpack_from(">" + code, p, i)[0]
            i += size
    if i != len(p):
        raise MessageError(f"{spec.name}: {len(p) - i} bytes after the last field")
    if spec.name == "rng_number" and not 1 <= out["number"] <= 7:
        raise MessageError(f"rng_number: the display shows 1 to 7, got {out['number']} (000(k)(3))")
    return out
