"""``pitdesk devices watch URL``: the technician's view of one device link.

Opens any port URL pyserial knows (/dev/ttyUSB0, COM3, socket://host:port, rfc2217://host:port, a
pseudo-terminal's path) through the same link and session the workstation uses, prints every
decoded device message as one JSON line with its "type", link state changes as "link" lines and
link faults as "link_log" lines, gaps in the device's messages (frames it gave up, or lost with
the link) as "gap" lines, and ends with a "summary" line counting frames accepted and rejected.
Runs for --seconds, or until interrupted; exits 1, naming the fault, when the device never said
hello (the port never opened, or nothing answered on it).
"""

from __future__ import annotations

import json
import queue
import signal
import sys
import threading
import time

from .common import EXIT_BAD_INPUT


def add_parser(sub) -> None:
    dev = sub.add_parser("devices", help="device links: watch what a device says")
    dsub = dev.add_subparsers(dest="devices_command", metavar="ACTION", required=True)
    w = dsub.add_parser("watch", help="print every device event on a port as JSON lines",
                        description="Open URL (a serial port, socket://host:port, rfc2217://host:port or a "
                                    "pseudo-terminal path), say hello, acknowledge the device's frames and print "
                                    "one JSON line per event; the last line counts frames accepted and rejected.")
    w.add_argument("url", metavar="URL")
    w.add_argument("--seconds", type=float, metavar="N", help="stop after N seconds (default: until Ctrl-C)")


def _check_url(url: str) -> None:
    import serial
    try:
        serial.serial_for_url(url, do_not_open=True)
    except ValueError as e:  # pyserial: an unknown protocol or a malformed URL
        raise ValueError(f"URL {url!r}: {e}") from None


def watch(url: str, seconds: float | None, out=sys.stdout) -> dict:
    from app.devices.link import DeviceMessage, Link, LinkGap, LinkLog, LinkState
    events: queue.Queue = queue.Queue()
    stop = threading.Event()
    link = Link(url, events.put, install_serial="watch", firmware=_version()).start()
    end = None if seconds is None else time.monotonic() + seconds

    def write(obj: dict) -> None:
        out.write(json.dumps(obj, sort_keys=False) + "\n")
        out.flush()

    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set()) if _main_thread() else None
    try:
        while not stop.is_set() and (end is None or time.monotonic() < end):
            try:
                ev = events.get(timeout=0.05)
            except queue.Empty:
                continue
            when = ev.time.isoformat(timespec="milliseconds")
            if isinstance(ev, DeviceMessage):
                write({**ev.message, "serial": ev.serial, "time": when})
            elif isinstance(ev, LinkState):
                write({"type": "link", "state": ev.new, "was": ev.old, "reason": ev.reason, "device": ev.device,
                       "serial": ev.serial, "time": when})
            elif isinstance(ev, LinkGap):
                write({"type": "gap", "first_seq": ev.first_seq, "count": ev.count, "reason": ev.reason,
                       "text": ev.text, "device": ev.device, "serial": ev.serial, "time": when})
            elif isinstance(ev, LinkLog):
                write({"type": "link_log", "text": ev.text, "time": when})
    except KeyboardInterrupt:
        pass
    finally:
        state = link.session.state   # as it was while watched, before the link is closed
        link.stop()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    c = link.session.counters
    summary = {"type": "summary", "url": url, "state": state, "device": link.session.device,
               "serial": link.session.device_serial, "frames_accepted": c.frames_accepted,
               "frames_rejected": c.frames_rejected, "garbage_bytes": c.garbage_bytes,
               "bad_messages": c.bad_messages, "duplicates": c.duplicates, "held": c.held, "gaps": c.gaps,
               "late": c.late, "delivered": c.delivered, "retransmitted": c.retransmitted,
               "given_up": c.given_up, "connects": c.connects, "fault": _fault(url, link.session)}
    write(summary)
    return summary


def _fault(url: str, session) -> str | None:
    """Why the device was never heard, or None: the port never opened, or nothing said hello on it."""
    c = session.counters
    if c.connects:
        return None
    if not c.opens:
        return f"never connected to {url}: {session.last_failure or 'the port was not opened'}"
    return (f"no hello from the device on {url}: the port opened {c.opens} time{'s' if c.opens > 1 else ''} "
            f"and {c.hellos} hello{'s' if c.hellos > 1 else ''} went unanswered")


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("pitdesk")
    except PackageNotFoundError:
        return "dev"


def run(args) -> int:
    if args.devices_command == "watch":
        if args.seconds is not None and not args.seconds > 0:
            print(f"pitdesk: --seconds: a positive number of seconds, got {args.seconds:g}", file=sys.stderr)
            return EXIT_BAD_INPUT
        try:
            _check_url(args.url)
        except ValueError as e:
            print(f"pitdesk: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        summary = watch(args.url, args.seconds)
        if summary["fault"]:
            print(f"pitdesk: devices watch: {summary['fault']}", file=sys.stderr)
            return 1
        return 0
    raise AssertionError(args.devices_command)  # pragma: no cover - argparse requires an action
