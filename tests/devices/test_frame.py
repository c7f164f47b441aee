"""The link protocol's frame decoder (issue 6): pure, never raises, never accepts a bad frame."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.devices.frame import ETX, MAX_PAYLOAD, STX, Decoder, Frame, FrameError, crc16, decode, encode

frames = st.builds(Frame, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=40))


def test_crc16_ccitt_false_check_value():
    # the catalogue check value of CRC-16/CCITT-FALSE over "123456789"
    assert crc16(b"123456789") == 0x29B1


def test_a_frame_round_trips_and_has_the_documented_layout():
    raw = encode(Frame(7, 0x11, b"\x35"))
    assert raw[0] == STX and raw[1] == 1 and raw[2] == 7 and raw[3] == 0x11 and raw[4] == 0x35 and raw[-1] == ETX
    crc = crc16(bytes([1, 7, 0x11, 0x35]))
    assert raw[5:-1] == b"".join(bytes([0x10, b ^ 0x20]) if b in (2, 3, 0x10) else bytes([b])
                                 for b in crc.to_bytes(2, "big"))
    d = decode(raw)
    assert d.frames == [Frame(7, 0x11, b"\x35")] and d.consumed == len(raw) and d.rejected == 0


def test_start_end_and_escape_bytes_in_the_body_are_stuffed():
    raw = encode(Frame(2, 3, bytes([0x02, 0x10, 0x03])))
    assert raw.count(STX) == 1 and raw.count(ETX) == 1 and raw[0] == STX and raw[-1] == ETX
    assert decode(raw).frames == [Frame(2, 3, bytes([0x02, 0x10, 0x03]))]


def test_encode_refuses_what_cannot_be_framed():
    for bad in (Frame(256, 1), Frame(1, 1, b"x" * (MAX_PAYLOAD + 1))):
        try:
            encode(bad)
        except FrameError as e:
            assert "byte" in str(e) or "at most" in str(e)
        else:
            raise AssertionError("encode accepted a frame it cannot carry")


def test_a_bad_crc_is_refused_and_the_next_frame_is_found():
    good = encode(Frame(1, 2, b"ok"))
    bad = bytearray(encode(Frame(2, 2, b"no")))
    bad[4] ^= 0x40  # a payload byte changed in transit
    d = decode(bytes(bad) + good)
    assert d.frames == [Frame(1, 2, b"ok")] and d.rejected >= 1 and d.consumed == len(bad) + len(good)


def test_an_incomplete_frame_waits_for_more_bytes():
    raw = encode(Frame(3, 4, b"hello"))
    dec = Decoder()
    assert dec.feed(raw[:6]) == [] and dec.buf == raw[:6]
    assert dec.feed(raw[6:]) == [Frame(3, 4, b"hello")] and dec.buf == b""


@given(st.lists(frames, max_size=8), st.binary(max_size=200), st.integers(0, 2**32))
@settings(max_examples=300, deadline=None)
def test_fuzz_garbage_between_frames(sent, noise, seed):
    # frames interleaved with garbage: every frame comes out, in order, nothing else, never raises
    rng = random.Random(seed)
    stream = b""
    for f in sent:
        cut = rng.randint(0, len(noise))
        stream += noise[:cut] + encode(f)
        noise = noise[cut:]
    stream += noise
    dec = Decoder(max_buffer=10**6)
    out = []
    pos = 0
    while pos < len(stream):  # fed in random chunk sizes, as a serial port delivers them
        step = rng.randint(1, 64)
        out += dec.feed(stream[pos:pos + step])
        pos += step
    # random garbage forms a valid frame only by a 1-in-65,536 CRC accident on top of a
    # consistent length, so the frames out are exactly the frames sent
    assert out == sent


@given(st.binary(max_size=400))
@settings(max_examples=500, deadline=None)
def test_fuzz_never_raises_and_every_frame_accepted_is_valid(data):
    d = decode(data)
    assert 0 <= d.consumed <= len(data)
    for f in d.frames:
        raw = encode(f)
        assert raw in data  # an accepted frame is byte for byte a valid frame of the input


@given(frames, st.integers(0, 200), st.integers(0, 7))
@settings(max_examples=500, deadline=None)
def test_fuzz_one_flipped_bit_is_never_accepted(frame, where, bit):
    raw = bytearray(encode(frame))
    where %= len(raw)
    raw[where] ^= 1 << bit
    assert frame not in decode(bytes(raw)).frames or bytes(raw) == encode(frame)


def test_a_flood_that_never_completes_is_discarded():
    dec = Decoder(max_buffer=100)
    assert dec.feed(bytes([STX, 200]) + b"x" * 150) == []
    assert dec.buf == b"" and dec.garbage >= 150
    assert decode(bytes([STX]) + b"x" * 600).consumed == 601  # longer than any frame
    assert dec.feed(encode(Frame(1, 1, b"a"))) == [Frame(1, 1, b"a")]
