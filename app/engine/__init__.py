"""Pure Pai Gow Poker engine: no Qt, no files, no sockets, no clock."""
