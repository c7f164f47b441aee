"""The workstation's window: the views a pit supervisor works in, drawn with Qt (imported from
app.qt) from what the workstation reads back through the bridge (bridge.py); nothing here decides
a rule."""
