"""The Textual app: watch, take over, dashboard of many sessions, themes, screenshots."""
