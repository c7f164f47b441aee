"""The workstation: the Qt-free application layer between the window and the rest.

``app.workstation.workstation.Workstation`` owns the audit log, the floor, the live pit, the
people and their sign-in session, approvals, alarms, slips and the device links. Every action a
person takes is one method that returns a ``Changes`` or raises a ``WorkstationError`` naming
the fault; the read side returns frozen dataclasses (``readouts``) the views render as they are.
docs/workstation.md is the guide; docs/workstation-config.md the configuration file.

This package imports nothing at import time, so ``app.simulate.opening`` stays cheap for the
command line.
"""
