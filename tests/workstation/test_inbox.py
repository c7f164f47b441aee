"""The workstation's inbox (app/workstation/inbox.py): a queue that says when it fills."""

import threading

from app.workstation.inbox import Inbox
from app.workstation.pit import drain


def test_the_inbox_says_once_when_it_stops_being_empty():
    told = []
    box = Inbox()
    box.put("before anyone listens")
    box.notify = lambda: told.append(1)   # under the queue's lock: it may not touch the queue
    box.put("second")
    assert told == []                       # not empty before: nothing to say
    assert drain(box) == ["before anyone listens", "second"]
    for n in range(5):
        box.put(n)
    assert told == [1]                      # the first event into the empty inbox, once
    drain(box)
    box.put("again")
    assert told == [1, 1]


def test_events_from_many_threads_each_arrive_and_each_fill_is_told():
    told = []
    box = Inbox()
    box.notify = lambda: told.append(1)
    threads = [threading.Thread(target=lambda k=k: [box.put((k, n)) for n in range(200)]) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = drain(box)
    assert sorted(got) == sorted((k, n) for k in range(8) for n in range(200))
    assert len(told) == 1
