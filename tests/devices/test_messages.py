"""Device messages (issue 6): every message round-trips; a malformed payload is named."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.devices.frame import Frame, decode, encode
from app.devices.messages import SPECS, MessageError, decode_message, encode_message
from app.engine.cards import card_str

SAMPLE = {"I": 3600, "B": 5, "H": 513, "Q": 1_000_000, "?": True, "str": "red",
          "cards": ["As", "Kd", "7h", "7c", "2s", "Jk", "Td"]}


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_message_round_trips_through_a_frame(spec):
    values = {name: (4 if spec.name == "rng_number" else SAMPLE[code]) for name, code in spec.fields}
    frame = encode_message(spec.name, 9, **values)
    (back,) = decode(encode(frame)).frames
    assert decode_message(back) == {"type": spec.name, "device": spec.device, "seq": 9, **values}


def test_faults_are_named():
    with pytest.raises(MessageError, match="unknown message type 0x99"):
        decode_message(Frame(1, 0x99, b""))
    with pytest.raises(MessageError, match="card_count: field count runs past the payload"):
        decode_message(Frame(1, 0x22, b"\x03red"))
    with pytest.raises(MessageError, match="1 bytes after the last field"):
        decode_message(Frame(1, 0x31, b"\x05\x00"))
    with pytest.raises(MessageError, match="the display shows 1 to 7, got 8"):
        decode_message(encode_message("rng_number", 1, number=8))
    with pytest.raises(MessageError, match="missing field 'count'"):
        encode_message("card_count", 1, deck="red")
    with pytest.raises(MessageError, match="does not fit"):
        encode_message("cards_remaining", 1, count=300)


@given(st.integers(0, 255), st.binary(max_size=60))
@settings(max_examples=400, deadline=None)
def test_any_payload_decodes_or_is_refused_by_name(code, payload):
    try:
        msg = decode_message(Frame(0, code, payload))
    except MessageError as e:
        assert str(e)
    else:
        assert msg["type"] in {s.name for s in SPECS}


# -- hand_read: a card-recognising shuffler's hand (000(b)(1); 000(j)(1), (4)) ------------------
HAND_HEAD = b"\x03red\x03"   # deck "red", position 3


def test_hand_read_cards_are_the_engine_card_indexes_in_its_text_form():
    # 000(b)(1): one deck of 52 cards and a joker; a byte is app/engine/cards.py's index
    # (suit * 13 + rank - 2, suits s h d c) and 52 is the joker
    frame = encode_message("hand_read", 4, deck="red", position=3, cards=["As", "kd", "7h", "7c", "2s", "jk", "10d"])
    assert frame.type == 0x25 and frame.payload == HAND_HEAD + bytes([7, 12, 37, 18, 44, 0, 52, 34])
    (back,) = decode(encode(frame)).frames
    assert decode_message(back) == {"type": "hand_read", "device": "shuffler", "seq": 4, "deck": "red",
                                    "position": 3, "cards": ["As", "Kd", "7h", "7c", "2s", "Jk", "Td"]}
    # the indexes themselves, and every one of the 53 cards once
    every = decode_message(Frame(1, 0x25, b"\x04blue\x00\x03\x00\x33\x34"))
    assert every["cards"] == ["2s", "Ac", "Jk"] and every["position"] == 0
    for first in range(0, 53, 7):
        cards = list(range(first, min(first + 7, 53)))
        got = decode_message(encode_message("hand_read", 1, deck="red", position=1, cards=cards))["cards"]
        assert got == [card_str(c) for c in cards]


def test_hand_read_passes_a_misread_on_for_the_workstation_to_judge():
    # fewer than seven cards, or a card twice, are what a misreading shuffler sends: the codec
    # carries them and the mapping names the misread (000(j)(1), 000(b)(1); tests/devices/test_device_mapping.py)
    for cards in ([], ["As"] * 2 + ["Kd"], ["2s", "3s", "4s", "5s", "6s", "7s"]):
        assert decode_message(encode_message("hand_read", 2, deck="red", position=0, cards=cards))["cards"] == cards


@pytest.mark.parametrize("payload, fault", [
    (HAND_HEAD + bytes([8]) + bytes(range(8)), r"hand_read: field cards counts 8 cards; a hand is at most 7 \(000\(j\)\(1\)\)"),
    (HAND_HEAD + bytes([255]), "counts 255 cards; a hand is at most 7"),
    (HAND_HEAD + bytes([2, 5, 53]), r"card 2 of 2 in field cards is index 53, not a card \(0-51 the suited cards, 52 "
                                    r"the joker; 000\(b\)\(1\)\)"),
    (HAND_HEAD + bytes([1, 255]), "card 1 of 1 in field cards is index 255, not a card"),
    (HAND_HEAD + bytes([3, 1, 2]), r"field cards runs past the payload \(3 cards counted, 2 bytes left\)"),
    (HAND_HEAD, "hand_read: field cards runs past the payload"),
    (b"\x03red", "hand_read: field position runs past the payload"),
    (HAND_HEAD + bytes([1, 5, 0]), "hand_read: 1 bytes after the last field"),
])
def test_a_bad_hand_read_is_refused_naming_the_fault(payload, fault):
    with pytest.raises(MessageError, match=fault):
        decode_message(Frame(1, 0x25, payload))


def test_hand_read_encoder_refuses_what_is_not_a_hand():
    with pytest.raises(MessageError, match=r"8 cards; a hand is at most 7 \(000\(j\)\(1\)\)"):
        encode_message("hand_read", 1, deck="red", position=1, cards=list(range(8)))
    with pytest.raises(MessageError, match="card index 53 is not a card"):
        encode_message("hand_read", 1, deck="red", position=1, cards=[53])
    with pytest.raises(MessageError, match="hand_read: unknown card 'Zz'"):
        encode_message("hand_read", 1, deck="red", position=1, cards=["Zz"])
    with pytest.raises(MessageError, match="field cards is a list of cards"):
        encode_message("hand_read", 1, deck="red", position=1, cards="As Kd")


@st.composite
def bad_hand_payload(draw):
    """A hand_read payload that breaks the layout: a count over 7, an index over 52, or cut short."""
    deck = draw(st.text(max_size=8)).encode()[:60]
    head = bytes([len(deck)]) + deck + bytes([draw(st.integers(0, 255))])
    kind = draw(st.sampled_from(["count", "index", "truncated"]))
    if kind == "count":
        n = draw(st.integers(8, 255))
        return head + bytes([n]) + draw(st.binary(max_size=min(n + 2, 200)))   # a frame carries 250 bytes
    if kind == "index":
        cards = draw(st.lists(st.integers(0, 52), min_size=1, max_size=7))
        cards[draw(st.integers(0, len(cards) - 1))] = draw(st.integers(53, 255))
        return head + bytes([len(cards)]) + bytes(cards)
    whole = head + bytes([n := draw(st.integers(0, 7))]) + bytes(draw(st.lists(st.integers(0, 52), min_size=n,
                                                                                 max_size=n)))
    return whole[:draw(st.integers(0, len(whole) - 1))]


@given(bad_hand_payload())
@settings(max_examples=500, deadline=None)
def test_the_decoder_never_accepts_a_bad_hand_read(payload):
    # 000(b)(1), (j)(1): a card index 0-52, at most seven of them, the whole hand in the frame;
    # the frame's CRC and length are sound here (decode(encode(...))), so only the message can refuse
    (frame,) = decode(encode(Frame(0, 0x25, payload))).frames
    with pytest.raises(MessageError, match="hand_read: "):
        decode_message(frame)
