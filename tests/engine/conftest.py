"""The engine's tests (app/engine), with its rule data (app/rules) and analysis (app/analysis):
pure functions on cards, hands, rounds and events; no database, no device, no window.

No fixture is shared between these modules yet: each keeps its own (the house ways' ``ranker``
and ``hw`` differ per text). Helpers they share are in tests/support (procedure, houseway_cases,
rank_reference, random_rounds)."""
