"""The workstation's desks: its jobs, one module each (app/workstation/workstation.py holds them)."""
