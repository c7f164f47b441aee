"""The receiving end's reorder buffer: a sender's frames passed on once each, in the sender's order,
and every frame the sender gave up named as a gap (docs/devices.md, "The session": "In order, once
each"). Pure: SEQs in, what to pass on out; the session decides what to acknowledge from the verdict.

SEQs are compared by serial-number arithmetic modulo 256 (RFC 1982 style): ``(seq - expected) % 256``
under 128 is ahead of the next expected frame, 128 or more is behind it. A sender keeps its frames
within a window of 8 SEQs from its oldest unacknowledged frame, so a receiver holds at most 7
frames ahead of a missing one, and a frame 8 or more ahead proves that the missing one left the
sender's window unacknowledged, that is, it was given up.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

SEQ_SPACE = 256
HALF = SEQ_SPACE // 2
RECENT = 32   # SEQs lately passed on: a retransmission is at most a window (8) behind

# verdicts on an offered frame
NEW = "new"              # in the window and not seen before: acknowledge it
DUPLICATE = "duplicate"  # a copy of a frame already taken: acknowledge it again (our ack was lost)
LATE = "late"            # behind, never taken (given up, or from before the numbering started): do not
#                          acknowledge, so that the sender counts it given up, as the receiver did


@dataclass(frozen=True)
class Gap:
    """Frames ``first_seq`` .. ``first_seq + count - 1`` (mod 256) that will never be passed on."""
    first_seq: int
    count: int
    reason: str

    @property
    def last_seq(self) -> int:
        return (self.first_seq + self.count - 1) % SEQ_SPACE

    def describe(self) -> str:
        which = (f"frame {self.first_seq}" if self.count == 1
                 else f"{self.count} frames, {self.first_seq} to {self.last_seq}")
        return f"{which} never arrived: {self.reason}"


def ahead(seq: int, of: int) -> int:
    """How far ``seq`` is past ``of``, or a negative distance when it is behind."""
    d = (seq - of) % SEQ_SPACE
    return d if d < HALF else d - SEQ_SPACE


# what the buffer releases, in order: (seq, item) to pass on, or a Gap
Released = list["tuple[int, object] | Gap"]


class ReorderBuffer:
    def __init__(self, window: int = 8):
        self.window = window
        self.expected: int | None = None     # the next SEQ to pass on; None until numbering starts
        self.held: dict[int, object] = {}    # frames ahead of a missing one, by SEQ
        self.recent: deque[int] = deque(maxlen=RECENT)

    def start(self, seq: int) -> None:
        """Numbering starts (again) at ``seq``: the sender's hello. The caller settles what it held."""
        self.expected = seq
        self.held.clear()

    def offer(self, seq: int, item) -> tuple[str, Released]:
        """A sound frame from the sender: the verdict and what can be passed on now."""
        d = ahead(seq, self.expected)
        if d < 0:
            return (DUPLICATE if seq in self.recent else LATE), []
        if seq in self.held:
            return DUPLICATE, []
        out: Released = []
        if d >= self.window:
            # the sender sent ``seq`` only once everything 8 before it had left its window
            out += self._advance((seq - self.window + 1) % SEQ_SPACE,
                                 f"given up by the device (frame {seq} came {d} after it, past the window "
                                 f"of {self.window})")
        self.held[seq] = item
        return NEW, out + self._release()

    def sender_base(self, seq: int) -> Released:
        """The sender's link frame says its oldest unacknowledged frame is ``seq``: anything before
        it still missing here was given up."""
        if self.expected is None or ahead(seq, self.expected) <= 0:
            return []
        return self._advance(seq, "given up by the device (its window has moved on)")

    def settle(self, reason: str) -> Released:
        """Stop waiting (the link was lost or closed): pass on what is held, the holes below it are gaps."""
        if not self.held:
            return []
        last = max(self.held, key=lambda s: ahead(s, self.expected))
        return self._advance((last + 1) % SEQ_SPACE, reason)

    def _advance(self, to: int, reason: str) -> Released:
        out: Released = []
        first, count = None, 0
        while self.expected != to:
            seq = self.expected
            if seq in self.held:
                if count:
                    out.append(Gap(first, count, reason))
                    first, count = None, 0
                out.append((seq, self.held.pop(seq)))
                self.recent.append(seq)
            else:
                first = seq if count == 0 else first
                count += 1
            self.expected = (seq + 1) % SEQ_SPACE
        if count:
            out.append(Gap(first, count, reason))
        return out + self._release()

    def _release(self) -> Released:
        out: Released = []
        while self.expected in self.held:
            seq = self.expected
            out.append((seq, self.held.pop(seq)))
            self.recent.append(seq)
            self.expected = (seq + 1) % SEQ_SPACE
        return out
