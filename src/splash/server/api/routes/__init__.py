"""One router module per resource: rooms, seats, replays, health, and the play socket."""
