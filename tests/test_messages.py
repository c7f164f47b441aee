"""Device messages (issue 6): every message round-trips; a malformed payload is named."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.devices.frame import Frame, decode, encode
from app.devices.messages import SPECS, MessageError, decode_message, encode_message

SAMPLE = {"I": 3600, "B": 5, "H": 513, "Q": 1_000_000, "?": True, "str": "red"}


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
