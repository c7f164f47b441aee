"""The round panel of the table view: its widgets, its dialogs and its record models."""
